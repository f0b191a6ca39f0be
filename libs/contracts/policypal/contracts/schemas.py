"""JSON Schema export of the public events, for systems that do not use our Python models.

Run ``python -m policypal.contracts.schemas DIR`` to write one ``<type>.v1.json`` per event.
"""

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from policypal.contracts.audit import AuditResult
from policypal.contracts.comparison import CompareResult
from policypal.contracts.envelope import SCHEMA_VERSION
from policypal.contracts.events import EVENT_TYPES
from policypal.contracts.summary import SummaryResult

#: Structured results carried inside events (``ResponseEvent.result``), exported beside the events.
RESULT_TYPES: dict[str, Any] = {
    "audit.result": AuditResult,
    "summary.result": SummaryResult,
    "compare.result": CompareResult,
}


def event_schemas() -> dict[str, dict[str, object]]:
    """File name -> JSON Schema of every event type and of every structured result."""
    models: dict[str, Any] = {**EVENT_TYPES, **RESULT_TYPES}
    # A TypeAdapter also exports a union of models (the compare modes), which has no class of its own.
    return {
        f"{name}.v{SCHEMA_VERSION}.json": TypeAdapter(model).json_schema(mode="serialization")
        for name, model in sorted(models.items())
    }


def write_schemas(directory: Path) -> list[Path]:
    """Write every schema into ``directory``; returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in event_schemas().items():
        path = directory / name
        path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "schemas")):
        print(written_path)

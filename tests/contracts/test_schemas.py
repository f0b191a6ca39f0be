"""The committed JSON Schemas are the ones the models produce (run `make schemas` after a change)."""

import json
from pathlib import Path

from policypal.contracts.schemas import event_schemas, write_schemas

COMMITTED = Path(__file__).resolve().parents[2] / "libs" / "contracts" / "schemas"


def test_committed_schemas_are_current() -> None:
    expected = event_schemas()
    assert sorted(p.name for p in COMMITTED.glob("*.json")) == sorted(expected)
    for name, schema in expected.items():
        assert json.loads((COMMITTED / name).read_text()) == schema, f"{name} is stale: run `make schemas`"


def test_write_schemas(tmp_path: Path) -> None:
    written = write_schemas(tmp_path)
    assert len(written) == len(event_schemas())
    response = json.loads((tmp_path / "response.v1.json").read_text())
    assert "citations" in response["properties"]

"""Reading a conversation's history with typed message metadata, against untyped dicts.

The resolver and the gateway parse the stored history on every chat request. This measures parsing
a 40-turn history (the stored sample turns of every kind, repeated) as ``StoredMessage`` with the
typed metadata union, and as the same record with ``metadata: dict[str, Any]`` (the earlier model,
the baseline), in the same run. Prints microseconds per history and the ratio.

    .venv/bin/python -m bench.history_parsing [--histories 2000]
"""

import argparse
import time
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from policypal.state import StoredMessage

SAMPLES = Path(__file__).parent.parent / "tests" / "state" / "samples" / "messages_before_kinds.jsonl"
TURNS = 40


class UntypedMessage(BaseModel):
    """The stored message as it was before its metadata had a contract (the baseline)."""

    message_id: str
    role: Literal["user", "assistant", "system"]
    content: str
    request_id: str
    created_at: datetime
    metadata: dict[str, Any] = Field(default_factory=dict)


def _per_history(model: type[BaseModel], history: list[str], histories: int) -> float:
    """Microseconds to parse one history, best of three rounds."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(histories):
            for raw in history:
                model.model_validate_json(raw)
        best = min(best, (time.perf_counter() - started) / histories * 1e6)
    return best


def main() -> None:
    """Parse ``--histories`` histories with each model; print the times and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--histories", type=int, default=2000)
    args = parser.parse_args()
    samples = SAMPLES.read_text().splitlines()
    # Records written now carry their kind: parse those, as a new conversation's history would hold.
    current = [StoredMessage.model_validate_json(raw).model_dump_json() for raw in samples]
    history = [current[i % len(current)] for i in range(TURNS)]
    baseline = _per_history(UntypedMessage, history, args.histories)
    typed = _per_history(StoredMessage, history, args.histories)
    print(
        f"history of {TURNS} turns: untyped {baseline:.1f} µs, typed {typed:.1f} µs, ratio {typed / baseline:.2f}x"
    )


if __name__ == "__main__":
    main()

"""The start-up deadline applies to remote dependencies, not to opening a local engine's directory."""

import asyncio

import pytest

from policypal.bus import startup
from policypal.bus.startup import StartupError, reach_or_open


class UnownedError(Exception):
    """Stands for a configuration error no retry mends."""


async def _slow_open() -> str:
    await asyncio.sleep(0.3)
    return "index"


async def test_a_local_engine_opens_however_long_it_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(startup, "seconds_left", lambda: 0.0)
    monkeypatch.setattr(startup, "LAST_ATTEMPT_SECONDS", 0.05)

    assert await reach_or_open("Qdrant", None, "/data/qdrant", _slow_open) == "index"


async def test_a_remote_one_is_held_to_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(startup, "seconds_left", lambda: 0.0)
    monkeypatch.setattr(startup, "LAST_ATTEMPT_SECONDS", 0.05)

    with pytest.raises(StartupError, match="could not reach Qdrant at http://qdrant:6333"):
        await reach_or_open("Qdrant", "http://qdrant:6333", "/data/qdrant", _slow_open)


async def test_a_fatal_error_of_a_local_engine_fails_at_once_with_a_sentence() -> None:
    async def unowned() -> str:
        raise UnownedError("the launcher owns this directory")

    with pytest.raises(StartupError, match="cannot use Qdrant at /data/qdrant: the launcher owns"):
        await reach_or_open("Qdrant", None, "/data/qdrant", unowned, fatal=(UnownedError,))

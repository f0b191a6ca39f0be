"""A real worker process touches its liveness file while it serves, and goes on touching it."""

import asyncio
from pathlib import Path

import pytest

from policypal.bus.liveness import BEAT_SECONDS
from tests.faults.stack import fault_stack

pytestmark = pytest.mark.integration


async def _appears(path: Path, within: float) -> bool:
    deadline = asyncio.get_running_loop().time() + within
    while asyncio.get_running_loop().time() < deadline:
        if await asyncio.to_thread(path.exists):
            return True
        await asyncio.sleep(0.1)
    return False


async def test_a_serving_worker_keeps_touching_its_liveness_file(tmp_path: Path) -> None:
    beat = tmp_path / "run" / "alive"
    async with fault_stack(tmp_path) as stack:
        worker = stack.start_worker("resolver", POLICYPAL_LIVENESS_FILE=str(beat))
        assert await _appears(beat, within=60), "the worker signals liveness once it serves"
        beat.unlink()
        assert await _appears(beat, within=BEAT_SECONDS + 2), "and again at the next beat"
        worker.stop()
        beat.unlink(missing_ok=True)
        await asyncio.sleep(BEAT_SECONDS + 1)
        assert not beat.exists(), "a stopped worker signals nothing"

"""A publish whose JetStream ack comes late is tried again, and lands once.

The late ack is real: the test's own nats-server is stopped (SIGSTOP) for longer than the client's
publish timeout, then let go on; the first attempt times out, the next one is acknowledged, and the
server's de-duplication keeps one copy of the event.
"""

import asyncio
import os
import signal
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import nats
import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext

from actions.lifecycle.patient_publish import publish_patiently
from actions.lifecycle.replies import TokenPublisher
from actions.progress_lines import ProgressLines
from policypal.bus import build_broker, declare_streams
from policypal.config import Settings
from policypal.contracts import ActionRequested
from policypal.devstack import ManagedProcess, start_nats_server
from tests.support.jetstream import payload, stream_messages

pytestmark = pytest.mark.integration

#: Longer than the JetStream client's publish timeout (5 s).
PAUSE_SECONDS = 6.0


@pytest.fixture(scope="module")
def own_nats(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ManagedProcess]:
    """A nats-server of this module's own: pausing the shared one would stall other tests."""
    root: Path = tmp_path_factory.mktemp("nats-paused")
    proc = start_nats_server(root / "store", log_path=root / "nats.log")
    yield proc
    proc.stop()


@pytest.fixture
async def bus(own_nats: ManagedProcess) -> AsyncIterator[tuple[NatsBroker, JetStreamContext]]:
    nc = await nats.connect(str(own_nats.url))
    js = nc.jetstream()
    await declare_streams(js)
    broker = build_broker(Settings(_env_file=None, nats_url=own_nats.url))
    await broker.start()
    yield broker, js
    await broker.stop()
    await nc.drain()


def _request() -> ActionRequested:
    return ActionRequested(
        tenant_id=f"t{uuid.uuid4().hex[:10]}",
        user_id="alice",
        request_id=f"req-{uuid.uuid4().hex[:8]}",
        thread_id="conv1",
        action="inquire",
        query="How long are records kept?",
        documents=[],
    )


async def _paused(server: ManagedProcess, seconds: float) -> None:
    """Stop the server's process for ``seconds``, then let it go on."""
    os.kill(server.popen.pid, signal.SIGSTOP)
    try:
        await asyncio.sleep(seconds)
    finally:
        os.kill(server.popen.pid, signal.SIGCONT)


async def test_a_status_line_whose_ack_is_late_is_published_once(
    own_nats: ManagedProcess, bus: tuple[NatsBroker, JetStreamContext]
) -> None:
    broker, js = bus
    request = _request()
    lines = ProgressLines(broker, request)
    pause = asyncio.create_task(_paused(own_nats, PAUSE_SECONDS))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    await lines("reading", "Reading your documents…")
    await lines.settled()  # before: raised "nats: timeout", and the request was redelivered
    assert time.monotonic() - started >= 5.0  # the first attempt did time out
    await pause
    messages = await stream_messages(js, "EVENTS", f"events.{request.tenant_id}.conv1.status")
    assert [payload(m)["stage"] for m in messages] == ["reading"]


async def test_tokens_are_held_back_while_publishing_is_slow_and_none_is_lost(
    own_nats: ManagedProcess, bus: tuple[NatsBroker, JetStreamContext]
) -> None:
    broker, js = bus
    request = _request()
    tokens = TokenPublisher(broker, request)
    await tokens("Records ")  # fast: sent alone
    pause = asyncio.create_task(_paused(own_nats, PAUSE_SECONDS))
    await asyncio.sleep(0.1)
    await tokens("are ")  # its ack is late: publishing is slow from now on
    await pause
    for piece in ("kept ", "for ", "seven ", "years."):
        await tokens(piece)
    await tokens.flush()
    messages = await stream_messages(js, "EVENTS", f"events.{request.tenant_id}.conv1.token")
    bodies = [payload(m) for m in messages]
    assert [b["index"] for b in bodies] == list(range(len(bodies)))
    assert "".join(b["text"] for b in bodies) == "Records are kept for seven years."
    assert [b["text"] for b in bodies[:2]] == ["Records ", "are "]
    # The four pieces after the slow publish went out as fewer events.
    assert len(bodies) < 6


async def test_patience_has_a_deadline_and_other_errors_are_not_retried() -> None:
    calls = 0

    async def always_late() -> None:
        nonlocal calls
        calls += 1
        raise TimeoutError("nats: timeout")

    started = time.monotonic()
    with pytest.raises(TimeoutError):
        await publish_patiently(always_late, within=0.5)
    assert 2 <= calls <= 6
    assert time.monotonic() - started < 1.0

    async def refused() -> None:
        nonlocal calls
        calls += 1
        raise PermissionError("not allowed")

    calls = 0
    with pytest.raises(PermissionError):
        await publish_patiently(refused)
    assert calls == 1

"""Reading JetStream streams in tests without creating consumers (work-queue streams allow only one)."""

import asyncio
import contextlib
import json
from typing import Any, TypeVar

from nats.js import JetStreamContext
from nats.js.api import RawStreamMsg
from nats.js.errors import NotFoundError
from pydantic import ValidationError

from policypal.bus import declare_streams
from policypal.contracts import parse_event
from policypal.contracts.envelope import Envelope

EventT = TypeVar("EventT", bound=Envelope)


async def reset_bus(js: JetStreamContext, *, durables: dict[str, str], purge: dict[str, str]) -> None:
    """Declare every stream, delete the given durable consumers (stream -> durable) and purge subjects.

    The nats-server is shared by the session: a durable left by an earlier test keeps its old config,
    and old requests would be replayed to a new durable.
    """
    await declare_streams(js)
    for stream, durable in durables.items():
        with contextlib.suppress(NotFoundError):
            await js.delete_consumer(stream, durable)
    for stream, subject in purge.items():
        await js.purge_stream(stream, subject=subject)


async def stream_messages(js: JetStreamContext, stream: str, subject: str) -> list[RawStreamMsg]:
    """Every message of ``stream`` on ``subject`` (wildcards allowed), oldest first."""
    found: list[RawStreamMsg] = []
    seq = 1
    while True:
        try:
            msg = await js.get_msg(stream, seq=seq, subject=subject, next=True)
        except NotFoundError:
            return found
        found.append(msg)
        seq = (msg.seq or seq) + 1


async def wait_for_messages(
    js: JetStreamContext, stream: str, subject: str, count: int = 1, *, within: float = 20.0
) -> list[RawStreamMsg]:
    """The messages on ``subject`` once there are at least ``count``; fails after ``within`` seconds."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        found = await stream_messages(js, stream, subject)
        if len(found) >= count:
            return found
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"{len(found)} of {count} messages on {subject} after {within} s")
        await asyncio.sleep(0.05)


async def retained_events(
    js: JetStreamContext,
    stream: str,
    subject: str,
    event_type: type[EventT],
    **fields: str,
) -> list[EventT]:
    """The events of ``event_type`` on ``subject`` of ``stream`` with the given ``fields``, oldest first.

    Messages that are not valid events are passed over: some tests publish invalid ones on purpose.
    """
    found: list[EventT] = []
    for msg in await stream_messages(js, stream, subject):
        assert msg.data is not None
        try:
            event = parse_event(msg.data)
        except ValidationError:
            continue
        if isinstance(event, event_type) and all(getattr(event, k) == v for k, v in fields.items()):
            found.append(event)
    return found


def payload(msg: RawStreamMsg) -> dict[str, Any]:
    """The JSON body of a stream message."""
    assert msg.data is not None
    body: dict[str, Any] = json.loads(msg.data)
    return body


async def wait_until_consumed(
    js: JetStreamContext, stream: str, durable: str, *, within: float = 20.0
) -> None:
    """Wait until the durable consumer has delivered and settled every message of its stream."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        info = await js.consumer_info(stream, durable)
        if info.num_pending == 0 and info.num_ack_pending == 0:
            return
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"{durable} still has work after {within} s: {info}")
        await asyncio.sleep(0.05)

"""A PolicyPal stack of real OS processes whose parts a fault test can kill and restart.

nats-server (file store) and Valkey (AOF) keep their port and data directory across restarts, as a
pod with a persistent volume does. Workers run as ``python -m <module>``, configured only through the
environment, exactly as deploy/ runs them.
"""

import asyncio
import contextlib
import sys
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nats
from nats.aio.client import Client as NatsClient
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.bus import declare_streams
from policypal.contracts import ActionRequested, ResolvedDocument
from policypal.devstack import ManagedProcess, free_port, start_nats_server, start_valkey
from policypal.state import ConversationRecord, ConversationStore, StoredMessage
from policypal.vectorstore import ChunkPoint, open_embedded_index
from tests.support.jetstream import payload, stream_messages
from tests.support.offline_embedder import offline_embedder

USER = "alice"
THREAD = "conv1"
TERMINAL_KINDS = ("response", "error", "interrupt")
POLICY = [
    "Customer records must be retained for at least seven years after the account is closed.",
    "Records are stored in the central archive in encrypted form and reviewed every year.",
    "Paper copies are shredded once they have been scanned and verified by two officers.",
]
DOCUMENT = ResolvedDocument(document_id="ret", title="Retention Policy", version="3", doc_type="policy")


@dataclass
class FaultStack:
    """Infrastructure and workers under ``root``; every part can be stopped, killed and restarted."""

    root: Path
    nats_port: int = field(default_factory=free_port)
    valkey_port: int = field(default_factory=free_port)
    nats: ManagedProcess | None = None
    valkey: ManagedProcess | None = None
    workers: list[ManagedProcess] = field(default_factory=list)

    @property
    def nats_url(self) -> str:
        """Where nats-server listens (the same across restarts)."""
        return f"nats://127.0.0.1:{self.nats_port}"

    @property
    def redis_url(self) -> str:
        """Where Valkey listens (the same across restarts)."""
        return f"redis://127.0.0.1:{self.valkey_port}/0"

    def start_nats(self) -> None:
        """Start nats-server on its port and store (again, after a stop)."""
        self.nats = start_nats_server(
            self.root / "nats", port=self.nats_port, log_path=self.root / "logs" / "nats.log"
        )

    def start_valkey(self) -> None:
        """Start Valkey on its port and data directory (again, after a stop): it replays its AOF."""
        self.valkey = start_valkey(
            self.root / "valkey", port=self.valkey_port, log_path=self.root / "logs" / "valkey.log"
        )

    def worker_env(self, **extra: str) -> dict[str, str]:
        """The environment of a worker process of this stack."""
        env = {
            "NATS_URL": self.nats_url,
            "REDIS_URL": self.redis_url,
            "POLICYPAL_DATA_DIR": str(self.root / "data"),
            "POLICYPAL_QDRANT_PATH": str(self.root / "qdrant"),
            "POLICYPAL_ENVIRONMENT": "test",
            # Short enough that a killed worker's message comes back within the test, long enough
            # for one inquire request on two busy cores.
            "POLICYPAL_ACK_WAIT_SECONDS": "6",
            "POLICYPAL_MAX_DELIVER": "5",
        } | extra
        # The stack plays the embedded launcher: each worker it starts owns its local index.
        return env | {"POLICYPAL_QDRANT_LOCAL_OWNER": env["POLICYPAL_QDRANT_PATH"]}

    def start_worker(self, module: str, **env: str) -> ManagedProcess:
        """Start ``python -m module`` against this stack; it is ready once its consumer pulls."""
        name = f"{module}-{len(self.workers)}"
        proc = ManagedProcess.start(
            name,
            [sys.executable, "-m", module],
            env=self.worker_env(**env),
            log_path=self.root / "logs" / f"{name}.log",
        )
        self.workers.append(proc)
        return proc

    def stop(self) -> None:
        """Stop every worker, then Valkey and nats-server."""
        for proc in [*self.workers, self.valkey, self.nats]:
            if proc is not None:
                proc.stop(timeout=15.0)


@contextlib.asynccontextmanager
async def fault_stack(root: Path) -> AsyncIterator[FaultStack]:
    """A started nats-server and Valkey with their own stores; everything stopped afterwards."""
    stack = FaultStack(root)
    try:
        stack.start_nats()
        stack.start_valkey()
        yield stack
    finally:
        stack.stop()


@contextlib.asynccontextmanager
async def jetstream(url: str) -> AsyncIterator[JetStreamContext]:
    """A JetStream context on ``url`` that keeps reconnecting (the server may be restarted)."""
    nc: NatsClient = await nats.connect(url, max_reconnect_attempts=-1, reconnect_time_wait=0.2)
    try:
        js = nc.jetstream()
        await declare_streams(js)
        yield js
    finally:
        await nc.close()


async def index_policy(qdrant_path: Path, tenant: str) -> None:
    """Index the small retention policy for ``tenant`` in the embedded index, then release the directory."""
    embedder = offline_embedder()
    index = await open_embedded_index(qdrant_path, model_id=embedder.model_id, dimension=embedder.dimension)
    chunks = [
        ChunkPoint(
            tenant_id=tenant,
            user_id=USER,
            document_id=DOCUMENT.document_id,
            title=DOCUMENT.title,
            version=DOCUMENT.version,
            doc_type=DOCUMENT.doc_type,
            page=number,
            chunk_index=number - 1,
            text=text,
        )
        for number, text in enumerate(POLICY, start=1)
    ]
    await index.upsert(chunks, embedder.embed([c.text for c in chunks]).tolist())
    await index.aclose()


async def new_conversation(redis: Redis, tenant: str) -> None:
    """The conversation the test's requests belong to."""
    await ConversationStore(redis).create(
        ConversationRecord(conversation_id=THREAD, tenant_id=tenant, user_id=USER)
    )


@contextlib.asynccontextmanager
async def policy_conversation(
    root: Path, tenant: str
) -> AsyncIterator[tuple[FaultStack, JetStreamContext, Redis]]:
    """A fault stack with the policy indexed for ``tenant`` and the test conversation created.

    Yields the stack, a reconnecting JetStream context and a Redis client (closed at the end).
    """
    async with fault_stack(root) as stack, jetstream(stack.nats_url) as js:
        await index_policy(root / "qdrant", tenant)
        redis = Redis.from_url(stack.redis_url, decode_responses=True)
        try:
            await new_conversation(redis, tenant)
            yield stack, js, redis
        finally:
            await redis.aclose()


async def conversation_outcome(
    js: JetStreamContext, redis: Redis, tenant: str
) -> tuple[list[dict[str, Any]], list[StoredMessage]]:
    """The terminal events and the stored history of the test conversation."""
    return await terminal_events(js, tenant), await ConversationStore(redis).messages(tenant, THREAD)


def inquiries(tenant: str, count: int) -> list[ActionRequested]:
    """``count`` distinct @Inquire requests about the policy on the test conversation."""
    return [
        ActionRequested(
            tenant_id=tenant,
            user_id=USER,
            request_id=f"req-{number:03d}-{uuid.uuid4().hex[:6]}",
            thread_id=THREAD,
            action="inquire",
            query="How long must customer records be kept?",
            documents=[DOCUMENT],
        )
        for number in range(count)
    ]


async def publish_request(js: JetStreamContext, event: ActionRequested, *, within: float = 30.0) -> None:
    """Publish ``event`` as the resolver does, retrying through an outage with the same Nats-Msg-Id.

    JetStream drops the copy of a publish whose ack was lost, so a retry never doubles a request.
    """
    deadline = asyncio.get_running_loop().time() + within
    while True:
        try:
            await js.publish(
                f"actions.{event.action}.requested",
                event.model_dump_json().encode(),
                stream="ACTIONS",
                headers={"Nats-Msg-Id": event.event_id},
                timeout=2.0,
            )
            return
        except Exception:
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.2)


async def terminal_events(js: JetStreamContext, tenant: str) -> list[dict[str, Any]]:
    """Every terminal event (response, error, interrupt) published on the test conversation."""
    found: list[dict[str, Any]] = []
    for kind in TERMINAL_KINDS:
        found.extend(
            payload(m) for m in await stream_messages(js, "EVENTS", f"events.{tenant}.{THREAD}.{kind}")
        )
    return found


async def terminal_count(js: JetStreamContext, tenant: str) -> int:
    """How many terminal events the test conversation has (cheap: the stream's per-subject counts)."""
    info = await js.stream_info("EVENTS", subjects_filter=f"events.{tenant}.{THREAD}.*")
    subjects = info.state.subjects or {}
    return sum(n for subject, n in subjects.items() if subject.rsplit(".", 1)[-1] in TERMINAL_KINDS)


async def wait_for_terminals(js: JetStreamContext, tenant: str, count: int, *, within: float) -> int:
    """Wait until the conversation has ``count`` terminal events, reading through a restarting server."""
    deadline = asyncio.get_running_loop().time() + within
    seen = 0
    while asyncio.get_running_loop().time() < deadline:
        with contextlib.suppress(Exception):
            seen = await terminal_count(js, tenant)
            if seen >= count:
                return seen
        await asyncio.sleep(0.05)
    raise AssertionError(f"{seen} of {count} terminal events after {within} s")


async def wait_for_in_flight(js: JetStreamContext, durable: str, *, within: float = 10.0) -> None:
    """Return as soon as a worker of ``durable`` holds a delivered, unacknowledged request."""
    deadline = asyncio.get_running_loop().time() + within
    while asyncio.get_running_loop().time() < deadline:
        info = await js.consumer_info("ACTIONS", durable)
        if (info.num_ack_pending or 0) > 0:
            return
    raise AssertionError(f"no request of {durable} in flight within {within} s")


def assert_exactly_once(
    requests: list[ActionRequested], terminals: list[dict[str, Any]], history: list[StoredMessage]
) -> None:
    """Each request has exactly one terminal event and one assistant turn; nothing else is there."""
    asked = {r.request_id for r in requests}
    ended = Counter(t["request_id"] for t in terminals)
    assert set(ended) == asked, (
        f"missing {sorted(asked - set(ended))}, unexpected {sorted(set(ended) - asked)}"
    )
    assert [rid for rid, n in ended.items() if n > 1] == []
    turns = Counter(m.request_id for m in history)
    assert set(turns) == asked
    assert [rid for rid, n in turns.items() if n > 1] == []
    assert len({m.message_id for m in history}) == len(history)


async def publish_all(js: JetStreamContext, requests: list[ActionRequested], *, pause: float = 0.0) -> None:
    """Publish ``requests`` one after another (``pause`` apart), each retried through outages."""
    for event in requests:
        await publish_request(js, event)
        await asyncio.sleep(pause)

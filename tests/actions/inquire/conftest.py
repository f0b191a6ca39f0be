"""The @Inquire worker on a real nats-server, Valkey, local Qdrant and the real MiniLM embedder."""

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import nats
import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from redis.asyncio import Redis

from actions.inquire.service import DURABLE, SUBJECT, build_router
from actions.web_search import WebSearch
from policypal.bus import build_broker
from policypal.config import Settings
from policypal.devstack import ManagedProcess
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from policypal.state import ConversationRecord, ConversationStore
from policypal.vectorstore import ChunkIndex
from tests.actions.inquire.retention_corpus import USER
from tests.actions.worker_harness import local_index
from tests.support.jetstream import reset_bus

WorkerFactory = Callable[..., Awaitable[NatsBroker]]


@pytest.fixture
async def index(tmp_path: Path, embedder: MiniLMEmbedder) -> AsyncIterator[ChunkIndex]:
    async with local_index(tmp_path / "q", embedder) as chunk_index:
        yield chunk_index


@pytest.fixture
async def js(nats_server: ManagedProcess) -> AsyncIterator[JetStreamContext]:
    nc = await nats.connect(str(nats_server.url))
    yield nc.jetstream()
    await nc.drain()


@pytest.fixture
async def start_worker(
    nats_server: ManagedProcess, redis_client: Redis, js: JetStreamContext, embedder: MiniLMEmbedder
) -> AsyncIterator[WorkerFactory]:
    await reset_bus(js, durables={"ACTIONS": DURABLE}, purge={"ACTIONS": SUBJECT})
    started: list[NatsBroker] = []

    async def start(
        index: ChunkIndex,
        *,
        max_deliver: int = 3,
        llm: LLM | None = None,
        web_search: WebSearch | None = None,
    ) -> NatsBroker:
        settings = Settings(_env_file=None, nats_url=nats_server.url, max_deliver=max_deliver)
        broker = build_broker(settings)
        broker.include_router(
            build_router(
                settings, redis=redis_client, index=index, embedder=embedder, llm=llm, web_search=web_search
            )
        )
        await broker.start()
        started.append(broker)
        return broker

    yield start
    for broker in started:
        await broker.stop()


@pytest.fixture
def tenant() -> str:
    return f"t{uuid.uuid4().hex[:10]}"


@pytest.fixture
async def conversation(redis_client: Redis, tenant: str) -> ConversationRecord:
    record = ConversationRecord(conversation_id="conv1", tenant_id=tenant, user_id=USER)
    await ConversationStore(redis_client).create(record)
    return record

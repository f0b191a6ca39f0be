"""The @Compare worker on a real nats-server, Valkey, local Qdrant and the real MiniLM embedder."""

import uuid
from collections.abc import AsyncIterator

import nats
import pytest
from nats.js import JetStreamContext
from redis.asyncio import Redis

from actions.compare.service import DURABLE, SUBJECT, build_router
from policypal.devstack import ManagedProcess
from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex, open_qdrant
from tests.actions.policy_library import COMPANY_POLICY, REGULATION_2024, REGULATION_2025
from tests.actions.worker_harness import (
    IndexedDocument,
    WorkerHarness,
    assert_citations_verbatim,
    index_pdf,
    request,
)

pytestmark = pytest.mark.integration

TENANT = f"t{uuid.uuid4().hex[:10]}"
Library = tuple[ChunkIndex, list[IndexedDocument]]


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@pytest.fixture(scope="module")
async def library(
    tmp_path_factory: pytest.TempPathFactory, embedder: MiniLMEmbedder
) -> AsyncIterator[Library]:
    client = open_qdrant(None, path=tmp_path_factory.mktemp("compare") / "q")
    index = ChunkIndex(client, model_id=embedder.model_id, dimension=embedder.dimension)
    await index.ensure_collection()
    documents = [
        await index_pdf(
            index, embedder, tenant=TENANT, document_id=doc_id, title=title, version=version, pages=pages
        )
        for doc_id, title, version, pages in (
            ("reg24", "Records Regulation", "2024", REGULATION_2024),
            ("reg25", "Records Regulation", "2025", REGULATION_2025),
            ("policy", "Northwind Data Policy", "1", COMPANY_POLICY),
        )
    ]
    yield index, documents
    await client.close()


@pytest.fixture
async def harness(nats_server: ManagedProcess, redis_client: Redis) -> AsyncIterator[WorkerHarness]:
    nc = await nats.connect(str(nats_server.url))
    js: JetStreamContext = nc.jetstream()
    worker = WorkerHarness(js, redis_client, str(nats_server.url), DURABLE, SUBJECT, build_router)
    await worker.new_conversation(TENANT)
    yield worker
    await worker.stop()
    await nc.drain()


async def test_holistic_comparison_finds_the_planted_change_and_the_new_page(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, (reg24, reg25, _) = library
    broker = await harness.start(index, embedder)
    event = request(TENANT, "compare", "Compare these two versions", [reg24, reg25])

    await harness.ask(broker, event, copies=2)
    body = await harness.terminal(TENANT)

    assert (body["request_id"], body["model"], body["result"]["mode"]) == (
        event.request_id,
        "offline-extractive",
        "holistic",
    )
    answer = body["answer"]
    sections = [
        "## Overview",
        "## Key differences",
        "## Key similarities",
        "## Unique aspects",
        "## Implications",
    ]
    assert [answer.index(s) for s in sections] == sorted(answer.index(s) for s in sections)
    assert 3 <= len(body["result"]["themes"]) <= 5
    assert "without a language model" in answer
    assert_citations_verbatim(body, [reg24, reg25])
    # The planted change: seven years became ten years, shown as changed words of cited passages.
    [change] = [
        d for d in body["result"]["differences"] if {"before": "seven", "after": "ten"} in d["changes"]
    ]
    assert change["documents"] == ["reg24", "reg25"]
    cited = {c["marker"]: c for c in body["citations"]}
    assert "seven years" in cited[change["markers"][0]]["quote"]
    assert "ten years" in cited[change["markers"][1]]["quote"]
    # The page only the 2025 version has is unique to it.
    unique = answer[answer.index("## Unique aspects") : answer.index("## Implications")]
    assert "Only “Records Regulation” (2025)" in unique
    assert "machine learning" in unique or "automated" in unique.lower()
    assert await harness.statuses(TENANT) == ["sampling", "comparing"]


async def test_focused_comparison_is_a_difference_table_on_the_topic(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, (reg24, reg25, policy) = library
    broker = await harness.start(index, embedder)
    await harness.ask(
        broker,
        request(TENANT, "compare", "How long must customer records be retained?", [reg24, reg25, policy]),
    )
    body = await harness.terminal(TENANT)

    assert body["result"]["mode"] == "focused"
    answer = body["answer"]
    assert "| Document | What it says on this topic |" in answer
    table = [line for line in answer.splitlines() if line.startswith("| “")]
    assert [row.split("|")[1].strip() for row in table] == [
        "“Records Regulation” (2024)",
        "“Records Regulation” (2025)",
        "“Northwind Data Policy” (1)",
    ]
    assert "seven years" in table[0]
    assert "ten years" in table[1]
    assert "two years" in table[2]
    assert_citations_verbatim(body, [reg24, reg25, policy])
    changes = [c for d in body["result"]["differences"] for c in d["changes"]]
    assert {"before": "seven", "after": "ten"} in changes
    assert await harness.statuses(TENANT) == ["retrieving", "comparing"]


async def test_one_document_is_refused_with_a_reason(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, (reg24, _, _) = library
    broker = await harness.start(index, embedder)
    await harness.ask(broker, request(TENANT, "compare", "compare", [reg24]))
    body = await harness.terminal(TENANT, "error")
    assert (body["code"], body["retryable"]) == ("compare_needs_2_to_5_documents", False)

"""The @Summarize worker on a real nats-server, Valkey, local Qdrant and the real MiniLM embedder."""

import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from actions.drafting import llm_fallback_notice
from actions.stratified_sampling import sample_document
from actions.summarize.service import DURABLE, SUBJECT, build_router
from policypal.devstack import ManagedProcess
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM, SYSTEM_PREFIX, price_of
from policypal.state import ConversationStore
from policypal.vectorstore import ChunkIndex, ChunkPoint
from tests.actions.conftest import LLAMA_MODEL_ALIAS, LLAMA_SECONDS
from tests.actions.policy_library import REGULATION_2024
from tests.actions.worker_harness import (
    USER,
    IndexedDocument,
    WorkerHarness,
    assert_citations_verbatim,
    assert_llm_citations,
    index_pdf,
    local_index,
    prompt_passages,
    request,
    worker_harness,
)
from tests.pdf_factory import page_sentences
from tests.support.jetstream import payload, wait_for_messages
from tests.support.openai_server import Reply, ScriptedOpenAI

pytestmark = pytest.mark.integration

PAGES = 30
TENANT = f"t{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="module")
async def library(
    tmp_path_factory: pytest.TempPathFactory, embedder: MiniLMEmbedder
) -> AsyncIterator[tuple[ChunkIndex, IndexedDocument, IndexedDocument]]:
    async with local_index(tmp_path_factory.mktemp("summarize") / "q", embedder) as index:
        handbook = await index_pdf(
            index,
            embedder,
            tenant=TENANT,
            document_id="handbook",
            title="Operations Handbook",
            version="2024",
            pages=[" ".join(page_sentences(page, 12)) for page in range(1, PAGES + 1)],
            doc_type="policy",
        )
        regulation = await index_pdf(
            index,
            embedder,
            tenant=TENANT,
            document_id="reg24",
            title="Records Regulation",
            version="2024",
            pages=REGULATION_2024,
        )
        # Another tenant's document (own id: point ids derive from the chunk id alone), never read.
        await index_pdf(
            index,
            embedder,
            tenant=f"{TENANT}x",
            document_id="handbook2",
            title="Leak",
            version="1",
            pages=["Secret text. " * 20],
        )
        yield index, handbook, regulation


@pytest.fixture
async def harness(nats_server: ManagedProcess, redis_client: Redis) -> AsyncIterator[WorkerHarness]:
    async with worker_harness(
        str(nats_server.url),
        redis_client,
        TENANT,
        durable=DURABLE,
        subject=SUBJECT,
        build_router=build_router,
    ) as worker:
        yield worker


async def test_sample_spans_the_whole_document_and_only_this_tenant(
    library: tuple[ChunkIndex, IndexedDocument, IndexedDocument],
) -> None:
    index, handbook, _ = library
    assert len(handbook.chunks) == 2 * PAGES  # two chunks per page

    sample = await sample_document(index, tenant_id=TENANT, user_id=USER, document_id="handbook")
    foreign = await index.document_chunks(tenant_id=TENANT, user_id=USER, document_id="handbook2")

    assert (sample.total_chunks, len(sample.chunks)) == (2 * PAGES, 11)  # 18 % of 60
    assert len({chunk.chunk_index for chunk in sample.chunks}) == 11
    pages = [chunk.page or 0 for chunk in sample.chunks]
    assert pages == sorted(pages)
    third = PAGES // 3
    assert any(p <= third for p in pages)
    assert any(third < p <= 2 * third for p in pages)
    assert any(p > 2 * third for p in pages)
    assert all(chunk.tenant_id == TENANT for chunk in sample.chunks)
    assert foreign == []


async def test_summary_is_extractive_cited_and_answered_once(
    harness: WorkerHarness,
    library: tuple[ChunkIndex, IndexedDocument, IndexedDocument],
    embedder: MiniLMEmbedder,
    redis_client: Redis,
) -> None:
    index, handbook, _ = library
    broker = await harness.start(index, embedder)
    event = request(TENANT, "summarize", "", [handbook])

    await harness.ask(broker, event, copies=2)
    body = await harness.terminal(TENANT)

    assert (body["request_id"], body["action"], body["model"]) == (
        event.request_id,
        "summarize",
        "offline-extractive",
    )
    assert "without a language model" in body["answer"]
    assert_citations_verbatim(body, [handbook])
    [coverage] = body["result"]["documents"]
    assert coverage["chunks_sampled"] == 11
    assert min(coverage["sampled_pages"]) <= PAGES // 3 < 2 * PAGES // 3 < max(coverage["sampled_pages"])
    # Summary sentences come from the sample, in reading order.
    cited_pages = [c["page"] for c in body["citations"]]
    assert set(cited_pages) <= set(coverage["sampled_pages"])
    assert cited_pages == sorted(cited_pages)
    assert await harness.statuses(TENANT) == ["sampling", "summarizing"]
    [turn] = await ConversationStore(redis_client).messages(TENANT, "conv1")
    assert (turn.message_id, turn.content) == (body["message_id"], body["answer"])


async def test_several_documents_get_a_section_each(
    harness: WorkerHarness,
    library: tuple[ChunkIndex, IndexedDocument, IndexedDocument],
    embedder: MiniLMEmbedder,
) -> None:
    index, handbook, regulation = library
    broker = await harness.start(index, embedder)
    await harness.ask(broker, request(TENANT, "summarize", "summarise these", [handbook, regulation]))
    body = await harness.terminal(TENANT)

    answer = body["answer"]
    assert answer.index("### “Operations Handbook” (version 2024)") < answer.index(
        "### “Records Regulation” (version 2024)"
    )
    assert_citations_verbatim(body, [handbook, regulation])
    assert {c["document_id"] for c in body["citations"]} == {"handbook", "reg24"}
    # The small regulation is read whole (fewer chunks than the minimum sample).
    assert body["result"]["documents"][1]["chunks_sampled"] == len(regulation.chunks)


async def test_no_document_is_refused_with_a_reason(
    harness: WorkerHarness,
    library: tuple[ChunkIndex, IndexedDocument, IndexedDocument],
    embedder: MiniLMEmbedder,
) -> None:
    broker = await harness.start(library[0], embedder)
    await harness.ask(broker, request(TENANT, "summarize", "summarise", []))
    body = await harness.terminal(TENANT, "error")
    assert (body["code"], body["retryable"]) == ("no_documents", False)


class UnreachableIndex(ChunkIndex):
    """Qdrant is down."""

    async def document_chunks(self, *, tenant_id: str, user_id: str, document_id: str) -> list[ChunkPoint]:
        raise ConnectionError("qdrant unreachable")


async def test_last_failed_delivery_tells_the_user_before_dead_lettering(
    harness: WorkerHarness,
    library: tuple[ChunkIndex, IndexedDocument, IndexedDocument],
    embedder: MiniLMEmbedder,
    redis_client: Redis,
) -> None:
    broken = UnreachableIndex(library[0]._client, model_id=embedder.model_id, dimension=embedder.dimension)
    broker = await harness.start(broken, embedder, max_deliver=1)
    event = request(TENANT, "summarize", "", [library[1]])
    await harness.ask(broker, event)

    body = await harness.terminal(TENANT, "error")
    assert (body["code"], body["retryable"]) == ("action_failed", True)
    letters = await wait_for_messages(harness.js, "DLQ", f"dlq.{SUBJECT}")
    assert event.request_id in {payload(m)["request_id"] for m in letters}
    [turn] = await ConversationStore(redis_client).messages(TENANT, "conv1")
    assert turn.metadata == {"error_code": "action_failed"}


DRAFT = (
    "### “Operations Handbook” (2024)\n- The handbook sets the operating rules of the company [1].\n\n"
    "### “Records Regulation” (2024)\n- The Records Regulation sets retention rules [12]. "
    "Backups are kept offshore [99]."
)


async def test_llm_summary_is_streamed_per_document_and_cited_after_a_rate_limit(
    harness: WorkerHarness,
    library: tuple[ChunkIndex, IndexedDocument, IndexedDocument],
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, handbook, regulation = library
    openai_server.enqueue(
        Reply.failure(429, retry_after=0), Reply(content=DRAFT, prompt_tokens=5000, completion_tokens=80)
    )
    broker = await harness.start(index, embedder, llm=llm)
    await harness.ask(broker, request(TENANT, "summarize", "summarise these", [handbook, regulation]))
    body = await harness.terminal(TENANT)

    tokens = await harness.tokens(TENANT)
    assert [t["index"] for t in tokens] == list(range(len(tokens)))
    assert "".join(t["text"] for t in tokens) == DRAFT
    # The unmapped marker is removed; the others are cited from the passage they number.
    assert "[99]" not in body["answer"]
    assert "[12]" in body["answer"]
    # The 429 was retried: the same request twice.
    rate_limited, drafted = openai_server.requests
    assert rate_limited.body == drafted.body
    assert drafted.body["model"] == body["model"] == "gpt-4o-mini"
    assert drafted.body["temperature"] == pytest.approx(0.1)
    assert drafted.messages[0]["content"].startswith(SYSTEM_PREFIX)
    assert_llm_citations(body, drafted, [handbook, regulation])
    assert [c["document_id"] for c in body["citations"]] == ["handbook", "reg24"]
    # Both samples, in full, numbered across the documents in order: 11 of the handbook, then the regulation.
    passages = prompt_passages(drafted)
    assert sorted(passages) == list(range(1, 12 + len(regulation.chunks)))
    user = drafted.messages[-1]["content"]
    assert user.index("## Document: “Operations Handbook” (2024)") < user.index(
        "## Document: “Records Regulation”"
    )
    assert "Secret text" not in user
    price = price_of("gpt-4o-mini")
    assert price is not None
    assert body["usage"]["cost_usd"] == pytest.approx(
        (5000 * price.prompt_per_million + 80 * price.completion_per_million) / 1e6
    )
    assert body["result"]["documents"][0]["chunks_sampled"] == 11


async def test_llm_failure_falls_back_to_the_offline_summary_with_a_notice(
    harness: WorkerHarness,
    library: tuple[ChunkIndex, IndexedDocument, IndexedDocument],
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, handbook, _ = library
    openai_server.enqueue(Reply.failure(500), Reply.failure(500))
    broker = await harness.start(index, embedder, llm=llm)
    await harness.ask(broker, request(TENANT, "summarize", "", [handbook]))
    body = await harness.terminal(TENANT)

    assert body["model"] == "offline-extractive"
    assert llm_fallback_notice("summary") in body["notices"]
    assert_citations_verbatim(body, [handbook])
    assert len(openai_server.requests) == 2


@pytest.mark.slow
async def test_llm_summary_streams_from_a_real_llama_cpp_server(
    harness: WorkerHarness,
    library: tuple[ChunkIndex, IndexedDocument, IndexedDocument],
    embedder: MiniLMEmbedder,
    llama_llm: LLM,
) -> None:
    # The real SDK path end to end: HTTP, SSE parsing, usage chunk. A 135M model's summary is poor,
    # so the plumbing is asserted, not the text.
    index, _, regulation = library
    broker = await harness.start(index, embedder, llm=llama_llm)
    await harness.ask(broker, request(TENANT, "summarize", "summarise this", [regulation]))
    body = await harness.terminal(TENANT, within=LLAMA_SECONDS)

    assert body["model"] == LLAMA_MODEL_ALIAS, body["notices"]
    assert llm_fallback_notice("summary") not in body["notices"]
    tokens = await harness.tokens(TENANT)
    assert len(tokens) > 1
    assert [t["index"] for t in tokens] == list(range(len(tokens)))
    assert "".join(t["text"] for t in tokens).strip()
    assert body["answer"].strip()
    # llama-cpp-python 0.3.36 ignores stream_options.include_usage, so a streamed reply carries no usage:
    # its tokens are estimated and marked so. A model missing from the price table costs 0 USD.
    assert body["usage"]["estimated"] is True
    assert body["usage"]["completion_tokens"] > 0
    assert body["usage"]["cost_usd"] == 0.0

"""The @Summarize worker on a real nats-server, Valkey, local Qdrant and the real MiniLM embedder."""

import re
import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from actions.drafting import llm_fallback_notice
from actions.stratified_sampling import sample_document
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM, SYSTEM_PREFIX, price_of
from policypal.state import ConversationStore
from policypal.vectorstore import ChunkIndex
from tests.actions.action_service_suite import ActionServiceSuite, Ask, Refused, action_harness
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
)
from tests.pdf_factory import page_sentences
from tests.support.openai_server import RecordedRequest, Reply, ScriptedOpenAI

pytestmark = pytest.mark.integration
Library = tuple[ChunkIndex, IndexedDocument, IndexedDocument, IndexedDocument]

PAGES = 30
TENANT = f"t{uuid.uuid4().hex[:10]}"
ASIDE = "(This will be revisited when the regulator changes the rule.)"
#: A records manual in four numbered chapters, after a title page and a contents page.
MANUAL = [
    "Records Manual\nNorthwind Bank, 2024 edition",
    "Contents\n1 Purpose and scope . . . . . 3\n2 Keeping records . . . . . 4\n3 Incidents . . . . . 5\n"
    "4 Training . . . . . 6",
    "1 Purpose and scope\nThis manual sets out how Northwind Bank keeps and protects customer records. "
    "It applies to every branch and to every employee who handles customer information.\n"
    "1.1 Definitions\nA customer record means any document that identifies a customer or an account.",
    "2 Keeping records\n2.1 Retention\nCustomer records must be retained for at least seven years after "
    f"the account is closed. {ASIDE}\n2.2 Storage\nRecords must be stored in the document management "
    "system and protected against loss and unauthorised destruction.",
    "3 Incidents\n3.1 Reporting\nSecurity incidents must be reported to the compliance officer within "
    "24 hours of discovery. The compliance officer reports each incident to the regulator within 72 hours.",
    "4 Training\n4.1 Annual training\nEvery employee who handles customer information must complete data "
    "protection training every year. Managers should keep a record of the courses each employee attended.",
]


@pytest.fixture(scope="module")
async def library(
    tmp_path_factory: pytest.TempPathFactory, embedder: MiniLMEmbedder
) -> AsyncIterator[tuple[ChunkIndex, IndexedDocument, IndexedDocument, IndexedDocument]]:
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
        manual = await index_pdf(
            index,
            embedder,
            tenant=TENANT,
            document_id="manual",
            title="Records Manual",
            version="2024",
            pages=MANUAL,
            doc_type="policy",
        )
        yield index, handbook, regulation, manual


harness = action_harness(TENANT, "summarize")


class TestSummarizeService(ActionServiceSuite):
    TENANT = TENANT
    ACTION = "summarize"
    FALLBACK_WHAT = "summary"
    ANSWERABLE = Ask("", ("handbook",))
    REFUSALS = (Refused(Ask("summarise", ()), "no_documents"),)

    def index_of(self, library: Library) -> ChunkIndex:
        return library[0]

    def documents_of(self, library: Library) -> list[IndexedDocument]:
        return list(library[1:])


async def test_sample_spans_the_whole_document_and_only_this_tenant(
    library: Library,
) -> None:
    index, handbook, _, _ = library
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
    library: Library,
    embedder: MiniLMEmbedder,
    redis_client: Redis,
) -> None:
    index, handbook, _, _ = library
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
    # No headings: the handbook is read in page ranges spanning all of it, each summarised.
    parts = coverage["parts"]
    assert (coverage["chunks_total"], coverage["pages"]) == (2 * PAGES, PAGES)
    assert [(p["first_page"], p["last_page"]) for p in parts] == [(1, 10), (11, 20), (21, 30)]
    assert all(p["points"] >= 1 for p in parts)
    # A 30-page document opens with an overview; then the parts' points, in reading order.
    assert coverage["overview_points"] >= 1
    assert body["answer"].index("**Overview**") < body["answer"].index("**Pages 1–10**")
    part_pages = [c["page"] for c in body["citations"]][coverage["overview_points"] :]
    assert part_pages == sorted(part_pages)
    assert {(page - 1) // 10 for page in part_pages} == {0, 1, 2}
    assert await harness.statuses(TENANT) == ["reading", "summarizing"]
    [turn] = await ConversationStore(redis_client).messages(TENANT, "conv1")
    assert (turn.message_id, turn.content) == (body["message_id"], body["answer"])


async def test_several_documents_get_a_section_each(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
) -> None:
    index, handbook, regulation, _ = library
    broker = await harness.start(index, embedder)
    await harness.ask(broker, request(TENANT, "summarize", "summarise these", [handbook, regulation]))
    body = await harness.terminal(TENANT)

    answer = body["answer"]
    assert answer.index("### “Operations Handbook” (version 2024)") < answer.index(
        "### “Records Regulation” (version 2024)"
    )
    assert_citations_verbatim(body, [handbook, regulation])
    assert {c["document_id"] for c in body["citations"]} == {"handbook", "reg24"}
    assert body["result"]["documents"][1]["chunks_total"] == len(regulation.chunks)


async def test_a_structured_document_is_summarised_chapter_by_chapter_without_fragments(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, _, _, manual = library
    broker = await harness.start(index, embedder)
    await harness.ask(broker, request(TENANT, "summarize", "", [manual]))
    body = await harness.terminal(TENANT)

    answer = body["answer"]
    headings = ["**1 Purpose and scope**", "**2 Keeping records**", "**3 Incidents**", "**4 Training**"]
    positions = [answer.index(heading) for heading in headings]
    assert positions == sorted(positions)
    assert_citations_verbatim(body, [manual])
    # Every chapter is cited from its own page, in order; the title and contents pages never are.
    assert sorted({c["page"] for c in body["citations"]}) == [3, 4, 5, 6]
    assert [c["page"] for c in body["citations"]] == sorted(c["page"] for c in body["citations"])
    assert ASIDE not in answer
    assert "Contents" not in answer
    assert "Security incidents must be reported to the compliance officer" in answer
    parts = body["result"]["documents"][0]["parts"]
    assert [p["title"] for p in parts if p["points"]] == [h.strip("*") for h in headings]


def draft_for(user: str) -> str:
    """A draft citing the first handbook passage, the first regulation passage and one never listed."""
    regulation = user.index("## Document: “Records Regulation”")
    first_rule = re.search(r"^\[(\d+)\]", user[regulation:], re.M)
    assert first_rule is not None
    return (
        "### “Operations Handbook” (2024)\n- The handbook sets the operating rules of the company [1].\n\n"
        f"### “Records Regulation” (2024)\n- The Records Regulation sets retention rules [{first_rule[1]}]. "
        "Backups are kept offshore [99]."
    )


async def test_llm_summary_is_streamed_per_document_and_cited_after_a_rate_limit(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, handbook, regulation, _ = library
    drafts: list[str] = []

    def reply(recorded: RecordedRequest) -> Reply | None:
        if not openai_server.requests[:-1]:
            return None  # the scripted 429 first
        drafts.append(draft_for(recorded.messages[-1]["content"]))
        return Reply(content=drafts[-1], prompt_tokens=5000, completion_tokens=80)

    openai_server.enqueue(Reply.failure(429, retry_after=0))
    openai_server.reply_for = reply
    broker = await harness.start(index, embedder, llm=llm)
    await harness.ask(broker, request(TENANT, "summarize", "summarise these", [handbook, regulation]))
    body = await harness.terminal(TENANT)

    [draft] = drafts
    tokens = await harness.tokens(TENANT)
    assert [t["index"] for t in tokens] == list(range(len(tokens)))
    assert "".join(t["text"] for t in tokens) == draft
    # The unmapped marker is removed; the others are cited from the passage they number.
    assert "[99]" not in body["answer"]
    # The 429 was retried: the same request twice. Both documents' material fits one call.
    rate_limited, drafted = openai_server.requests
    assert rate_limited.body == drafted.body
    assert drafted.body["model"] == body["model"] == "gpt-4o-mini"
    assert drafted.body["temperature"] == pytest.approx(0.1)
    assert drafted.messages[0]["content"].startswith(SYSTEM_PREFIX)
    assert_llm_citations(body, drafted, [handbook, regulation])
    assert [c["document_id"] for c in body["citations"]] == ["handbook", "reg24"]
    # Passages numbered across the documents in order, under each part, within the call's budget
    # (the sample sizes: 11 of the handbook's 60 chunks, all of the small regulation's).
    passages = prompt_passages(drafted)
    result = body["result"]
    assert sorted(passages) == list(range(1, result["passages_sent"] + 1))
    assert result["passages_per_call_limit"] == 11 + len(regulation.chunks)
    assert result["passages_sent"] <= result["passages_per_call_limit"]
    assert result["model_calls"] == 1
    user = drafted.messages[-1]["content"]
    assert (
        user.index("## Document: “Operations Handbook” (2024)")
        < user.index("### Part: Pages 1–10")
        < user.index("### Part: Pages 21–30")
        < user.index("## Document: “Records Regulation”")
    )
    assert "Secret text" not in user
    price = price_of("gpt-4o-mini")
    assert price is not None
    assert body["usage"]["cost_usd"] == pytest.approx(
        (5000 * price.prompt_per_million + 80 * price.completion_per_million) / 1e6
    )


@pytest.mark.slow
async def test_llm_summary_streams_from_a_real_llama_cpp_server(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    llama_llm: LLM,
) -> None:
    # The real SDK path end to end: HTTP, SSE parsing, usage chunk. A 135M model's summary is poor,
    # so the plumbing is asserted, not the text.
    index, _, regulation, _ = library
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

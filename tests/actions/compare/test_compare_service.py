"""The @Compare worker on a real nats-server, Valkey, local Qdrant and the real MiniLM embedder."""

import json
import re
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from actions.drafting import llm_fallback_notice
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM, price_of
from policypal.vectorstore import ChunkIndex
from tests.actions.action_service_suite import ActionServiceSuite, Ask, Refused, action_harness
from tests.actions.policy_library import COMPANY_POLICY, REGULATION_2024, REGULATION_2025, RETENTION_2024
from tests.actions.worker_harness import (
    IndexedDocument,
    WorkerHarness,
    assert_citations_verbatim,
    assert_llm_citations,
    index_pdf,
    local_index,
    prompt_passages,
    request,
)
from tests.support.openai_server import Reply, ScriptedOpenAI

pytestmark = pytest.mark.integration

TENANT = f"t{uuid.uuid4().hex[:10]}"
Library = tuple[ChunkIndex, list[IndexedDocument]]


@pytest.fixture(scope="module")
async def library(
    tmp_path_factory: pytest.TempPathFactory, embedder: MiniLMEmbedder
) -> AsyncIterator[Library]:
    async with local_index(tmp_path_factory.mktemp("compare") / "q", embedder) as index:
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


harness = action_harness(TENANT, "compare")


class TestCompareService(ActionServiceSuite):
    TENANT = TENANT
    ACTION = "compare"
    FALLBACK_WHAT = "comparison"
    # Versions of one document: a redline, which reads each version whole from the index.
    ANSWERABLE = Ask("Compare these two versions", ("reg24", "reg25"))
    REFUSALS = (Refused(Ask("compare", ("reg24",)), "compare_needs_2_to_5_documents"),)

    def index_of(self, library: Library) -> ChunkIndex:
        return library[0]

    def documents_of(self, library: Library) -> list[IndexedDocument]:
        return library[1]

    def assert_fallback(self, body: dict[str, Any], openai_server: ScriptedOpenAI) -> None:
        # The model's account failed: the redline stands alone.
        assert body["result"]["mode"] == "redline"
        assert "~~seven~~" in body["answer"]


async def test_versions_of_one_document_get_a_redline_of_the_planted_change_and_the_new_page(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, (reg24, reg25, _) = library
    broker = await harness.start(index, embedder)
    # Given newest first: the redline still reads the 2024 version as the earlier one.
    event = request(TENANT, "compare", "Compare these two versions", [reg25, reg24])

    await harness.ask(broker, event, copies=2)
    body = await harness.terminal(TENANT)

    assert (body["request_id"], body["model"], body["result"]["mode"]) == (
        event.request_id,
        "offline-extractive",
        "redline",
    )
    [pair] = body["result"]["pairs"]
    assert (pair["from"], pair["to"]) == ("reg24", "reg25")
    # The planted change, word for word, ranked first as a changed duration.
    first = pair["changes"][0]
    assert first["kind"] == "changed"
    assert "number" in first["substance"]
    assert "~~seven~~" in first["before"]["marked"]
    assert "**ten**" in first["after"]["marked"]
    cited = {c["marker"]: c for c in body["citations"]}
    assert "seven years" in cited[first["before"]["marker"]]["quote"]
    assert "ten years" in cited[first["after"]["marker"]]["quote"]
    assert cited[first["after"]["marker"]]["document_id"] == "reg25"
    # The page only the 2025 version has: its provisions are added; nothing else changed.
    added = [c["after"]["text"] for c in pair["changes"] if c["kind"] == "added"]
    assert any("machine learning" in text for text in added)
    assert pair["counts"]["changed"] == 1
    assert pair["counts"]["removed"] == 0
    assert "~~seven~~" in body["answer"]
    assert "versions of “Records Regulation”" in body["answer"]
    assert_citations_verbatim(body, [reg24, reg25])
    assert await harness.statuses(TENANT) == ["mode", "reading", "comparing"]


async def test_different_documents_are_compared_theme_by_theme(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, (reg24, _, policy) = library
    broker = await harness.start(index, embedder)
    await harness.ask(broker, request(TENANT, "compare", "Compare these documents", [reg24, policy]))
    body = await harness.terminal(TENANT)

    assert body["result"]["mode"] == "holistic"
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
    # Named by a heading or a key phrase, not a bag of words ("customer, records, retained").
    assert all(", " not in theme for theme in body["result"]["themes"])
    assert "without a language model" in answer
    assert_citations_verbatim(body, [reg24, policy])
    assert await harness.statuses(TENANT) == ["mode", "sampling", "comparing"]


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
    assert await harness.statuses(TENANT) == ["mode", "retrieving", "comparing"]


async def test_a_topic_asked_of_versions_shows_what_changed_on_it(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, (reg24, reg25, _) = library
    broker = await harness.start(index, embedder)
    question = "How long must customer records be retained?"
    await harness.ask(broker, request(TENANT, "compare", question, [reg25, reg24]))
    body = await harness.terminal(TENANT)

    assert (body["result"]["mode"], body["result"]["topic"]) == ("focused", question)
    answer = body["answer"]
    table = [line for line in answer.splitlines() if line.startswith("| “")]
    assert "seven years" in table[0]
    assert "ten years" in table[1]
    changes = answer[answer.index("## Changes between the versions on this topic") :]
    assert "at least ~~seven~~ years" in changes
    assert "at least **ten** years" in changes
    [pair] = body["result"]["changes"]
    assert (pair["from"], pair["to"]) == ("reg24", "reg25")
    # The retention change, not the page on automated decisions: it is not about retention.
    assert [c["kind"] for c in pair["changes"]] == ["changed"]
    assert_citations_verbatim(body, [reg24, reg25])
    assert await harness.statuses(TENANT) == ["mode", "retrieving", "comparing", "redlining"]


THEMES = {"themes": ["Record retention", "Data transfers", "Incident reporting"]}
REPORT = (
    "## Overview\nBoth versions regulate customer information [1].\n\n"
    "## Key differences\n- Record retention: the 2025 version changes the retention period [2].\n\n"
    "## Key similarities\n- Both apply to every licensed bank [1].\n\n"
    "## Unique aspects\n- Only one version covers a topic not listed [40].\n\n"
    "## Implications\nThe retention schedule must be reviewed [2]."
)


async def test_llm_holistic_comparison_extracts_themes_then_streams_the_cited_report(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, (reg24, _, policy) = library
    openai_server.enqueue(
        Reply(content=json.dumps(THEMES), prompt_tokens=3000, completion_tokens=30),
        Reply(content=REPORT, prompt_tokens=4000, completion_tokens=90),
    )
    broker = await harness.start(index, embedder, llm=llm)
    await harness.ask(broker, request(TENANT, "compare", "Compare these documents", [reg24, policy]))
    body = await harness.terminal(TENANT)

    themes_request, report_request = openai_server.requests
    assert themes_request.body["response_format"]["json_schema"]["name"] == "ComparisonThemes"
    # Naming the themes is a light call (the small model); the synthesis is the large model's.
    assert themes_request.body["model"] == "gpt-4o-mini"
    assert report_request.body["model"] == body["model"] == "gpt-4o"
    assert (
        "1. Record retention\n2. Data transfers\n3. Incident reporting"
        in report_request.messages[-1]["content"]
    )
    # Both calls get what the offline comparison aligned: candidate theme names, then the paired
    # sentences by passage number (the 2024 retention rule against the policy's two years).
    assert "## Candidate themes" in themes_request.messages[-1]["content"]
    aligned = report_request.messages[-1]["content"].split("## Aligned passages")[1].split("## Themes")[0]
    assert re.search(
        r"\[\d+\] “[^”]*Customer records must be retained for at least seven years[^”]*” / "
        r"“Northwind Data Policy” \(1\) \[\d+\] “[^”]*two years",
        aligned,
    )
    assert body["result"]["mode"] == "holistic"
    assert body["result"]["themes"] == THEMES["themes"]
    assert "".join(t["text"] for t in await harness.tokens(TENANT)) == REPORT
    assert "[40]" not in body["answer"]
    assert_llm_citations(body, report_request, [reg24, policy])
    small, large = price_of("gpt-4o-mini"), price_of("gpt-4o")
    assert small is not None
    assert large is not None
    assert body["usage"]["prompt_tokens"] == 7000
    assert body["usage"]["cost_usd"] == pytest.approx(
        (3000 * small.prompt_per_million + 30 * small.completion_per_million) / 1e6
        + (4000 * large.prompt_per_million + 90 * large.completion_per_million) / 1e6
    )


async def test_llm_focused_comparison_is_a_table_from_the_topic_passages(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, (reg24, reg25, policy) = library
    table = (
        "| Document | Requirement on this topic |\n|---|---|\n"
        "| Records Regulation (2024) | Seven years [1] |\n| Records Regulation (2025) | Ten years [6] |\n"
        "| Northwind Data Policy (1) | Two years [11] |\n\n## Differences\n- The periods differ [1] [6]."
    )
    openai_server.enqueue(Reply.text(table))
    broker = await harness.start(index, embedder, llm=llm)
    question = "How long must customer records be retained?"
    await harness.ask(broker, request(TENANT, "compare", question, [reg24, reg25, policy]))
    body = await harness.terminal(TENANT)

    [drafted] = openai_server.requests
    assert drafted.body["model"] == body["model"] == "gpt-4o-mini"
    assert body["result"] == {"mode": "focused", "topic": question}
    # Five passages per document nearest to the topic, numbered across the documents in order.
    passages = prompt_passages(drafted)
    assert sorted(passages) == list(range(1, 16))
    assert RETENTION_2024 in " ".join(" ".join(passages[n].split()) for n in range(1, 6))
    assert_llm_citations(body, drafted, [reg24, reg25, policy])
    assert {c["document_id"] for c in body["citations"]} == {"reg24", "reg25", "policy"}


async def test_llm_malformed_themes_are_corrected_once(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, (reg24, _, policy) = library
    openai_server.enqueue(Reply(content="{themes: Record retention"), Reply.json(THEMES), Reply.text(REPORT))
    broker = await harness.start(index, embedder, llm=llm)
    await harness.ask(broker, request(TENANT, "compare", "Compare these documents", [reg24, policy]))
    body = await harness.terminal(TENANT)

    _, correction, _ = openai_server.requests
    assert "did not match the required JSON schema" in correction.messages[-1]["content"]
    assert correction.messages[-2] == {"role": "assistant", "content": "{themes: Record retention"}
    assert body["result"]["theme_attempts"] == 2
    assert body["result"]["themes"] == THEMES["themes"]


async def test_llm_server_errors_fall_back_to_the_offline_comparison_with_a_notice(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, (reg24, _, policy) = library
    openai_server.enqueue(Reply.failure(500), Reply.failure(500))
    broker = await harness.start(index, embedder, llm=llm)
    await harness.ask(broker, request(TENANT, "compare", "Compare these documents", [reg24, policy]))
    body = await harness.terminal(TENANT)

    # The themes call and its one retry, then the offline report.
    assert [r.body["response_format"]["json_schema"]["name"] for r in openai_server.requests] == [
        "ComparisonThemes"
    ] * 2
    assert openai_server.pending == 0
    assert (body["model"], body["result"]["mode"]) == ("offline-extractive", "holistic")
    assert body["notices"] == [llm_fallback_notice("comparison")]
    assert "## Key differences" in body["answer"]
    assert_citations_verbatim(body, [reg24, policy])
    assert await harness.tokens(TENANT) == []


async def test_llm_timeouts_fall_back_to_the_offline_difference_table_with_a_notice(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    impatient_llm: LLM,
) -> None:
    index, (reg24, reg25, policy) = library
    openai_server.enqueue(Reply.slow(1.0), Reply.slow(1.0))
    broker = await harness.start(index, embedder, llm=impatient_llm)
    question = "How long must customer records be retained?"
    await harness.ask(broker, request(TENANT, "compare", question, [reg24, reg25, policy]))
    body = await harness.terminal(TENANT)

    # The streamed table timed out before its first token, was retried once, then answered offline.
    assert [r.body["stream"] for r in openai_server.requests] == [True, True]
    assert openai_server.pending == 0
    assert (body["model"], body["result"]["mode"]) == ("offline-extractive", "focused")
    assert body["notices"] == [llm_fallback_notice("comparison")]
    table = [line for line in body["answer"].splitlines() if line.startswith("| “")]
    assert ["seven years" in table[0], "ten years" in table[1], "two years" in table[2]] == [True] * 3
    assert_citations_verbatim(body, [reg24, reg25, policy])
    assert await harness.tokens(TENANT) == []


async def test_llm_writes_the_account_of_a_redline_whose_evidence_stays_verbatim(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, (reg24, reg25, _) = library
    account = (
        "The 2025 version lengthens the retention of customer records and adds rules on automated "
        "decisions [1] [2].\n\n## What the changes mean\n- Records are kept ten years instead of seven [2]. [40]"
    )
    openai_server.enqueue(Reply.text(account))
    broker = await harness.start(index, embedder, llm=llm)
    await harness.ask(broker, request(TENANT, "compare", "What changed in the new version?", [reg24, reg25]))
    body = await harness.terminal(TENANT)

    [drafted] = openai_server.requests
    assert drafted.body["model"] == body["model"] == "gpt-4o"
    # The model reads the aligned redline: both wordings with the changed words marked.
    prompt = drafted.messages[-1]["content"]
    assert "~~seven~~" in prompt
    assert "**ten**" in prompt
    assert "".join(t["text"] for t in await harness.tokens(TENANT)) == account
    answer = body["answer"]
    # The account first (the marker that cites nothing removed), then the redline verbatim.
    assert answer.startswith(account.removesuffix(" [40]"))
    assert "[40]" not in answer
    assert answer.index("~~seven~~") > answer.index("## What the changes mean")
    assert (body["result"]["mode"], body["result"]["drafted"]) == ("redline", True)
    assert_citations_verbatim(body, [reg24, reg25])

"""The model's summary from the per-part material: one call when it fits the budget, else map then reduce.

Against the scripted OpenAI-compatible server (real HTTP through the SDK) and the real MiniLM embedder.
"""

import re

import pytest

from actions.summarize.document_parts import document_parts
from actions.summarize.drafted_summary import call_budget, draft_summary, packed_calls, part_materials
from actions.summarize.extractive_summary import DocumentSummary
from actions.summarize.key_statements import digest_document
from policypal.contracts import ActionRequested, ResolvedDocument, SummaryResult
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from tests.actions.summarize.chunk_builder import paged
from tests.actions.worker_harness import prompt_passages
from tests.support.openai_server import Reply, ScriptedOpenAI

TOPICS = ["retention", "transfers", "incidents", "training", "vendors", "audits"]
TOPICS += ["complaints", "outsourcing", "archives", "access", "payments", "identity"]
MANUAL = ResolvedDocument(document_id="manual", title="Manual", version="1", doc_type="regulatory")


def chapter(number: int, topic: str) -> str:
    return (
        f"{number} {topic.capitalize()}\n"
        f"Each branch must keep its {topic} register up to date and send it to the compliance officer.\n"
        f"The {topic} register records the date, the branch and the person responsible for each entry.\n"
        f"Entries in the {topic} register are kept for as long as the branch stays open."
    )


def twelve_chapters() -> DocumentSummary:
    chunks = paged([[chapter(n, t)] for n, t in enumerate(TOPICS, 1)])
    return DocumentSummary(MANUAL, digest_document(chunks, document_parts(chunks), max_points=3))


def test_parts_are_packed_in_order_within_the_budget() -> None:
    summary = twelve_chapters()
    materials = part_materials([summary])
    # Twelve chunks: the budget is the minimum sample, 10 passages a call.
    assert call_budget([summary]) == 10
    calls = packed_calls(materials, 10)
    assert [[m.title for m in call] for call in calls] == [
        [f"{n} {t.capitalize()}" for n, t in enumerate(TOPICS[:10], 1)],
        [f"{n} {t.capitalize()}" for n, t in enumerate(TOPICS[10:], 11)],
    ]
    assert all(sum(len(m.chunks) for m in call) <= 10 for call in calls)


async def test_a_long_document_is_mapped_within_the_budget_then_reduced_and_cited(
    openai_server: ScriptedOpenAI, llm: LLM, embedder: MiniLMEmbedder
) -> None:
    first_notes = "\n".join(
        f"#### {n} {t.capitalize()}\n- Branches must keep a {t} register [{n}]."
        for n, t in enumerate(TOPICS[:10], 1)
    )
    second_notes = (
        "#### 11 Payments\n- Branches must keep a payments register [11].\n#### 12 Identity\n- [12]."
    )
    final = (
        "The manual sets out the registers every branch must keep [1].\n"
        "#### 11 Payments\n- Each branch keeps its payments register up to date [11]. Unlisted [40]."
    )
    openai_server.enqueue(
        Reply(content=first_notes, prompt_tokens=3000, completion_tokens=200),
        Reply(content=second_notes, prompt_tokens=700, completion_tokens=40),
        Reply(content=final, prompt_tokens=400, completion_tokens=60),
    )
    streamed: list[str] = []

    async def on_delta(text: str) -> None:
        streamed.append(text)

    event = ActionRequested(
        tenant_id="t",
        user_id="u",
        request_id="r1",
        thread_id="c1",
        action="summarize",
        query="",
        documents=[MANUAL],
    )
    answer = await draft_summary(event, [twelve_chapters()], llm=llm, embedder=embedder, on_delta=on_delta)

    first, second, reduce = openai_server.requests
    # Each map call sends at most the budget, numbered on across calls; the reduce call sends none.
    assert sorted(prompt_passages(first)) == list(range(1, 11))
    assert sorted(prompt_passages(second)) == [11, 12]
    assert prompt_passages(reduce) == {}
    assert "### Part: 11 Payments" in second.messages[-1]["content"]
    assert not first.body.get("stream")
    assert reduce.body.get("stream")
    reduce_user = reduce.messages[-1]["content"]
    assert first_notes in reduce_user
    assert second_notes in reduce_user
    # The reduce reply is what streams; its markers cite the passages the map calls numbered.
    assert "".join(streamed) == final
    assert "[40]" not in answer.answer
    by_marker = {c.marker: c for c in answer.citations}
    assert set(by_marker) == {1, 11}
    assert (by_marker[1].page, by_marker[11].page) == (1, 11)
    assert "payments register" in by_marker[11].quote
    assert isinstance(answer.result, SummaryResult)
    assert (answer.result.model_calls, answer.result.passages_sent) == (3, 12)
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (4100, 300)


@pytest.mark.parametrize("count", [3, 7])
def test_short_material_goes_in_one_call(count: int) -> None:
    chunks = paged([[chapter(n, t)] for n, t in enumerate(TOPICS[:count], 1)])
    summary = DocumentSummary(MANUAL, digest_document(chunks, document_parts(chunks), max_points=3))
    calls = packed_calls(part_materials([summary]), call_budget([summary]))
    assert len(calls) == 1
    assert re.sub(r"\d+ ", "", calls[0][0].title) == "Retention"

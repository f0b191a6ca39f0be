"""The user's company profile in the summary's prompt, against the scripted OpenAI-compatible server."""

from actions.summarize.document_parts import document_parts
from actions.summarize.drafted_summary import draft_summary
from actions.summarize.extractive_summary import DocumentSummary
from actions.summarize.key_statements import digest_document
from policypal.contracts import ActionRequested, CompanyContext, ResolvedDocument
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from tests.actions.summarize.chunk_builder import paged
from tests.support.openai_server import Reply, ScriptedOpenAI

MANUAL = ResolvedDocument(document_id="manual", title="Manual", version="1", doc_type="regulatory")
CHAPTERS = [
    "1 Retention\nEach branch must keep its retention register up to date.",
    "2 Transfers\nEvery transfer abroad needs the compliance officer's approval.",
]


async def test_the_summary_prompt_ends_with_the_users_organisation(
    openai_server: ScriptedOpenAI, llm: LLM, embedder: MiniLMEmbedder
) -> None:
    openai_server.enqueue(Reply.text("Branches keep a retention register [1]."))
    chunks = paged([[chapter] for chapter in CHAPTERS])
    summary = DocumentSummary(MANUAL, digest_document(chunks, document_parts(chunks), max_points=3))
    event = ActionRequested(
        tenant_id="t",
        user_id="u",
        request_id="r1",
        thread_id="c1",
        action="summarize",
        query="",
        documents=[MANUAL],
        company=CompanyContext(company_name="Acme Bank Berhad", industry="Banking"),
    )

    async def on_delta(text: str) -> None:
        return None

    await draft_summary(event, [summary], llm=llm, embedder=embedder, on_delta=on_delta)

    [request] = openai_server.requests
    assert request.messages[0]["content"].endswith("not a source to cite): Acme Bank Berhad (Banking)")
    assert "Acme Bank" not in request.messages[-1]["content"]

"""A cited answer through all five services, each its own OS process, on real NATS, Valkey and Qdrant.

`policypal up` starts nats-server from its wheel, Valkey from its wheel, the gateway, the notifier and
the resolver each in its own process, and the ingestor with the inquire worker in one process (they
share local Qdrant). The test talks to it over HTTP and SSE only, then restarts it.
"""

import asyncio
import io
import signal
from pathlib import Path

import pytest
from pypdf import PdfReader

from policypal.cli.client import PolicyPalClient, StreamedEvent
from policypal.contracts import DocumentReady, ErrorEvent, InterruptEvent, ResponseEvent, StatusEvent
from tests.e2e.system import RunningSystem, policypal_up
from tests.pdf_factory import drawing_only_pdf, make_pdf

pytestmark = pytest.mark.e2e

FILLER = (
    "This section sets out general provisions on governance, reporting lines and the duties of the board. "
    "Institutions shall keep records of their decisions and make them available to supervisors on request. "
)
PAGES = [
    "Part One. Scope and definitions.\n" + FILLER * 6,
    "Part Two. Capital requirements.\n"
    + FILLER * 2
    + "\nInstitutions shall at all times maintain a total capital ratio of at least 8 percent of their "
    "risk-weighted exposure amounts.\n" + FILLER * 2,
    "Part Three. Liquidity.\n"
    "Institutions shall hold liquid assets that cover their net outflows over a thirty day stress period.\n"
    + FILLER
    * 4,
]
QUESTION = "What total capital ratio must institutions maintain?"
DEADLINE = 120.0


async def _events_until_terminal(client: PolicyPalClient, path: str, request_id: str) -> list[StreamedEvent]:
    async def collect() -> list[StreamedEvent]:
        return [e async for e in client.stream(path, request_id=request_id)]

    return await asyncio.wait_for(collect(), timeout=DEADLINE)


def _page_texts(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


async def _upload_and_wait_ready(client: PolicyPalClient, path: Path, title: str) -> str:
    response = await client.upload(path, title=title, version="2024", doc_type="regulatory")
    assert response.status_code == 202, response.text
    body = response.json()
    events = await _events_until_terminal(
        client, f"/v1/documents/{body['document_id']}/events", body["request_id"]
    )
    assert isinstance(events[-1].event, DocumentReady), events[-1]
    return str(body["document_id"])


async def test_upload_ask_and_get_a_cited_answer_then_restart(tmp_path: Path) -> None:
    pdf = make_pdf(PAGES, title="Prudential Rulebook")
    pdf_path = tmp_path / "rulebook.pdf"
    pdf_path.write_bytes(pdf)
    data_dir = tmp_path / "data"

    with policypal_up(data_dir) as system:
        client = PolicyPalClient(system.api_url, system.events_url, system.token("acme", "alice"))
        try:
            document_id = await _upload_and_wait_ready(client, pdf_path, "Prudential Rulebook")
            record = (await client.get(f"/v1/documents/{document_id}")).json()
            assert record["status"] == "ready"
            assert record["pages"] == 3
            assert record["chunks"] >= 3

            conversation_id = await client.create_conversation("Capital")
            accepted = await client.post_message(
                conversation_id, f"@Inquire {QUESTION}", action="inquire", documents=[document_id]
            )
            events = await _events_until_terminal(
                client, f"/v1/conversations/{conversation_id}/events", accepted["request_id"]
            )
            await _assert_cited_answer(events, document_id, _page_texts(pdf))

            history = (await client.get(f"/v1/conversations/{conversation_id}")).json()["messages"]
            assert [m["role"] for m in history] == ["user", "assistant"]
            await _assert_other_tenant_sees_nothing(system, document_id, conversation_id)
            await _assert_bad_input_is_refused_clearly(system, client, tmp_path)
        finally:
            await client.aclose()
        system.process.send_signal(signal.SIGINT)
        # A worker finishing what it holds (the rules of the new document, on a loaded machine) may
        # take its drain time: the budget ``up`` announces, not a tighter one.
        assert system.process.wait(timeout=system.stop_budget) == 0, "Ctrl-C must stop every process cleanly"

    with policypal_up(data_dir) as system:
        client = PolicyPalClient(system.api_url, system.events_url, system.token("acme", "alice"))
        try:
            assert (await client.get(f"/v1/documents/{document_id}")).json()["status"] == "ready"
            restored = (await client.get(f"/v1/conversations/{conversation_id}")).json()["messages"]
            assert [m["role"] for m in restored] == ["user", "assistant"]
            accepted = await client.post_message(
                conversation_id, QUESTION, action="inquire", documents=[document_id]
            )
            events = await _events_until_terminal(
                client, f"/v1/conversations/{conversation_id}/events", accepted["request_id"]
            )
            await _assert_cited_answer(events, document_id, _page_texts(pdf))
        finally:
            await client.aclose()


async def _assert_cited_answer(events: list[StreamedEvent], document_id: str, pages: list[str]) -> None:
    ids = [e.id for e in events]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)
    request_events = [e.event for e in events if e.event.request_id == events[-1].event.request_id]
    assert any(isinstance(e, StatusEvent) for e in request_events), "status events come before the answer"
    terminal = request_events[-1]
    assert isinstance(terminal, ResponseEvent), terminal
    assert sum(isinstance(e, ResponseEvent | ErrorEvent) for e in request_events) == 1
    assert terminal.model == "offline-extractive"
    assert terminal.citations, terminal.answer
    assert "8 percent" in terminal.answer
    cited_pages = {c.page for c in terminal.citations}
    assert 2 in cited_pages
    for citation in terminal.citations:
        assert citation.document_id == document_id
        assert f"[{citation.marker}]" in terminal.answer
        page_text = " ".join(pages[(citation.page or 0) - 1].split())
        assert " ".join(citation.quote.split()) in page_text, citation


async def _assert_other_tenant_sees_nothing(
    system: RunningSystem, document_id: str, conversation_id: str
) -> None:
    for tenant, user in (("globex", "alice"), ("acme", "bob")):
        other = PolicyPalClient(system.api_url, system.events_url, system.token(tenant, user))
        try:
            assert (await other.get(f"/v1/documents/{document_id}")).status_code == 404
            assert (await other.get(f"/v1/conversations/{conversation_id}")).status_code == 404
            conversation = await other.create_conversation()
            accepted = await other.post_message(
                conversation, QUESTION, action="inquire", documents=[document_id]
            )
            events = await _events_until_terminal(
                other, f"/v1/conversations/{conversation}/events", accepted["request_id"]
            )
            terminal = events[-1].event
            assert isinstance(terminal, ErrorEvent)
            assert terminal.code == "document_not_found"
        finally:
            await other.aclose()


async def _assert_bad_input_is_refused_clearly(
    system: RunningSystem, client: PolicyPalClient, tmp_path: Path
) -> None:
    # Text is a document type now; an image is not (OCR is not enabled).
    image = tmp_path / "notes.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    refused = await client.upload(
        image, title="Notes", version="1", doc_type="policy", content_type="image/png"
    )
    assert refused.status_code == 415
    assert refused.json()["detail"].startswith("This file is a PNG image. PolicyPal indexes PDF")

    scanned = tmp_path / "scan.pdf"
    scanned.write_bytes(drawing_only_pdf(2))
    accepted = await client.upload(scanned, title="Scan", version="1", doc_type="policy")
    assert accepted.status_code == 202
    body = accepted.json()
    events = await _events_until_terminal(
        client, f"/v1/documents/{body['document_id']}/events", body["request_id"]
    )
    assert events[-1].event.type == "document.failed"
    assert (await client.get(f"/v1/documents/{body['document_id']}")).json()["reason_code"] == "no_text_layer"

    elsewhere = await client.create_conversation()
    no_action = await client.post_message(elsewhere, "hello there")
    events = await _events_until_terminal(
        client, f"/v1/conversations/{elsewhere}/events", no_action["request_id"]
    )
    question = events[-1].event
    assert isinstance(question, InterruptEvent), "a message without an action gets a PalAssist question"
    assert question.options
    cancelled = await client.cancel(elsewhere, question.interrupt_id)
    events = await _events_until_terminal(
        client, f"/v1/conversations/{elsewhere}/events", cancelled["request_id"]
    )
    ending = events[-1].event
    assert isinstance(ending, ErrorEvent)
    assert ending.code == "cancelled"
    assert (await client.get(f"/v1/conversations/{elsewhere}")).json()["pending_interrupt"] is None

    unauthenticated = PolicyPalClient(system.api_url, system.events_url, "not-a-token")
    expired = PolicyPalClient(
        system.api_url, system.events_url, system.token("acme", "alice", ttl_seconds=-60)
    )
    try:
        assert (await unauthenticated.get("/v1/documents")).status_code == 401
        assert (await expired.get("/v1/documents")).status_code == 401
    finally:
        await expired.aclose()
        await unauthenticated.aclose()

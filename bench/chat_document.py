"""The generated 3-page regulation the chat benches ingest through the gateway, and their questions."""

from pathlib import Path

from policypal.auth import issue_token
from policypal.cli.client import PolicyPalClient
from policypal.config import Settings
from tests.pdf_factory import make_pdf

QUESTIONS = [
    "What total capital ratio must institutions maintain?",
    "How long is the liquidity stress period?",
    "Who must keep records of decisions?",
]
PAGES = [
    "Institutions shall keep records of their decisions and make them available to supervisors. " * 8,
    "Institutions shall at all times maintain a total capital ratio of at least 8 percent of their "
    "risk-weighted exposure amounts. " * 6,
    "Institutions shall hold liquid assets covering net outflows over a thirty day stress period. " * 6,
]


def bench_client(settings: Settings) -> PolicyPalClient:
    """A client of the system's gateway and notifier, signed in as the bench user."""
    token = issue_token(settings, "bench", "bench")
    return PolicyPalClient(f"http://127.0.0.1:{settings.port}", settings.events_base_url, token)


async def ingest_regulation(client: PolicyPalClient, workdir: Path) -> str:
    """Upload the regulation (written to ``workdir``), wait until it is ready and return its id."""
    pdf = workdir / "bench.pdf"
    pdf.write_bytes(make_pdf(PAGES))
    upload = (await client.upload(pdf, title="Bench", version="1", doc_type="regulatory")).json()
    async for streamed in client.stream(
        f"/v1/documents/{upload['document_id']}/events", request_id=upload["request_id"]
    ):
        last = streamed.event
    assert last.type == "document.ready", last
    document_id: str = upload["document_id"]
    return document_id

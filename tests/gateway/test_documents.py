"""Uploading, listing and reading documents through a real gateway on NATS and Valkey."""

import hashlib

import httpx
import pytest
from nats.js import JetStreamContext

from policypal.config import Settings
from policypal.contracts import DocumentUploaded
from policypal.contracts.streams import DOCS, OBJECT_BUCKET
from policypal.contracts.subjects import DOCS_UPLOADED
from policypal.filetypes.detection import MEDIA_TYPES
from tests.ingestor import document_factory
from tests.pdf_factory import one_page_pdf
from tests.support.gateway_client import bearer, new_id, upload
from tests.support.jetstream import retained_events

pytestmark = pytest.mark.integration


async def test_upload_stores_records_and_publishes(
    client: httpx.AsyncClient, js: JetStreamContext, settings: Settings, auth: dict[str, str]
) -> None:
    pdf = one_page_pdf("GDPR article 5 principles")
    response = await upload(client, auth, pdf, set_name="EU")

    assert response.status_code == 202, response.text
    body = response.json()
    document_id = body["document_id"]
    assert body["status"] == "processing"
    assert body["duplicate"] is False
    assert body["events_url"] == f"{settings.events_base_url}/v1/documents/{document_id}/events"

    [event] = await retained_events(js, DOCS.name, DOCS_UPLOADED, DocumentUploaded, document_id=document_id)
    assert event.thread_id == document_id
    assert event.request_id == body["request_id"]
    assert event.sha256 == hashlib.sha256(pdf).hexdigest()
    assert (event.title, event.version, event.doc_type, event.set_name) == (
        "Data Protection Policy",
        "2.1",
        "policy",
        "EU",
    )
    stored = await (await js.object_store(OBJECT_BUCKET)).get(event.object_name)
    assert stored.data == pdf
    assert event.object_name == f"{event.tenant_id}/{document_id}"

    detail = await client.get(f"/v1/documents/{document_id}", headers=auth)
    assert detail.status_code == 200
    assert detail.json()["status"] == "processing"
    assert detail.json()["size_bytes"] == len(pdf)
    listing = await client.get("/v1/documents", headers=auth)
    assert [d["document_id"] for d in listing.json()["documents"]] == [document_id]


async def test_same_bytes_again_is_a_duplicate(
    client: httpx.AsyncClient, js: JetStreamContext, auth: dict[str, str]
) -> None:
    pdf = one_page_pdf("ISO 27001 annex A")
    first = await upload(client, auth, pdf)
    second = await upload(client, auth, pdf, title="Another title")

    assert second.status_code == 200
    assert second.json()["duplicate"] is True
    assert second.json()["document_id"] == first.json()["document_id"]
    assert second.json()["document"]["title"] == "Data Protection Policy"
    assert (
        len(
            await retained_events(
                js, DOCS.name, DOCS_UPLOADED, DocumentUploaded, document_id=first.json()["document_id"]
            )
        )
        == 1
    )


async def test_another_user_uploading_the_same_bytes_gets_their_own_document(
    client: httpx.AsyncClient, settings: Settings, auth: dict[str, str]
) -> None:
    pdf = one_page_pdf("shared regulation")
    mine = await upload(client, auth, pdf)
    theirs = await upload(client, bearer(settings, new_id("t"), new_id("u")), pdf)
    assert theirs.status_code == 202
    assert theirs.json()["document_id"] != mine.json()["document_id"]


async def test_what_cannot_be_parsed_is_refused_with_what_it_is(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 100
    response = await upload(client, auth, png, filename="scan.pdf", content_type="application/pdf")
    assert response.status_code == 415
    assert response.json()["detail"] == (
        "The file is named as a .pdf file but its content is a PNG image. PolicyPal indexes PDF, "
        "Word (DOCX), HTML, Markdown, plain-text and e-mail (.eml) files."
    )

    zipped = await upload(client, auth, b"PK\x03\x04" + b"\x00" * 60, filename="a.zip", content_type="")
    assert zipped.status_code == 415
    assert zipped.json()["detail"].startswith("This file is a ZIP archive. PolicyPal indexes PDF")


@pytest.mark.parametrize(
    ("data", "filename", "media_type"),
    [
        pytest.param(document_factory.policy_docx(), "conduct.docx", MEDIA_TYPES["docx"], id="docx"),
        pytest.param(document_factory.policy_html(), "privacy.html", "text/html", id="html"),
        pytest.param(document_factory.policy_markdown(), "security.md", "text/markdown", id="md"),
        pytest.param(b"hello", "notes.txt", "text/plain", id="txt"),
        pytest.param(document_factory.expense_email(), "gift.eml", "message/rfc822", id="eml"),
        # Parseable bytes under a lying name are accepted here; the ingestor fails them (type_mismatch).
        pytest.param(document_factory.policy_docx(), "policy.pdf", MEDIA_TYPES["docx"], id="lying-name"),
    ],
)
async def test_every_parseable_type_is_accepted_with_the_type_of_its_bytes(
    client: httpx.AsyncClient, auth: dict[str, str], data: bytes, filename: str, media_type: str
) -> None:
    response = await upload(client, auth, data, filename=filename, content_type="")
    assert response.status_code == 202, response.text
    assert response.json()["document"]["content_type"] == media_type


@pytest.mark.parametrize("overshoot", ["just over", "far over"])
async def test_too_big_is_refused(
    client: httpx.AsyncClient, settings: Settings, auth: dict[str, str], overshoot: str
) -> None:
    # Just over the limit is caught while reading; far over it by the Content-Length guard.
    limit = settings.max_upload_bytes
    size = limit + 1 if overshoot == "just over" else limit * 3
    data = b"%PDF-1.7\n" + b"0" * (size - 9)
    response = await upload(client, auth, data)
    assert response.status_code == 413
    assert "larger than the limit" in response.json()["detail"]


async def test_empty_file_is_refused_with_a_sentence(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    response = await upload(client, auth, b"")
    assert response.status_code == 422
    assert response.json()["detail"] == "The file is empty; choose a document with content."


async def test_missing_field_and_bad_doc_type_are_422(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    pdf = one_page_pdf("fields")
    response = await upload(client, auth, pdf, doc_type="memo")
    assert response.status_code == 422
    response = await client.post(
        "/v1/documents", headers=auth, files={"file": ("a.pdf", pdf, "application/pdf")}
    )
    assert response.status_code == 422


async def test_documents_of_others_are_not_found(client: httpx.AsyncClient, settings: Settings) -> None:
    tenant = new_id("t")
    owner = bearer(settings, tenant, new_id("u"))
    document_id = (await upload(client, owner, one_page_pdf("private"))).json()["document_id"]

    for stranger in (bearer(settings, tenant, new_id("u")), bearer(settings, new_id("t"), new_id("u"))):
        response = await client.get(f"/v1/documents/{document_id}", headers=stranger)
        assert response.status_code == 404
        assert response.json() == {"detail": "No such document."}
        assert (await client.get("/v1/documents", headers=stranger)).json() == {
            "documents": [],
            "groups": None,
        }
    assert (await client.get(f"/v1/documents/{new_id('d')}", headers=owner)).status_code == 404

"""Every format and every hostile file through the pipeline: real Valkey, local Qdrant, fake bus."""

import pytest

from ingestor import rejections
from policypal.contracts import DocumentFailed, DocumentReady, DocumentUploaded
from policypal.vectorstore import ChunkHit
from tests import pdf_factory
from tests.ingestor import document_factory
from tests.ingestor.pipeline_harness import Harness
from tests.support.document_uploads import make_upload, record_for

pytestmark = pytest.mark.integration


async def ingest(harness: Harness, data: bytes, filename: str, content_type: str = "") -> DocumentUploaded:
    upload = make_upload("doc1").model_copy(update={"filename": filename, "content_type": content_type})
    harness.source.objects[upload.object_name] = data
    await harness.catalog.create(record_for(upload))
    return upload


async def indexed_chunks(harness: Harness, count: int) -> list[ChunkHit]:
    vector = harness.embedder.embed(["any"])[0].tolist()
    hits = await harness.index.search(
        vector, tenant_id="t1", user_id="u1", document_ids=["doc1"], limit=count + 5
    )
    return sorted(hits, key=lambda hit: hit.chunk_index)


@pytest.mark.parametrize(
    ("data", "filename", "parser"),
    [
        pytest.param(document_factory.policy_docx(), "conduct.docx", "unstructured-docx", id="docx"),
        pytest.param(document_factory.policy_html(), "privacy.html", "unstructured-html", id="html"),
        pytest.param(document_factory.policy_markdown(), "security.md", "unstructured-markdown", id="md"),
        pytest.param(document_factory.expense_email(), "gift.eml", "unstructured-email", id="eml"),
        pytest.param(
            b"Scope\n\nThis policy applies to every employee.\n", "scope.txt", "unstructured-text", id="txt"
        ),
        pytest.param(
            "Données conservées dix ans après la clôture.\n".encode("cp1252"),
            "fr.txt",
            "unstructured-text",
            id="cp1252",
        ),
    ],
)
async def test_every_format_becomes_ready_with_sections_in_the_index(
    limited_harness: Harness, data: bytes, filename: str, parser: str
) -> None:
    harness = limited_harness
    terminal = await harness.pipeline.run(await ingest(harness, data, filename))

    assert isinstance(terminal, DocumentReady), terminal
    assert (terminal.parser, terminal.pages) == (parser, 1)
    hits = await indexed_chunks(harness, terminal.chunks)
    assert [hit.chunk_index for hit in hits] == list(range(terminal.chunks))
    record = await harness.catalog.get("t1", "u1", "doc1")
    assert record is not None
    assert record.status == "ready"


async def test_docx_chunks_carry_their_section_into_qdrant(limited_harness: Harness) -> None:
    harness = limited_harness
    terminal = await harness.pipeline.run(await ingest(harness, document_factory.policy_docx(), "c.docx"))
    assert isinstance(terminal, DocumentReady)
    hits = await indexed_chunks(harness, terminal.chunks)
    gift = next(hit for hit in hits if document_factory.GIFT_RULE in hit.text)
    assert (gift.section, gift.page) == ("1. Gifts and hospitality", None)


async def test_docx_page_breaks_become_the_pages_of_its_chunks(limited_harness: Harness) -> None:
    harness = limited_harness
    terminal = await harness.pipeline.run(await ingest(harness, document_factory.paged_docx(), "h.docx"))
    assert isinstance(terminal, DocumentReady)
    assert terminal.pages == 3
    hits = await indexed_chunks(harness, terminal.chunks)
    travel = next(hit for hit in hits if document_factory.TRAVEL_RULE in hit.text)
    assert travel.page == 2


async def test_an_enormous_line_of_words_is_indexed(limited_harness: Harness) -> None:
    harness = limited_harness
    line = " ".join(pdf_factory.page_sentences(1, count=20)) + " "
    data = (line * 200).encode()  # ~220 KB on one line
    terminal = await harness.pipeline.run(await ingest(harness, data, "one-line.txt"))
    assert isinstance(terminal, DocumentReady)
    assert terminal.chunks > 200


@pytest.mark.parametrize(
    ("data", "filename", "content_type", "code"),
    [
        pytest.param(b"", "empty.txt", "", rejections.EMPTY_FILE, id="zero-bytes"),
        pytest.param(b"a " * (1024 * 1024 + 1), "big.txt", "", rejections.TOO_LARGE, id="over-size-limit"),
        pytest.param(
            pdf_factory.text_pdf(6), "long.pdf", "", rejections.TOO_MANY_PAGES, id="over-page-limit"
        ),
        pytest.param(
            document_factory.encrypted_office_container(),
            "secret.docx",
            "",
            rejections.ENCRYPTED,
            id="encrypted-docx",
        ),
        pytest.param(
            pdf_factory.encrypted_pdf(user_password="pw"),
            "secret.pdf",
            "",
            rejections.ENCRYPTED,
            id="encrypted-pdf",
        ),
        pytest.param(
            document_factory.policy_docx()[:3000], "cut.docx", "", rejections.CORRUPT, id="truncated-docx"
        ),
        pytest.param(
            document_factory.zip_bomb_docx(),
            "bomb.docx",
            "",
            rejections.DECOMPRESSION_BOMB,
            id="decompression-bomb",
        ),
        pytest.param(
            pdf_factory.drawing_only_pdf(2), "scan.pdf", "", rejections.NO_TEXT_LAYER, id="scanned-pdf"
        ),
        pytest.param(
            document_factory.policy_docx(), "policy.pdf", "", rejections.TYPE_MISMATCH, id="lying-extension"
        ),
        pytest.param(b"A" * 200_000, "blob.txt", "", rejections.UNBROKEN_TEXT, id="enormous-unbroken-line"),
        pytest.param(
            b"\x00\x01\xfe" * 1000, "notes.txt", "text/plain", rejections.CORRUPT, id="binary-as-text"
        ),
        pytest.param(
            b"\x89PNG\r\n\x1a\n" + b"\x00" * 100, "scan.png", "", rejections.UNSUPPORTED_TYPE, id="image"
        ),
    ],
)
async def test_hostile_files_end_failed_with_a_reason(
    limited_harness: Harness, data: bytes, filename: str, content_type: str, code: str
) -> None:
    harness = limited_harness
    terminal = await harness.pipeline.run(await ingest(harness, data, filename, content_type))

    assert isinstance(terminal, DocumentFailed)
    assert terminal.reason_code == code, terminal.reason
    assert terminal.reason.endswith(".")
    assert len(terminal.reason) > 20
    record = await harness.catalog.get("t1", "u1", "doc1")
    assert record is not None
    assert (record.status, record.reason_code) == ("failed", code)
    assert await harness.index.count(tenant_id="t1", document_id="doc1") == 0

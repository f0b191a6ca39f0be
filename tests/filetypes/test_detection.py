"""Recognising files from their bytes, and judging the uploader's claim about them."""

import pytest

from policypal.filetypes import claimed_types, decode_text, detect_file_type, judge
from policypal.filetypes.text_decoding import UndecodableText
from tests import pdf_factory
from tests.ingestor import document_factory


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        pytest.param(pdf_factory.text_pdf(1), "pdf", id="pdf"),
        pytest.param(b"junk before the header\n" + pdf_factory.text_pdf(1), "pdf", id="pdf-after-junk"),
        pytest.param(document_factory.policy_docx(), "docx", id="docx"),
        pytest.param(document_factory.policy_docx()[:3000], "docx", id="truncated-docx"),
        pytest.param(document_factory.policy_html(), "html", id="html"),
        pytest.param(b"  <html><body><p>x</p></body></html>", "html", id="html-no-doctype"),
        pytest.param(document_factory.policy_markdown(), "markdown", id="markdown"),
        pytest.param(document_factory.expense_email(), "email", id="eml"),
        pytest.param(b"Retention\n\nRecords are kept for seven years.\n", "text", id="text"),
        pytest.param("Données personnelles conservées dix ans.".encode("cp1252"), "text", id="cp1252"),
        pytest.param("\ufeffTexte en UTF-16.".encode("utf-16"), "text", id="utf16-bom"),
        pytest.param(b"From: someone\nnot a header line\n", "text", id="text-starting-with-from"),
    ],
)
def test_supported_kinds_are_recognised_from_bytes(data: bytes, kind: str) -> None:
    detected = detect_file_type(data)
    assert detected.kind == kind
    assert detected.supported


@pytest.mark.parametrize(
    ("data", "description"),
    [
        pytest.param(b"", "an empty file", id="empty"),
        pytest.param(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "a PNG image", id="png"),
        pytest.param(b"\x00\x01\x02garbage" * 50, "binary data of an unknown format", id="binary"),
        pytest.param(
            document_factory.encrypted_office_container(),
            "a password-protected Office document",
            id="encrypted",
        ),
        pytest.param(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600, "a legacy Office file", id="doc"),
        pytest.param(
            document_factory.zip_bomb_docx(1024 * 1024)[:0] + b"PK\x03\x04" + b"\x00" * 40, "a ZIP", id="zip"
        ),
    ],
)
def test_other_bytes_are_described_not_accepted(data: bytes, description: str) -> None:
    detected = detect_file_type(data)
    assert detected.kind is None
    assert detected.description.startswith(description)


def test_encrypted_office_file_is_flagged() -> None:
    assert detect_file_type(document_factory.encrypted_office_container()).encrypted


@pytest.mark.parametrize(
    ("data", "filename", "content_type", "kind", "problem"),
    [
        pytest.param(pdf_factory.text_pdf(1), "a.pdf", "application/pdf", "pdf", None, id="honest-pdf"),
        pytest.param(
            pdf_factory.text_pdf(1), "upload", "application/octet-stream", "pdf", None, id="no-claim"
        ),
        pytest.param(b"# Title\n\ntext\n", "notes.txt", "text/plain", "text", None, id="txt-name-wins"),
        pytest.param(b"plain words\n", "notes.md", "", "markdown", None, id="md-name-wins"),
        pytest.param(b"<html><body>x</body></html>", "page.txt", "", "html", None, id="html-bytes-win"),
        pytest.param(
            document_factory.policy_docx(),
            "policy.pdf",
            "application/pdf",
            None,
            "mismatch",
            id="docx-as-pdf",
        ),
        pytest.param(pdf_factory.text_pdf(1), "policy.docx", "", None, "mismatch", id="pdf-as-docx"),
        pytest.param(b"hello", "doc.pdf", "image/png", None, "unsupported", id="declared-image"),
        pytest.param(
            b"\x89PNG\r\n\x1a\n\x00", "scan.pdf", "application/pdf", None, "unreadable", id="png-as-pdf"
        ),
        pytest.param(b"\x89PNG\r\n\x1a\n\x00", "scan.png", "image/png", None, "unsupported", id="png"),
    ],
)
def test_claims_are_checked_against_the_bytes(
    data: bytes, filename: str, content_type: str, kind: str | None, problem: str | None
) -> None:
    verdict = judge(detect_file_type(data), claimed_types(filename, content_type))
    assert (verdict.kind, verdict.problem) == (kind, problem)
    if problem is not None:
        assert verdict.message.endswith(".")


def test_legacy_encodings_are_decoded() -> None:
    text = "Les données personnelles sont conservées dix ans après la clôture du compte. " * 5
    decoded = decode_text(text.encode("cp1252"))
    assert decoded.text == text


def test_utf8_sample_with_a_legacy_tail_is_decoded_whole() -> None:
    french = "Les données sont effacées après la clôture du compte, sauf décision contraire. " * 8
    text = "Records are kept for seven years. " * 2_000 + french
    assert decode_text(text.encode("latin-1")).text.endswith(french)


def test_binary_is_not_decoded() -> None:
    with pytest.raises(UndecodableText):
        decode_text(b"\x00\x01\x02\x03" * 100)

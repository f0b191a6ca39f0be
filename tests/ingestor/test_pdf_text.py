"""Page-by-page PDF text extraction on PDFs the tests generate."""

import pytest

from ingestor import rejections
from ingestor.pdf_text import (
    PDFIUM,
    PDFMINER,
    PYPDF,
    STICKY_AFTER,
    PdfText,
    extract_pages,
    parser_name,
    pdfium_plain_text,
)
from ingestor.rejections import DocumentRejected
from tests import pdf_factory


def test_multi_page_text_keeps_page_order_and_numbers() -> None:
    pages = extract_pages(pdf_factory.text_pdf(3))
    assert [p.number for p in pages] == [1, 2, 3]
    for page in pages:
        assert page.parser == PDFIUM
        assert f"Page {page.number} clause 0 says" in page.text
    assert parser_name(pages) == PDFIUM


def test_a_page_without_text_is_empty_not_an_error() -> None:
    pages = extract_pages(pdf_factory.text_pdf(3, blank_pages=frozenset({2})))
    assert [bool(p.text.strip()) for p in pages] == [True, False, True]


def test_drawing_only_pdf_yields_no_text() -> None:
    pages = extract_pages(pdf_factory.drawing_only_pdf(2))
    assert len(pages) == 2
    assert all(not p.text.strip() for p in pages)


def test_glued_pages_fall_back_to_pdfminer() -> None:
    pages = extract_pages(pdf_factory.kerned_pdf(2, glued_pages=frozenset({2})))
    assert [p.parser for p in pages] == [PDFIUM, PDFMINER]
    assert "Page 2 clause 0 says the" in pages[1].text
    assert parser_name(pages) == "pdfium+pdfminer"


def test_after_repeated_glue_pdfminer_reads_the_rest_directly() -> None:
    pdf = PdfText.open(pdf_factory.kerned_pdf(STICKY_AFTER + 2))
    pages = [pdf.page(i) for i in range(pdf.page_count)]
    assert all(p.parser == PDFMINER for p in pages)
    assert all(f"Page {p.number} clause 1 says the" in p.text for p in pages)
    assert parser_name(pages) == PDFMINER


def test_encrypted_with_empty_user_password_opens() -> None:
    pages = extract_pages(pdf_factory.encrypted_pdf(user_password=""))
    assert "Page 1 clause 0" in pages[0].text


@pytest.mark.parametrize(
    ("data", "code"),
    [
        pytest.param(b"", rejections.EMPTY_FILE, id="zero-bytes"),
        pytest.param(b"PK\x03\x04 this is a zip" * 50, rejections.CORRUPT, id="not-a-pdf"),
        pytest.param(pdf_factory.text_pdf(3)[:1500], rejections.CORRUPT, id="truncated"),
        pytest.param(pdf_factory.encrypted_pdf(user_password="s3cret"), rejections.ENCRYPTED, id="encrypted"),
    ],
)
def test_unreadable_files_are_rejected_with_a_reason(data: bytes, code: str) -> None:
    with pytest.raises(DocumentRejected) as caught:
        extract_pages(data)
    assert caught.value.reason_code == code
    assert caught.value.reason.endswith(".")


def test_pdfium_line_end_hyphens_are_joined_and_line_ends_are_plain() -> None:
    assert pdfium_plain_text("the pack\ufffe\r\nage is\r\ninstalled\ufffe") == "the package is\ninstalled"


def test_a_page_pdfium_cannot_read_is_read_by_pypdf() -> None:
    pdf = PdfText.open(pdf_factory.text_pdf(2))
    pdf.close()  # PDFium released: every page must come from the next extractor
    pages = [pdf.page(i) for i in range(pdf.page_count)]
    assert [p.parser for p in pages] == [PYPDF, PYPDF]
    assert "Page 2 clause 0 says" in pages[1].text

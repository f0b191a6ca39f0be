"""DOCX page numbers from hard page breaks, when Word's rendered breaks are absent."""

import zipfile
from io import BytesIO

from ingestor.docx_pages import mark_hard_page_breaks
from ingestor.structured_text import partition_structured
from tests.ingestor import document_factory


def _pages(data: bytes) -> list[tuple[int | None, str]]:
    return [(block.page, block.text[:20]) for block in partition_structured(data, "docx")]


def test_hard_page_breaks_number_the_pages() -> None:
    assert _pages(document_factory.paged_docx()) == [
        (1, "Staff Handbook"),
        (1, document_factory.GIFT_RULE[:20]),
        (2, document_factory.TRAVEL_RULE[:20]),
        (3, "Expense claims are f"),
    ]


def test_word_rendered_breaks_are_used_as_they_are_and_not_counted_twice() -> None:
    data = document_factory.paged_docx(rendered_breaks=True)
    assert mark_hard_page_breaks(data) is data
    assert [page for page, _ in _pages(data)] == [1, 1, 2, 3]


def test_a_document_without_page_breaks_is_left_alone_and_has_no_pages() -> None:
    data = document_factory.policy_docx()
    assert mark_hard_page_breaks(data) is data
    assert {page for page, _ in _pages(data)} == {None}


def test_the_rewritten_archive_keeps_every_other_part() -> None:
    data = document_factory.paged_docx()
    with (
        zipfile.ZipFile(BytesIO(data)) as before,
        zipfile.ZipFile(BytesIO(mark_hard_page_breaks(data))) as after,
    ):
        assert before.namelist() == after.namelist()
        changed = [name for name in before.namelist() if before.read(name) != after.read(name)]
    assert changed == ["word/document.xml"]

"""A PDF's outline as chunk section titles: nested paths, mid-page starts, and outlines that are broken."""

import pytest

from ingestor.chunking import chunk_pages, normalize_text
from ingestor.pdf_outline import (
    MAX_ENTRIES,
    MAX_PATH_TITLES,
    MAX_TITLE_CHARS,
    OutlineEntry,
    OutlineSections,
    clean_title,
    title_position,
)
from ingestor.pdf_text import PageText, PdfText, extract_pages
from tests import pdf_factory
from tests.ingestor import outlined_pdfs


def _outline(data: bytes) -> OutlineSections:
    pdf = PdfText.open(data)
    try:
        return pdf.outline()
    finally:
        pdf.close()


def _chunks(data: bytes, *, size: int = 1000, overlap: int = 150) -> list[tuple[int | None, str | None, str]]:
    chunks = chunk_pages(extract_pages(data), size=size, overlap=overlap, outline=_outline(data))
    return [(chunk.page, chunk.section, chunk.text) for chunk in chunks]


def test_nested_outline_names_every_chunk_after_the_first_heading() -> None:
    chunks = _chunks(outlined_pdfs.outlined_pdf())

    # Page 1 comes before any bookmark: no section, as without an outline.
    assert {section for page, section, _ in chunks if page == 1} == {None}
    assert {section for page, section, _ in chunks if page == 3} == {"Scope and Purpose › Who Must Comply"}
    assert {section for page, section, _ in chunks if page == 4} == {"Scope and Purpose › Records Retention"}
    assert {section for page, section, _ in chunks if page == 5} == {"Vendor Management"}


def test_a_heading_mid_page_splits_the_page_between_two_sections() -> None:
    page_two = [(section, text) for page, section, text in _chunks(outlined_pdfs.outlined_pdf()) if page == 2]

    heading = "1.1 Who Must Comply"
    holder = next(i for i, (_, text) in enumerate(page_two) if heading in text)
    assert holder > 0, "the test needs prose of the chapter before the subsection's heading"
    # Before the heading: the chapter; the chunk holding the heading and every one after: the subsection.
    assert {section for section, _ in page_two[:holder]} == {"Scope and Purpose"}
    assert {section for section, _ in page_two[holder:]} == {"Scope and Purpose › Who Must Comply"}
    # Prose printed under the chapter heading only (page seed 20) never sits in a subsection chunk alone.
    for section, text in page_two:
        if "Page 21 clause" not in text and heading not in text:
            assert section == "Scope and Purpose"


def test_without_an_outline_chunks_are_unchanged() -> None:
    data = pdf_factory.text_pdf(3)
    outline = _outline(data)
    assert not outline
    plain = chunk_pages(extract_pages(data), size=1000, overlap=150)
    assert _chunks(data) == [(chunk.page, None, chunk.text) for chunk in plain]


@pytest.mark.parametrize(
    "make",
    [
        outlined_pdfs.cyclic_outline_pdf,
        outlined_pdfs.broken_destinations_pdf,
        lambda: outlined_pdfs.huge_outline_pdf(MAX_ENTRIES + 1),
        lambda: outlined_pdfs.single_target_outline_pdf(5),
    ],
    ids=["cycle", "broken-destinations", "huge", "all-on-one-page"],
)
def test_a_broken_outline_never_fails_reading_and_names_nothing_wrongly(make: object) -> None:
    data = make()  # type: ignore[operator]
    outline = _outline(data)
    chunks = _chunks(data)
    assert chunks
    assert all(f"Page {page} clause" in text for page, _, text in chunks)
    sections = {section for _, section, _ in chunks}
    # A cyclic outline keeps the entries it read before the loop; the others give no sections at all.
    assert sections <= {None, "Loop one", "Loop two"}
    # Only the cycle's entries before the loop are kept; pypdf stops the others at the entry limit.
    assert bool(outline) is (make is outlined_pdfs.cyclic_outline_pdf)


def test_titles_match_heading_lines_after_a_number_whatever_the_case_and_spacing() -> None:
    text = normalize_text(
        "Debian Policy Manual, Release 4.6\nThe scope of this manual is wide.\n"
        "1.1 Scope\nThis manual describes...\nCHAPTER 3. BINARY\nPACKAGES\nDebian Developer’s Duties\nbody"
    )
    assert title_position("Scope", text, 0) == text.index("1.1 Scope")
    assert title_position("Binary packages", text, 0) == text.index("CHAPTER 3.")
    assert title_position("Debian Developer's Duties", text, 0) == text.index("Debian Developer’s")
    # A running head names the chapter before its page number; it is not where the chapter starts.
    heads = normalize_text("Chapter 6: Legal Matters 3\nsome text\n6 Legal Matters\nbody")
    assert title_position("6 Legal Matters", heads, 0) == heads.index("6 Legal Matters\nbody")
    assert title_position("A Suggested Responses", "Appendix A Suggested Responses", 0) == 0
    # Only at the start of a line: a mention in a sentence is not the heading.
    assert title_position("manual describes", text, 0) is None
    assert title_position("Scope", text, text.index("1.1 Scope") + 1) is None
    assert title_position("***", text, 0) is None


def test_long_paths_keep_the_top_and_deepest_titles_and_titles_are_bounded() -> None:
    deep = OutlineEntry(tuple(f"Level {i}" for i in range(MAX_PATH_TITLES + 3)), page=1)
    kept = deep.section.split(" › ")
    assert len(kept) == MAX_PATH_TITLES
    assert kept[0] == "Level 0"
    assert kept[-1] == deep.path[-1]
    assert clean_title("  Scope\x00 and\r\n\tPurpose\ufeff ") == "Scope and Purpose"
    assert len(clean_title("x" * 10 * MAX_TITLE_CHARS)) == MAX_TITLE_CHARS
    assert clean_title(None) == ""


def test_a_page_takes_the_deepest_entry_started_before_it_when_outline_and_page_order_differ() -> None:
    # Entries out of page order (an appendix bookmarked before the chapters) are placed by page.
    sections = OutlineSections(
        [
            OutlineEntry(("Appendix",), page=9),
            OutlineEntry(("Intro",), page=2),
            OutlineEntry(("Intro", "Terms"), page=3),
        ]
    )
    assert sections.page(1, "text").for_span(0, 4) is None
    assert sections.page(5, "text").for_span(0, 4) == "Intro › Terms"
    assert sections.page(10, "text").for_span(0, 4) == "Appendix"


def test_a_section_shorter_than_a_chunk_still_gets_one() -> None:
    # Chapter 21 ends, 22 is two lines, appendix A starts: all on one page, within one chunk's length.
    text = normalize_text(
        " ".join(pdf_factory.page_sentences(1, 6))
        + "\n22 Using the List\nShort chapter text.\nAppendix A Suggested Responses\n"
        + " ".join(pdf_factory.page_sentences(2, 12))
    )
    sections = OutlineSections(
        [
            OutlineEntry(("21 Directory",), page=3),
            OutlineEntry(("22 Using the List",), page=4),
            OutlineEntry(("A Suggested Responses",), page=4),
        ]
    )
    pieces = chunk_pages([PageText(4, text, "pdfium")], size=600, overlap=100, outline=sections)
    named = [chunk.section for chunk in pieces]
    holder = next(i for i, chunk in enumerate(pieces) if "22 Using the List" in chunk.text)
    assert "Appendix A Suggested Responses" in pieces[holder].text
    assert named[holder] == "22 Using the List"
    assert set(named[holder + 1 :]) == {"A Suggested Responses"}
    assert set(named[:holder]) <= {"21 Directory"}

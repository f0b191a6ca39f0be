"""Chunking: sizes, overlap, page boundaries and indices."""

import itertools

import pytest

from ingestor.chunking import chunk_pages, normalize_text, split_text
from ingestor.pdf_text import PageText
from tests.pdf_factory import page_sentences


def _page(number: int, sentences: int = 40) -> PageText:
    return PageText(number, " ".join(page_sentences(number, sentences)), "pypdf")


def test_chunks_respect_size_and_indices_run_over_the_document() -> None:
    chunks = chunk_pages([_page(1), _page(2), _page(3)], size=500, overlap=80)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert all(0 < len(c.text) <= 500 for c in chunks)
    assert [c.page for c in chunks] == sorted(c.page for c in chunks)
    assert {c.page for c in chunks} == {1, 2, 3}


def test_chunks_never_cross_pages() -> None:
    chunks = chunk_pages([_page(1), _page(2)], size=700, overlap=100)
    for chunk in chunks:
        # Every sentence names its page, so a chunk holding two page numbers crossed a page.
        assert f"Page {chunk.page} clause" in chunk.text
        other = 2 if chunk.page == 1 else 1
        assert f"Page {other} clause" not in chunk.text


def test_consecutive_chunks_overlap_by_about_the_overlap() -> None:
    pieces = split_text(normalize_text(_page(1).text), size=600, overlap=120)
    assert len(pieces) > 3
    for left, right in itertools.pairwise(pieces):
        shared = _longest_suffix_prefix(left, right)
        assert 60 <= shared <= 120, (shared, left[-130:], right[:130])


def test_chunks_end_at_sentences_when_they_can() -> None:
    pieces = split_text(normalize_text(_page(1).text), size=600, overlap=0)
    assert all(piece.endswith(".") for piece in pieces)


def test_chunks_start_at_a_word() -> None:
    text = normalize_text(_page(2).text)
    for piece in split_text(text, size=450, overlap=100):
        start = text.index(piece)
        assert start == 0 or text[start - 1].isspace()


def test_paragraph_break_is_preferred_over_a_sentence_end() -> None:
    first = "Alpha beta gamma. " * 20
    text = first.strip() + "\n\n" + "Delta epsilon zeta. " * 20
    pieces = split_text(normalize_text(text), size=len(first) + 40, overlap=0)
    assert pieces[0] == first.strip()


def test_a_word_longer_than_the_chunk_is_cut() -> None:
    pieces = split_text("x" * 2500, size=1000, overlap=150)
    assert [len(p) for p in pieces] == [1000, 1000, 500]


def test_short_page_is_one_chunk_and_empty_pages_give_none() -> None:
    pages = [
        PageText(1, "  Title page \n\n\n ", "pypdf"),
        PageText(2, "", "pypdf"),
        PageText(3, "...  . .", "pypdf"),
    ]
    chunks = chunk_pages(pages, size=1000, overlap=150)
    assert [(c.index, c.page, c.text) for c in chunks] == [(0, 1, "Title page")]


def test_normalize_collapses_spaces_and_blank_lines() -> None:
    assert normalize_text("a  b\t c \n\n\n\nd  \n e") == "a b c\n\nd\ne"


def test_overlap_must_be_smaller_than_size() -> None:
    with pytest.raises(ValueError, match="overlap"):
        split_text("abc", size=100, overlap=100)


def _longest_suffix_prefix(left: str, right: str) -> int:
    for n in range(min(len(left), len(right)), 0, -1):
        if left.endswith(right[:n]):
            return n
    return 0

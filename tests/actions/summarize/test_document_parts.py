"""Top-level parts of a document from its own structure: chapter markers, numbering, section titles."""

from actions.summarize.document_parts import MAX_PARTS, document_parts
from tests.actions.summarize.chunk_builder import paged, titled

BODY = "Every operator must keep the register up to date and review it every year."
#: A first page this short would be a title page (boilerplate), whose lines open no part.
LONG = " ".join([BODY] * 4)


def test_sphinx_chapter_markers_open_parts_with_their_titles_and_numbers() -> None:
    chunks = paged(
        [
            ["Contents\n1 About this manual . . . . 3"],
            [f"CHAPTER\nONE\nABOUT THIS MANUAL\n1.1 Scope\n{BODY}"],
            [f"1.2 Authors\n{BODY}"],
            [f"CHAPTER\nTWO\nTHE ARCHIVE\n{BODY}\n2.1 Areas\n{BODY}"],
            [f"CHAPTER\nTWENTYONE\nLATE APPENDIX\n{BODY}"],
            [f"CHAPTER\nTHREE\nSOURCE PACKAGES\n{BODY}"],
        ]
    )
    parts = document_parts(chunks)
    assert [(p.title, p.number, p.lead) for p in parts] == [
        ("Front matter", None, True),
        ("1. About This Manual", "1", False),
        # "TWENTYONE" is a leap from 2, not the next chapter: it stays in chapter 2.
        ("2. The Archive", "2", False),
        ("3. Source Packages", "3", False),
    ]
    assert [[c.page for c in p.chunks] for p in parts] == [[1], [2, 3], [4, 5], [6]]
    assert parts[1].pages == "pp. 2–3"


def test_numbered_headings_open_parts_where_the_leading_number_moves_on() -> None:
    chunks = paged(
        [
            [f"1 Scope\n{LONG}\n1.1 Application\n{BODY}"],
            [f"1.2 Exceptions\n{BODY}\n0.0. This symlink is needed by the linker when it runs\n{BODY}"],
            [f"2.1 Records\n{BODY}\n2.2 Retention\n{BODY}"],
            [f"118 Chapter 2. Records\n{BODY}\n3.1 Transfers\n{BODY}"],
            [f"A.1 Forms\n{BODY}"],
        ]
    )
    parts = document_parts(chunks)
    assert [(p.number, [c.page for c in p.chunks]) for p in parts] == [
        ("1", [1, 2]),
        ("2", [3]),
        ("3", [4]),
        ("A", [5]),
    ]
    # A part named by numbering alone: its single-level heading when there is one.
    assert parts[0].title == "1 Scope"
    assert parts[1].title == "Part 2"


def test_a_running_footer_repeating_the_chapter_opens_it_only_once() -> None:
    chunks = paged(
        [
            [f"Chapter 1: General provisions\n{LONG}"],
            [f"{BODY}\nChapter 1: General provisions"],
            [f"Chapter 2: Records\n{BODY}"],
            [f"{BODY}\nChapter 2: Records"],
        ]
    )
    parts = document_parts(chunks)
    assert [(p.title, [c.page for c in p.chunks]) for p in parts] == [
        ("1. General provisions", [1, 2]),
        ("2. Records", [3, 4]),
    ]


def test_section_titles_of_chunks_number_the_parts_and_subheadings_stay_inside() -> None:
    titles = ["1 Introduction", "Rationale", "1.2 Terms", "2 Obligations", "Example", "3 Penalties"]
    chunks = titled([f"{BODY} ({n})" for n in range(len(titles))], titles)
    parts = document_parts(chunks)
    assert [(p.title, [c.chunk_index for c in p.chunks]) for p in parts] == [
        ("1 Introduction", [0, 1, 2]),
        ("2 Obligations", [3, 4]),
        ("3 Penalties", [5]),
    ]
    assert parts[0].pages == ""


def test_section_paths_count_by_their_top_level_title() -> None:
    titles = [None, "Archive › Areas", "Archive › Sections", "Binary packages › Names", "Binary packages"]
    chunks = titled([f"CHAPTER\nNINE\nNOISE\n{BODY} ({n})" for n in range(len(titles))], titles)
    parts = document_parts(chunks)
    # The titles alone decide: the chapter marker in the text opens nothing.
    assert [(p.title, p.lead, [c.chunk_index for c in p.chunks]) for p in parts] == [
        ("Front matter", True, [0]),
        ("Archive", False, [1, 2]),
        ("Binary packages", False, [3, 4]),
    ]


def test_unnumbered_section_titles_are_parts_in_order() -> None:
    titles = ["Purpose", "Purpose", "Who it applies to", "Keeping records"]
    parts = document_parts(titled([f"{BODY} ({n})" for n in range(len(titles))], titles))
    assert [p.title for p in parts] == ["Purpose", "Who it applies to", "Keeping records"]


def test_a_document_without_structure_is_cut_into_page_ranges_covering_all_of_it() -> None:
    chunks = paged([[BODY, BODY] for _ in range(30)])
    parts = document_parts(chunks)
    assert [p.title for p in parts] == ["Pages 1–10", "Pages 11–20", "Pages 21–30"]
    assert [c for p in parts for c in p.chunks] == chunks


def test_too_many_parts_are_merged_with_their_smallest_neighbours() -> None:
    titles = [f"{n} Topic {n}" for n in range(1, MAX_PARTS + 11)]
    parts = document_parts(titled([f"{BODY} ({n})" for n in range(len(titles))], titles))
    assert len(parts) == MAX_PARTS
    assert [c.chunk_index for p in parts for c in p.chunks] == list(range(len(titles)))


def test_no_chunks_no_parts() -> None:
    assert document_parts([]) == []

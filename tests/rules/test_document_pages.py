"""Pages rebuilt from the chunker's overlapping chunks, each chunk in place, running heads blanked."""

import random
import textwrap
from functools import partial

from ingestor.chunking import normalize_text
from policypal.rules.document_pages import document_pages
from tests.rules.chunked_pages import chunks_of as chunked

#: This module's pages, cut as the ingestor would in chunks of 220 characters.
chunks_of = partial(chunked, size=220, overlap=50)

RULES = [
    "Packages must not install files into /usr/local. That hierarchy is reserved for the local system "
    "administrator, so that upgrades of the distribution never overwrite locally installed software.",
    "Host-specific configuration files for add-on application software packages must be installed "
    "within the directory /etc/opt/<subdir>, where <subdir> is the name of the subtree in /opt.",
    "Log files should be placed in /var/log and rotated at least weekly. Applications must not "
    "write log files into the directory that holds their executables or their static data.",
    "Programs must not assume that any files or directories in /tmp are preserved between "
    "invocations of the program, and the administrator may delete them at every boot.",
    "Each package must place its documentation in /usr/share/doc/<package>. Documentation that "
    "is needed at run time belongs in the package's own data directory under /usr/share.",
]


def page_body(number: int) -> str:
    rule = RULES[number % len(RULES)]
    return f"{number + 2}.1 Requirements\n{textwrap.fill(rule, 80)}\n\n{textwrap.fill(RULES[number - 1], 80)}"


def test_a_page_is_its_chunks_joined_without_the_overlap() -> None:
    text = normalize_text(page_body(1))
    chunks = chunks_of([(1, text)])
    assert len(chunks) >= 2

    (page,) = document_pages(chunks)

    assert page.page == 1
    assert page.text == text


def test_every_chunk_lies_at_its_offset_in_the_page_text() -> None:
    chunks = chunks_of([(n, page_body(n)) for n in (1, 2)])

    pages = document_pages(chunks)

    assert [p.page for p in pages] == [1, 2]
    for page in pages:
        for placed in page.chunks:
            assert page.text[placed.offset : placed.offset + len(placed.chunk.text)] == placed.chunk.text


def test_chunks_in_any_order_rebuild_the_same_pages() -> None:
    chunks = chunks_of([(n, page_body(n)) for n in (1, 2, 3)])
    shuffled = chunks[:]
    random.Random(7).shuffle(shuffled)

    assert [p.text for p in document_pages(shuffled)] == [p.text for p in document_pages(chunks)]


def test_the_chunk_holding_a_span_is_found_with_the_span_clipped_to_it() -> None:
    chunks = chunks_of([(1, page_body(1))])
    (page,) = document_pages(chunks)
    second = page.chunks[1]
    inside = (second.offset + len(second.chunk.text) - 20, second.offset + len(second.chunk.text) - 2)
    across = (page.chunks[0].offset + 5, second.offset + len(second.chunk.text) - 1)

    found_inside = page.chunk_for(*inside)
    found_across = page.chunk_for(*across)

    assert found_inside is not None
    assert found_inside[0].holds(found_inside[1], found_inside[2])
    assert page.text[found_inside[1] : found_inside[2]] in found_inside[0].chunk.text
    assert found_across is not None
    placed, start, end = found_across
    assert placed.holds(start, end)
    assert across[0] <= start < end <= across[1]


def with_running_lines(number: int) -> str:
    return (
        f"Filesystem Hierarchy Standard\n{page_body(number)}\nLSB Workgroup, The Linux Foundation\n{number}"
    )


def test_running_heads_and_page_numbers_repeated_on_three_pages_are_blanked_with_spaces() -> None:
    chunks = chunks_of([(n, with_running_lines(n)) for n in (1, 2, 3)])
    unblanked = [normalize_text(with_running_lines(n)) for n in (1, 2, 3)]

    pages = document_pages(chunks)

    for page, original in zip(pages, unblanked, strict=True):
        assert "Filesystem Hierarchy Standard" not in page.text
        assert "LSB Workgroup" not in page.text
        assert len(page.text) == len(original)
        assert page.text.split("\n")[0] == " " * len("Filesystem Hierarchy Standard")
        assert page.text.split("\n")[-1].strip() == ""
        for placed in page.chunks:
            window = page.text[placed.offset : placed.offset + len(placed.chunk.text)]
            # Offsets are kept: the chunk's text still lines up, blanked characters aside.
            assert all(a in (b, " ") for a, b in zip(window, placed.chunk.text, strict=True))


def test_lines_repeated_on_only_two_pages_are_kept() -> None:
    chunks = chunks_of([(n, with_running_lines(n)) for n in (1, 2)])

    pages = document_pages(chunks)

    assert all(p.text.startswith("Filesystem Hierarchy Standard") for p in pages)


def test_numbered_section_headings_opening_pages_are_no_running_heads() -> None:
    chunks = chunks_of([(n, with_running_lines(n)) for n in (1, 2, 3, 4)])

    pages = document_pages(chunks)

    assert [p.text.split("\n")[1] for p in pages] == [f"{n + 2}.1 Requirements" for n in (1, 2, 3, 4)]


def test_a_body_line_is_not_blanked_because_it_resembles_a_running_head() -> None:
    chunks = chunks_of([(n, with_running_lines(n)) for n in (1, 2, 3)])

    pages = document_pages(chunks)

    for number, page in zip((1, 2, 3), pages, strict=True):
        first_rule_line = textwrap.fill(RULES[number % len(RULES)], 80).split("\n")[0]
        assert first_rule_line in page.text


def test_unpaged_chunks_make_one_page_per_section() -> None:
    chunks = chunks_of(
        [(None, RULES[0]), (None, RULES[1])], size=120, overlap=30, sections=["Installation", "Configuration"]
    )

    pages = document_pages(chunks)

    assert [p.page for p in pages] == [None, None]
    assert [p.text for p in pages] == [RULES[0], RULES[1]]
    assert [{placed.chunk.section for placed in p.chunks} for p in pages] == [
        {"Installation"},
        {"Configuration"},
    ]

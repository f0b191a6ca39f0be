"""A statement's section: the heading read off its page when the document's structure knows it."""

from policypal.rules.statement_sections import StructureSections
from tests.rules.chunked_pages import chunks_of

OUTLINE = [
    "4 Program Behavior for All Programs › File Usage",
    "5 Making The Best Use of C › Formatting Your Source Code",
]


def test_a_heading_the_structure_knows_is_named_by_the_structures_path() -> None:
    # The chunk began in "File Usage"; the rule stands under the next heading, read off the page.
    chunks = chunks_of([(36, "Some text."), (37, "More text.")], sections=OUTLINE)
    sections = StructureSections.of(chunks)

    found = sections.section_of("5.1 Formatting Your Source Code", chunks[0])

    assert found == "5 Making The Best Use of C › Formatting Your Source Code"


def test_a_running_header_with_its_page_number_is_still_known() -> None:
    chunks = chunks_of([(83, "Text.")], sections=["The Operating System › Starting system services"])

    found = StructureSections.of(chunks).section_of("9.3. Starting system services 83", chunks[0])

    assert found == "The Operating System › Starting system services"


def test_a_heading_the_structure_does_not_know_gives_way_to_the_chunks_section() -> None:
    chunks = chunks_of([(110, "Text.")], sections=["Files › Log files"])
    sections = StructureSections.of(chunks)

    assert sections.section_of("13 Here is a good example for a logrotate config file", chunks[0]) == (
        "Files › Log files"
    )
    assert sections.section_of(None, chunks[0]) == "Files › Log files"


def test_without_a_structure_the_heading_read_off_the_page_stands() -> None:
    chunks = chunks_of([(3, "Text.")])

    assert StructureSections.of(chunks).section_of("3.12 /tmp : Temporary files", chunks[0]) == (
        "3.12 /tmp : Temporary files"
    )

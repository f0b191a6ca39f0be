"""Statements of PDF-like and typed text: exact spans, headings, list items, footnotes, abbreviations."""

import pytest

from policypal.rules.statements import Segmented, segment


def segmented(text: str, *, section: str | None = None) -> Segmented:
    """``segment(text)``, checking the invariant every caller relies on: each statement is a span."""
    result = segment(text, section=section)
    for statement in result.statements:
        assert text[statement.start : statement.end] == statement.text
    return result


FHS_PAGE = """3.13. /var : Variable data
3.13.1. Purpose
Variable data files include spool directories and files, administrative and logging data, and
transient and temporary files. Some portions of /var are not shareable between different systems.1
For instance, /var/log, /var/lock, and /var/run must not be shared between different hosts.
3.13.2. Requirements
The following directories, or symbolic links to directories, are required in /var:
• cache Application cache data
• lib Variable state information
• local Variable data for /usr/local
Applications should not create new top-level directories in /var, e.g. for private caches, unless
they are registered with the FHS mailing list.
"""


def test_hard_wrapped_lines_join_into_one_sentence_with_a_one_line_plain() -> None:
    first = segmented(FHS_PAGE).statements[0]

    assert first.text.startswith("Variable data files include")
    assert first.text.endswith("transient and temporary files.")
    assert "\n" in first.text
    assert first.plain == (
        "Variable data files include spool directories and files, administrative and logging data, "
        "and transient and temporary files."
    )


def test_a_short_line_goes_on_into_a_next_line_that_opens_with_a_conjunction() -> None:
    text = (
        "The comparison behavior of the package management system with respect to the upstream version is\n"
        "described below, in the section on how dpkg orders versions, together with the epoch and revision.\n"
        "The upstream_version must contain only alphanumerics6\n"
        "and the characters . + - ~ (full stop, plus, hyphen,\n"
        "tilde) and should start with a digit.\n"
        "debian_revision\n"
        "This part of the version number specifies the version of the Debian package.\n"
    )

    plains = [s.plain for s in segmented(text).statements]

    assert any(
        p.startswith(
            "The upstream_version must contain only alphanumerics6 and the characters . + - ~ (full stop, "
            "plus, hyphen, tilde) and should start with a digit."
        )
        for p in plains
    )
    assert not any(p.startswith("and the characters") for p in plains)


def test_numbered_headings_set_the_section_of_the_statements_under_them() -> None:
    result = segmented(FHS_PAGE)
    sections = {s.plain.split()[0]: s.section for s in result.statements}

    assert sections["Variable"] == "3.13.1. Purpose"
    assert sections["For"] == "3.13.1. Purpose"
    assert sections["Applications"] == "3.13.2. Requirements"
    assert result.section == "3.13.2. Requirements"
    assert not any(s.plain.startswith("3.13") for s in result.statements)


def test_a_footnote_number_after_a_full_stop_is_outside_the_span_and_the_plain_text() -> None:
    statements = segmented(FHS_PAGE).statements
    shareable = next(s for s in statements if "shareable" in s.text)

    assert shareable.text == "Some portions of /var are not shareable between different systems."
    assert shareable.plain.endswith("systems.")


def test_a_footnote_number_at_the_end_of_the_text_is_left_out_too() -> None:
    text = (
        "Each package must have a maintainer, who is responsible for the package and who must respond\n"
        "to bug reports.2\n"
    )

    (statement,) = segmented(text).statements

    assert statement.text.endswith("bug reports.")
    assert not statement.plain.endswith("2")


def test_list_items_keep_the_lead_in_that_ends_with_a_colon() -> None:
    statements = segmented(FHS_PAGE).statements
    items = [s for s in statements if s.kind == "item"]

    assert [i.plain for i in items] == [
        "cache Application cache data",
        "lib Variable state information",
        "local Variable data for /usr/local",
    ]
    assert {i.lead_in for i in items} == {
        "The following directories, or symbolic links to directories, are required in /var:"
    }
    assert items[0].text == "• cache Application cache data"


def test_a_paragraph_after_the_list_ends_the_lead_in() -> None:
    text = (
        "## Access control\n"
        "\n"
        "Administrators must use multi-factor authentication:\n"
        "- for every remote login to a production host\n"
        "\n"
        "Passwords are rotated by the identity team every quarter.\n"
        "\n"
        "- temporary accounts expire after thirty days\n"
    )

    statements = segmented(text).statements
    first, last = statements[1], statements[-1]

    assert first.kind == "item"
    assert first.lead_in == "Administrators must use multi-factor authentication:"
    assert last.kind == "item"
    assert last.lead_in is None


def test_e_g_does_not_end_a_sentence() -> None:
    sentences = segmented(FHS_PAGE).statements

    assert sentences[-1].plain == (
        "Applications should not create new top-level directories in /var, e.g. for private caches, "
        "unless they are registered with the FHS mailing list."
    )


@pytest.mark.parametrize("abbreviation", ["e.g.", "i.e.", "etc."])
def test_abbreviations_before_a_capital_do_not_end_a_sentence(abbreviation: str) -> None:
    text = f"Staff should use an approved messenger, {abbreviation} Signal or Matrix, for every call with a client."

    assert [s.text for s in segmented(text).statements] == [text]


def test_a_path_ending_in_etc_ends_its_sentence() -> None:
    text = "Host-specific configuration files belong in /etc. Packages must not modify them at run time."

    assert [s.text for s in segmented(text).statements] == [
        "Host-specific configuration files belong in /etc.",
        "Packages must not modify them at run time.",
    ]


def test_markdown_headings_set_the_section_in_typed_text() -> None:
    text = (
        "# Data Protection Policy\n"
        "\n"
        "## Scope\n"
        "\n"
        "This policy applies to all employees and contractors. Personal data must be encrypted at rest.\n"
        "\n"
        "## Retention\n"
        "\n"
        "Records of processing shall be kept for at least five years.\n"
    )

    result = segmented(text)

    assert [(s.plain, s.section) for s in result.statements] == [
        ("This policy applies to all employees and contractors.", "Scope"),
        ("Personal data must be encrypted at rest.", "Scope"),
        ("Records of processing shall be kept for at least five years.", "Retention"),
    ]
    assert result.section == "Retention"


def test_a_line_framed_by_separator_lines_is_a_heading_in_plain_text() -> None:
    text = (
        "Please point people to this mail instead of answering from memory.\n"
        "\n"
        "--------------------------------------------------\n"
        "PART 1: DISTRIBUTING AND MODIFYING THE SCANNER\n"
        "--------------------------------------------------\n"
        "\n"
        "Resellers must pass the source on with every copy they sell.\n"
    )

    result = segmented(text)

    assert [(s.plain, s.section) for s in result.statements] == [
        ("Please point people to this mail instead of answering from memory.", None),
        (
            "Resellers must pass the source on with every copy they sell.",
            "PART 1: DISTRIBUTING AND MODIFYING THE SCANNER",
        ),
    ]


def test_a_short_title_line_under_a_numbered_section_keeps_the_number() -> None:
    text = (
        "3.15 /tmp : Temporary files\n"
        "Programs must not assume that any files or directories in /tmp are preserved between\n"
        "invocations of the program.\n"
        "Rationale\n"
        "IEEE standard POSIX.1-2008 lists requirements similar to the above section of this standard.\n"
    )

    statements = segmented(text).statements

    assert statements[0].section == "3.15 /tmp : Temporary files"
    assert statements[-1].section == "3.15 /tmp : Temporary files › Rationale"


def test_the_section_given_is_in_force_until_a_heading() -> None:
    text = "Programs must not assume that files in /tmp are preserved between invocations of the program."

    result = segmented(text, section="3.15 /tmp : Temporary files")

    assert result.statements[0].section == "3.15 /tmp : Temporary files"
    assert result.section == "3.15 /tmp : Temporary files"


def test_contents_lines_with_dot_leaders_are_not_statements() -> None:
    text = (
        "1 Introduction to the binary package format ........................ 3\n"
        "2 Maintainer scripts and their arguments . . . . . . . . . . . . . . 5\n"
        "3 Configuration files and conffiles handling........................ 7\n"
        "The controller shall maintain a register of processing activities under its responsibility.\n"
    )

    statements = segmented(text).statements

    assert [s.plain for s in statements] == [
        "The controller shall maintain a register of processing activities under its responsibility."
    ]


def test_short_table_rows_do_not_glue_into_the_sentence_after_them() -> None:
    text = (
        "Payroll records Human Resources seven years\n"
        "Invoices and receipts Finance ten years\n"
        "The retention periods listed above must be reviewed annually by the data protection officer.\n"
    )

    statements = segmented(text).statements

    assert statements[-1].text == (
        "The retention periods listed above must be reviewed annually by the data protection officer."
    )
    assert all("retention periods" not in s.text for s in statements[:-1])


def test_fragments_of_fewer_than_four_words_are_not_statements() -> None:
    text = "Yes. Packages must not modify files of other packages. See above."

    assert [s.plain for s in segmented(text).statements] == [
        "Packages must not modify files of other packages."
    ]


def test_a_sentence_ending_with_a_unit_ends_there() -> None:
    text = "Requests must time out after 500 ms. Clients should retry at most three times."

    assert [s.text for s in segmented(text).statements] == [
        "Requests must time out after 500 ms.",
        "Clients should retry at most three times.",
    ]


def test_a_sentence_ending_with_state_of_the_art_ends_there() -> None:
    text = (
        "Controllers must implement measures that reflect the state of the art. "
        "They should review those measures every year."
    )

    assert len(segmented(text).statements) == 2


def test_a_wrapped_line_starting_with_a_number_is_no_heading() -> None:
    text = (
        "The controller shall erase personal data relating to a closed customer account no later than\n"
        "10 years after the end of the contract, unless a longer retention period is required by\n"
        "Union or Member State law to which the controller is subject.\n"
    )

    result = segmented(text, section="Article 17")

    assert len(result.statements) == 1
    assert result.statements[0].section == "Article 17"
    assert result.section == "Article 17"


def test_a_footnote_after_a_single_number_is_no_heading_but_a_chapter_title_is() -> None:
    text = (
        "3.12. /mnt : Mount point for a temporarily mounted filesystem\n"
        "This directory is provided so that the system administrator may mount a filesystem.\n"
        "15 A compliant distribution with two CDROM drives might have /media/cdrom0 and /media/cdrom1\n"
        "This directory must not be used by installation programs.\n"
        "4 The /usr Hierarchy\n"
        "/usr is shareable, read-only data.\n"
    )

    result = segmented(text)

    sections = [statement.section for statement in result.statements]
    assert sections[1].startswith("3.12. /mnt")
    assert sections[-1] == "4 The /usr Hierarchy"


def test_a_sentence_opening_with_a_lower_case_command_ends_the_one_before() -> None:
    text = (
        "The install-strip target has to strip the executables but not the scripts. install-strip "
        "should not strip the executables in the build directory. postrm scripts are required to "
        "skip actions quietly."
    )

    assert [s.plain for s in segmented(text).statements] == [
        "The install-strip target has to strip the executables but not the scripts.",
        "install-strip should not strip the executables in the build directory.",
        "postrm scripts are required to skip actions quietly.",
    ]


@pytest.mark.parametrize(
    "text",
    [
        # A file name a PDF broke at its dot, after a path or a dotted name.
        "The changes are listed in /usr/share/doc/package/changelog. gz and the maintainer keeps it current.",
        "Packages should be installed in a standard location and modify ld.so. conf only when they must.",
        # An abbreviation before a lower-case word.
        "Use the tags listed below, etc. where they are needed by the package maintainer.",
        # A lower-case word that does not go on into a sentence.
        "The program accepts it, for example. nostrip This tag means the debug symbols stay.",
    ],
)
def test_a_lower_case_word_after_a_full_stop_does_not_always_open_a_sentence(text: str) -> None:
    assert [s.plain for s in segmented(text).statements] == [text]

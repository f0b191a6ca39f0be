"""Rule units: the modal statements of a document, each quoted verbatim from the chunk that holds it."""

import textwrap

from policypal.contracts.limits import MAX_QUOTE_CHARS
from policypal.rules.rule_units import EXTRACTION_VERSION, quote_around, rule_units
from policypal.vectorstore import RulePoint
from tests.rules.chunked_pages import chunks_of

PAGE_ONE = """3.12 /tmp : Temporary files
The /tmp directory must be made available for programs that require temporary files. Programs
must not assume that any files or directories in /tmp are preserved between invocations of the
program. The directory is cleaned by the system at boot.
Although data stored in /tmp may be deleted in a site-specific manner, it is recommended that
files and directories located in /tmp be deleted whenever the system is booted.
"""

PAGE_TWO = """FHS added this recommendation on the basis of historical precedent and common practice, but
did not make it a requirement because system administration is not within the scope of this
standard. The following programs must be present in /bin:
• cat Utility to concatenate files to standard output
• chmod Utility to change file access permissions
Historically these utilities were kept in /usr/bin as well.
"""


def units(pages: list[tuple[int | None, str]], boilerplate: set[int] | None = None) -> list[RulePoint]:
    chunks = chunks_of(pages)
    rules = rule_units(chunks, boilerplate=boilerplate or set())
    by_index = {c.chunk_index: c for c in chunks}
    for rule in rules:
        assert rule.quote in by_index[rule.chunk_index].text
        assert len(rule.quote) <= MAX_QUOTE_CHARS
    return rules


def test_only_modal_statements_become_rules() -> None:
    rules = units([(1, PAGE_ONE)])

    assert [(r.modality, r.modal_words) for r in rules] == [
        ("obligation", "must"),
        ("prohibition", "must not"),
        ("recommendation", "is recommended"),
    ]
    assert not any("cleaned by the system" in r.text for r in rules)


def test_each_quote_is_verbatim_in_its_chunk_even_when_wrapped() -> None:
    rules = units([(1, PAGE_ONE)])
    prohibition = rules[1]

    assert prohibition.quote.startswith("Programs\nmust not assume")
    assert prohibition.text == (
        "Programs must not assume that any files or directories in /tmp are preserved between "
        "invocations of the program."
    )


def test_rules_carry_the_chunks_citation_and_the_extraction_version() -> None:
    chunks = chunks_of([(1, PAGE_ONE)])

    rules = rule_units(chunks, boilerplate=set())

    assert [r.rule_index for r in rules] == list(range(len(rules)))
    for rule in rules:
        chunk = chunks[rule.chunk_index]
        assert (rule.document_id, rule.title, rule.version, rule.set_name, rule.page) == (
            chunk.document_id,
            chunk.title,
            chunk.version,
            chunk.set_name,
            chunk.page,
        )
        assert (rule.tenant_id, rule.user_id) == ("acme", "u1")
        assert rule.extraction == EXTRACTION_VERSION


def test_the_section_is_carried_across_pages() -> None:
    rules = units([(1, PAGE_ONE), (2, PAGE_TWO)])

    on_page_two = [r for r in rules if r.page == 2]

    assert on_page_two
    assert {r.section for r in on_page_two} == {"3.12 /tmp : Temporary files"}


def test_list_items_under_a_modal_lead_in_are_rules_with_its_modality() -> None:
    rules = units([(1, PAGE_ONE), (2, PAGE_TWO)])

    items = [r for r in rules if r.quote.startswith("•")]

    assert [r.quote for r in items] == [
        "• cat Utility to concatenate files to standard output",
        "• chmod Utility to change file access permissions",
    ]
    assert {(r.modality, r.modal_words) for r in items} == {("obligation", "must")}
    assert items[0].text.startswith("The following programs must be present in /bin: cat Utility")


def test_list_items_under_a_lead_in_of_fact_are_not_rules() -> None:
    page = """The following programs are commonly found in /bin on older systems:
• csh The C shell, an interactive command interpreter
• ed The line editor of the original Unix system
Administrators must keep /bin on the root filesystem.
"""

    rules = units([(1, page)])

    assert [r.modal_words for r in rules] == ["must"]


def test_code_lines_under_a_modal_lead_in_are_not_rules() -> None:
    page = """To make the mode reversible, every configuration header should define one of these:
• #define HAS_REVERSIBLE_CC_MODE 1
• #define HAS_REVERSIBLE_CC_MODE 0
• the macro with a comment that says why the mode is off
"""

    rules = units([(10, page)])

    assert [r.quote for r in rules if r.quote.startswith("•")] == [
        "• the macro with a comment that says why the mode is off"
    ]


def test_boilerplate_chunks_give_no_rules() -> None:
    chunks = chunks_of([(1, PAGE_ONE), (2, PAGE_TWO)])
    page_one = {c.chunk_index for c in chunks if c.page == 1}

    rules = rule_units(chunks, boilerplate=page_one)

    assert rules
    assert all(r.chunk_index not in page_one for r in rules)
    assert all(r.page == 2 for r in rules)


def test_a_long_rule_is_quoted_in_300_characters_that_keep_its_modal_words() -> None:
    sentence = textwrap.fill(
        "Where personal data relating to a data subject are collected from the data subject, or obtained "
        "from a third party acting on behalf of the controller, including processors, joint controllers "
        "and recipients in third countries, the controller shall, at the time when the personal data are "
        "obtained, provide the data subject with the identity and the contact details of the controller, "
        "the contact details of the data protection officer, and the purposes of the processing.",
        90,
    )
    chunks = chunks_of([(5, sentence)], size=1000, overlap=150)

    (rule,) = rule_units(chunks, boilerplate=set())

    assert len(sentence) > MAX_QUOTE_CHARS
    assert len(rule.quote) <= MAX_QUOTE_CHARS
    assert "shall" in rule.quote
    assert rule.quote in chunks[rule.chunk_index].text
    assert rule.text.startswith("Where personal data relating")


def test_a_rule_split_across_chunks_is_quoted_from_one_of_them() -> None:
    text = "\n\n".join(textwrap.fill(p, 80) for p in (PAGE_ONE, PAGE_TWO))
    chunks = chunks_of([(1, text)], size=150, overlap=40)

    rules = rule_units(chunks, boilerplate=set())

    assert len({r.chunk_index for r in rules}) > 1
    for rule in rules:
        assert rule.quote in chunks[rule.chunk_index].text


def test_a_section_from_the_documents_structure_wins_over_a_heading_read_off_the_page() -> None:
    # "13 Here is a good example…" is a numbered line of a listing, not a heading; the PDF's outline
    # (the chunk's section) says where the rule stands.
    page = (
        "13 Here is a good example for a logrotate config file\n"
        "Log files must be rotated occasionally so that they do not grow indefinitely.\n"
    )
    chunks = chunks_of([(110, page)], sections=["Files › Log files"])

    (rule,) = rule_units(chunks, boilerplate=set())

    assert rule.section == "Files › Log files"


def test_unpaged_chunks_take_their_section_from_the_chunk() -> None:
    chunks = [
        c.model_copy(update={"section": "Retention"})
        for c in chunks_of(
            [(None, "Invoices must be kept for ten years after the end of the financial year.")]
        )
    ]

    (rule,) = rule_units(chunks, boilerplate=set())

    assert (rule.page, rule.section) == (None, "Retention")


def test_a_numbered_heading_read_as_a_sentence_is_no_rule() -> None:
    # A plain text's heading ends with a full stop and opens with an imperative ("Use …").
    title = "13. Use with the GNU Affero General Public License."
    chunks = [
        c.model_copy(update={"section": title})
        for c in chunks_of(
            [(None, f"{title}\n\nYou must keep the notices of section 13 intact in every copy.")]
        )
    ]

    rules = rule_units(chunks, boilerplate=set())

    assert [rule.modal_words for rule in rules] == ["must"]


def test_quote_around_keeps_a_short_text_whole() -> None:
    assert quote_around("  Packages must not modify conffiles.  ", 9) == "Packages must not modify conffiles."


def test_quote_around_moves_the_window_to_keep_a_late_position_in_view() -> None:
    text = (
        " ".join(["preamble"] * 60)
        + " the controller shall notify the authority "
        + " ".join(["detail"] * 40)
    )
    position = text.index("shall")

    quote = quote_around(text, position)

    assert len(quote) <= MAX_QUOTE_CHARS
    assert "shall" in quote
    begin = text.index(quote)
    assert begin > 0
    assert text[begin - 1] == " "


def test_quote_around_cuts_at_a_word_boundary() -> None:
    text = " ".join(["retention"] * 50)

    quote = quote_around(text, 0)

    assert len(quote) <= MAX_QUOTE_CHARS
    assert text.startswith(quote)
    assert quote.endswith("retention")


def test_a_rule_knows_the_numbered_sections_around_its_own() -> None:
    contents = (
        "3. The Root Filesystem .......... 9\n3.13. /opt : Add-on application software packages .... 20\n"
    )
    body = "3.13.2. Requirements\nHost-specific configuration files must be installed in /etc/opt.\n"

    (rule,) = units([(1, contents), (20, body)])

    assert rule.section is not None
    assert rule.section.startswith("3.13.2")
    assert rule.enclosing_sections == [
        "3. The Root Filesystem",
        "3.13. /opt : Add-on application software packages",
    ]


def test_a_rule_whose_subject_refers_back_carries_what_it_refers_to() -> None:
    page = (
        "12.5 Copyright information\n"
        "Every package ships its licence text in the file /usr/share/doc/acme/copyright.\n"
        "This file must neither be compressed nor be a symbolic link.\n"
        "Binary packages must not ship a second copy.\n"
    )

    referring, own = units([(1, page)])

    assert referring.modality == "prohibition"
    assert referring.referent == "file /usr/share/doc/acme/copyright"
    assert own.referent is None


def test_a_subject_is_not_referred_back_across_a_section() -> None:
    page = (
        "1.1 Scripts\nHook scripts are run by the agent on every change.\n"
        "1.2 Daemons\nThey must not run as root.\n"
    )

    (rule,) = units([(1, page)])

    assert rule.referent is None

"""A chunk's text as quotable units: sentences and list items without page furniture or footnote marks."""

from actions.inquire.units import line_kind, plain, running_heads, units_of, without_furniture

UID_PAGE = (
    "Debian Policy Manual, Release 4.6.2.0\n"
    "9.2.2 UID and GID classes\n"
    "The UID and GID numbers are divided into classes as follows:\n"
    "0-99:\n"
    "Globally allocated by the Debian project, the same on every Debian system. These ids will appear in the\n"
    "passwd and group files of all Debian systems.\n"
    "100-999:\n"
    "Dynamically allocated system users and groups.\n"
    "82 Chapter 9. The Operating System"
)

DELAYS = (
    "Here are some recommended values to use for delays:\n"
    "• Upload fixing only release-critical bugs older than 7 days, with no maintainer activity on the bug for 7 days and\n"
    "no indication that a fix is in progress: 0 days\n"
    "• Upload fixing only release-critical bugs older than 7 days: 2 days\n"
    "• Other NMUs: 10 days\n"
    "Those delays are only examples. In some cases, such as uploads fixing security issues, or fixes for trivial bugs that\n"
    "block a transition, it is desirable that the fixed package reaches unstable sooner."
)


def texts(text: str, **kwargs: object) -> list[str]:
    return [plain(text[u.start : u.end]) for u in units_of(text, **kwargs)]  # type: ignore[arg-type]


def test_units_are_exact_slices_without_running_heads_and_headings() -> None:
    units = units_of(UID_PAGE, title="Debian Policy Manual")
    assert [plain(UID_PAGE[u.start : u.end]) for u in units] == [
        "The UID and GID numbers are divided into classes as follows:",
        "0-99: Globally allocated by the Debian project, the same on every Debian system.",
        "These ids will appear in the passwd and group files of all Debian systems.",
        "100-999: Dynamically allocated system users and groups.",
    ]
    assert {u.heading for u in units} == {"9.2.2 UID and GID classes"}
    for unit in units:
        assert UID_PAGE[unit.start : unit.end] in UID_PAGE


def test_each_list_item_is_a_unit_and_a_short_last_item_ends_the_list() -> None:
    assert texts(DELAYS)[1:5] == [
        "• Upload fixing only release-critical bugs older than 7 days, with no maintainer activity on the bug "
        "for 7 days and no indication that a fix is in progress: 0 days",
        "• Upload fixing only release-critical bugs older than 7 days: 2 days",
        "• Other NMUs: 10 days",
        "Those delays are only examples.",
    ]


def test_footnote_marks_are_left_out_of_units_and_of_plain_text() -> None:
    text = (
        "It is a good idea to keep its length within 30 characters. 11 If upstream uses a generic name, rename it.\n"
        "6The format is the HDB UUCP lock file format, in this range.7 The next sentence."
    )
    assert texts(text) == [
        "It is a good idea to keep its length within 30 characters.",
        "If upstream uses a generic name, rename it.",
        "The format is the HDB UUCP lock file format, in this range.",
        "The next sentence.",
    ]
    assert plain("keep it within 8 characters. 1⁴ It must") == "keep it within 8 characters. 1 It must"
    # Digits that may be part of a name stay: ext4, python3, ttyS0.
    assert plain("use ext4 and python3 on ttyS0.") == "use ext4 and python3 on ttyS0."


def test_wrapped_numbered_item_is_not_a_heading() -> None:
    assert line_kind("1. The Technical Committee consists of up to 8 Developers, and should") == "text"
    assert line_kind("6.2. Composition") == "heading"
    assert line_kind("3.2.4 Going on vacation gracefully . . . . . . . . . . . . 12") == "furniture"
    assert line_kind("Debian New Maintainers' Guide 11 / 57") == "furniture"


def test_running_heads_are_lines_that_recur_at_chunk_edges() -> None:
    chunks = [
        "Debian Reference 69 / 233\nSome text about pinning.",
        "Debian Reference 70 / 233\nOther text about apt.",
        "A chunk with no head.\nIt ends here.",
    ]
    heads = running_heads(enumerate(chunks))
    assert running_heads([(1, chunks[0]), (1, chunks[0])]) == frozenset()
    assert without_furniture(chunks[0], heads, "") == "Some text about pinning."
    assert without_furniture(chunks[2], heads, "") is chunks[2]

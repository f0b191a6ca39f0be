"""Quantities with units and bounds, and file-system paths, read from rules and clauses."""

import pytest

from actions.audit.judgement import judge
from actions.audit.quantities import (
    Quantity,
    breaks_limit,
    depth,
    holds,
    path_within,
    paths,
    quantities,
    same_area,
)


def one(text: str) -> Quantity:
    (found,) = quantities(text)
    return found


@pytest.mark.parametrize(
    ("text", "kind", "value", "bound"),
    [
        ("Subject lines must be at most 80 characters long.", "length", 80, "upper"),
        ("Subject lines must not exceed 72 columns.", "length", 72, "upper"),
        ("Passwords must be at least 12 characters.", "length", 12, "lower"),
        ("The controller shall reply within one month.", "time", 2629800, "upper"),
        ("Breaches are reported no later than 72 hours after discovery.", "time", 72 * 3600, "upper"),
        ("Audit logs are deleted after 2 days.", "time", 2 * 86400, "lower"),
        ("Attachments of 2 MiB or more are rejected.", "size", 2 * 1048576, "lower"),
        ("Uploads are limited to 1.5 GB.", "size", 1.5e9, "exact"),
        ("Clients retry three times or fewer.", "count", 3, "upper"),
        ("Each change is approved by at least two reviewers.", "people", 2, "lower"),
        ("Invoices are kept for 1,000 days.", "time", 1000 * 86400, "exact"),
        ("Error budgets stay at most 10 percent of requests.", "percent", 10, "upper"),
    ],
)
def test_a_quantity_is_read_with_its_kind_base_value_and_bound(
    text: str, kind: str, value: float, bound: str
) -> None:
    found = one(text)

    assert (found.kind, found.bound) == (kind, bound)
    assert found.value == pytest.approx(value)


def test_the_words_read_are_kept_on_one_line() -> None:
    assert one("Lines must be at most\n80 characters long.").words == "at most 80 characters"


def test_text_without_a_unit_has_no_quantity() -> None:
    assert quantities("Section 3 of the policy applies to all 12 subsidiaries.") == []


def test_a_percent_sign_is_a_percent_quantity() -> None:
    found = quantities("Error budgets must not exceed 5% of requests.")

    assert [(q.kind, q.value, q.bound) for q in found] == [("percent", 5.0, "upper")]


def test_approved_by_two_reviewers_is_no_upper_bound() -> None:
    assert one("Every change must be approved by two reviewers.").bound != "upper"


def test_an_upper_limit_is_broken_by_a_larger_figure_of_any_bound() -> None:
    limit = one("at most 80 characters")

    assert breaks_limit(limit, False, one("up to 120 characters")) is True
    assert breaks_limit(limit, False, one("120 characters")) is True
    assert breaks_limit(limit, False, one("72 characters")) is False
    assert breaks_limit(limit, False, one("80 characters")) is False


def test_a_lower_limit_is_broken_by_a_smaller_figure() -> None:
    limit = one("at least 5 days")

    assert breaks_limit(limit, False, one("after 2 days")) is True
    assert breaks_limit(limit, False, one("within 2 days")) is True
    assert breaks_limit(limit, False, one("after 1 week")) is False


def test_units_of_one_kind_compare_on_one_scale() -> None:
    assert breaks_limit(one("within 48 hours"), False, one("3 days")) is True
    assert breaks_limit(one("at most 1 MB"), False, one("900 KB")) is False


def test_quantities_of_different_kinds_do_not_compare() -> None:
    assert breaks_limit(one("at most 80 characters"), False, one("120 days")) is None


def test_a_negated_rule_turns_its_bound_around() -> None:
    # "must not be shorter than 12 characters" sets a lower bound.
    shorter = one("shorter than 12 characters")

    assert breaks_limit(shorter, True, one("8 characters")) is True
    assert breaks_limit(shorter, True, one("16 characters")) is False


def test_a_strict_comparator_leaves_its_own_figure_out() -> None:
    more_than_two = one("more than two characters long")
    fewer_than_five = one("fewer than 5 days")

    assert breaks_limit(more_than_two, False, one("a two-letter prefix")) is True
    assert breaks_limit(more_than_two, False, one("a three-letter prefix")) is False
    assert breaks_limit(fewer_than_five, False, one("5 days")) is True
    assert breaks_limit(one("at least 2 characters"), False, one("2 characters")) is False
    # "must not be more than 5 days" is at most 5: the figure itself is kept.
    assert breaks_limit(one("more than 5 days"), True, one("5 days")) is False


def test_a_negation_that_is_the_comparators_own_is_not_turned_around_again() -> None:
    # "must not exceed 72 columns": the "not" is already in the upper bound read.
    limit = one("not exceed 72 columns")

    assert breaks_limit(limit, True, one("up to 100 columns")) is True
    assert breaks_limit(limit, True, one("60 columns")) is False


def test_a_forbidden_exact_figure_is_broken_only_by_that_figure() -> None:
    forbidden = one("0 days")

    assert breaks_limit(forbidden, True, one("0 days")) is True
    assert breaks_limit(forbidden, True, one("7 days")) is False


def test_an_exact_rule_against_a_bounded_clause_does_not_compare() -> None:
    assert breaks_limit(one("30 days"), False, one("30 days")) is False
    assert breaks_limit(one("30 days"), False, one("45 days")) is True
    assert breaks_limit(one("30 days"), False, one("within 45 days")) is None


def test_paths_are_read_with_trailing_punctuation_removed() -> None:
    text = "Configuration belongs in /etc/opt/<subdir>, binaries in /opt/<package>/bin, never in /usr/local."

    assert paths(text) == ["/etc/opt/<subdir>", "/opt/<package>/bin", "/usr/local"]


def test_a_path_broken_at_a_slash_by_the_pdf_is_joined_again() -> None:
    assert paths("Documentation goes into /usr/share/doc/ PACKAGE and nowhere else.") == [
        "/usr/share/doc/PACKAGE"
    ]


def test_urls_and_and_or_are_no_paths() -> None:
    assert paths("See https://www.pathname.com/fhs/ and/or the Debian policy.") == []


def test_a_path_lies_within_itself_and_its_parents_only() -> None:
    assert path_within("/usr/local/bin", "/usr/local")
    assert path_within("/usr/local", "/usr/local")
    assert not path_within("/usr/bin", "/usr/local")
    assert not path_within("/usr", "/usr/local")
    assert not path_within("/usr/localbin", "/usr/local")


@pytest.mark.parametrize(
    "area", ["/opt/<package>/bin", "/opt/{name}/bin", "/opt/*/bin", "/opt/PACKAGE/bin", "/opt/package/bin"]
)
def test_a_placeholder_segment_matches_any_name(area: str) -> None:
    assert path_within("/opt/acme-agent/bin/agentctl", area)
    assert not path_within("/opt/acme-agent/lib/libagent.so", area)


def test_the_manuals_plain_package_names_any_package_and_keeps_its_extension_free() -> None:
    # Debian's manuals write the package's name as "package": "/var/log/package.log".
    assert path_within("/var/log/acme", "/var/log/package.log")
    assert path_within("/usr/share/doc/acme/copyright", "/usr/share/doc/package/copyright")
    assert not path_within("/opt/acme/logs", "/var/log/package.log")
    assert not path_within("/usr/share/doc/packages/acme", "/usr/share/doc/package/copyright")


def test_another_numbered_slot_of_a_kind_is_the_same_area_only_for_a_required_one() -> None:
    # Games' manual pages go to man6; the tools' pages in man1 are not misplaced.
    assert same_area("/usr/share/man/man1", "/usr/share/man/man6")
    assert same_area("/usr/share/man/man1/acme.1.gz", "/usr/share/man/man6")
    assert not path_within("/usr/share/man/man1", "/usr/share/man/man6")
    assert not same_area("/usr/share/doc/man1", "/usr/share/man/man6")
    assert not same_area("/usr/share/man/cat1", "/usr/share/man/man6")
    assert same_area("/etc/opt/acme", "/etc/opt")


def test_depth_counts_segments() -> None:
    assert [depth(p) for p in ("/", "/usr", "/usr/local", "/usr/local/")] == [0, 1, 2, 2]


def test_a_directory_above_an_area_holds_it() -> None:
    assert holds("/usr/share/doc/acme", "/usr/share/doc/package/copyright")
    assert holds("/usr", "/usr/bin")
    assert not holds("/usr/bin", "/usr/bin")
    assert not holds("/var/tmp", "/run")


OFFER = (
    "Convey the object code in a physical product, accompanied by a written offer, valid for at least three "
    "years, to give anyone who possesses the object code a copy of the Corresponding Source."
)


def test_a_figure_breaks_a_limit_only_for_what_the_limit_measures() -> None:
    offer = judge(
        "Units ship with a printed offer for the source code, which we honour for twelve months.",
        OFFER,
        "obligation",
        "must",
    )
    other = judge(
        "Forward source requests to our licensing team; answering them usually takes about two weeks.",
        OFFER,
        "obligation",
        "must",
    )

    assert offer is not None
    assert (offer.conflict, offer.reading) == (True, "quantity")
    assert "twelve months" in offer.rationale
    assert other is None or not other.conflict


def test_a_path_with_shell_alternatives_names_each_of_them() -> None:
    found = paths("scripts installed in /etc/cron.{hourly, daily,weekly,monthly}, and /usr/{bin,sbin}/tool")

    assert found == [
        "/etc/cron.hourly",
        "/etc/cron.daily",
        "/etc/cron.weekly",
        "/etc/cron.monthly",
        "/usr/bin/tool",
        "/usr/sbin/tool",
    ]


def test_a_size_in_pixels_is_compared_by_its_area() -> None:
    (limit,) = quantities("an icon with a transparent background, providing at least the 22×22 size")
    (icon,) = quantities("a single 16x16 PNG icon")

    assert (limit.kind, limit.bound, icon.kind, icon.bound) == ("pixels", "lower", "pixels", "exact")
    assert breaks_limit(limit, False, icon) is True
    assert breaks_limit(limit, False, one("a 48x48 icon")) is False
    assert quantities("the magic number 0x10") == []


def test_sizes_and_other_quantities_come_in_the_order_the_text_gives_them() -> None:
    found = quantities("Names of at most 80 characters and a 16x16 icon, kept for 30 days.")

    assert [q.kind for q in found] == ["length", "pixels", "time"]

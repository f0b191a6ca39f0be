"""The polarity reading on its own: a clause denying, doing or allowing what the rule names."""

from actions.audit.polarity_verdict import by_polarity, words_for
from actions.audit.proposition import Proposition

WORDING = ("The rule says “must”", "requires it")


def test_denying_a_required_act_conflicts_and_doing_it_keeps_the_rule() -> None:
    rule = Proposition.of("Log files", " be rotated occasionally", False)

    denied = by_polarity(
        "Our log files are never rotated.", rule, " be rotated occasionally", False, WORDING, {}, None
    )
    kept = by_polarity(
        "Log files are rotated weekly.", rule, " be rotated occasionally", False, WORDING, {}, None
    )

    assert denied is not None
    assert (denied.conflict, denied.reading) == (True, "polarity")
    assert kept is None or not kept.conflict


def test_the_words_said_are_the_clauses_own() -> None:
    assert words_for("Log files are rotated weekly.", frozenset({"rotat"})) == "rotated"


def test_doing_a_forbidden_act_is_read_up_to_the_clauses_word_for_it() -> None:
    after = " be deleted when the system is booted."
    rule = Proposition.of("Files located in /var/spool/keep", after, True)
    said = ("The rule says “must not”", "forbids it")

    # A denial after the act, of what then no longer happens, denies nothing of the act.
    done = by_polarity(
        "The boot hook deletes /var/spool/keep when the system is booted, so stale files no longer pile up.",
        rule,
        after,
        True,
        said,
        {},
        None,
    )
    denied = by_polarity(
        "The boot hook never deletes /var/spool/keep when the system is booted.",
        rule,
        after,
        True,
        said,
        {},
        None,
    )

    assert done is not None
    assert done.conflict is True
    assert denied is not None
    assert denied.conflict is False

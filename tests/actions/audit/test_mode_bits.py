"""What a rule says of everyone's access in words, against the octal modes a clause gives."""

import pytest

from actions.audit.mode_bits import by_mode_bits

SAID = "The rule says “should”"
READABLE = ("", "that all the files in the distribution are world-readable, and directories searchable.")
NOT_WRITABLE = ("Directories under the spool", "be world-writable.")
NOT_UNREADABLE = ("Setuid programs", "be made unreadable (modes like 4711).")


@pytest.mark.parametrize(
    ("clause", "conflict"),
    [
        ("The files in our source tarball are mode 0600 and its directories mode 0700.", True),
        ("The source tarball is rolled with umask 077, so its files cannot be read by others.", True),
        ("The files in our source tarball are mode 0644 and its directories mode 0755.", False),
        ("Every file in the source tarball is installed with `install -m 644`.", False),
    ],
)
def test_a_mode_without_the_access_a_rule_requires_conflicts(clause: str, conflict: bool) -> None:
    verdict = by_mode_bits(clause, *READABLE, False, SAID)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (conflict, "mode_bits")


@pytest.mark.parametrize(
    ("clause", "rule", "conflict"),
    [
        ("Spool directories are created with mode 1777 so any user can drop jobs.", NOT_WRITABLE, True),
        ("Spool directories are created with mode 0750.", NOT_WRITABLE, False),
        ("Our setuid programs are installed with mode 4711 so nobody copies them.", NOT_UNREADABLE, True),
        ("Our setuid programs are installed with mode 4755.", NOT_UNREADABLE, False),
    ],
)
def test_access_a_prohibition_rules_out_is_read_on_the_bits_of_the_mode(
    clause: str, rule: tuple[str, str], conflict: bool
) -> None:
    verdict = by_mode_bits(clause, *rule, True, SAID)

    assert verdict is not None
    assert verdict.conflict is conflict


@pytest.mark.parametrize(
    "clause",
    [
        # No mode given.
        "The files in our source tarball can be read by anyone.",
        # A mode of something the rule does not bind.
        "The cache socket is created with mode 0600.",
        # A mode the clause denies giving.
        "The files in our tarball are never set to mode 0600.",
    ],
)
def test_a_clause_giving_no_mode_of_what_the_rule_binds_is_not_judged(clause: str) -> None:
    assert by_mode_bits(clause, *READABLE, False, SAID) is None


def test_a_rule_saying_nothing_of_access_is_not_judged() -> None:
    assert by_mode_bits("Files are mode 0600.", "Files", "be owned by root.", False, SAID) is None


def test_access_named_only_in_a_denial_of_the_rules_own_says_nothing() -> None:
    rule = ("They", "have mode 4754; again there is no point in making them unreadable to those users.")

    assert by_mode_bits("The helper is installed with mode 4754.", *rule, False, SAID) is None


@pytest.mark.parametrize(
    ("clause", "conflict"),
    [
        (
            "On the shared runners /run is switched to mode 1777 so that job accounts can drop sockets there.",
            True,
        ),
        ("/run stays mode 0755, owned by root; the daemon makes /run/harrow itself.", False),
    ],
)
def test_writable_for_unprivileged_users_is_the_worlds_write_bit(clause: str, conflict: bool) -> None:
    verdict = by_mode_bits(clause, "/run", "be writable for unprivileged users.", True, SAID)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (conflict, "mode_bits")

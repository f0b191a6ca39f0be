"""Reading a sentence: what it denies or leaves out, its purpose, and the verbs its act opens with."""

import pytest

from actions.audit.key_terms import key_terms
from actions.audit.polarity import (
    act_verbs,
    denied_acts,
    denied_terms,
    particle_first,
    preferred_terms,
    rule_act,
    stance,
    without_purpose,
)


@pytest.mark.parametrize(
    ("sentence", "denied"),
    [
        ("Packages do not include manual pages.", {"manual", "page"}),
        ("Backups are stored without encryption.", {"encrypt"}),
        ("The tool prints the bare number with no program name.", {"program", "name"}),
        ("Copyright notices are omitted from binary packages.", {"copyright", "notic", "binari", "packag"}),
        ("Services are started through invoke-rc.d rather than by calling the scripts.", {"call", "script"}),
    ],
)
def test_denied_terms_are_those_a_denial_governs(sentence: str, denied: set[str]) -> None:
    assert denied <= denied_terms(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "If a laptop is not encrypted, it is wiped before reuse.",
        "Files that are not needed are deleted every night.",
        "Files that are omitted are listed in the report.",
    ],
)
def test_a_denial_inside_a_condition_or_relative_clause_denies_nothing(sentence: str) -> None:
    assert denied_terms(sentence) == frozenset()


def test_a_purpose_or_a_reason_is_not_what_a_sentence_does() -> None:
    assert "preserved" not in without_purpose("Conffiles are tracked, so that local changes are preserved.")
    assert "ensure" not in without_purpose("In order to ensure that changes survive, packages must not link.")
    assert "tracked" in without_purpose("Conffiles are tracked, so that local changes are preserved.")
    # "so" without "that", before what someone can or will then do, is a purpose too; after a comma
    # it says what follows, and is kept.
    wiped = "A timer empties /var/spool/ledger at every start so stale jobs cannot pile up."
    assert stance(without_purpose(wiped)) == "does"
    assert "cannot" in without_purpose("The spool is large, so we cannot keep it.")


def test_a_sentence_opening_with_its_reason_does_what_follows_the_reason() -> None:
    clause = (
        "Because the SDK is too large for our repository, the build downloads it from the artifact server."
    )
    rule = "Since these files normally appear in the source directory, they should always appear there."

    assert "downloads it from the artifact server" in without_purpose(clause)
    assert "too large" not in without_purpose(clause)
    assert stance(without_purpose(clause)) == "does"
    # A rule keeps the reason it opens with: it names what "they" are.
    assert "these files" in without_purpose(rule, opening_reason=False)


@pytest.mark.parametrize(
    ("after", "verbs"),
    [
        (" close the bug report until a man page exists.", ["close"]),
        (" be deleted when the system is booted.", ["deleted"]),
        (" contain or make hard links to conffiles.", ["contain", "make"]),
    ],
)
def test_act_verbs_are_the_words_an_act_opens_with(after: str, verbs: list[str]) -> None:
    assert act_verbs(after) == verbs


@pytest.mark.parametrize(
    "sentence",
    [
        "Wrapping long lines is left to the author's judgement.",
        "Rotation of log files is at the discretion of each team.",
        "Encryption of backups is up to the customer.",
        "Teams decide for themselves whether to sign releases.",
        "Each team may choose whether to include manual pages.",
        "Manual pages are provided where practical.",
        "Checksums are published when time permits.",
        "Signing releases is encouraged but not required.",
    ],
)
def test_leaving_a_duty_to_judgement_or_circumstance_waives_it(sentence: str) -> None:
    assert stance(sentence) == "waives"


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Release tarballs lack a changelog.", "does_not"),
        ("Packages no longer ship a copyright file.", "does_not"),
        # A comparison, not a denial; and being left to grow is what is done.
        ("Source lines are no longer than 79 characters.", "does"),
        ("The log files are left to grow until the package is purged.", "does"),
        ("Reports are written to the location the customer chooses.", "does"),
    ],
)
def test_lacking_and_no_longer_deny_but_a_comparison_does_not(sentence: str, expected: str) -> None:
    assert stance(sentence) == expected


def test_what_is_missing_is_denied() -> None:
    assert denied_terms("The changelog is missing from the release tarball.") == {"changelog"}


def test_considering_or_trying_an_act_opens_with_the_act() -> None:
    assert act_verbs(" still consider providing them in the tarballs") == ["providing"]
    assert act_verbs(" try to keep lines short") == ["keep"]


def test_a_gerund_with_a_pronoun_object_is_all_that_without_leaves_out() -> None:
    denied = denied_terms("Removing a package without purging it keeps the files in /var/log/acme.")

    assert "purg" in denied
    assert not denied & {"file", "log", "keep"}


def test_a_hyphenated_no_is_part_of_a_name_not_a_denial() -> None:
    assert stance("Bug reports go to no-reply@acme.example, a mailbox we read daily.") == "does"


def test_the_act_a_denial_names_is_the_gerund_it_opens_with() -> None:
    assert denied_acts("Jobs write their output to the log rather than sending mail.") == ["sending"]
    assert denied_acts("Packages do not include manual pages.") == []


def test_an_instructions_act_opens_with_its_verb() -> None:
    rule = "Keep a change log to describe all the changes made to program source files."

    assert rule_act(rule, "Keep") == rule
    assert rule_act("You should keep a change log.", "should") == " keep a change log."


def test_a_conditions_act_begins_after_whom_it_binds() -> None:
    duty = "You may convey verbatim copies, provided that you also keep intact all notices."

    assert act_verbs(rule_act(duty, "provided that")) == ["keep"]
    assert act_verbs(rule_act("You may copy it, as long as they give credit.", "as long as")) == ["give"]


def test_a_prohibition_the_clause_states_names_its_act_by_the_verb_after_it() -> None:
    assert denied_acts("Teams must not reuse this account for their own cron jobs or scripts.") == ["reuse"]
    assert denied_acts("Temporary files must not be kept after the run.") == []


def test_what_a_later_part_lets_someone_do_does_not_outweigh_a_denial_stated_first() -> None:
    sentence = "The downloads come without a copy of the licence; customers can look it up online."

    assert stance(sentence) == "does_not"
    # A part that allows in so many words still decides, and so does a first part that allows.
    assert stance("The downloads come with the licence; customers may copy it.") == "permits"
    assert stance("Customers may copy the notice; the installer does not show it.") != "does_not"


def test_a_quoted_example_is_mentioned_not_said() -> None:
    assert stance("Error messages read like `tool: Could not read x.`, with a capital letter.") == "does"
    assert stance('The tool prints "file not found" and exits with status 2.') == "does"
    assert stance("The tool does not print `done`.") == "does_not"


def test_a_negation_governs_what_is_done_not_the_case_it_is_said_of() -> None:
    denied = denied_terms(
        "It recreates its files on every run, so nothing breaks when /tmp is wiped at boot."
    )

    assert "break" in denied
    assert not denied & {"tmp", "wipe", "boot"}


def test_an_opening_infinitive_is_the_purpose_not_what_is_done() -> None:
    clause = "To avoid a dependency on adduser, the postinst appends its account directly to /etc/passwd."

    assert "avoid" not in without_purpose(clause)
    assert stance(without_purpose(clause)) == "does"


@pytest.mark.parametrize(
    ("clause", "position"),
    [
        # A thing that then never happens is why, not what is done.
        (
            "The Makefile sets `DESTDIR = /var/tmp/stage` by default, so a plain `make install` never touches the system.",
            "does",
        ),
        # What the writer then does, or a thing the writer then does not do, is kept.
        ("The SDK is large, so we cannot ship it.", "does_not"),
        ("The file is large, so the package does not include it.", "does_not"),
    ],
)
def test_so_after_a_comma_is_a_purpose_only_where_a_thing_then_never_happens(
    clause: str, position: str
) -> None:
    assert stance(without_purpose(clause)) == position


def test_an_opening_so_that_is_the_purpose_not_what_is_done() -> None:
    clause = "So that wrappers report their own identity, the first line is built from `argv[0]`."

    assert "wrapper" not in key_terms(without_purpose(clause))
    assert "argv" in key_terms(without_purpose(clause))


def test_what_makes_no_difference_is_denied_but_what_is_done_is_still_done() -> None:
    clause = "The flasher always stages its images in /tmp/flash, whatever TMPDIR is set to."

    assert "tmpdir" in denied_terms(clause)
    assert stance(clause) == "does"
    assert stance("We ship whatever the customer needs.") == "does"


@pytest.mark.parametrize(
    ("sentence", "rewritten"),
    [
        (
            "we leave the Homepage field out of debian/control",
            "we leave out the Homepage field of debian/control",
        ),
        ("the release notes left it out", "the release notes left out it"),
        # A gerund after "leave" is no object left out: "leave the service running out of hours".
        ("leave the service running out of hours", "leave the service running out of hours"),
    ],
)
def test_leaving_out_is_read_with_its_object_after_the_particle(sentence: str, rewritten: str) -> None:
    assert particle_first(sentence) == rewritten


def test_leaving_out_denies_what_it_leaves_out() -> None:
    clause = particle_first("We leave the Homepage field out of debian/control.")

    assert stance(clause) == "does_not"
    assert key_terms("Homepage field") <= denied_terms(clause)


def test_a_message_quoted_in_parentheses_is_mentioned_not_said() -> None:
    assert stance("The message after the program name is a sentence (quayd: Could not bind.).") == "does"


@pytest.mark.parametrize(
    ("sentence", "denied"),
    [
        # A denial governs the whole list it opens.
        (
            "`rill --version` prints only `2.1`, with no program name, copyright line or licence line.",
            "licence line",
        ),
        ("We do not ship docs, tests or examples.", "examples"),
        # A second statement after a comma is no item of the list.
        ("The package ships no manual pages, the daemon logs to syslog, and the config lives in /etc.", None),
    ],
)
def test_a_denial_governs_the_list_it_opens(sentence: str, denied: str | None) -> None:
    if denied is None:
        assert not key_terms("syslog config") & denied_terms(sentence)
    else:
        assert key_terms(denied) <= denied_terms(sentence)


def test_a_verb_ending_in_ly_or_a_path_is_read_as_what_it_is() -> None:
    assert act_verbs(" also apply to /var/run.") == ["apply"]
    assert act_verbs(" to /var/run") == []


def test_what_a_rule_prefers_in_parentheses_to_what_it_turns_away_from() -> None:
    assert preferred_terms("use a secure scheme (https, for example, rather than http or git)") == key_terms(
        "https"
    )
    # Outside parentheses the words before "instead of" are the whole act.
    assert (
        preferred_terms("use invoke-rc.d to invoke the init scripts, instead of calling them") == frozenset()
    )

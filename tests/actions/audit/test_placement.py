"""Where a clause puts things against where a rule requires them: abbreviations a rule defines."""

import pytest

from actions.audit.judgement import judge
from actions.audit.placement import defined_abbreviations, names_what_is_placed


@pytest.mark.parametrize(
    ("text", "short", "words"),
    [
        ("Process identifier (PID) files, which were placed in /etc,", "pid", {"process", "identifi"}),
        ("The data protection officer (DPO) must", "dpo", {"data", "protect", "offic"}),
        ("Files of the Filesystem Hierarchy Standard (FHS)", "fhs", {"filesystem", "hierarchi", "standard"}),
    ],
)
def test_an_abbreviation_stands_for_the_fewest_words_before_it_that_spell_it(
    text: str, short: str, words: set[str]
) -> None:
    assert defined_abbreviations(text) == {short: frozenset(words)}


def test_a_parenthesis_that_spells_nothing_before_it_defines_nothing() -> None:
    assert defined_abbreviations("The default (see below) must be used.") == {}


def test_a_clause_using_the_abbreviation_places_what_the_rule_spells_out() -> None:
    # The spelled-out words are rare among the target's rules: without the abbreviation the clause
    # would share too little of the subject's weight.
    weights = {"process": 5.0, "identifi": 5.0, "pid": 5.0, "file": 0.5}
    verdict = judge(
        "Daemons write their PID files to /var/tmp.",
        "Process identifier (PID) files, which were originally placed in /etc, must be placed in /run.",
        "obligation",
        "must",
        weights,
    )

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "misplaced")


def test_a_subject_named_by_its_area_is_only_that_areas() -> None:
    rule = "A package to be installed in /opt must locate its static files in a separate /opt/<package> tree."
    elsewhere = judge(
        "Every file a package installs under /etc is registered as a conffile.", rule, "obligation", "must"
    )
    in_opt = judge("The package installs its static files directly in /opt.", rule, "obligation", "must")

    assert elsewhere is None or elsewhere.reading != "misplaced"
    assert in_opt is not None
    assert (in_opt.conflict, in_opt.reading) == (True, "misplaced")


def test_a_clause_naming_a_directory_above_the_required_area_breaks_nothing_by_path() -> None:
    verdict = judge(
        "The copyright file in /usr/share/doc/acme-agent is shipped gzip-compressed.",
        "The copyright information must be copied verbatim into /usr/share/doc/package/copyright.",
        "obligation",
        "must",
    )

    assert verdict is None or verdict.reading not in ("required_path", "misplaced")


def test_every_area_a_prohibition_lists_in_its_act_is_forbidden_to_its_subject() -> None:
    rule = (
        "Packages must not include files or directories under /run, or under the older /var/run and /var/lock paths.",
        "prohibition",
        "must not",
    )
    ships = judge("The package ships the directory /run/acme in its data archive.", *rule)
    other_subject = judge("Lock files of the daemon are created under /run/lock at run time.", *rule)

    assert ships is not None
    assert (ships.conflict, ships.reading) == (True, "forbidden_path")
    assert other_subject is None or other_subject.reading != "forbidden_path"


def test_an_alternative_after_a_colon_is_not_forbidden() -> None:
    verdict = judge(
        "Configuration files are installed in /etc.",
        "Packages must not install files in /usr/etc: place them in /etc instead.",
        "prohibition",
        "must not",
    )

    assert verdict is None or not verdict.conflict


COPYRIGHT_FILE = (
    "Every package must be accompanied by a verbatim copy of its distribution license(s) in the file "
    "/usr/share/doc/package/copyright."
)


def test_a_clause_going_without_the_file_a_rule_requires_at_a_path_conflicts() -> None:
    without = judge(
        "The .deb does not include /usr/share/doc/acme-agent/copyright; the licence is on our wiki.",
        COPYRIGHT_FILE,
        "obligation",
        "must",
    )
    elsewhere = judge(
        "The .deb does not include /usr/share/acme-agent/samples; the licence is in /usr/share/doc/acme-agent/copyright.",
        COPYRIGHT_FILE,
        "obligation",
        "must",
    )

    assert without is not None
    assert (without.conflict, without.reading) == (True, "denied_path")
    assert "goes without /usr/share/doc/acme-agent/copyright" in without.rationale
    assert elsewhere is None or not elsewhere.conflict


def test_going_without_a_path_a_prohibition_forbids_but_for_its_exception_keeps_it() -> None:
    verdict = judge(
        "The package does not include /srv/acme/data.",
        "Packages must not install files in /srv/acme unless the local administrator has configured it.",
        "prohibition",
        "must not",
    )

    assert verdict is None or not verdict.conflict


@pytest.mark.parametrize(
    ("clause", "named"),
    [
        ("The tool installs its binaries in /usr/local/bin.", False),
        ("The agent places its data files under /usr/local/share.", True),
    ],
)
def test_names_what_is_placed_asks_for_what_the_rule_forbids_placing_not_only_where(
    clause: str, named: bool
) -> None:
    rule = "Packages must not place any files in /usr/local"
    assert names_what_is_placed(clause, rule) is named


@pytest.mark.parametrize(
    "clause",
    [
        "Because the licence is on our portal, packages do not need to ship a /usr/share/doc/<package>/copyright file.",
        "Packages do not ship a /usr/share/doc/<package>/copyright file; README.Debian points to the portal.",
    ],
)
def test_a_clause_waiving_or_denying_the_required_file_further_from_its_path_conflicts(clause: str) -> None:
    verdict = judge(clause, COPYRIGHT_FILE, "obligation", "must")

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "denied_path")


def test_denying_a_place_for_something_the_rule_does_not_bind_goes_without_nothing_it_requires() -> None:
    verdict = judge(
        "Nothing from this package is installed under /usr/local, so administrators keep that tree for their tools.",
        "Locally installed software must be placed within /usr/local rather than /usr.",
        "obligation",
        "must",
    )

    assert verdict is None or not verdict.conflict


USR_LOCAL = (
    "Packages must not place any files in /usr/local, either by putting them in the archive or by scripts."
)
NO_RUN = "Packages must not include files or directories under /run."


@pytest.mark.parametrize(
    ("clause", "rule", "conflict"),
    [
        # A denial after the path, in what follows from it, denies nothing of the placing.
        (
            "The tools are now unpacked by dpkg into /usr/local/bin, so they take precedence without anyone "
            "editing their PATH.",
            USR_LOCAL,
            True,
        ),
        (
            "The socket lives in `/run/acme/`, which the service unit creates, and the package itself ships "
            "nothing under `/run`.",
            NO_RUN,
            False,
        ),
        ("Nothing is unpacked into /usr/local/bin; the tools live in /usr/bin.", USR_LOCAL, False),
    ],
)
def test_a_prohibited_area_is_judged_by_what_the_clause_says_up_to_each_of_its_paths(
    clause: str, rule: str, conflict: bool
) -> None:
    verdict = judge(clause, rule, "prohibition", "must not")

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (conflict, "forbidden_path")


KEPT_FILES = (
    "If the program manages log files, lock files, backup files, score files, or any other files which are "
    "modified for internal purposes, these files should not be stored in /usr or /etc."
)


@pytest.mark.parametrize(
    ("clause", "conflict"),
    [
        # Naming one kind of those listed names what the rule binds.
        ("The poller keeps its lock file in /usr/share/poller/state next to its templates.", True),
        ("The poller keeps its backup files under /etc/poller/backups.", True),
        # A kind the list does not name is not what it binds.
        ("The poller keeps its icon themes in /usr/share/poller/icons.", None),
    ],
)
def test_a_subject_listing_kinds_is_named_by_any_one_of_them(clause: str, conflict: bool | None) -> None:
    verdict = judge(clause, KEPT_FILES, "recommendation_against", "should not")

    if conflict is None:
        assert verdict is None or verdict.reading != "forbidden_path"
    else:
        assert verdict is not None
        assert (verdict.conflict, verdict.reading) == (conflict, "forbidden_path")


LIBEXEC = (
    "Applications which use /usr/libexec in this way must not also use /usr/lib to store internal binaries, "
    "though they may use /usr/lib for the other purposes documented here."
)


def test_using_an_area_to_store_things_forbids_placing_those_things_there() -> None:
    verdict = judge(
        "Daemons go in /usr/libexec/quay, while the legacy helper binaries stay in /usr/lib/quay/bin.",
        LIBEXEC,
        "prohibition",
        "must not",
    )

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "forbidden_path")


def test_using_an_area_for_other_things_than_it_forbids_storing_there_is_no_breach_by_path() -> None:
    verdict = judge(
        "Daemons go in /usr/libexec/quay; the shared plugins are in /usr/lib/quay/plugins.",
        LIBEXEC,
        "prohibition",
        "must not",
    )

    assert verdict is None or verdict.reading != "forbidden_path"


def test_recording_a_file_at_a_path_places_it_there() -> None:
    verdict = judge(
        "The daemon records its process ID in /etc/quay/quayd.pid when it starts.",
        "Process identifier (PID) files, which were originally placed in /etc, must be placed in /run.",
        "obligation",
        "must",
    )

    assert verdict is not None
    assert verdict.conflict is True
    assert verdict.reading in ("misplaced", "required_path")


def test_a_rule_for_the_cases_others_leave_does_not_govern_a_sibling_of_its_area() -> None:
    rule = (
        "If a certain job has to be executed at some other frequency or at a specific time, the package "
        "should install a file in /etc/cron.d."
    )
    usual = judge(
        "The weekly digest is installed as /etc/cron.weekly/harbour.", rule, "recommendation", "should"
    )
    elsewhere = judge(
        "The 03:10 job is installed as /usr/lib/harbour/cronjob.", rule, "recommendation", "should"
    )

    assert usual is not None
    assert (usual.conflict, usual.reading) == (False, "unaddressed")
    assert elsewhere is not None
    assert elsewhere.conflict

"""The offline verdict on a clause under a rule: quantities, paths, then polarity."""

import math

import pytest

from actions.audit.judgement import judge, severity_of
from actions.audit.lexicon import Lexicon
from actions.audit.polarity import stance
from actions.audit.verdict import Verdict
from policypal.contracts.audit import Modality
from policypal.embeddings import MiniLMEmbedder

MUST_ENCRYPT: tuple[str, Modality, str] = ("Personal data must be encrypted at rest.", "obligation", "must")
MUST_NOT_SHARE: tuple[str, Modality, str] = (
    "Production credentials must not be shared over chat.",
    "prohibition",
    "must not",
)


def verdict_of(clause: str, rule: str, modality: Modality, words: str) -> Verdict:
    """The verdict, which must exist for a binding rule and must quote the rule's modal words (an
    instruction's verb with the words after it)."""
    verdict = judge(clause, rule, modality, words)
    assert verdict is not None
    assert f"“{words}" in verdict.rationale
    return verdict


# Quantities


def test_a_figure_past_an_upper_limit_conflicts() -> None:
    verdict = verdict_of(
        "Commit subject lines may be up to 120 characters.",
        "Commit subject lines must be at most 80 characters.",
        "obligation",
        "must",
    )

    assert (verdict.conflict, verdict.reading) == (True, "quantity")
    assert "at most 80 characters" in verdict.rationale
    assert "up to 120 characters" in verdict.rationale


def test_a_figure_within_an_upper_limit_does_not_conflict() -> None:
    verdict = verdict_of(
        "Commit subject lines are 72 characters.",
        "Commit subject lines must be at most 80 characters.",
        "obligation",
        "must",
    )

    assert (verdict.conflict, verdict.reading) == (False, "quantity")


def test_must_not_exceed_is_an_upper_bound() -> None:
    rule = "Commit subject lines must not exceed 72 columns."

    above = verdict_of("Our subject lines are up to 100 columns.", rule, "prohibition", "must not")
    below = verdict_of("Our subject lines are 60 columns.", rule, "prohibition", "must not")

    assert (above.conflict, above.reading) == (True, "quantity")
    assert (below.conflict, below.reading) == (False, "quantity")


def test_a_figure_short_of_a_lower_limit_conflicts() -> None:
    rule = "Audit logs must be kept for at least 5 days."

    short = verdict_of("Audit logs are deleted after 2 days.", rule, "obligation", "must")
    long = verdict_of("Audit logs are deleted after 30 days.", rule, "obligation", "must")

    assert (short.conflict, short.reading) == (True, "quantity")
    assert (long.conflict, long.reading) == (False, "quantity")


def test_the_rationale_of_a_negated_lower_limit_says_the_figure_falls_short() -> None:
    verdict = verdict_of(
        "Service account passwords are 8 characters.",
        "Passwords must not be shorter than 12 characters.",
        "prohibition",
        "must not",
    )

    assert verdict.conflict
    assert "falls short of" in verdict.rationale


NO_ARBITRARY_LIMITS = (
    "Avoid arbitrary limits on the length or number of any data structure, including file names and lines."
)


def test_a_figure_bounding_what_a_rule_keeps_unlimited_conflicts() -> None:
    verdict = verdict_of(
        "File names and input lines are read into fixed buffers of 256 bytes; anything longer is cut off.",
        NO_ARBITRARY_LIMITS,
        "recommendation_against",
        "Avoid",
    )

    assert (verdict.conflict, verdict.reading) == (True, "sets_limit")
    assert "256 bytes" in verdict.rationale
    assert "File, names" in verdict.rationale


@pytest.mark.parametrize(
    "clause",
    [
        # No figure: nothing is bounded.
        "File names and input lines may be of any length.",
        # A figure for something the rule does not name.
        "The nightly job runs for at most 30 minutes.",
        # A figure the clause denies setting.
        "We never cut file names at 256 bytes.",
        # A lower bound limits nothing.
        "Input lines of at least 80 characters are read whole.",
    ],
)
def test_no_limit_set_where_no_figure_bounds_what_the_rule_names(clause: str) -> None:
    verdict = judge(clause, NO_ARBITRARY_LIMITS, "recommendation_against", "Avoid")

    assert verdict is None or verdict.reading != "sets_limit"


def test_a_rule_that_only_mentions_a_limit_is_no_rule_against_limits() -> None:
    # The act is reading, not a limit: the limit named further on is not what the rule forbids.
    verdict = judge(
        "Input lines are cut at 256 bytes.",
        "Programs must not read input past the limit of the buffer on the stack.",
        "prohibition",
        "must not",
    )

    assert verdict is None or verdict.reading != "sets_limit"


def test_a_percentage_within_the_limit_does_not_conflict() -> None:
    verdict = verdict_of(
        "Our error budget is at most 2% of requests.",
        "The error budget must not exceed 5% of requests.",
        "prohibition",
        "must not",
    )

    assert verdict.conflict is False


# Paths


def test_a_clause_inside_a_forbidden_area_conflicts() -> None:
    verdict = verdict_of(
        "The installer places the agent into /usr/local/bin.",
        "Packages must not place any files in /usr/local.",
        "prohibition",
        "must not",
    )

    assert (verdict.conflict, verdict.reading) == (True, "forbidden_path")
    assert "/usr/local/bin" in verdict.rationale


def test_a_clause_outside_a_forbidden_area_does_not_conflict() -> None:
    verdict = verdict_of(
        "The installer places the agent into /usr/bin.",
        "Packages must not place any files in /usr/local.",
        "prohibition",
        "must not",
    )

    assert (verdict.conflict, verdict.reading) == (False, "forbidden_path")


def test_a_clause_that_keeps_out_of_a_forbidden_area_in_its_own_words_does_not_conflict() -> None:
    verdict = verdict_of(
        "The installer never writes to /usr/local/bin.",
        "Packages must not place any files in /usr/local.",
        "prohibition",
        "must not",
    )

    assert verdict.conflict is False


def test_a_clause_elsewhere_than_a_required_area_conflicts() -> None:
    verdict = verdict_of(
        "The agent installs its configuration in /opt/app/etc.",
        "Host-specific configuration must be installed in /etc/opt.",
        "obligation",
        "must",
    )

    # The clause places what the rule's subject names (its configuration).
    assert (verdict.conflict, verdict.reading) == (True, "misplaced")
    assert "/opt/app/etc" in verdict.rationale


def test_a_clause_inside_a_required_area_agrees() -> None:
    verdict = verdict_of(
        "The agent keeps its configuration in /etc/opt/app.",
        "Host-specific configuration must be installed in /etc/opt.",
        "obligation",
        "must",
    )

    assert (verdict.conflict, verdict.reading) == (False, "required_path")


def test_a_top_level_area_counts_when_both_place_things() -> None:
    verdict = verdict_of(
        "The agent is installed in /opt/app/bin.", "Binaries must be installed in /usr.", "obligation", "must"
    )

    assert (verdict.conflict, verdict.reading) == (True, "required_path")


def test_an_area_the_subject_names_is_not_one_the_rule_requires() -> None:
    rule = (
        "Variable data of the packages in /opt must be installed in /var/opt/<subdir>, where <subdir> is "
        "the name of the subtree in /opt where the static data is stored.",
        "obligation",
        "must",
    )
    in_the_subjects_area = verdict_of("The plug-in writes its variable data to /opt/plugin/var.", *rule)
    kept = verdict_of("The plug-in writes its variable data to /var/opt/plugin.", *rule)

    assert (in_the_subjects_area.conflict, in_the_subjects_area.reading) == (True, "misplaced")
    assert "/var/opt/<subdir>;" in in_the_subjects_area.rationale
    assert (kept.conflict, kept.reading) == (False, "required_path")


def test_an_area_a_rule_only_compares_with_is_not_where_it_puts_things() -> None:
    verdict = verdict_of(
        "Reports are stored in /var/tmp and kept for a week.",
        "Although data stored in /var/tmp is typically deleted in a site-specific manner, it is recommended "
        "that deletions occur at a less frequent interval than /tmp.",
        "recommendation",
        "is recommended",
    )

    assert verdict is None or not verdict.conflict


def test_what_the_rules_subject_names_placed_elsewhere_is_misplaced() -> None:
    rule = ("Process identifier (PID) files, which were originally placed in /etc, must be placed in /run.",)
    misplaced = verdict_of("Daemons write their PID files to /var/tmp.", *rule, "obligation", "must")
    something_else = verdict_of("Daemons write their reports to /var/tmp.", *rule, "obligation", "must")

    assert (misplaced.conflict, misplaced.reading) == (True, "misplaced")
    assert (something_else.conflict, something_else.reading) == (True, "required_path")


def test_files_a_rule_binds_by_name_are_no_place_for_other_files() -> None:
    rule = "The files /var/run/utmp, /var/log/wtmp and /var/log/lastlog must be installed writable by group utmp."

    other = verdict_of(
        "The daemon logs to a plain text file under /var/log/acme/.", rule, "obligation", "must"
    )
    moved = verdict_of("The wtmp file is installed as /var/lib/acme/wtmp.", rule, "obligation", "must")

    assert other is None or not other.conflict
    assert moved is not None
    assert moved.conflict


def test_what_a_thing_must_not_be_is_done_only_by_a_clause_saying_it_is_that() -> None:
    rule = ("Otherwise, /usr/share/doc/package must not be a symbolic link.", "prohibition", "must not")

    regular = verdict_of("/usr/share/doc/acme/copyright is a regular file rather than a link.", *rule)
    linked = verdict_of("/usr/share/doc/acme is a symbolic link to /usr/share/doc/acme-common.", *rule)

    assert regular is None or not regular.conflict
    assert linked is not None
    assert linked.conflict


@pytest.mark.parametrize(
    "rule",
    [
        # The subject is the place, not what is placed.
        "The directory /var/cache/fonts should be used to store any dynamically-created fonts.",
        # An opening adverbial is no subject.
        "By default, it should be /usr/local/share, but it should be written as $(datarootdir).",
    ],
)
def test_a_subject_that_names_no_thing_placed_is_no_misplacement(rule: str) -> None:
    verdict = verdict_of(
        "The agent keeps downloaded default definitions in /var/cache/agent.",
        rule,
        "recommendation",
        "should",
    )

    assert (verdict.conflict, verdict.reading) == (True, "required_path")


OPT_PART = [
    "3. The Root Filesystem",
    "3.13. /opt : Add-on application software packages",
    "3.13.2. Requirements",
]
RUN_PART = ["3. The Root Filesystem", "3.15. /run : Run-time variable data", "3.15.1. Purpose"]


def test_a_rule_of_a_part_about_an_area_governs_only_what_belongs_there() -> None:
    rule = ("Host-specific configuration files must be installed in /etc/opt.", "obligation", "must")
    outside = judge("Host-specific configuration files live in /etc/agent.", *rule, sections=OPT_PART)
    add_on = judge("The add-on keeps its configuration files in /opt/plugin/etc.", *rule, sections=OPT_PART)
    unplaced = judge("Host-specific configuration files live in /etc/agent.", *rule)

    assert outside is None or outside.reading not in ("misplaced", "required_path")
    assert add_on is not None
    assert (add_on.conflict, add_on.reading) == (True, "misplaced")
    assert unplaced is not None
    assert unplaced.conflict


def test_a_rule_of_the_part_about_its_own_area_governs_everyone() -> None:
    verdict = judge(
        "Daemons write their PID files to /var/tmp.",
        "PID files must be placed in /run.",
        "obligation",
        "must",
        sections=RUN_PART,
    )

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "misplaced")


def test_paths_decide_only_where_both_speak_of_placing_things() -> None:
    # The clause reads from a path and the rule forbids deleting in one: neither places anything.
    reads = verdict_of(
        "The agent reads its configuration from /opt/app/etc.",
        "Host-specific configuration must be installed in /etc/opt.",
        "obligation",
        "must",
    )
    deletes = verdict_of(
        "Daemons write their PID files to /var/tmp.",
        "Files located in /var/tmp must not be deleted when the system is booted.",
        "prohibition",
        "must not",
    )

    assert reads.reading == deletes.reading == "polarity"


def test_a_prohibition_of_another_act_on_what_is_placed_is_no_forbidden_area() -> None:
    # The rule forbids relying on where data is stored, not storing it there.
    verdict = judge(
        "The web service keeps its files under /srv/shop.",
        "Therefore, no program should rely on data necessarily being stored in /srv.",
        "recommendation_against",
        "no program should",
    )

    assert verdict is None or verdict.reading != "forbidden_path"


def test_a_rule_whose_subject_refers_back_is_about_what_it_refers_to() -> None:
    clause = "The licence file in /usr/share/doc/acme is shipped gzip-compressed to save space."
    rule = ("This file must neither be compressed nor be a symbolic link.", "prohibition", "must neither")

    alone = judge(clause, *rule)
    referred = judge(clause, *rule, referent="licence file /usr/share/doc/package/LICENSE")

    assert alone is None
    assert referred is not None
    assert (referred.conflict, referred.reading) == (True, "polarity")
    assert "compress" in referred.rationale


def test_a_rule_on_a_word_is_broken_by_using_it_as_a_word_not_by_a_sentence_that_needs_it() -> None:
    rule = (
        "Please don’t use “win” as an abbreviation for Microsoft Windows in software or documentation.",
        "recommendation_against",
        "Please don’t",
    )

    needs_it = judge("Where the two documents disagree, this policy wins for our Windows software.", *rule)
    as_a_word = [
        judge("Our installers call Microsoft Windows “win” in every menu and document.", *rule),
        judge("The documentation uses the word win as an abbreviation for Microsoft Windows.", *rule),
    ]

    assert needs_it is None or not needs_it.conflict
    for verdict in as_a_word:
        assert verdict is not None
        assert verdict.conflict


def test_a_quoted_term_for_a_thing_is_not_a_rule_on_a_word() -> None:
    verdict = judge(
        "The packages install the pre-formatted cat pages from the documentation server.",
        "You must not install a pre-formatted “cat page”.",
        "prohibition",
        "must not",
    )

    assert verdict is not None
    assert verdict.conflict


def test_denying_what_the_rules_subject_itself_denies_names_that_subject_and_omits_nothing() -> None:
    rule = (
        "Internal functions that are not public interfaces of the library should have names beginning "
        "with a double underscore.",
        "recommendation",
        "should",
    )

    same_subject = judge(
        "Helper functions that are called only from our own modules, and are not public interfaces of "
        "the library, begin with a double underscore.",
        *rule,
    )
    leaves_out = judge("Internal functions do not have names beginning with a double underscore.", *rule)

    assert same_subject is None or not same_subject.conflict
    assert leaves_out is not None
    assert leaves_out.conflict


def test_a_clause_naming_nothing_of_the_rules_case_is_not_governed_by_it() -> None:
    rule = (
        "Log files should be removed when the package is purged (but not when it is only removed).",
        "recommendation",
        "should",
    )

    weights = {"log": 3.0}  # rare among the target's rules: what the act is done to
    other_case = judge(
        "Build logs of the release pipeline are kept for ninety days on the build farm.", *rule, weights
    )
    in_case = judge("Purging the package leaves its log files in place.", *rule, weights)

    assert other_case is None
    assert in_case is not None
    assert (in_case.conflict, in_case.reading) == (True, "opposite")


def test_the_case_of_a_rule_under_a_following_lead_in_is_its_item() -> None:
    rule = (
        "The licence text must be installed with the package, when all of the following hold: the files "
        "are shipped in the binary package.",
        "obligation",
        "must",
    )

    verdict = judge("Binary packages do not install a licence text of their own.", *rule)

    assert verdict is not None
    assert verdict.conflict


def test_a_denial_by_a_verb_of_its_own_denies_no_act_of_a_rule_without_a_verb() -> None:
    rule = (
        "We recommend that subdirectories for mail not appear in the home directory of the root account, "
        "and that mail for root be forwarded to an appropriate user.",
        "recommendation",
        "We recommend",
    )

    verdict = judge(
        "Jobs run as the service account, not as root, and write their output to the product's log "
        "rather than sending mail.",
        *rule,
    )

    # Not a denial of the act: at most an omission of its terms, which needs the rule to stand out
    # beyond doubt (``checking.FLAG``).
    assert verdict is not None
    assert verdict.reading != "polarity"


def test_a_path_the_clause_turns_away_from_is_not_one_it_uses() -> None:
    verdict = verdict_of(
        "The default installation prefix is /opt/tool rather than /usr/local.",
        "The default value of prefix should be /usr/local.",
        "recommendation",
        "should",
    )

    assert (verdict.conflict, verdict.reading) == (True, "misplaced")
    assert "/opt/tool" in verdict.rationale
    assert "/usr/local," not in verdict.rationale


def test_a_term_the_rule_negates_and_the_clause_affirms_conflicts() -> None:
    verdict = verdict_of(
        "The program name shown by --version is computed from argv[0].",
        "The program's name should be a constant string; don't compute it from argv[0].",
        "recommendation",
        "should",
    )

    # What it rules out is named in code form: as specific as a rule's own rare verb.
    assert (verdict.conflict, verdict.reading) == (True, "forbidden_act")
    assert "rules out" in verdict.rationale


_INVOKE_RC_D: tuple[str, Modality, str] = (
    "The package maintainer scripts must use invoke-rc.d to invoke the /etc/init.d/* init scripts "
    "instead of calling them directly.",
    "obligation",
    "must",
)


def test_all_that_a_rule_rules_out_done_inside_a_path_it_names_is_stated_of_its_subject() -> None:
    inside = verdict_of(
        "The postinst restarts the agent by calling /etc/init.d/agent restart directly, as that is faster.",
        *_INVOKE_RC_D,
    )
    unplaced = verdict_of(
        "The postinst invokes the agent's init scripts by calling them directly.", *_INVOKE_RC_D
    )

    assert (inside.conflict, inside.reading) == (True, "ruled_out_in_path")
    assert "rules out calling, directly" in inside.rationale
    assert (unplaced.conflict, unplaced.reading) == (True, "polarity")


def test_a_denial_of_an_instruction_by_its_own_verb_denies_its_act() -> None:
    rule = "Keep a change log to describe all the changes made to program source files."

    own = verdict_of(
        "We do not keep a change log; the commit history is enough.", rule, "recommendation", "Keep"
    )
    other = verdict_of("Release tarballs ship without a change log.", rule, "recommendation", "Keep")

    assert (own.conflict, own.reading) == (True, "denied_act")
    assert (other.conflict, other.reading) == (True, "polarity")


def test_a_verdict_quotes_an_instruction_by_its_opening_words_not_its_verb_alone() -> None:
    short = verdict_of("We do not keep a change log.", "Keep a change log.", "recommendation", "Keep")
    long = verdict_of(
        "We do not keep a change log.",
        "Keep a change log to describe all the changes made to program source files.",
        "recommendation",
        "Keep",
    )

    assert short.rationale.startswith("The rule says “Keep a change log”")
    assert long.rationale.startswith("The rule says “Keep a change log to describe …”")


def test_a_clause_speaking_of_a_rule_without_doing_any_of_its_act_neither_keeps_nor_breaks_it() -> None:
    verdict = verdict_of(
        "When standard output is not a terminal, our tools switch from a table to JSON.",
        "The -f option should override this exception, thus permitting the output to go to the terminal.",
        "recommendation",
        "should",
    )

    assert (verdict.conflict, verdict.reading) == (False, "unaddressed")


_NO_PASSWORD = (
    "Exported records handed to a customer must be in a documented format, and must require no special "
    "password or key for opening them."
)


def test_doing_what_a_rule_rules_out_by_its_rare_head_term_conflicts_though_little_else_is_shared() -> None:
    clause = "Exports are sent as zip archives locked with a password."
    rarity = {"password": 5.0, "export": 1.0, "record": 1.0, "format": 1.0, "custom": 1.0}

    verdict = judge(clause, _NO_PASSWORD, "obligation", "must", rarity)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "polarity")
    assert "password" in verdict.rationale


def test_a_common_term_the_rule_rules_out_does_not_make_it_about_the_clause() -> None:
    clause = "Exports are sent as zip archives locked with a password."
    rarity = {"password": 1.0, "export": 1.0, "record": 5.0, "format": 1.0, "custom": 1.0}

    assert judge(clause, _NO_PASSWORD, "obligation", "must", rarity) is None


def test_the_parts_of_a_compound_name_what_a_clause_does_to() -> None:
    rule = "Packages must not Depend on font packages."

    depends = verdict_of("The dashboard package depends on fonts-acme.", rule, "prohibition", "must not")
    recommends = verdict_of("The dashboard package recommends fonts-acme.", rule, "prohibition", "must not")

    assert depends.conflict is True
    assert recommends.conflict is False


def test_a_rule_that_allows_only_what_it_names_conflicts_with_a_wider_permission() -> None:
    verdict = verdict_of(
        "Unregistered product names are allowed in package names.",
        "Package names must consist only of registered product names.",
        "obligation",
        "must",
    )

    assert (verdict.conflict, verdict.reading) == (True, "permits_more")


def test_characters_a_clause_allows_in_a_name_against_those_a_rule_allows_are_read_as_characters() -> None:
    verdict = verdict_of(
        "Capital letters and underscores are allowed in package names.",
        "Package names must consist only of lower case letters, digits and the signs plus and minus.",
        "obligation",
        "must",
    )

    assert (verdict.conflict, verdict.reading) == (True, "characters")
    assert "“_”" in verdict.rationale


def test_what_a_clause_says_can_happen_is_no_wider_permission() -> None:
    verdict = verdict_of(
        "Package names that follow the catalogue can contain capital letters.",
        "Package names must consist only of lower case letters, digits and the signs plus and minus.",
        "obligation",
        "must",
    )

    assert verdict is None or verdict.reading != "permits_more"


# Polarity


@pytest.mark.parametrize(
    ("clause", "how"),
    [
        ("Personal data do not need to be encrypted at rest.", "optional"),
        ("Encryption of personal data at rest is optional.", "optional"),
        ("Personal data is never encrypted.", "denies"),
        ("Backups of personal data are stored without encryption.", "denies"),
        ("Encrypting personal data at rest is left to each team.", "optional"),
        ("Personal data lacks encryption at rest.", "denies"),
    ],
)
def test_a_clause_that_waives_or_denies_an_obligation_conflicts(clause: str, how: str) -> None:
    verdict = verdict_of(clause, *MUST_ENCRYPT)

    assert (verdict.conflict, verdict.reading) == (True, "polarity")
    assert how in verdict.rationale


@pytest.mark.parametrize(
    ("clause", "rule"),
    [
        (
            "When a customer closes the account, the exports are kept on the backup server.",
            "Customer exports must be deleted when the account is closed.",
        ),
        (
            "Tickets go to no-reply@acme.example, an inbox that rejects messages from outside the company.",
            "The support inbox must accept messages from any sender.",
        ),
    ],
)
def test_a_clause_that_does_the_opposite_of_an_obligation_conflicts(clause: str, rule: str) -> None:
    verdict = verdict_of(clause, rule, "obligation", "must")

    assert (verdict.conflict, verdict.reading) == (True, "opposite")
    assert "opposite" in verdict.rationale


@pytest.mark.parametrize(
    "clause",
    [
        # The opposite act, but done to something else than the rule names.
        "When a customer closes the account, the invoices are kept for ten years.",
        # Done to what the rule says its subject goes without: not what the rule names.
        "Exports with legal holds are kept when the account is closed.",
    ],
)
def test_the_opposite_act_on_something_else_is_no_conflict(clause: str) -> None:
    rule = "Customer exports without legal holds must be deleted when the account is closed."
    rarity = {"export": 3.0, "customer": 1.0}

    verdict = judge(clause, rule, "obligation", "must", rarity)

    assert verdict is None or "opposite" not in verdict.rationale


def test_denying_another_act_on_the_rules_object_does_not_deny_the_rule() -> None:
    rule = "The support address must accept mail from customers."

    other_act = verdict_of(
        "Jobs run as a service account, not as root, and write to the support log rather than sending mail.",
        rule,
        "obligation",
        "must",
    )
    same_act = verdict_of(
        "The support address is set up to avoid accepting mail from customers.", rule, "obligation", "must"
    )

    assert other_act.conflict is False
    assert same_act.conflict is True


def test_a_clause_that_does_what_the_rule_requires_agrees() -> None:
    verdict = verdict_of("Personal data is encrypted at rest with AES-256.", *MUST_ENCRYPT)

    assert (verdict.conflict, verdict.reading) == (False, "polarity")


def test_a_clause_that_does_the_act_but_leaves_out_what_it_must_give_conflicts() -> None:
    rule = "The incident report must describe the affected systems and the time the breach was detected."
    clause = (
        "The incident report describes the affected systems, without the time of detection of the breach."
    )

    verdict = verdict_of(clause, rule, "obligation", "must")

    assert (verdict.conflict, verdict.reading) == (True, "omission")
    assert "leaves out" in verdict.rationale
    assert "detection" in verdict.rationale


def test_denying_terms_of_an_act_without_naming_what_the_rule_binds_leaves_nothing_out() -> None:
    rule = "This copyright notice only needs to mention the most recent year in which changes were made."

    verdict = judge(
        "We are talking to the vendor, but do not expect a change this year.", rule, "obligation", "needs to"
    )

    assert verdict is None or verdict.reading != "omission"


def test_denying_one_shared_word_of_an_obligation_omits_nothing_it_requires() -> None:
    rule = "The incident report must describe the affected systems and the time the breach was detected."
    clause = "The incident report does not name the people on call, only the affected systems."

    verdict = verdict_of(clause, rule, "obligation", "must")

    assert verdict.conflict is False


@pytest.mark.parametrize(
    "clause",
    [
        "Engineers may share production credentials over chat.",
        "Engineers can share production credentials over chat when on call.",
        "We do share production credentials over chat during incidents.",
    ],
)
def test_a_clause_that_does_or_permits_what_the_rule_forbids_conflicts(clause: str) -> None:
    verdict = verdict_of(clause, *MUST_NOT_SHARE)

    assert (verdict.conflict, verdict.reading) == (True, "polarity")


def test_a_clause_that_refrains_from_what_the_rule_forbids_agrees() -> None:
    verdict = verdict_of("Production credentials are never shared over chat.", *MUST_NOT_SHARE)

    assert verdict.conflict is False


@pytest.mark.parametrize(
    "clause",
    [
        "If a laptop is not encrypted, it is wiped before it is reused.",
        "Laptops that are not encrypted are wiped before they are reused.",
    ],
)
def test_a_negation_inside_a_condition_or_relative_clause_does_not_deny(clause: str) -> None:
    verdict = verdict_of(clause, "Laptops must be wiped before they are reused.", "obligation", "must")

    assert verdict.conflict is False


def test_a_recommendation_can_be_breached_too() -> None:
    verdict = verdict_of(
        "Release tags are not signed.",
        "Release tags should be signed by the maintainer.",
        "recommendation",
        "should",
    )

    assert verdict.conflict is True


@pytest.mark.parametrize(
    "clause",
    ["Laptops are wiped before reuse.", "Laptops are never wiped.", "Wiping laptops is optional."],
)
def test_a_permission_cannot_be_breached(clause: str) -> None:
    assert judge(clause, "Laptops may be wiped before reuse.", "permission", "may") is None


# Stance and severity


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("We encrypt every backup.", "does"),
        ("We do not encrypt backups.", "does_not"),
        ("Staff must not copy backups to USB drives.", "does_not"),
        ("Staff must not share personal data without the data subject's consent.", "does"),
        ("Teams may encrypt their backups.", "permits"),
        ("Developers can skip the review of typo fixes.", "waives"),
        ("Teams need not encrypt test backups.", "waives"),
        ("Encryption of test backups is optional.", "waives"),
        ("There is no more than one copy of each backup.", "does"),
        ("Files that are not needed are deleted every night.", "does"),
    ],
)
def test_stance_reads_what_the_clause_does_with_its_subject(clause: str, expected: str) -> None:
    assert stance(clause) == expected


def test_severity_is_high_for_must_and_must_not_and_medium_for_should() -> None:
    assert severity_of("obligation") == "High"
    assert severity_of("prohibition") == "High"
    assert severity_of("recommendation") == "Medium"
    assert severity_of("recommendation_against") == "Medium"


# What the clause speaks of


def test_a_clause_about_something_else_is_not_governed_despite_its_negation() -> None:
    clause = "The checks are meant to help reviewers, not to replace them."
    rule = "Every change must be reviewed by a second engineer before release."

    assert judge(clause, rule, "obligation", "must") is None


def test_a_clause_that_turns_away_from_something_other_than_the_required_act_agrees() -> None:
    verdict = verdict_of(
        "Maintainer scripts start services through invoke-rc.d rather than by calling init scripts.",
        "Maintainer scripts must use invoke-rc.d to invoke the init scripts.",
        "obligation",
        "must",
    )

    assert verdict.conflict is False


def test_a_prohibition_is_broken_only_by_doing_its_act() -> None:
    rule = ("Do not close the bug report until a proper man page is available.", "prohibition", "Do not")

    assert verdict_of("The help output ends with the address for bug reports.", *rule).conflict is False
    closing = verdict_of("Bug reports about a missing man page are closed when the fix is uploaded.", *rule)
    assert (closing.conflict, closing.reading) == (True, "polarity")
    assert "closed" in closing.rationale


def test_a_prohibition_is_broken_by_its_verb_done_to_what_it_names_only() -> None:
    rule = (
        "install-strip should not strip the executables in the build directory.",
        "prohibition",
        "should not",
    )

    doing = verdict_of(
        "install-strip strips the executables in the build directory before it copies them.", *rule
    )
    assert (doing.conflict, doing.reading) == (True, "polarity")
    other = verdict_of(
        "install-strip makes stripped copies at install time for anyone who installs with it.", *rule
    )
    assert other.conflict is False


def test_an_act_forbidden_by_a_means_is_done_only_by_that_means() -> None:
    rule = (
        "It is not recommended to strip binaries by passing the -s flag to install, because it loses sections.",
        "recommendation_against",
        "not recommended",
    )

    by_means = verdict_of("Our install rule strips the binaries by passing the -s flag to install.", *rule)
    # By the rule's own verb, with the option it names: as specific as a rare verb.
    assert (by_means.conflict, by_means.reading) == (True, "forbidden_act")
    otherwise = verdict_of(
        "make install-strip gives stripped binaries to anyone who installs with it.", *rule
    )
    assert otherwise.conflict is False


def test_an_act_forbidden_to_an_agent_is_done_only_by_that_agent() -> None:
    rule = ("Configuration files must not be modified by maintainer scripts.", "prohibition", "must not")

    assert (
        verdict_of("The postinst script modifies the configuration files with sed.", *rule).conflict is True
    )
    assert verdict_of("Administrators modify the configuration files as they like.", *rule).conflict is False


def test_the_purpose_of_a_rule_is_not_what_it_forbids() -> None:
    rule = (
        "In order to ensure that local changes are preserved correctly, packages must not contain or make "
        "hard links to conffiles."
    )

    # Once the purpose is set aside, the tracked conffile speaks of none of what the rule forbids.
    assert (
        judge("Conffiles are tracked so that local changes are preserved.", rule, "prohibition", "must not")
        is None
    )
    linking = verdict_of("Our packages make hard links to their conffiles.", rule, "prohibition", "must not")
    assert linking.conflict is True


def test_leaving_out_what_a_passive_rule_requires_conflicts() -> None:
    verdict = verdict_of(
        "Copyright notices are omitted from binary packages.",
        "The copyright notices of a package must be copied into every binary package.",
        "obligation",
        "must",
    )

    assert (verdict.conflict, verdict.reading) == (True, "polarity")


def test_a_clause_restating_a_rule_with_an_exception_agrees_with_it() -> None:
    rule = "Personal data must not be transferred to a vendor without the written consent of the customer."

    assert verdict_of(rule, rule, "prohibition", "must not").conflict is False


def test_an_area_the_rule_turns_away_from_is_not_one_it_requires() -> None:
    verdict = verdict_of(
        "The tool installs its programs into /usr/bin.",
        "Locally installed software must be placed within /usr/local rather than /usr.",
        "obligation",
        "must",
    )

    assert (verdict.conflict, verdict.reading) == (True, "required_path")


async def test_a_clause_doing_the_forbidden_act_in_other_words_conflicts_given_a_lexicon(
    embedder: MiniLMEmbedder,
) -> None:
    clause = "Every error message now starts with a capital letter."
    rule = "Error messages should not begin with a capital letter."
    lexicon = await Lexicon.of(embedder, [clause, "begin"])

    assert verdict_of(clause, rule, "recommendation_against", "should not").conflict is False
    verdict = judge(clause, rule, "recommendation_against", "should not", lexicon=lexicon)
    assert verdict is not None
    assert verdict.conflict is True
    assert "“starts” for “begin”" in verdict.rationale


def test_a_permission_about_something_other_than_the_required_act_waives_nothing() -> None:
    verdict = verdict_of(
        "Maintainer scripts can disable the service manager before the installation.",
        "Maintainer scripts must use update-rc.d to interact with the service manager.",
        "obligation",
        "must",
    )

    assert verdict.conflict is False


def test_a_purpose_is_not_what_a_negation_before_it_governs() -> None:
    verdict = verdict_of(
        "Source packages and the build run on the farm.",
        "Source packages should specify which packages must not be installed in order to build correctly.",
        "recommendation",
        "should",
    )

    assert verdict.conflict is False


# Modal words after the act they rule on


def test_an_act_named_before_its_prohibition_is_what_the_rule_forbids() -> None:
    rule = "Sublicensing is not allowed; section 10 makes it unnecessary."

    allowed = judge(
        "Partners may sublicense our code to their own customers.", rule, "prohibition", "is not allowed"
    )
    refrained = judge("Partners never sublicense our code.", rule, "prohibition", "is not allowed")

    assert allowed is not None
    assert (allowed.conflict, allowed.reading) == (True, "polarity")
    assert refrained is not None
    assert not refrained.conflict


def test_an_exception_after_a_prohibition_that_follows_its_act_still_excepts() -> None:
    rule = "Sharing customer data with third parties is prohibited unless the customer consents."

    verdict = judge(
        "Customer data is shared with the analytics vendor once the customer consents.",
        rule,
        "prohibition",
        "is prohibited",
    )

    assert verdict is None or not verdict.conflict


def test_an_infinitive_after_the_prohibition_names_the_act() -> None:
    verdict = verdict_of(
        "Users share passwords with colleagues when on leave.",
        "Users are not allowed to share passwords.",
        "prohibition",
        "are not allowed",
    )

    assert verdict.conflict


# A forbidden act done by the rule's own, rare verb

SUBLICENSING = "Sublicensing is not allowed; section 10 makes it unnecessary."
#: Rarity among a target's rules, as ``TargetRules.rarity`` computes it for 80 rules: "sublicens" is
#: used by one rule, "run" by 20.
RARITY = {"sublicens": math.log(81 / 1.5), "run": math.log(81 / 20.5), "partner": math.log(81 / 3.5)}


def test_a_forbidden_act_done_by_the_rules_own_rare_verb_is_its_own_reading() -> None:
    verdict = judge(
        "Partners may sublicense our code to their own customers.",
        SUBLICENSING,
        "prohibition",
        "is not allowed",
        weights=RARITY,
    )

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "forbidden_act")
    # The clause's own word, not its stem.
    assert "sublicense" in verdict.rationale
    assert "sublicens," not in verdict.rationale


def test_a_forbidden_act_by_a_common_verb_stays_a_polarity_reading() -> None:
    verdict = judge(
        "Nightly jobs run on the build farm.",
        "Jobs should not run as root.",
        "recommendation_against",
        "should not",
        weights=RARITY,
    )

    assert verdict is not None
    assert verdict.reading == "polarity"


def test_a_rare_verb_done_to_part_of_what_the_act_names_stays_a_polarity_reading() -> None:
    # "build" is rare here, but the clause does not build within "this hierarchy".
    weights = {"built": 4.0, "hierarchi": 1.0, "sourc": 1.0}

    verdict = judge(
        "Partner teams build packages from our sources.",
        "Source should not be built within this hierarchy.",
        "recommendation_against",
        "should not",
        weights=weights,
    )

    assert verdict is None or verdict.reading != "forbidden_act"


# An area a rule keeps free of writes

USR_READ_ONLY = "That means that /usr should be shareable between hosts and must not be written to."
UNMODIFIED_DATA = (
    "Any program or package which contains or requires data that doesn't need to be modified should "
    "store that data in /usr/share."
)


@pytest.mark.parametrize("rule", [USR_READ_ONLY, UNMODIFIED_DATA])
@pytest.mark.parametrize(
    "clause",
    [
        "User-uploaded dashboards are saved at run time under /usr/share/acme/dashboards.",
        # Placing things while the program runs is writing.
        "Dashboards fetched by the updater are unpacked at run time into /usr/share/acme/dashboards/.",
    ],
)
def test_writing_at_run_time_into_an_area_kept_free_of_writes_conflicts(rule: str, clause: str) -> None:
    verdict = judge(clause, rule, "recommendation", "should")

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "read_only")
    assert "/usr/share/acme/dashboards" in verdict.rationale


@pytest.mark.parametrize(
    "clause",
    [
        # Installing static data is what the area is for.
        "Report templates and icons are installed under /usr/share/acme.",
        # Writing elsewhere.
        "Dashboards are saved under /var/lib/acme.",
        # Generated when the package is built, not while it runs.
        "Report tables are generated at build time and installed under /usr/share/acme.",
        # Refraining.
        "The agent never writes to /usr/share/acme.",
    ],
)
def test_no_read_only_conflict_without_a_write_into_the_area(clause: str) -> None:
    verdict = judge(clause, USR_READ_ONLY, "recommendation", "should")

    assert verdict is None or verdict.reading != "read_only" or not verdict.conflict


USERS_KEPT_FROM_VAR_LIB = (
    "Users must never need to modify files in /var/lib to configure a package's operation."
)


@pytest.mark.parametrize(
    "clause",
    [
        "To change the retention, edit retention_days in /var/lib/acme/state.json and restart the agent.",
        "Administrators configure the agent by editing /var/lib/acme/settings.ini.",
    ],
)
def test_people_writing_where_a_rule_keeps_people_from_writing_conflicts(clause: str) -> None:
    verdict = judge(clause, USERS_KEPT_FROM_VAR_LIB, "prohibition", "must never")

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "read_only")


def test_a_program_keeping_its_state_where_a_rule_keeps_people_from_writing_breaks_nothing() -> None:
    verdict = judge(
        "The agent saves its state in /var/lib/acme/state.json after every run.",
        USERS_KEPT_FROM_VAR_LIB,
        "prohibition",
        "must never",
    )

    assert verdict is None or not verdict.conflict


# Further restrictions


def test_a_clause_restricting_recipients_breaks_a_rule_against_further_restrictions() -> None:
    verdict = judge(
        "Customers who receive the router may not pass copies of the firmware on to third parties.",
        "You may not impose any further restrictions on the exercise of the rights granted under this License.",
        "prohibition",
        "may not",
    )

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "further_restriction")
    assert "pass copies of the firmware on" in verdict.rationale


# What a rule turns away from, and what a clause says is not there

INVOKE_RC_D = (
    "The package maintainer scripts must use invoke-rc.d to invoke the /etc/init.d/* init scripts "
    "instead of calling them directly."
)


def test_what_a_rule_turns_away_from_is_ruled_out() -> None:
    verdict = verdict_of(
        "After an upgrade the postinst restarts the agent by calling /etc/init.d/acme restart directly.",
        INVOKE_RC_D,
        "obligation",
        "must",
    )

    assert verdict.conflict
    assert "calling" in verdict.rationale


def test_a_clause_doing_the_alternative_a_rule_requires_agrees() -> None:
    for clause in (
        "Maintainer scripts start and stop the agent through invoke-rc.d.",
        "Maintainer scripts start services through invoke-rc.d rather than by calling the scripts in "
        "/etc/init.d directly.",
    ):
        verdict = judge(clause, INVOKE_RC_D, "obligation", "must")
        assert verdict is None or not verdict.conflict, clause


def test_a_prohibition_forbids_its_act_not_the_alternative_it_requires() -> None:
    verdict = judge(
        "Maintainer scripts start and stop the agent through invoke-rc.d.",
        "Packages must not call /etc/init.d scripts directly, and instead must always use invoke-rc.d.",
        "prohibition",
        "must not",
    )

    assert verdict is None or not verdict.conflict


def test_options_a_clause_says_are_not_implemented_are_left_out() -> None:
    verdict = verdict_of(
        "The init script understands start and stop; restart and force-reload are not implemented yet.",
        "The start, stop, restart, and force-reload options should be supported by all init scripts.",
        "recommendation",
        "should",
    )

    assert verdict.conflict
    assert "restart" in verdict.rationale


def test_adding_to_a_file_a_rule_forbids_modifying_conflicts() -> None:
    rule = "Packages must not modify the configuration file /etc/crontab."

    added = judge(
        "The postinst adds a line for the health report to /etc/crontab.", rule, "prohibition", "must not"
    )
    elsewhere = judge("The package installs a file in /etc/cron.d.", rule, "prohibition", "must not")

    assert added is not None
    assert (added.conflict, added.reading) == (True, "read_only")
    assert elsewhere is None or not elsewhere.conflict


def test_what_a_rule_asks_to_consider_doing_is_its_act() -> None:
    verdict = verdict_of(
        "We keep no separate change log, and release tarballs ship without one.",
        "If you decide not to maintain separate change log files, you should still consider providing them "
        "in the release tarballs.",
        "recommendation",
        "should",
    )

    assert (verdict.conflict, verdict.reading) == (True, "polarity")


def test_a_prohibition_the_clause_states_by_a_verb_of_its_own_denies_no_other_act() -> None:
    verdict = judge(
        "Teams must not reuse this account for their own cron jobs or scripts.",
        "The daemon must also correctly execute scripts in /etc/cron. {hourly,daily,weekly,monthly}.",
        "obligation",
        "must",
    )

    assert verdict is None or not verdict.conflict


@pytest.mark.parametrize(
    ("clause", "rule", "word"),
    [
        (
            "The hourly cron job rewrites /etc/acme/agent.conf, a conffile of the package.",
            "The maintainer scripts must not alter a conffile of any package.",
            "rewrites",
        ),
        (
            "The source package keeps a prebuilt setuid helper in its tree.",
            "The source package must not contain any setuid files.",
            "keeps",
        ),
    ],
)
def test_a_verb_of_the_forbidden_acts_class_does_the_act(clause: str, rule: str, word: str) -> None:
    verdict = verdict_of(clause, rule, "prohibition", "must not")

    assert verdict.conflict
    assert f"“{word}” for" in verdict.rationale


KEEP_NOTICES = (
    "You may convey verbatim copies of the Program's source code as you receive it, in any medium, "
    "provided that you keep intact all notices of the absence of any warranty"
)


def test_allowing_the_opposite_of_a_conditions_duty_conflicts() -> None:
    verdict = verdict_of(
        "Resellers are free to strip the warranty notices from the files they pass on.",
        KEEP_NOTICES,
        "obligation",
        "provided that",
    )

    # The licence's provision on its notices reads it first (``licence_notices``).
    assert (verdict.conflict, verdict.reading) == (True, "stripped_notices")
    assert "strip the warranty notices" in verdict.rationale


def test_keeping_a_conditions_duty_is_no_conflict() -> None:
    verdict = judge(
        "Resellers keep every warranty notice intact in the files they pass on.",
        KEEP_NOTICES,
        "obligation",
        "provided that",
    )

    assert verdict is None or not verdict.conflict


def test_leaving_undone_what_a_rule_allows_only_in_one_form_is_no_opposite() -> None:
    verdict = judge(
        "make install leaves the binaries unstripped; make install-strip makes stripped copies.",
        "It should only strip the copies that are installed.",
        "recommendation",
        "should",
    )

    assert verdict is None or verdict.reading != "opposite"


TMPDIR_RULE = (
    "If you make temporary files, check the TMPDIR environment variable; if that variable is defined, "
    "use the specified directory instead of /tmp."
)


def test_what_a_rule_rules_out_done_only_as_a_fallback_beside_what_it_requires_by_name_keeps_it() -> None:
    fallback = verdict_of(
        "Scratch files honour TMPDIR and fall back to /tmp only when it is unset.",
        TMPDIR_RULE,
        "recommendation",
        "check",
    )
    always = verdict_of(
        "Scratch files always go to /tmp/acme, whatever the environment says.",
        TMPDIR_RULE,
        "recommendation",
        "check",
    )

    assert not fallback.conflict
    assert (always.conflict, always.reading) == (True, "ruled_out_in_path")


# An act by "use": what it uses decides


COUNT_AS_STATUS: tuple[str, Modality, str] = (
    "Do not use a count of errors as the exit status for a program.",
    "prohibition",
    "Do not",
)


@pytest.mark.parametrize(
    "clause",
    [
        "When the import finishes, its exit status is the number of records it rejected.",
        "The checker uses the count of failed files as its exit status.",
        "Subcommands are allowed to use the number of failed items as their exit code.",
        "When a survey run finishes, the checker exits with the number of stations that failed validation.",
    ],
)
def test_using_what_the_rule_forbids_using_conflicts(clause: str) -> None:
    assert verdict_of(clause, *COUNT_AS_STATUS).conflict


@pytest.mark.parametrize(
    ("clause", "rule"),
    [
        ("A successful run exits with status 0 and a usage error exits with status 2.", COUNT_AS_STATUS),
        (
            "The checker exits with 0 when every input validates and 1 when anything fails, whatever the number of "
            "failures.",
            COUNT_AS_STATUS,
        ),
        (
            "Release tarballs are named tidemark-5.0.tar.gz and unpack into a single directory tidemark-5.0.",
            (
                "Also, don’t use multiple names for one file in different directories, because certain file "
                "systems cannot handle this.",
                "prohibition",
                "don’t",
            ),
        ),
    ],
)
def test_sharing_words_without_using_what_the_rule_forbids_using_keeps_it(
    clause: str, rule: tuple[str, Modality, str]
) -> None:
    verdict = judge(clause, *rule)
    assert verdict is None or not verdict.conflict


def test_a_term_the_rule_forbids_using_is_its_object_not_the_word_term() -> None:
    verdict = verdict_of(
        "Messages about bad input use the word illegal, as in illegal option.",
        "Please do not use the term “illegal” to refer to erroneous input to a computer program.",
        "prohibition",
        "do not",
    )
    assert verdict.conflict


LIBEXEC: tuple[str, Modality, str] = (
    "Applications which use /usr/libexec in this way must not also use /usr/lib to store internal binaries.",
    "prohibition",
    "must not",
)
VAR_TMP_AT_BOOT: tuple[str, Modality, str] = (
    "Files and directories located in /var/tmp must not be deleted when the system is booted.",
    "prohibition",
    "must not",
)


@pytest.mark.parametrize(
    ("clause", "rule", "conflict"),
    [
        ("Internal helper programs are stored in /usr/libexec/tidemark/.", LIBEXEC, False),
        ("Internal helper binaries are stored in /usr/lib/tidemark/ as well.", LIBEXEC, True),
        (
            "The weekly maintenance job deletes anything under /var/tmp/tidemark older than 30 days.",
            VAR_TMP_AT_BOOT,
            False,
        ),
        (
            "A boot-time unit deletes everything under /var/tmp/tidemark when the system is booted.",
            VAR_TMP_AT_BOOT,
            True,
        ),
    ],
)
def test_a_prohibition_is_broken_where_and_when_its_act_is_forbidden(
    clause: str, rule: tuple[str, Modality, str], conflict: bool
) -> None:
    verdict = judge(clause, *rule)
    assert bool(verdict and verdict.conflict) is conflict


async def test_the_opposite_word_of_a_forbidden_act_does_not_do_it(embedder: MiniLMEmbedder) -> None:
    clause = "The copyright file is installed uncompressed at /usr/share/doc/hearthctl/copyright, in UTF-8."
    rule = "The copyright file must neither be compressed nor be a symbolic link."
    lexicon = await Lexicon.of(embedder, [clause, "compressed"])

    assert Lexicon.alike(lexicon, "compressed", ["uncompressed"]) == "uncompressed"
    verdict = judge(clause, rule, "prohibition", "must neither", lexicon=lexicon)
    assert verdict is None or not verdict.conflict


def test_a_figure_the_clause_no_longer_keeps_is_not_its_own() -> None:
    verdict = judge(
        "Long lines in station tables are no longer cut off at 4096 characters; the reader grows its buffers.",
        "Please keep the length of source lines to 79 characters or less.",
        "recommendation",
        "Please",
    )
    assert verdict is None or verdict.reading != "quantity"


def test_an_area_writable_by_the_system_places_nothing_there() -> None:
    verdict = judge(
        "The root filesystem is mounted read-only; /var and /run are writable, and /run starts empty on every boot.",
        "/run should not be writable for unprivileged users; it is a major security problem.",
        "recommendation_against",
        "should not",
    )
    assert verdict is None or verdict.reading != "forbidden_path"


COPYRIGHT_AS_README: tuple[str, Modality, str] = (
    "You should not use the copyright file as a general README file.",
    "recommendation_against",
    "should not",
)


@pytest.mark.parametrize(
    ("clause", "conflict"),
    [
        ("The copyright file has been updated for any new third-party code.", False),
        ("We also use the copyright file as the package's README, with build notes at the end.", True),
    ],
)
def test_using_a_thing_as_something_else_is_done_only_by_naming_both(clause: str, conflict: bool) -> None:
    verdict = judge(clause, *COPYRIGHT_AS_README)
    assert bool(verdict and verdict.conflict) is conflict


LOGS_ON_PURGE: tuple[str, Modality, str] = (
    "Log files should be removed when the package is purged (but not when it is only removed).",
    "recommendation",
    "should",
)


@pytest.mark.parametrize(
    ("clause", "conflict"),
    [
        ("Logs are rotated weekly, and postrm deletes them only on purge, not on plain removal.", False),
        ("Log files are removed by the postrm script on purge only, never on a plain remove.", False),
        ("Purging the package also leaves the log files in place for the auditors.", True),
        ("Log files are not removed when the package is purged.", True),
    ],
)
def test_doing_the_act_in_the_case_the_rule_governs_keeps_it_whatever_else_is_denied(
    clause: str, conflict: bool
) -> None:
    verdict = judge(clause, *LOGS_ON_PURGE)
    assert bool(verdict and verdict.conflict) is conflict


def test_denying_what_the_rule_rules_out_leaves_nothing_of_its_act_out() -> None:
    verdict = judge(
        "Maintainer scripts never call /etc/init.d/coracle-server directly; they go through invoke-rc.d.",
        "The package maintainer scripts must use invoke-rc.d to invoke the /etc/init.d/* init scripts or "
        "equivalent instead of calling them directly.",
        "obligation",
        "must",
    )
    assert verdict is None or not verdict.conflict


def test_a_clause_doing_its_act_whatever_the_required_variable_says_goes_without_it() -> None:
    verdict = verdict_of(
        "The flasher always stages its images in /tmp/flash, whatever TMPDIR is set to.",
        "If you make temporary files, check the TMPDIR environment variable; if that variable is defined, use "
        "the specified directory instead of /tmp.",
        "recommendation",
        "check",
    )
    assert verdict.conflict


def test_the_rules_own_verb_done_to_a_name_in_code_form_it_forbids_is_a_forbidden_act() -> None:
    rule = (
        "You should not set the value of DESTDIR in your Makefile at all.",
        "recommendation_against",
        "should not",
    )

    setting = verdict_of("Our top-level Makefile sets DESTDIR ?= $(CURDIR)/debian/tmp.", *rule)
    assert (setting.conflict, setting.reading) == (True, "forbidden_act")
    honouring = judge("Our Makefile honours DESTDIR when the packager passes it on the command line.", *rule)
    assert honouring is None or not honouring.conflict


def test_denying_a_closed_compound_of_the_rules_words_denies_its_act() -> None:
    rule = "Log files must be rotated occasionally so that they don’t grow indefinitely."

    denies = judge(
        "The daemon logs to /var/log/acme.log; we are not shipping a logrotate file, since it grows slowly.",
        rule,
        "obligation",
        "must",
    )
    keeps = judge(
        "The daemon logs to /var/log/acme.log and ships a logrotate file.", rule, "obligation", "must"
    )

    assert denies is not None
    assert (denies.conflict, denies.reading) == (True, "polarity")
    assert keeps is None or not keeps.conflict


# Rules of several statements

INSTALL_DEFAULTS = (
    "(The default for INSTALL_PROGRAM should be $(INSTALL); the default for INSTALL_DATA should be "
    "${INSTALL} -m 644.)"
)


@pytest.mark.parametrize(
    ("clause", "conflict"),
    [
        ("INSTALL_DATA in our Makefile is $(INSTALL) -m 600, so only root reads the templates.", True),
        ("INSTALL_DATA in our Makefile is ${INSTALL} -m 644.", False),
    ],
)
def test_each_statement_of_a_rule_binds_its_own_subject(clause: str, conflict: bool) -> None:
    verdict = judge(clause, INSTALL_DEFAULTS, "recommendation", "should")

    assert verdict is not None
    assert verdict.conflict is conflict


def test_a_statement_leaning_on_the_one_before_is_read_with_it() -> None:
    # "use the specified directory instead of /tmp" is only what to do when TMPDIR is set: read alone,
    # a clause falling back to /tmp without TMPDIR would seem to break it.
    verdict = judge(
        "Scratch files go to the directory named by TMPDIR, and to /tmp only when it is unset.",
        "If you make temporary files, check the TMPDIR environment variable; if that variable is defined, use "
        "the specified directory instead of /tmp.",
        "recommendation",
        "check",
    )

    assert verdict is None or not verdict.conflict


def test_a_rule_on_the_characters_of_names_is_not_judged_on_a_clause_giving_none() -> None:
    rule = "A cron job file name must not include any period or plus characters (. or +) characters."

    assert (
        judge(
            "Jobs that print nothing on success keep cron mail out of inboxes.",
            rule,
            "prohibition",
            "must not",
        )
        is None
    )


@pytest.mark.parametrize(
    ("clause", "conflict"),
    [
        ("Release builds now carry DESTDIR = /srv/stage/tide at the top of Makefile.in.", True),
        ("We added PREFIX ?= /opt/tide and DESTDIR := /srv/stage to the top-level Makefile.", True),
        # On a command line an assignment passes a value to one run.
        ("The Makefile leaves it alone; packagers stage with make DESTDIR=/tmp/stage install.", False),
    ],
)
def test_assigning_a_name_in_code_form_sets_it(clause: str, conflict: bool) -> None:
    verdict = verdict_of(
        clause,
        "You should not set the value of DESTDIR in your Makefile at all.",
        "recommendation_against",
        "should not",
    )

    assert verdict.conflict is conflict


def test_the_opposite_act_on_options_the_rule_names_breaks_it() -> None:
    rule = "In particular, they should accept any option that starts with ‘--with-’ or ‘--enable-’."
    rejecting = verdict_of(
        "Our configure refuses every --enable- option it does not know and exits with status 1.",
        rule,
        "recommendation",
        "should",
    )
    accepting = judge(
        "configure accepts any --enable- option and warns about unknown ones.",
        rule,
        "recommendation",
        "should",
    )

    assert (rejecting.conflict, rejecting.reading) == (True, "opposite")
    assert accepting is None or not accepting.conflict

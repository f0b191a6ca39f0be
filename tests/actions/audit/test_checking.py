"""Checking clauses against hand-built candidate rules: flag thresholds (in standing), the margin, ungoverned clauses."""

from actions.audit.checking import FLAG, MARGIN, RELATED, check_target
from actions.audit.clauses import Clause
from actions.audit.matching import JUDGED, Candidate
from policypal.contracts import ResolvedDocument
from policypal.contracts.audit import Modality
from policypal.vectorstore import RulePoint
from tests.actions.audit.rule_points import rule_point

GDPR = ResolvedDocument(document_id="gdpr", title="GDPR", version="2016/679", doc_type="regulatory")


def rule(index: int, text: str, modality: Modality, words: str) -> RulePoint:
    return rule_point(index, text, modality, words, document_id="gdpr", title="GDPR")


MUST_ENCRYPT = rule(0, "Personal data must be encrypted at rest.", "obligation", "must")
MUST_NOT_EMAIL = rule(1, "Personal data must not be sent by unencrypted e-mail.", "prohibition", "must not")
SHOULD_PSEUDONYMISE = rule(
    2, "Personal data should be pseudonymised before analysis.", "recommendation", "should"
)
MAY_TRANSFER = rule(3, "Controllers may transfer personal data to adequate countries.", "permission", "may")
AT_LEAST_FIVE_YEARS = rule(4, "Processing records must be kept for at least 5 years.", "obligation", "must")


def clause(text: str) -> Clause:
    return Clause(text=text, quote=text)


def candidate(rule: RulePoint, standing: float) -> Candidate:
    """A candidate whose standing (what the checks read) is ``standing``."""
    return Candidate(rule=rule, relatedness=0.5, similarity=0.5, term_share=0.5, standing=standing)


#: A standing well past every threshold.
STRONG = FLAG["polarity"] + 1.0


DENIES_ENCRYPTION = clause("Customer records are not encrypted at rest.")
KEPT_TEN_YEARS = clause("Processing records are kept for 10 years and are not encrypted at rest.")


def test_a_polarity_conflict_at_its_flag_threshold_is_a_breach() -> None:
    check = check_target([DENIES_ENCRYPTION], [[candidate(MUST_ENCRYPT, FLAG["polarity"])]], GDPR, rules=6)

    (breach,) = check.breaches
    assert breach.rule == MUST_ENCRYPT
    assert breach.verdict.reading == "polarity"
    assert check.governing == [(DENIES_ENCRYPTION, breach.candidate, True)]


def test_a_polarity_conflict_below_its_flag_threshold_is_not_reported() -> None:
    check = check_target(
        [DENIES_ENCRYPTION], [[candidate(MUST_ENCRYPT, FLAG["polarity"] - 0.01)]], GDPR, rules=6
    )

    assert check.breaches == []


def test_a_quantity_conflict_needs_less_standing_than_a_polarity_one() -> None:
    short_retention = clause("Processing records are deleted after 2 years.")
    standing = (FLAG["quantity"] + FLAG["polarity"]) / 2

    check = check_target([short_retention], [[candidate(AT_LEAST_FIVE_YEARS, standing)]], GDPR, rules=6)

    (breach,) = check.breaches
    assert breach.verdict.reading == "quantity"


def test_a_clause_permitting_more_than_an_only_rule_needs_less_standing_than_a_polarity_conflict() -> None:
    lower_case_only = rule(
        5, "Package names must consist only of registered product names.", "obligation", "must"
    )
    capitals = clause("Unregistered product names are allowed in package names.")
    standing = (FLAG["permits_more"] + FLAG["polarity"]) / 2

    check = check_target([capitals], [[candidate(lower_case_only, standing)]], GDPR, rules=6)
    (breach,) = check.breaches
    assert breach.verdict.reading == "permits_more"
    below = check_target(
        [capitals], [[candidate(lower_case_only, FLAG["permits_more"] - 0.01)]], GDPR, rules=6
    )
    assert below.breaches == []


def test_a_forbidden_act_by_the_rules_own_rare_verb_needs_less_standing_than_a_polarity_conflict() -> None:
    no_sublicensing = rule(6, "Sublicensing is not allowed.", "prohibition", "is not allowed")
    sublicensing = clause("Partners may sublicense the software to their customers.")
    standing = (FLAG["forbidden_act"] + FLAG["polarity"]) / 2
    rarity = {"sublicens": 4.0, "partner": 2.0, "softwar": 0.5, "custom": 0.5}

    check = check_target([sublicensing], [[candidate(no_sublicensing, standing)]], GDPR, 6, rarity)

    (breach,) = check.breaches
    assert breach.verdict.reading == "forbidden_act"
    assert FLAG["forbidden_act"] < FLAG["polarity"]


def test_a_quantity_conflict_below_its_flag_threshold_is_not_reported() -> None:
    short_retention = clause("Processing records are deleted after 2 years.")

    check = check_target(
        [short_retention], [[candidate(AT_LEAST_FIVE_YEARS, FLAG["quantity"] - 0.01)]], GDPR, rules=6
    )

    assert check.breaches == []


def test_a_conflict_is_dropped_when_an_agreeing_rule_stands_higher_by_more_than_the_margin() -> None:
    # The clause keeps the retention rule (its figure) and, read for polarity, denies encryption.
    text = KEPT_TEN_YEARS
    conflicting = candidate(MUST_ENCRYPT, STRONG)
    agreeing = candidate(AT_LEAST_FIVE_YEARS, STRONG + MARGIN + 0.02)

    check = check_target([text], [[agreeing, conflicting]], GDPR, rules=6)

    assert check.breaches == []
    assert check.consistent == 1
    assert check.governing == [(text, agreeing, False)]


def test_a_conflict_stands_when_the_agreeing_rule_is_within_the_margin() -> None:
    text = KEPT_TEN_YEARS
    conflicting = candidate(MUST_ENCRYPT, STRONG)
    agreeing = candidate(AT_LEAST_FIVE_YEARS, STRONG + MARGIN - 0.01)

    check = check_target([text], [[agreeing, conflicting]], GDPR, rules=6)

    (breach,) = check.breaches
    assert breach.candidate == conflicting


def test_a_rule_the_clause_neither_does_nor_denies_does_not_outweigh_a_conflict() -> None:
    text = clause(
        "When standard output is not a terminal, our tools switch the behavior of the program to JSON."
    )
    override = rule(
        11,
        "The -f option should override this exception, thus permitting the output to go to the terminal.",
        "recommendation",
        "should",
    )
    device = rule(
        12,
        "Likewise, please don’t make the behavior of a command-line program depend on the type of output "
        "device it gets used with.",
        "recommendation_against",
        "please don’t",
    )
    unaddressed = candidate(override, STRONG + MARGIN + 1.0)
    conflicting = candidate(device, STRONG)

    check = check_target([text], [[unaddressed, conflicting]], GDPR, rules=6)

    (breach,) = check.breaches
    assert breach.candidate == conflicting


def test_a_figure_past_a_limit_stands_against_a_higher_rule_the_clause_merely_does_not_deny() -> None:
    # The clause does not deny pseudonymising (a polarity agreement: no evidence either way), and its
    # figure falls short of the retention rule: the figure decides.
    text = clause("Processing records are pseudonymised before analysis and deleted after 2 years.")
    conflicting = candidate(AT_LEAST_FIVE_YEARS, STRONG)
    agreeing = candidate(SHOULD_PSEUDONYMISE, STRONG + MARGIN + 1.0)

    check = check_target([text], [[agreeing, conflicting]], GDPR, rules=6)

    (breach,) = check.breaches
    assert (breach.candidate, breach.verdict.reading) == (conflicting, "quantity")


def test_a_rule_against_further_restrictions_is_judged_beyond_the_ranks_the_judgement_reads() -> None:
    no_further = rule(
        7,
        "You may not impose any further restrictions on the exercise of the rights granted.",
        "prohibition",
        "may not",
    )
    restricting = clause("Customers may not pass copies of the firmware on to third parties.")
    unrelated = [
        candidate(rule(10 + i, f"Records must be kept for {i} years.", "obligation", "must"), 1.0)
        for i in range(JUDGED)
    ]

    check = check_target([restricting], [[*unrelated, candidate(no_further, -5.0)]], GDPR, rules=JUDGED + 1)

    (breach,) = check.breaches
    assert (breach.rule, breach.verdict.reading) == (no_further, "further_restriction")


def test_a_provision_broken_by_what_the_clause_does_stands_against_a_higher_rule_it_keeps() -> None:
    lock_names = rule(
        8,
        'The naming convention which must be used is "LCK.." followed by the base name of the device.',
        "obligation",
        "must",
    )
    lock_place = rule(
        9, "Lock files should be stored within the /var/lock directory structure.", "recommendation", "should"
    )
    locking = clause("The radio daemon locks /dev/ttyUSB0 by creating /var/lock/radio-ttyUSB0.")

    check = check_target(
        [locking], [[candidate(lock_place, STRONG + 3.0), candidate(lock_names, -3.0)]], GDPR, rules=2
    )

    (breach,) = check.breaches
    assert (breach.rule, breach.verdict.reading) == (lock_names, "misnamed_lock")


def test_a_value_a_prohibition_forbids_by_name_counts_at_any_standing_where_matched_by_it() -> None:
    sentinel = rule(
        9,
        "65535: This value must not be used, because it was the error return sentinel value.",
        "prohibition",
        "must not",
    )
    giving = clause("The service account is created with UID 65535 on every host.")
    by_value = Candidate(sentinel, 0.1, 0.1, 0.1, standing=-6.0, by_value=True)
    by_relatedness = Candidate(sentinel, 0.1, 0.1, 0.1, standing=-6.0)

    (breach,) = check_target([giving], [[by_value]], GDPR, rules=1).breaches
    assert breach.verdict.reading == "forbidden_value"
    assert check_target([giving], [[by_relatedness]], GDPR, rules=1).breaches == []


def test_a_candidate_by_the_clauses_area_is_judged_beyond_the_ranks_whatever_it_names() -> None:
    closed_root = rule(
        7, "Creating a new subdirectory of the root filesystem is prohibited.", "prohibition", "is prohibited"
    )
    adds = clause("The tool writes its evidence to /evidence, a top-level directory that it creates.")
    unrelated = [
        candidate(rule(10 + i, f"Records must be kept for {i} years.", "obligation", "must"), 1.0)
        for i in range(JUDGED)
    ]
    by_area = Candidate(
        closed_root, relatedness=0.1, similarity=0.1, term_share=0.0, standing=-5.0, by_area=True
    )
    by_rank = Candidate(closed_root, relatedness=0.1, similarity=0.1, term_share=0.0, standing=-5.0)

    found = check_target([adds], [[*unrelated, by_area]], GDPR, rules=JUDGED + 1)
    not_found = check_target([adds], [[*unrelated, by_rank]], GDPR, rules=JUDGED + 1)

    # Nor does a first-ranked one count unless the matching found it by the area: only the matching
    # knows which directories the target names.
    first = check_target([adds], [[by_rank, *unrelated]], GDPR, rules=JUDGED + 1)

    (breach,) = found.breaches
    assert (breach.rule, breach.verdict.reading) == (closed_root, "new_top_level")
    assert not_found.breaches == []
    assert first.breaches == []


def test_a_write_into_an_area_kept_free_of_writes_stands_against_a_higher_rule_merely_not_denied() -> None:
    crontab = rule(
        8, "Packages must not modify the configuration file /etc/crontab.", "prohibition", "must not"
    )
    cron_daemon = rule(9, "The cron daemon must support /etc/crontab entries.", "obligation", "must")
    text = clause("The postinst adds a line for the health report to /etc/crontab.")

    check = check_target(
        [text], [[candidate(cron_daemon, STRONG + MARGIN + 1.0), candidate(crontab, STRONG)]], GDPR, rules=6
    )

    (breach,) = check.breaches
    assert (breach.rule, breach.verdict.reading) == (crontab, "read_only")


def test_a_clause_with_no_candidate_standing_at_RELATED_is_ungoverned() -> None:  # noqa: N802
    agrees = clause("Customer records are encrypted at rest with AES-256.")

    check = check_target([agrees], [[candidate(MUST_ENCRYPT, RELATED - 0.01)]], GDPR, rules=6)

    assert (check.ungoverned, check.consistent, check.breaches) == (1, 0, [])
    assert check.governing == []


def test_an_agreeing_clause_with_a_related_rule_is_consistent() -> None:
    agrees = clause("Customer records are encrypted at rest with AES-256.")
    governing = candidate(MUST_ENCRYPT, RELATED + 0.5)

    check = check_target([agrees], [[governing]], GDPR, rules=6)

    assert (check.ungoverned, check.consistent) == (0, 1)
    assert check.governing == [(agrees, governing, False)]


def test_a_permission_never_governs_a_clause() -> None:
    text = clause("We never transfer personal data outside the EU.")

    check = check_target([text], [[candidate(MAY_TRANSFER, STRONG)]], GDPR, rules=6)

    assert (check.ungoverned, check.consistent, check.breaches) == (1, 0, [])


def test_breaches_of_must_and_must_not_are_high_and_of_should_medium() -> None:
    clauses = [
        DENIES_ENCRYPTION,
        clause("Personal data is sent by unencrypted e-mail to the payroll provider."),
        clause("Analysts do not pseudonymise personal data before analysis."),
    ]
    candidates = [
        [candidate(MUST_ENCRYPT, STRONG)],
        [candidate(MUST_NOT_EMAIL, STRONG)],
        [candidate(SHOULD_PSEUDONYMISE, STRONG)],
    ]

    check = check_target(clauses, candidates, GDPR, rules=6)

    assert [(b.rule.rule_index, b.severity) for b in check.breaches] == [
        (0, "High"),
        (1, "High"),
        (2, "Medium"),
    ]
    assert all(b.assessed_by == "offline-rules" for b in check.breaches)
    assert check.rules == 6
    assert check.target == GDPR


def test_the_conflict_furthest_past_its_threshold_is_the_one_reported() -> None:
    text = clause("Processing records are deleted after 2 years and are not encrypted at rest.")
    polarity = candidate(MUST_ENCRYPT, FLAG["polarity"] + 0.1)
    quantity = candidate(AT_LEAST_FIVE_YEARS, FLAG["quantity"] + 0.5)

    check = check_target([text], [[polarity, quantity]], GDPR, rules=6)

    # The clause breaks both; the one furthest past its threshold comes first.
    assert [b.candidate for b in check.breaches] == [quantity, polarity]


def test_a_thing_the_rule_names_placed_elsewhere_is_reported_where_a_bare_other_path_is_not() -> None:
    pid_files = rule(5, "PID files must be placed in /run.", "obligation", "must")
    standing = FLAG["misplaced"]
    assert standing < FLAG["required_path"]
    misplaced = clause("Daemons write their PID files to /var/tmp.")
    elsewhere = clause("Daemons write their reports to /var/tmp.")

    check = check_target(
        [misplaced, elsewhere],
        [[candidate(pid_files, standing)], [candidate(pid_files, standing)]],
        GDPR,
        rules=6,
    )

    (breach,) = check.breaches
    assert (breach.clause, breach.verdict.reading) == (misplaced, "misplaced")


def ranks_above_judged() -> list[Candidate]:
    """``JUDGED`` strong candidates about other things, ahead of the one a test is about."""
    return [
        candidate(rule(10 + k, f"Rule {k} about other things.", "obligation", "must"), STRONG)
        for k in range(JUDGED)
    ]


def test_a_conflict_on_a_stated_value_counts_below_the_judged_ranks_and_polarity_does_not() -> None:
    modes = rule(6, "Files should be installed with mode 644 or 755.", "recommendation", "should")
    filler = ranks_above_judged()
    given = clause("Installed files are given mode 0777.")
    denied = clause("Customer records are not encrypted at rest.")

    check = check_target(
        [given, denied],
        [[*filler, candidate(modes, STRONG)], [*filler, candidate(MUST_ENCRYPT, STRONG)]],
        GDPR,
        rules=20,
    )

    (breach,) = check.breaches
    assert (breach.clause, breach.verdict.reading) == (given, "other_value")


def test_a_write_into_an_area_kept_free_of_writes_counts_below_the_judged_ranks() -> None:
    group = rule(7, "Packages must not modify /etc/group.", "prohibition", "must not")
    filler = ranks_above_judged()
    appends = clause("The postinst appends a line to /etc/group.")

    check = check_target([appends], [[*filler, candidate(group, STRONG)]], GDPR, rules=20)

    (breach,) = check.breaches
    assert breach.verdict.reading == "read_only"


def test_a_write_into_an_area_kept_free_of_writes_found_by_that_area_counts_at_any_standing() -> None:
    usr = rule(
        7, "/usr should be shareable between hosts and must not be written to.", "prohibition", "must not"
    )
    refreshes = clause("At run time the daemon refreshes its cache in /usr/share/acme/cache.")
    by_area = Candidate(usr, relatedness=0.1, similarity=0.1, term_share=0.0, standing=-5.0, by_area=True)
    by_rank = Candidate(usr, relatedness=0.1, similarity=0.1, term_share=0.0, standing=-5.0)

    found = check_target([refreshes], [[by_area]], GDPR, rules=20)
    not_found = check_target([refreshes], [[by_rank]], GDPR, rules=20)

    (breach,) = found.breaches
    assert (breach.rule, breach.verdict.reading) == (usr, "read_only")
    assert not_found.breaches == []


INIT_SCRIPTS = rule(
    8,
    "The package maintainer scripts must use invoke-rc.d to invoke the /etc/init.d/* init scripts "
    "instead of calling them directly.",
    "obligation",
    "must",
)


def test_what_a_rule_rules_out_done_inside_its_path_counts_below_the_judged_ranks() -> None:
    filler = ranks_above_judged()
    direct = clause(
        "After an upgrade the postinst restarts the agent by calling /etc/init.d/agent restart directly."
    )
    elsewhere = clause(
        "After an upgrade the postinst restarts the agent by calling /usr/sbin/agentctl directly."
    )

    check = check_target(
        [direct, elsewhere],
        [[*filler, candidate(INIT_SCRIPTS, STRONG)], [*filler, candidate(INIT_SCRIPTS, STRONG)]],
        GDPR,
        rules=20,
    )

    (breach,) = check.breaches
    assert (breach.clause, breach.verdict.reading) == (direct, "ruled_out_in_path")


def test_what_a_rule_rules_out_done_inside_its_path_stands_against_a_higher_rule_merely_not_denied() -> None:
    direct = clause(
        "After an upgrade the postinst restarts the agent by calling /etc/init.d/agent restart directly."
    )
    postinst = rule(9, "The postinst must restart the agent after an upgrade.", "obligation", "must")

    check = check_target(
        [direct],
        [[candidate(postinst, STRONG + MARGIN + 1.0), candidate(INIT_SCRIPTS, FLAG["ruled_out_in_path"])]],
        GDPR,
        rules=6,
    )

    (breach,) = check.breaches
    assert breach.verdict.reading == "ruled_out_in_path"


def test_an_option_required_by_name_and_denied_by_name_needs_less_standing_than_a_polarity_conflict() -> None:
    options = rule(
        13,
        "All programs should support two standard options: ‘--version’ and ‘--help’.",
        "recommendation",
        "should",
    )
    dropped = clause(
        "brindle-merge no longer understands --help or --version; use brindle help merge instead."
    )

    check = check_target([dropped], [[candidate(options, FLAG["polarity"] - 1.0)]], GDPR, rules=6)

    (breach,) = check.breaches
    assert breach.verdict.reading == "lacks_identifier"


def test_a_name_breaking_a_character_rule_is_not_outweighed_by_a_rule_on_where_the_file_goes() -> None:
    cron_names = rule(
        6,
        "A cron job file name must not include any period or plus characters (. or +).",
        "prohibition",
        "must not",
    )
    cron_place = rule(
        7, "A package should install its cron job file in /etc/cron.d.", "recommendation", "should"
    )
    dotted = clause("Our cron job file is installed as /etc/cron.d/acme.agent.")

    check = check_target(
        [dotted],
        [[candidate(cron_place, STRONG + MARGIN + 2.0), candidate(cron_names, FLAG["characters"])]],
        GDPR,
        rules=6,
    )

    (breach,) = check.breaches
    assert breach.verdict.reading == "characters"
    assert breach.rule == cron_names


def test_a_value_another_rule_allows_even_below_the_judged_ranks_is_no_breach_of_the_general_one() -> None:
    general = rule(
        10, "Setuid executables should be mode 4755, and owned by root.", "recommendation", "should"
    )
    special = rule_point(
        11, "They should have mode 4754.", "recommendation", "should", document_id="gdpr", title="GDPR"
    ).model_copy(update={"referent": "Setuid executables restricted to a group"})
    restricted = clause(
        "The restricted setuid executables are installed with mode 4754 for the operators' group."
    )
    elsewhere = clause("The setuid executables are installed with mode 4711.")
    filler = [
        candidate(rule(20 + k, f"Rule {k} must hold.", "obligation", "must"), 0.0) for k in range(JUDGED)
    ]

    checks = [
        check_target([c], [[candidate(general, STRONG), *filler, candidate(special, 0.0)]], GDPR, rules=9)
        for c in (restricted, elsewhere)
    ]

    assert checks[0].breaches == []
    breach = checks[1].breaches[0]
    assert (breach.rule, breach.verdict.reading) == (general, "other_value")


def test_a_path_in_a_forbidden_area_counts_below_the_judged_ranks_for_what_the_rule_forbids_there() -> None:
    local = rule(8, "Packages must not place any files in /usr/local.", "prohibition", "must not")
    binaries = rule(9, "No binaries may be located under /etc.", "prohibition", "No binaries may")
    filler = ranks_above_judged()
    ships = clause("The helper files are shipped in the .deb under /usr/local/share/acme.")
    init_script = clause("The init script kept for sysvinit hosts is installed as /etc/init.d/acme.")

    check = check_target(
        [ships, init_script],
        [[*filler, candidate(local, FLAG["forbidden_path"])], [*filler, candidate(binaries, STRONG)]],
        GDPR,
        rules=20,
    )

    (breach,) = check.breaches
    assert (breach.clause, breach.verdict.reading) == (ships, "forbidden_path")


def test_a_name_met_by_the_rule_on_names_counts_at_any_standing_where_the_clause_says_whose_name_it_is() -> (
    None
):
    names = rule(
        9,
        "Package names must consist only of lower case letters (a-z), digits (0-9), plus (+) and minus (-).",
        "obligation",
        "must",
    )
    package = clause(
        "Plug-ins are packaged separately and named after their class, for example acme-plugin_SNMP."
    )
    account = clause("The daemon runs as a system account named _acme, clear of the login names we hand out.")

    def by_name(standing: float) -> Candidate:
        return Candidate(
            names, relatedness=0.1, similarity=0.1, term_share=0.0, standing=standing, by_name=True
        )

    check = check_target([package, account], [[by_name(-5.0)], [by_name(-5.0)]], GDPR, rules=20)
    by_rank = check_target(
        [package],
        [[Candidate(names, relatedness=0.1, similarity=0.1, term_share=0.0, standing=-5.0)]],
        GDPR,
        rules=20,
    )

    (breach,) = check.breaches
    assert (breach.clause, breach.verdict.reading) == (package, "characters")
    assert by_rank.breaches == []


def test_a_relicensing_clause_breaks_the_rule_on_licensing_under_itself_below_the_judged_ranks() -> None:
    under_itself = rule(
        9, "You must license the entire work, as a whole, under this License.", "obligation", "must"
    )
    relicenses = clause("Partners may ship modified builds under their own proprietary EULA.")

    check = check_target(
        [relicenses], [[*ranks_above_judged(), candidate(under_itself, -5.0)]], GDPR, rules=20
    )

    (breach,) = check.breaches
    assert breach.verdict.reading == "relicensed"


def test_a_write_into_an_area_kept_free_of_writes_is_not_undone_by_keeping_the_required_place() -> None:
    # Accounts belong in /etc/passwd (one rule), which packages must not modify themselves (another).
    accounts = rule(
        7,
        "These packages should check for and create the accounts in /etc/passwd or /etc/group.",
        "recommendation",
        "should",
    )
    passwd = rule(8, "Packages must not modify /etc/passwd or /etc/group.", "prohibition", "must not")
    appends = clause("The postinst creates the service account by appending entries to /etc/passwd.")

    check = check_target(
        [appends], [[candidate(accounts, STRONG + MARGIN + 1.0), candidate(passwd, STRONG)]], GDPR, rules=20
    )

    (breach,) = check.breaches
    assert (breach.rule, breach.verdict.reading) == (passwd, "read_only")


def test_a_directory_added_where_the_rule_keeps_the_top_level_closed_conflicts_at_any_standing() -> None:
    closed = rule(
        7,
        "Applications must generally not add directories to the top level of /var.",
        "prohibition",
        "must not",
    )
    queue = clause("The playout queue lives in /var/cartwheel/queue/.")
    added = Candidate(
        closed,
        relatedness=0.1,
        similarity=0.1,
        term_share=0.0,
        standing=-5.0,
        by_area=True,
        added=("/var/cartwheel",),
    )

    check = check_target([queue], [[added]], GDPR, rules=20)

    (breach,) = check.breaches
    assert breach.verdict.reading == "new_top_level"
    assert "/var/cartwheel" in breach.verdict.rationale


def test_a_forbidden_act_on_a_name_in_code_form_both_name_counts_below_the_judged_ranks() -> None:
    argv = rule(
        6,
        "The program’s name should be a constant string; don’t compute it from argv[0].",
        "recommendation",
        "should",
    )
    filler = ranks_above_judged()
    computed = clause(
        "The first line of `--version` output uses the name the program was invoked under, taken from `argv[0]`."
    )

    check = check_target([computed], [[*filler, candidate(argv, STRONG)]], GDPR, rules=20)

    (breach,) = check.breaches
    assert (breach.rule, breach.verdict.reading) == (argv, "forbidden_act")


def test_two_rules_of_a_text_without_pages_are_two_places_unless_in_one_section() -> None:
    sublicensing = rule_point(
        30, "Sublicensing is not allowed.", "prohibition", "is not allowed", section="2. Basic Permissions."
    )
    notices = rule_point(
        31,
        "You must keep intact all notices.",
        "obligation",
        "must",
        section="4. Conveying Verbatim Copies.",
    )
    text = clause("Partners may sublicense the work and may remove all notices from it.")
    verdicts = [candidate(sublicensing, STRONG), candidate(notices, STRONG)]

    check = check_target([text], [verdicts], GDPR, rules=2)

    assert {b.rule.rule_index for b in check.breaches} == {30, 31}

"""A rule's proposition: its terms, the head of its act, what it rules out; whether a clause speaks of it."""

from actions.audit.judgement import judge
from actions.audit.key_terms import key_terms
from actions.audit.lexicon import Lexicon
from actions.audit.proposition import Proposition
from actions.audit.verdict import Verdict
from policypal.embeddings import MiniLMEmbedder
from policypal.rules import modal_cue


def test_the_proposition_leaves_out_the_purpose_and_what_the_rule_rules_out() -> None:
    rule = Proposition.of("Log files", " be rotated so that they don't grow indefinitely.", negative=False)

    assert {"log", "file", "rotat"} <= rule.about
    assert not {"grow", "indefinit"} & rule.about
    # What the purpose negates, the rule rules out: a clause where logs "are left to grow" breaks it.
    assert rule.ruled_out == frozenset({"grow", "indefinit"})


def test_a_term_only_negated_in_the_rule_is_ruled_out() -> None:
    rule = Proposition.of(
        "The program's name", " be a constant string; don't compute it from argv[0].", False
    )

    assert {"comput", "argv"} <= rule.ruled_out
    assert not rule.ruled_out & rule.about


def test_a_waiver_or_a_negated_condition_rules_nothing_out() -> None:
    waiver = Proposition.of(
        "The user", " build the program before running the tests, but need not install it.", False
    )
    condition = Proposition.of(
        "Log files", " be removed when the package is purged (but not when it is removed).", False
    )

    assert not waiver.ruled_out
    assert not condition.ruled_out


def test_what_a_rule_rules_out_is_headed_by_the_act_it_names() -> None:
    rule = Proposition.of("It", " is better not to include the program name in an error message.", False)

    # "include" is a generic verb: the object heads the act.
    assert rule.ruled_out_heads == frozenset({"program", "name"})
    assert "messag" in rule.ruled_out


def test_an_opening_condition_is_what_the_rule_is_about_but_not_the_subject_of_its_act() -> None:
    rule = Proposition.of(
        "In the common case that a package starts a single service, they",
        " be named after the package.",
        False,
    )

    assert {"servic", "start"} <= rule.about
    assert not {"servic", "start", "singl"} & rule.head


def test_what_a_prohibition_forbids_ends_where_a_rule_of_its_own_begins() -> None:
    rule = Proposition.of(
        "If the headers are installed twice, the installer",
        " try to use them; it should cancel the second installation of the header files.",
        negative=True,
    )

    assert not {"cancel", "second"} & rule.about
    assert (
        judge(
            "Send us the file header and we will check it.",
            "If it is, they should not try to use it; they should cancel the second installation of the header files.",
            "recommendation_against",
            "should not",
        )
        is None
    )


def test_the_head_of_a_passive_act_includes_its_subject() -> None:
    passive = Proposition.of("The copyright information", " be copied verbatim into each package.", False)
    active = Proposition.of("Each program", " have an associated manual page.", False)

    assert {"copyright", "inform", "copi"} <= passive.head
    assert active.head == frozenset({"associ", "manual"})


def test_a_prohibition_with_an_exception_forbids_the_act_not_the_exception() -> None:
    rule = Proposition.of("Personal data", " be transferred without the customer's consent.", negative=True)

    assert "consent" not in rule.about
    assert rule.verbs == ("transferred",)


def test_a_clause_speaks_of_a_proposition_by_two_shared_terms_or_by_a_weighty_one() -> None:
    rule = Proposition.of("Packages", " contain hard links to conffiles.", negative=True)

    assert rule.spoken_of(key_terms("Our packages contain hard links."), {})
    assert not rule.spoken_of(key_terms("A conffile is tracked by dpkg."), {})
    assert rule.spoken_of(key_terms("A conffile is tracked by dpkg."), {"conffil": 9.0})


async def test_a_clause_does_the_act_by_its_verb_or_a_word_naming_the_same_act(
    embedder: MiniLMEmbedder,
) -> None:
    rule = Proposition.of("Error messages", " begin with a capital letter.", negative=True)
    clause = "Every error message starts with a capital letter."
    lexicon = await Lexicon.of(embedder, [clause, "begin"])

    assert rule.act_in("Error messages begin with a capital.", key_terms("messages begin capital"), None)
    assert rule.act_in(clause, key_terms(clause), None) is None
    assert rule.act_in(clause, key_terms(clause), lexicon) == "starts"
    generic = Proposition.of("Packages", " use the term illegal.", negative=True)
    assert generic.act_in("We say illegal.", key_terms("We say illegal."), None) == ""


def verdict(clause: str, rule: str) -> Verdict:
    """The verdict under a prohibition, its modal words read off the rule."""
    cue = modal_cue(rule)
    assert cue is not None
    assert cue.modality in ("prohibition", "recommendation_against")
    found = judge(clause, rule, cue.modality, cue.words)
    assert found is not None
    return found


STATIC_GLIBC = "Binary executables must not be statically linked with the GNU C library."


def test_a_prohibitions_manner_is_part_of_the_act_it_forbids() -> None:
    statically = verdict("The agent binary is statically linked with the GNU C library.", STATIC_GLIBC)
    dynamically = verdict("The binary executables link dynamically against the GNU C library.", STATIC_GLIBC)

    assert statically.conflict
    assert not dynamically.conflict


def test_hedges_are_no_manner() -> None:
    rule = "Packages must not normally modify files of other packages."

    assert (
        Proposition.of("Packages ", " normally modify files of other packages.", True).manner == frozenset()
    )
    assert verdict("The postinst modifies files of other packages.", rule).conflict


def test_any_item_of_a_listed_object_is_the_object_of_the_act() -> None:
    rule = (
        "The source package must not contain any hard links, device special files, sockets or setuid files."
    )
    proposition = Proposition.of(
        "The source package ", " contain any hard links, device special files.", True
    )

    assert {"hard", "link", "devic", "special"} <= proposition.listed
    assert "file" not in Proposition.of("", " contain hard link files, or device files.", True).listed
    assert verdict("The source package contains the sockets the tests use.", rule).conflict


def test_a_list_of_places_is_no_list_of_objects() -> None:
    assert (
        Proposition.of("Packages ", " install files in both /path and /usr/path.", True).listed == frozenset()
    )


def test_the_object_of_a_generic_noun_heads_the_act() -> None:
    rule = "You should not set the value of DESTDIR in your Makefile at all."

    assert (
        "destdir" in Proposition.of("You ", " set the value of DESTDIR in your Makefile at all.", True).head
    )
    assert verdict("The Makefile sets DESTDIR to /opt/stage at its top.", rule).conflict


def test_putting_a_thing_into_a_package_is_one_act_whichever_verb_says_it() -> None:
    rule = "If a package installs a FreeDesktop desktop entry, it must not also install a Debian menu entry."

    assert verdict("The tools ship a desktop entry and a Debian menu entry as well.", rule).conflict
    assert not verdict("The tools ship a desktop entry and no Debian menu entry.", rule).conflict


NETWORK_ACCESS = (
    "For packages in the main archive, required targets must not attempt network access, except, via the "
    "loopback interface, to services on the build host that have been started by the build."
)


def test_a_prohibition_read_as_requiring_its_exception_has_the_exception_for_its_head() -> None:
    rule = Proposition.of(
        "For packages in the main archive, required targets ",
        " attempt network access, except, via the loopback interface, to services on the build host.",
        negative=False,
        excepting=True,
    )

    assert "loopback" in rule.head
    assert not {"network", "access"} & rule.head
    assert {"attempt", "network", "access"} <= rule.excepted_act


def test_denying_what_a_prohibition_forbids_but_for_its_exception_keeps_it() -> None:
    denies = judge(
        "Build workers have no outbound network access apart from our package mirror.",
        NETWORK_ACCESS,
        "prohibition",
        "must not",
    )
    without = judge(
        "Customer data is shared with partners without consent.",
        "Customer data must not be shared with partners without consent.",
        "prohibition",
        "must not",
    )

    assert denies is None or not denies.conflict
    assert without is not None
    assert (without.conflict, without.reading) == (True, "polarity")
    assert "consent" in without.rationale


def test_an_act_allowed_only_to_some_is_kept_by_a_clause_that_does_not_do_it() -> None:
    rule = (
        "Directly managing the /etc/rc?.d links and directly invoking the /etc/init.d/ init scripts should be "
        "done only by packages providing the init script subsystem (such as init-system-helpers)."
    )
    at = rule.index("should")
    restricted = Proposition.of(rule[:at], rule[at + len("should") :], negative=False)
    never = judge(
        "The init script is registered with update-rc.d from the postinst, and the package never contains any "
        "/etc/rc?.d links of its own.",
        rule,
        "recommendation",
        "should",
    )

    assert {"rc", "link"} <= restricted.excepted_act
    assert never is None or not never.conflict


def test_a_negation_in_what_the_act_has_someone_say_rules_nothing_out() -> None:
    rule = Proposition.of(
        "Packages in the non-free area",
        " state in the copyright file that the package is not part of the distribution.",
        False,
    )

    assert not rule.ruled_out & key_terms("part distribution")
    verdict = judge(
        "The firmware package is in our non-free area, and its copyright file states that it is not part of "
        "the distribution.",
        "Packages in the non-free area should state in the copyright file that the package is not part of the "
        "distribution.",
        "recommendation",
        "should",
    )
    assert verdict is None or not verdict.conflict


def test_doing_what_a_rule_prefers_in_parentheses_is_not_doing_what_it_turns_away_from() -> None:
    rule = "Repository URLs should use a secure scheme (https, for example, rather than http or git)."
    kept = judge("The Vcs-Git field gives the https URL of the repository.", rule, "recommendation", "should")
    broken = judge(
        "The Vcs-Git field gives a git:// URL of the repository.", rule, "recommendation", "should"
    )

    assert kept is None or not kept.conflict
    assert broken is not None
    assert broken.conflict is True

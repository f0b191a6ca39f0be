"""Matching clauses to a target's rules: cosine (the rule's and its passage's), shared rare key terms,
modal words left out; standing above chance."""

import numpy as np
import numpy.typing as npt
import pytest

from actions.audit.checking import RELATED
from actions.audit.matching import (
    DENSE_WEIGHT,
    MIN_RULES_FOR_SPREAD,
    RULE_WEIGHT,
    SMALL_TARGET_ORIGIN,
    SMALL_TARGET_UNIT,
    TargetRules,
    governing_rules,
    standings,
)
from policypal.contracts.audit import Modality
from policypal.vectorstore import RulePoint, StoredRule
from tests.actions.audit.rule_points import rule_point


def rule(index: int, text: str, modality: Modality = "obligation", section: str | None = None) -> RulePoint:
    return rule_point(index, text, modality, section=section)


def unit(*values: float) -> list[float]:
    vector = np.asarray(values, dtype=np.float32)
    return [float(v) for v in vector / np.linalg.norm(vector)]


def vectors(*rows: list[float]) -> npt.NDArray[np.float32]:
    return np.asarray(rows, dtype=np.float32)


USR_LOCAL = rule(0, "Packages must not place any files in /usr/local.", "prohibition")
USR_SHARE = rule(1, "Packages must install architecture-independent data into /usr/share.")
LOGS = rule(2, "Log files should be rotated at least weekly.", "recommendation")


def test_the_rule_sharing_the_clauses_rare_terms_ranks_first_when_cosines_tie() -> None:
    # Both rules are about installing packages (same vector); only one is about /usr/local.
    target = TargetRules.of(
        [
            StoredRule(rule=USR_SHARE, vector=unit(1, 0, 0)),
            StoredRule(rule=USR_LOCAL, vector=unit(1, 0, 0)),
            StoredRule(rule=LOGS, vector=unit(0, 1, 0)),
        ]
    )

    (found,) = governing_rules(
        ["Our installer places its files in /usr/local."], vectors(unit(1, 0, 0)), target
    )

    assert [c.rule for c in found] == [USR_LOCAL, USR_SHARE, LOGS]
    assert found[0].similarity == pytest.approx(found[1].similarity)
    assert found[0].term_share > found[1].term_share


def test_relatedness_mixes_cosine_and_term_share() -> None:
    target = TargetRules.of([StoredRule(rule=LOGS, vector=unit(1, 1, 0))])

    ((candidate,),) = governing_rules(["Log files are rotated every month."], vectors(unit(1, 0, 0)), target)

    assert candidate.similarity == pytest.approx(0.7071, abs=1e-3)
    assert 0 < candidate.term_share < 1
    assert candidate.relatedness == pytest.approx(
        DENSE_WEIGHT * candidate.similarity + (1 - DENSE_WEIGHT) * candidate.term_share, abs=1e-5
    )


def test_the_passage_a_rule_stands_in_adds_its_meaning() -> None:
    # Two rules whose own sentences are equally far from the clause ("This should normally be…");
    # only one stands in a passage about what the clause is about.
    about_logs = rule(3, "This should normally be done weekly.")
    about_backups = rule(4, "This should normally be done daily.")
    target = TargetRules.of(
        [
            StoredRule(rule=about_backups, vector=unit(0, 1, 0)),
            StoredRule(rule=about_logs, vector=unit(0, 1, 0)),
        ],
        {about_logs.chunk_index: unit(1, 0, 0), about_backups.chunk_index: unit(0, 0, 1)},
    )

    (found,) = governing_rules(["Journals are compressed monthly."], vectors(unit(1, 0, 0)), target)

    assert [c.rule for c in found] == [about_logs, about_backups]
    assert found[0].similarity == found[1].similarity == pytest.approx(0.0)
    assert found[0].relatedness == pytest.approx(DENSE_WEIGHT * (1 - RULE_WEIGHT), abs=1e-5)


def test_a_rule_that_stands_out_from_many_has_standing_and_the_closest_of_many_alike_has_none() -> None:
    rng = np.random.default_rng(7)
    background = rng.normal(0.25, 0.03, size=(2, 400)).astype(np.float32)
    background[0, 17] = 0.55  # one rule clearly about the first clause
    background[1, 17] = float(background[1].max()) + 0.005  # merely the closest for the second

    standing = standings(background)

    assert standing[0, 17] > RELATED
    assert standing[1, 17] < RELATED
    assert float(np.median(standing[0])) < 0


def test_a_small_target_reads_standing_off_relatedness() -> None:
    relatedness = np.asarray([[0.2, SMALL_TARGET_ORIGIN, 0.5]], dtype=np.float32)
    assert relatedness.shape[1] < MIN_RULES_FOR_SPREAD

    standing = standings(relatedness)

    assert standing[0].tolist() == pytest.approx(
        [
            (0.2 - SMALL_TARGET_ORIGIN) / SMALL_TARGET_UNIT,
            0.0,
            (0.5 - SMALL_TARGET_ORIGIN) / SMALL_TARGET_UNIT,
        ]
    )


def test_a_closer_meaning_wins_when_no_term_is_shared() -> None:
    target = TargetRules.of(
        [StoredRule(rule=USR_LOCAL, vector=unit(0, 1, 0)), StoredRule(rule=LOGS, vector=unit(1, 0.2, 0))]
    )

    (found,) = governing_rules(["Journals are compressed monthly."], vectors(unit(1, 0, 0)), target)

    assert [c.rule for c in found] == [LOGS, USR_LOCAL]
    assert [c.term_share for c in found] == [0, 0]


def test_modal_words_are_no_shared_terms() -> None:
    target = TargetRules.of([StoredRule(rule=LOGS, vector=unit(0, 1, 0))])

    ((candidate,),) = governing_rules(
        ["Contractors must always sign the NDA."], vectors(unit(1, 0, 0)), target
    )

    assert candidate.term_share == 0


def test_the_rules_section_title_counts_toward_its_terms() -> None:
    titled = rule(0, "Files must be kept there.", section="3.15 /tmp : Temporary files")
    untitled = rule(1, "Files must be kept there.")
    target = TargetRules.of(
        [StoredRule(rule=untitled, vector=unit(1, 0)), StoredRule(rule=titled, vector=unit(1, 0))]
    )

    (found,) = governing_rules(["Temporary files are kept in /tmp."], vectors(unit(1, 0)), target)

    assert found[0].rule == titled


def retention_rules(count: int) -> list[StoredRule]:
    """``count`` rules alike in words, each a little further from the clause vector (1, 0, 0)."""
    return [
        StoredRule(rule=rule(i, f"Rule number {i} about retention."), vector=unit(1, i / 10, 0))
        for i in range(count)
    ]


def test_at_most_limit_candidates_most_related_first() -> None:
    stored = retention_rules(8)
    target = TargetRules.of(stored)

    first, second = governing_rules(
        ["Data is retained.", "Data is deleted."], vectors(unit(1, 0, 0), unit(0, 0, 1)), target, limit=3
    )

    assert len(first) == len(second) == 3
    assert [c.rule.rule_index for c in first] == [0, 1, 2]
    assert [c.relatedness for c in first] == sorted((c.relatedness for c in first), reverse=True)


@pytest.mark.parametrize(
    ("provision", "modality", "doing", "not_doing"),
    [
        (
            "You may not impose any further restrictions on the exercise of the rights granted.",
            "prohibition",
            "Customers may not pass copies of the firmware on.",
            "Customers may copy the firmware.",
        ),
        (
            "You must license the entire work, as a whole, under this License.",
            "obligation",
            "Partners may ship modified builds under their own proprietary EULA.",
            "Builds ship under the GPL.",
        ),
        (
            "The Corresponding Source must be accompanied by the Installation Information.",
            "obligation",
            "The hub only boots images signed with our key, and we do not provide the key to owners.",
            "The hub boots any image its owner builds.",
        ),
        (
            "You waive any legal power to forbid circumvention of technological measures.",
            "prohibition",
            "Working around the key check counts as circumvention, and we will pursue it.",
            "The key check stays.",
        ),
    ],
)
def test_a_provision_broken_by_what_a_clause_does_governs_every_clause_doing_it(
    provision: str, modality: Modality, doing: str, not_doing: str
) -> None:
    stored = retention_rules(3)
    target = TargetRules.of([*stored, StoredRule(rule=rule(3, provision, modality), vector=unit(0, 0, 1))])

    done, not_done = governing_rules(
        [doing, not_doing], vectors(unit(1, 0, 0), unit(1, 0, 0)), target, limit=2
    )

    assert [c.rule.rule_index for c in done] == [0, 1, 3]
    assert [c.rule.rule_index for c in not_done] == [0, 1]


def test_a_rule_on_the_characters_of_names_is_a_candidate_of_every_clause_that_gives_a_name() -> None:
    names = rule(
        3,
        "Package names must consist only of lower case letters (a-z), digits (0-9), plus (+) and minus (-).",
    )
    stored = retention_rules(3)
    target = TargetRules.of([*stored, StoredRule(rule=names, vector=unit(0, 0, 1))])

    gives, gives_none = governing_rules(
        ["The plug-in will be packaged as Acme_RoomKit.", "The plug-in is packaged separately."],
        vectors(unit(1, 0, 0), unit(1, 0, 0)),
        target,
        limit=2,
    )

    assert [(c.rule.rule_index, c.by_name) for c in gives] == [(0, False), (1, False), (3, True)]
    assert [c.rule.rule_index for c in gives_none] == [0, 1]


def test_a_prohibition_naming_a_value_is_a_candidate_of_every_clause_giving_that_value() -> None:
    sentinel = rule_point(
        3,
        "65535: This value must not be used, because it was the error return sentinel value.",
        "prohibition",
        "must not",
    )
    stored = retention_rules(3)
    target = TargetRules.of([*stored, StoredRule(rule=sentinel, vector=unit(0, 0, 1))])

    gives, other = governing_rules(
        ["The service account is created with UID 65535.", "The service account is created with UID 1200."],
        vectors(unit(1, 0, 0), unit(1, 0, 0)),
        target,
        limit=2,
    )

    assert [(c.rule.rule_index, c.by_value) for c in gives] == [(0, False), (1, False), (3, True)]
    assert [c.rule.rule_index for c in other] == [0, 1]


def test_the_few_rules_naming_a_clauses_area_are_among_its_candidates() -> None:
    stored = retention_rules(3)
    group = rule(
        5, "Packages must not modify /etc/passwd, /etc/shadow, /etc/group or /etc/gshadow.", "prohibition"
    )
    etc = [rule(6 + k, f"Configuration {k} lives under /etc.") for k in range(4)]
    target = TargetRules.of(
        [
            *stored,
            StoredRule(rule=group, vector=unit(0, 0, 1)),
            *(StoredRule(rule=r, vector=unit(0, 0, 1)) for r in etc),
        ]
    )

    appends, elsewhere = governing_rules(
        ["The postinst appends a line to /etc/group.", "The postinst writes to /etc/acme.conf."],
        vectors(unit(1, 0, 0), unit(1, 0, 0)),
        target,
        limit=2,
    )

    assert [c.rule.rule_index for c in appends] == [0, 1, 5]
    # /etc alone is one level deep, and named by many rules: no candidate by the area alone.
    assert [c.rule.rule_index for c in elsewhere] == [0, 1]


def test_a_clause_writing_into_an_area_kept_free_of_writes_meets_the_rule_that_keeps_it() -> None:
    stored = retention_rules(3)
    read_only = rule(
        7, "Programs should be prepared to operate when /usr and /etc are read-only file systems."
    )
    target = TargetRules.of([*stored, StoredRule(rule=read_only, vector=unit(0, 0, 1))])

    saves, installs = governing_rules(
        [
            "Each tool saves its cache under /usr/share/acme.",
            "Each tool installs its data under /usr/share/acme.",
        ],
        vectors(unit(1, 0, 0), unit(1, 0, 0)),
        target,
        limit=2,
    )

    assert [c.rule.rule_index for c in saves] == [0, 1, 7]
    assert saves[-1].by_area
    assert [c.rule.rule_index for c in installs] == [0, 1]


def test_a_clause_adding_a_directory_at_a_closed_top_level_meets_the_rule_that_closes_it() -> None:
    stored = retention_rules(3)
    closed = rule(
        7, "Applications must generally not add directories to the top level of /var.", "prohibition"
    )
    names_log = rule(8, "Log files must be placed in /var/log.")
    target = TargetRules.of(
        [
            *stored,
            StoredRule(rule=closed, vector=unit(0, 0, 1)),
            StoredRule(rule=names_log, vector=unit(0, 0, 1)),
        ]
    )

    adds, named = governing_rules(
        [
            "The relay keeps its queue in a new top-level directory, /var/osprey.",
            "The relay keeps its logs in a new top-level directory, /var/log.",
        ],
        vectors(unit(1, 0, 0), unit(1, 0, 0)),
        target,
        limit=2,
    )

    assert [c.rule.rule_index for c in adds] == [0, 1, 7]
    assert adds[-1].by_area
    # /var/log is one the target names: no new directory.
    assert 7 not in [c.rule.rule_index for c in named]


def test_a_limit_above_the_number_of_rules_returns_every_rule() -> None:
    target = TargetRules.of(
        [StoredRule(rule=USR_LOCAL, vector=unit(1, 0)), StoredRule(rule=LOGS, vector=unit(0, 1))]
    )

    (found,) = governing_rules(["Logs are rotated."], vectors(unit(0, 1)), target, limit=6)

    assert {c.rule.rule_index for c in found} == {0, 2}


def test_no_clauses_give_no_candidates() -> None:
    target = TargetRules.of([StoredRule(rule=LOGS, vector=unit(1, 0))])

    assert governing_rules([], np.zeros((0, 2), dtype=np.float32), target) == []


def test_a_target_without_rules_gives_every_clause_no_candidate() -> None:
    target = TargetRules.of([])

    assert governing_rules(["Logs are rotated."], vectors(unit(1, 0)), target) == [[]]


def test_a_rule_on_the_form_of_messages_is_a_candidate_of_every_clause_giving_an_example_message() -> None:
    capital = rule_point(
        3,
        "The string message should not begin with a capital letter when it follows a program name.",
        "recommendation_against",
        "should not",
    )
    stored = retention_rules(3)
    target = TargetRules.of([*stored, StoredRule(rule=capital, vector=unit(0, 0, 1))])

    gives, gives_none = governing_rules(
        [
            'Error messages now read like prose, for example "scan: Header row is missing."',
            "Error messages are now translated.",
        ],
        vectors(unit(1, 0, 0), unit(1, 0, 0)),
        target,
        limit=2,
    )

    assert [(c.rule.rule_index, c.by_example) for c in gives] == [(0, False), (1, False), (3, True)]
    assert [c.rule.rule_index for c in gives_none] == [0, 1]


def test_a_clause_placing_things_inside_a_forbidden_area_meets_the_prohibition_however_deep_others_name_it() -> (
    None
):
    stored = retention_rules(3)
    forbidden = rule_point(7, "Packages must not place any files in /usr/local.", "prohibition", "must not")
    # Rules naming /usr/local/bin are the most specific to the clause's path, and there are many.
    deeper = [rule(8 + k, f"Command {k} may be found in /usr/local/bin on the PATH.") for k in range(4)]
    target = TargetRules.of(
        [
            *stored,
            StoredRule(rule=forbidden, vector=unit(0, 0, 1)),
            *(StoredRule(rule=r, vector=unit(0, 0, 1)) for r in deeper),
        ]
    )

    (unpacked,) = governing_rules(
        ["The tools are unpacked by dpkg into /usr/local/bin."], vectors(unit(1, 0, 0)), target, limit=2
    )

    assert [c.rule.rule_index for c in unpacked] == [0, 1, 7]
    assert unpacked[-1].by_area


def test_a_clause_placing_things_in_a_directory_the_target_never_names_meets_the_rule_closing_that_level() -> (
    None
):
    stored = retention_rules(3)
    closed = rule_point(
        7,
        "Large software packages must not use a direct subdirectory under the /usr hierarchy.",
        "prohibition",
        "must not",
    )
    names = rule(8, "Programs are installed in /usr/bin and documentation in /usr/share/doc.")
    target = TargetRules.of(
        [*stored, StoredRule(rule=closed, vector=unit(0, 0, 1)), StoredRule(rule=names, vector=unit(0, 0, 1))]
    )

    own, known = governing_rules(
        [
            "The suite installs into its own tree at /usr/quaystone/.",
            "The suite installs into /usr/share/doc/acme.",
        ],
        vectors(unit(1, 0, 0), unit(1, 0, 0)),
        target,
        limit=2,
    )

    assert [c.rule.rule_index for c in own] == [0, 1, 7]
    assert own[-1].added == ("/usr/quaystone",)
    assert all(not c.added for c in known)

"""Matching clauses to a target's rules: cosine and shared rare key terms, modal words left out."""

import numpy as np
import numpy.typing as npt
import pytest

from actions.audit.matching import DENSE_WEIGHT, TargetRules, governing_rules, key_terms, shared_words
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
    assert key_terms("must shall should may need required allowed optional never always") == frozenset()


def test_the_rules_section_title_counts_toward_its_terms() -> None:
    titled = rule(0, "Files must be kept there.", section="3.15 /tmp : Temporary files")
    untitled = rule(1, "Files must be kept there.")
    target = TargetRules.of(
        [StoredRule(rule=untitled, vector=unit(1, 0)), StoredRule(rule=titled, vector=unit(1, 0))]
    )

    (found,) = governing_rules(["Temporary files are kept in /tmp."], vectors(unit(1, 0)), target)

    assert found[0].rule == titled


def test_at_most_limit_candidates_most_related_first() -> None:
    stored = [
        StoredRule(rule=rule(i, f"Rule number {i} about retention."), vector=unit(1, i / 10, 0))
        for i in range(8)
    ]
    target = TargetRules.of(stored)

    first, second = governing_rules(
        ["Data is retained.", "Data is deleted."], vectors(unit(1, 0, 0), unit(0, 0, 1)), target, limit=3
    )

    assert len(first) == len(second) == 3
    assert [c.rule.rule_index for c in first] == [0, 1, 2]
    assert [c.relatedness for c in first] == sorted((c.relatedness for c in first), reverse=True)


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


def test_shared_words_are_the_clauses_own_words_the_rule_shares() -> None:
    words = shared_words(
        "Staff must encrypt laptops and Backups, and backups are kept off-site.",
        "Contractors must encrypt every backup.",
    )

    assert words == ["encrypt", "Backups"]


def test_modal_words_are_never_shown_as_shared() -> None:
    assert shared_words("Staff must always encrypt laptops.", "Contractors must always sign the NDA.") == []

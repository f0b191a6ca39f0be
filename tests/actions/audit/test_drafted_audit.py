"""What a language model is shown: the binding rules of a target that stand above chance at all."""

from actions.audit.checking import RELATED
from actions.audit.drafted_audit import RULES_PER_TARGET, SHOWN_TO_MODEL, shown_to_model
from actions.audit.matching import Candidate
from policypal.contracts.audit import Modality
from tests.actions.audit.rule_points import rule_point


def candidate(index: int, standing: float, modality: Modality = "obligation") -> Candidate:
    words = "may" if modality == "permission" else "must"
    rule = rule_point(index, f"Rule {index} {words} hold.", modality, words)
    return Candidate(rule=rule, relatedness=0.5, similarity=0.5, term_share=0.5, standing=standing)


def test_the_model_sees_rules_below_the_offline_bar_but_above_chance() -> None:
    assert SHOWN_TO_MODEL < RELATED
    found = [
        candidate(1, RELATED + 1),
        candidate(2, SHOWN_TO_MODEL + 0.1),
        candidate(3, SHOWN_TO_MODEL - 0.1),
    ]

    assert [c.rule.rule_index for c in shown_to_model(found)] == [1, 2]


def test_the_model_sees_binding_rules_only_and_a_few_per_target() -> None:
    found = [
        candidate(0, 3.0, "permission"),
        *(candidate(i, 3.0 - i / 10) for i in range(1, RULES_PER_TARGET + 2)),
    ]

    shown = shown_to_model(found)
    assert len(shown) == RULES_PER_TARGET
    assert all(c.rule.modality == "obligation" for c in shown)

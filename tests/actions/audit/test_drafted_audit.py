"""What a language model is shown: the binding rules of a target that stand above chance at all."""

from dataclasses import replace

from actions.audit.checking import RELATED
from actions.audit.clauses import Clause
from actions.audit.drafted_audit import (
    BATCH,
    RULES_PER_TARGET,
    SHOWN_TO_MODEL,
    ShownClause,
    shared_rule_batches,
    shown_to_model,
)
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


def test_the_model_sees_a_rule_naming_the_clauses_area_or_on_the_name_it_gives_whatever_its_standing() -> (
    None
):
    by_area = replace(candidate(4, SHOWN_TO_MODEL - 3), by_area=True)
    by_name = replace(candidate(5, SHOWN_TO_MODEL - 3), by_name=True)
    by_example = replace(candidate(6, SHOWN_TO_MODEL - 3), by_example=True)
    found = [candidate(1, RELATED + 1), candidate(3, SHOWN_TO_MODEL - 0.1), by_area, by_name, by_example]

    assert [c.rule.rule_index for c in shown_to_model(found)] == [1, 4, 5, 6]


def shown(number: int, *rules: int) -> ShownClause:
    """A clause sent to the model with candidate rules ``rules`` of one target."""
    text = f"Clause {number} holds."
    return ShownClause(
        number,
        Clause(text=text, quote=text),
        {f"0:r{r}": (0, candidate(r, 1.0)) for r in rules},
    )


def test_clauses_that_share_rules_meet_in_one_batch_wherever_they_stand() -> None:
    # Clauses 1, 3, 5… share rules 1-3; clauses 2, 4, 6… share rules 7-9: read in order, every batch
    # would list all six rules.
    items = [shown(n, *((1, 2, 3) if n % 2 else (7, 8, 9))) for n in range(1, 2 * BATCH + 1)]

    batches = shared_rule_batches(items)

    assert [len(batch) for batch in batches] == [BATCH, BATCH]
    for batch in batches:
        assert len({number % 2 for number in (item.number for item in batch)}) == 1
        # Each rule is listed once per batch, under one id, in reading order.
        assert {rule_id for item in batch for rule_id in item.rules} == {"R1", "R2", "R3"}
        assert [item.number for item in batch] == sorted(item.number for item in batch)


def test_a_batch_is_filled_even_when_no_clause_shares_a_rule() -> None:
    items = [shown(n, n) for n in range(1, BATCH + 2)]

    batches = shared_rule_batches(items)

    assert [[item.number for item in batch] for batch in batches] == [
        list(range(1, BATCH + 1)),
        [BATCH + 1],
    ]


def test_a_rule_against_further_restrictions_is_shown_whatever_its_standing() -> None:
    no_further = rule_point(
        99,
        "You may not impose any further restrictions on the exercise of the rights granted.",
        "prohibition",
        "may not",
    )
    found = [
        *(candidate(i, 3.0 - i / 10) for i in range(1, RULES_PER_TARGET + 2)),
        Candidate(
            rule=no_further, relatedness=0.1, similarity=0.1, term_share=0.0, standing=SHOWN_TO_MODEL - 3
        ),
    ]

    shown = shown_to_model(found)

    assert len(shown) == RULES_PER_TARGET + 1
    assert shown[-1].rule == no_further

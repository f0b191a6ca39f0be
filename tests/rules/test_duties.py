"""The duties of a permission granted on a condition: one rule each, bound by the condition."""

from policypal.rules.duties import duty_statements
from policypal.rules.rule_units import rule_units
from policypal.rules.statements import segment
from tests.rules.chunked_pages import chunks_of

GRANT = (
    "You may convey verbatim copies of the Program's source code as you receive it, in any medium, "
    "provided that you conspicuously publish on each copy an appropriate copyright notice; keep intact "
    "all notices of the absence of any warranty; and give all recipients a copy of this License along "
    "with the Program."
)


def test_each_duty_of_a_conditional_grant_is_a_statement_under_the_grant() -> None:
    text = f"4. Conveying Verbatim Copies.\n{GRANT}\n"
    (statement,) = segment(text).statements

    duties = duty_statements(statement)

    assert [d.plain for d in duties] == [
        "conspicuously publish on each copy an appropriate copyright notice",
        "keep intact all notices of the absence of any warranty",
        "give all recipients a copy of this License along with the Program.",
    ]
    assert {d.lead_in for d in duties} == {
        "You may convey verbatim copies of the Program's source code as you receive it, in any medium, "
        "provided that you"
    }
    # Each duty is a verbatim span of the text, as every statement is.
    assert all(text[d.start : d.end] == d.text for d in duties)


def test_a_grant_on_one_condition_or_a_list_without_a_condition_stays_whole() -> None:
    single = "You may copy the manual, provided that you keep this notice on every copy of it."
    listing = "Packages must ship a copyright file; they should also ship a changelog for every release."

    for sentence in (single, listing):
        (statement,) = segment(sentence).statements
        assert duty_statements(statement) == [statement]


def test_each_duty_is_a_rule_bound_as_the_condition_binds_it() -> None:
    page = f"4. Conveying Verbatim Copies.\n{GRANT}\n"

    rules = rule_units(chunks_of([(None, page)], sections=["4. Conveying Verbatim Copies."]))

    assert len(rules) == 3
    assert {(r.modality, r.modal_words) for r in rules} == {("obligation", "provided that")}
    license_rule = rules[-1]
    assert license_rule.text.endswith(
        "provided that you give all recipients a copy of this License along with the Program."
    )
    assert license_rule.quote == "give all recipients a copy of this License along with the Program."

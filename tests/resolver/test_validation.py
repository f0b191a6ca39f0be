"""Validation per action, audit roles, the five-document limit and the web for compare."""

import pytest

from policypal.contracts import ResolvedDocument
from resolver.validation import WEB_DROPPED_NOTICE, audit_roles, validate


def doc(document_id: str, doc_type: str = "policy") -> ResolvedDocument:
    return ResolvedDocument(document_id=document_id, title=document_id, version="1", doc_type=doc_type)  # type: ignore[arg-type]


REG, REG2, POL = doc("reg", "regulatory"), doc("reg2", "regulatory"), doc("pol")


@pytest.mark.parametrize(
    ("action", "documents", "query", "awaiting"),
    [
        ("compare", [REG], "compare", "another_document"),
        ("compare", [REG, REG2], "compare", None),
        ("summarize", [], "", "documents"),
        ("summarize", [REG], "", None),
        ("inquire", [], "what is capital?", None),
        ("inquire", [REG], "", "question"),
    ],
)
def test_requirements(
    action: str, documents: list[ResolvedDocument], query: str, awaiting: str | None
) -> None:
    verdict = validate(action, documents, web=False, clean_query=query)  # type: ignore[arg-type]
    assert verdict.awaiting == awaiting


def test_more_than_five_is_refused_and_compare_drops_the_web() -> None:
    six = [doc(f"d{i}") for i in range(6)]
    assert validate("summarize", six, web=False, clean_query="").too_many
    compare = validate("compare", [REG, REG2], web=True, clean_query="x")
    assert (compare.ready, compare.web, compare.notices) == (True, False, (WEB_DROPPED_NOTICE,))
    assert validate("inquire", [], web=True, clean_query="x").web


def test_audit_roles_by_position_then_by_type_then_pasted_text() -> None:
    message = "Does @pol comply with @reg?"
    roles = audit_roles(message, [POL, REG], {"pol": 5, "reg": 22}, source_text=None)
    assert (roles.source_document_id, roles.target_document_ids) == ("pol", ("reg",))
    by_type = audit_roles("@Audit @reg @pol", [REG, POL], {}, source_text=None)
    assert (by_type.source_document_id, by_type.target_document_ids) == ("pol", ("reg",))
    text = audit_roles("audit this", [REG, REG2], {}, source_text="Dear customer ...")
    assert (text.source_text, text.target_document_ids) == ("Dear customer ...", ("reg", "reg2"))


def test_audit_needs_a_source_and_targets() -> None:
    no_source = audit_roles("@Audit @reg @reg2", [REG, REG2], {}, source_text=None)
    assert (
        validate("audit", [REG, REG2], web=False, clean_query="", roles=no_source).awaiting == "audit_source"
    )
    no_target = audit_roles("@Audit @pol", [POL], {}, source_text=None)
    assert validate("audit", [POL], web=False, clean_query="", roles=no_target).awaiting == "audit_targets"

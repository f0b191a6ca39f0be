"""Reference words against the registry: recency, document type, counts, ambiguity."""

from resolver.references import find_references, resolve_reference
from tests.resolver.factories import document, entry

REG = document("reg", doc_type="regulatory")
REG2 = document("reg2", doc_type="regulatory")
POL = document("pol")
POL2 = document("pol2")


def test_finds_each_kind_of_reference_once() -> None:
    refs = find_references("Audit the policy above against those two regulations and them")
    assert [(r.count, r.doc_type, r.pointed) for r in refs] == [
        (1, "policy", True),
        (2, "regulatory", True),
        (None, None, True),
    ]


def test_a_bare_name_is_not_a_reference() -> None:
    assert find_references("What about the FSA guidelines?") == []


def test_that_regulation_is_the_only_regulation() -> None:
    [ref] = find_references("Does it comply with that regulation?")
    answer = resolve_reference(ref, [entry(REG, 1), entry(POL, 2)], exclude=set())
    assert (answer.confidence, answer.document_ids) == ("high", ("reg",))


def test_the_policy_with_two_candidates_is_ambiguous_but_that_policy_is_the_latest() -> None:
    registry = [entry(POL, 1), entry(POL2, 2)]
    [bare] = find_references("against the policy")
    [pointed] = find_references("against that policy")
    assert resolve_reference(bare, registry, exclude=set()).candidates == ("pol2", "pol")
    assert resolve_reference(pointed, registry, exclude=set()).document_ids == ("pol2",)


def test_those_two_are_the_two_most_recent_unless_recency_ties() -> None:
    [ref] = find_references("those two docs")
    clear = resolve_reference(ref, [entry(REG, 3), entry(POL, 3), entry(POL2, 1)], exclude=set())
    assert (clear.confidence, set(clear.document_ids)) == ("high", {"reg", "pol"})
    tied = resolve_reference(ref, [entry(REG, 3), entry(POL, 2), entry(POL2, 2)], exclude=set())
    assert (tied.confidence, set(tied.candidates)) == ("medium", {"reg", "pol", "pol2"})


def test_them_is_the_latest_turns_until_two_documents_and_excluded_ones_never_count() -> None:
    [ref] = find_references("compare them")
    registry = [entry(REG, 2), entry(REG2, 2), entry(POL, 1)]
    assert resolve_reference(ref, registry, exclude=set()).document_ids == ("reg", "reg2")
    # Two summaries in a row are "those": one turn's document is not yet a plural.
    answer = resolve_reference(ref, registry, exclude={"reg2"})
    assert (answer.confidence, answer.document_ids) == ("high", ("reg", "pol"))
    assert resolve_reference(ref, [], exclude=set()).confidence == "low"

"""The comparison mode is chosen from the request: its documents first, then whether it names a topic."""

import pytest

from actions.compare.mode import base_title, choose_mode, focus_topic
from policypal.contracts import ResolvedDocument


def _doc(title: str, version: str, doc_id: str) -> ResolvedDocument:
    return ResolvedDocument(document_id=doc_id, title=title, version=version, doc_type="regulatory")


GPL = [_doc("GNU General Public License", "2", "gpl2"), _doc("GNU General Public License", "3", "gpl3")]
DIFFERENT = [_doc("Records Regulation", "2024", "reg"), _doc("Northwind Data Policy", "1", "policy")]


@pytest.mark.parametrize(
    "query",
    [
        "",
        "Compare 2 and 3",  # "Compare @GPL 2 and @GPL 3" with its mentions cleaned
        "Compare GPL 2 and GPL 3",
        "compare (2) and (3)",
        "Compare this with the previous version",
        "What changed between v2 and v3?",
        "Compare these two versions please",
    ],
)
def test_versions_of_one_title_get_a_redline(query: str) -> None:
    mode = choose_mode(query, GPL)
    assert (mode.kind, mode.topic, mode.versions) == ("redline", None, True)
    assert "versions of “GNU General Public License”" in mode.reason


def test_titles_differing_only_by_version_marks_are_one_document() -> None:
    assert base_title("Debian Constitution v1.7") == base_title("Debian Constitution (1.9)")
    documents = [_doc("Debian Constitution v1.7", "1", "a"), _doc("Debian Constitution (1.9)", "1", "b")]
    assert choose_mode("compare", documents).kind == "redline"


def test_a_named_topic_is_focused_even_for_versions() -> None:
    mode = choose_mode("How does the Technical Committee break ties?", GPL)
    assert (mode.kind, mode.topic, mode.versions) == (
        "focused",
        "How does the Technical Committee break ties?",
        True,
    )
    assert "Technical Committee break ties" in mode.reason


def test_different_documents_without_a_topic_are_holistic() -> None:
    for query in ("Compare these documents", "What are the differences?", "compare them please"):
        mode = choose_mode(query, DIFFERENT)
        assert (mode.kind, mode.topic) == ("holistic", None), query
        assert "different documents" in mode.reason


def test_different_documents_asked_about_versions_get_a_redline() -> None:
    assert choose_mode("Compare with the previous version", DIFFERENT).kind == "redline"


def test_a_topic_keeps_the_question_as_asked_without_document_titles() -> None:
    assert focus_topic("Compare  capital requirements between these docs") == (
        "Compare capital requirements between these docs"
    )
    assert focus_topic("How long must customer records be retained?", DIFFERENT) == (
        "How long must customer records be retained?"
    )
    assert (
        focus_topic("Compare GNU General Public License 2 and 3 on patents", GPL)
        == "Compare 2 and 3 on patents"
    )

"""Reading a sentence: what it denies or leaves out, its purpose, and the verbs its act opens with."""

import pytest

from actions.audit.polarity import act_verbs, denied_terms, without_purpose


@pytest.mark.parametrize(
    ("sentence", "denied"),
    [
        ("Packages do not include manual pages.", {"manual", "page"}),
        ("Backups are stored without encryption.", {"encrypt"}),
        ("The tool prints the bare number with no program name.", {"program", "name"}),
        ("Copyright notices are omitted from binary packages.", {"copyright", "notic", "binari", "packag"}),
        ("Services are started through invoke-rc.d rather than by calling the scripts.", {"call", "script"}),
    ],
)
def test_denied_terms_are_those_a_denial_governs(sentence: str, denied: set[str]) -> None:
    assert denied <= denied_terms(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "If a laptop is not encrypted, it is wiped before reuse.",
        "Files that are not needed are deleted every night.",
        "Files that are omitted are listed in the report.",
    ],
)
def test_a_denial_inside_a_condition_or_relative_clause_denies_nothing(sentence: str) -> None:
    assert denied_terms(sentence) == frozenset()


def test_a_purpose_or_a_reason_is_not_what_a_sentence_does() -> None:
    assert "preserved" not in without_purpose("Conffiles are tracked, so that local changes are preserved.")
    assert "ensure" not in without_purpose("In order to ensure that changes survive, packages must not link.")
    assert "tracked" in without_purpose("Conffiles are tracked, so that local changes are preserved.")


@pytest.mark.parametrize(
    ("after", "verbs"),
    [
        (" close the bug report until a man page exists.", ["close"]),
        (" be deleted when the system is booted.", ["deleted"]),
        (" contain or make hard links to conffiles.", ["contain", "make"]),
    ],
)
def test_act_verbs_are_the_words_an_act_opens_with(after: str, verbs: list[str]) -> None:
    assert act_verbs(after) == verbs

"""Deterministic intent: action words, the summarize-about rule, multi-action, web scan, follow-ups."""

import pytest

from resolver.intent import (
    IntentRequest,
    PatternIntentClassifier,
    asks_about_a_topic,
    classify_by_patterns,
    needs_web,
    web_tagged,
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Compare the two versions", "compare"),
        ("What are the key differences in capital requirements?", "compare"),
        ("Does it comply with that regulation?", "audit"),
        ("Check this email against the rules", "audit"),
        ("Give me an overview", "summarize"),
        ("Summarize the capital requirements in it", "inquire"),
        ("How long must records be kept?", "inquire"),
        ("Explain the reporting duties", "inquire"),
        ("Does our email breach the AML policy?", "audit"),
        ("Is our onboarding in breach of the KYC rules?", "audit"),
        ("This clause violates Article 5", "audit"),
        ("What are the GDPR fines for a late breach notification?", "inquire"),
        ("How must a data breach be reported?", "inquire"),
        ("What counts as a violation of the conduct rules?", "inquire"),
    ],
)
def test_action_words(text: str, action: str) -> None:
    guess = classify_by_patterns(text)
    assert guess is not None
    assert (guess.action, guess.confidence, guess.multi_action) == (action, "high", False)


def test_two_actions_at_once_are_reported_in_order() -> None:
    guess = classify_by_patterns("Summarize it, then audit it")
    assert guess is not None
    assert guess.multi_action
    assert guess.candidates == ("summarize", "audit")


def test_a_topic_beyond_the_documents_makes_summarize_a_question() -> None:
    assert asks_about_a_topic("Summarize the capital rules in")
    assert not asks_about_a_topic("Please give me a short summary of those two documents")
    assert not asks_about_a_topic("Summarize BankNegara2024")


def test_nothing_to_go_on_is_none() -> None:
    assert classify_by_patterns("capital buffers") is None


async def test_a_follow_up_continues_the_previous_action_with_medium_confidence() -> None:
    classifier = PatternIntentClassifier()
    follow_up = await classifier.classify(
        IntentRequest("and 2025", "and 2025", ("user: Compare A and B", "assistant: ..."))
    )
    assert (follow_up.action, follow_up.confidence) == ("compare", "medium")
    unknown = await classifier.classify(IntentRequest("capital buffers", "capital buffers"))
    assert (unknown.confidence, unknown.candidates) == ("low", ("inquire", "summarize"))


@pytest.mark.parametrize(
    ("text", "web"),
    [
        ("What are the latest rules?", True),
        ("Is this still in force?", True),
        ("Guidance issued in 2026", True),
        ("Guidance issued in 2019", False),
        ("Now audit this email", False),
        ("What are the rules?", False),
    ],
)
def test_temporal_scan(text: str, web: bool) -> None:
    assert needs_web(text, year=2026) is web


def test_web_tag() -> None:
    assert web_tagged("@Web what changed?")
    assert not web_tagged("mail me at a@web.example")

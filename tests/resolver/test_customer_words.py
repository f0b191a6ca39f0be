"""What a website customer's message is, and a follow-up made standalone, by offline rules."""

import pytest

from resolver.customer_words import message_kind, standalone_question, topic_of


@pytest.mark.parametrize(
    "text",
    [
        "hello",
        "Hi there!",
        "good morning",
        "thanks!",
        "Thank you so much",
        "ok, bye",
        "how are you?",
        "Hey :)",
    ],
)
def test_small_talk_is_recognised(text: str) -> None:
    assert message_kind(text) == "small_talk"


@pytest.mark.parametrize(
    "text",
    [
        "I need to talk to a human",
        "Can I speak with someone please?",
        "agent",
        "Human please!",
        "connect me to a real person",
        "Hello, can I talk to an agent?",
    ],
)
def test_asking_for_a_person_is_recognised(text: str) -> None:
    assert message_kind(text) == "person"


@pytest.mark.parametrize(
    "text",
    [
        "hello, how do I return shoes?",
        "How long is the refund period?",
        "Thanks, and what about gift cards?",
        "Is customer data shared with other people?",
        "What does the agent agreement say about commission?",
    ],
)
def test_questions_stay_questions(text: str) -> None:
    assert message_kind(text) == "question"


def test_topic_of_a_question() -> None:
    assert topic_of("How do I create a DOCX file?") == "a DOCX file"
    assert topic_of("What is the refund period?") == "the refund period"
    assert topic_of("Can I return shoes?") == "shoes"


@pytest.mark.parametrize(
    ("earlier", "text", "expected"),
    [
        ("How do I create a DOCX file?", "How do I export it to PDF?", "How do I export a DOCX file to PDF?"),
        ("Can I return shoes?", "What about gift cards?", "Can I return gift cards?"),
        (
            "What is the refund period?",
            "Does it apply to sale items?",
            "Does the refund period apply to sale items?",
        ),
        ("How do I create a DOCX file?", "How long does shipping take?", "How long does shipping take?"),
        (
            "Can I return shoes?",
            "Is it possible to return a gift card?",
            "Is it possible to return a gift card?",
        ),
        ("Can I return shoes?", "How long does it take?", "How long does it take?"),
    ],
)
def test_a_follow_up_is_made_standalone(earlier: str, text: str, expected: str) -> None:
    assert standalone_question(text, [earlier]) == expected


def test_a_first_question_is_left_alone() -> None:
    assert standalone_question("How do I export it to PDF?", []) == "How do I export it to PDF?"

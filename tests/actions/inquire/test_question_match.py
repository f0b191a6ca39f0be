"""When the semantic cache treats two questions as the same: paraphrases hit, near-misses never do.

A smaller labelled set than bench/question_pairs.py, with the real MiniLM embeddings.
"""

import pytest

from actions.inquire.question_match import content_terms, same_question
from policypal.embeddings import MiniLMEmbedder

PARAPHRASES = [
    ("How long must customer records be kept?", "how long must customer records be kept"),
    ("How long must customer records be kept?", "For how long do we have to retain customer records?"),
    ("How long are invoices kept?", "How long do you keep invoices?"),
    ("Can sale items be refunded?", "Are sale items refundable?"),
    ("Can gift cards be returned?", "Is it possible to return a gift card?"),
    ("How much does express delivery cost?", "What is the price of express delivery?"),
    ("Do you sell customer data?", "Is customer data sold to anyone?"),
    ("How do I delete my account?", "How can I remove my account?"),
]
NEAR_MISSES = [
    ("How long are invoices kept?", "How long are contracts kept?"),
    ("Can I return a gift card?", "Can I buy a gift card?"),
    ("What is the gift limit for grade 2 employees?", "What is the gift limit for grade 3 employees?"),
    (
        "Must records be kept after the account is closed?",
        "Must records not be kept after the account is closed?",
    ),
    ("How long must customer records be kept?", "How long must employee records be kept?"),
    (
        "When must a data breach be reported to the authority?",
        "When must a data breach be reported to the data subjects?",
    ),
    ("Can I return shoes before 30 days?", "Can I return shoes after 30 days?"),
    ("Are all records kept for ten years?", "Are any records kept for ten years?"),
    ("Must I keep invoices?", "May I keep invoices?"),
    ("How long does standard delivery take?", "How much does standard delivery cost?"),
]


def _similarity(embedder: MiniLMEmbedder, first: str, second: str) -> float:
    vectors = embedder.embed([first, second])
    return float(vectors[0] @ vectors[1])


@pytest.mark.parametrize(("first", "second"), PARAPHRASES)
def test_a_paraphrase_is_the_same_question(embedder: MiniLMEmbedder, first: str, second: str) -> None:
    assert same_question(first, second, _similarity(embedder, first, second))


@pytest.mark.parametrize(("first", "second"), NEAR_MISSES)
def test_a_near_miss_is_never_the_same_question(embedder: MiniLMEmbedder, first: str, second: str) -> None:
    assert not same_question(first, second, _similarity(embedder, first, second))


def test_the_near_misses_are_told_apart_by_their_terms_not_only_by_the_cosine(
    embedder: MiniLMEmbedder,
) -> None:
    # Two near-misses score above most paraphrases: only the differing terms keep them apart.
    above = [pair for pair in NEAR_MISSES if _similarity(embedder, *pair) >= 0.95]
    assert len(above) >= 2
    assert all(content_terms(first) != content_terms(second) for first, second in above)


def test_inflections_and_synonyms_fold_function_words_drop() -> None:
    assert content_terms("Were the invoices kept?") == content_terms("keep invoice") == {"keep", "invoic"}
    assert content_terms("Is it possible to retain it?") == {"keep"}
    assert content_terms("Do I have to report it?") == {"must", "report"}
    assert content_terms("Where is it?") != content_terms("When is it?")

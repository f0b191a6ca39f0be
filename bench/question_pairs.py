"""The semantic cache's rule measured on labelled question pairs: paraphrases (same answer) and
near-misses (mostly the same words, a different question), with the packaged MiniLM.

Prints, for the rule of ``actions/inquire/question_match.py`` and for the earlier cosine-only rule
(≥ 0.95 with the same numbers and negations): wrong hits (a near-miss answered from the cache; must
be 0), the paraphrase hit rate, and every pair with its cosine and the content terms that differ.

    .venv/bin/python -m bench.question_pairs
"""

import re

from actions.inquire.question_match import content_terms, same_question
from policypal.embeddings import MiniLMEmbedder

#: Questions asked in other words: the cache should answer the second from the first.
PARAPHRASES = [
    (
        "How many days do I have to return unworn shoes?",
        "Within how many days may unworn shoes be sent back?",
    ),
    ("How long does a refund take?", "How quickly is a refund paid?"),
    ("Can sale items be refunded?", "Are sale items refundable?"),
    ("Can gift cards be returned?", "Is it possible to return a gift card?"),
    ("How long does standard delivery take?", "What is the delivery time for standard shipping?"),
    ("How much does express delivery cost?", "What is the price of express delivery?"),
    ("Which countries do you deliver to?", "Where do you ship to?"),
    ("How long are order records kept?", "For how long do you keep order records?"),
    ("Do you sell customer data?", "Is customer data sold to anyone?"),
    ("How long is the warranty on shoes?", "What warranty do shoes have?"),
    ("How long must customer records be kept?", "For how long do we have to retain customer records?"),
    ("Who approves travel expenses?", "Who must approve expenses for travel?"),
    ("How long are invoices kept?", "How long do you keep invoices?"),
    ("Can I return a gift card?", "Is a gift card returnable?"),
    ("How do I delete my account?", "How can I remove my account?"),
    ("Is delivery free for large orders?", "Do big orders ship for free?"),
    ("Where are payment details stored?", "Where do you keep payment details?"),
    ("Do you charge for express delivery?", "Is there a fee for express delivery?"),
    ("Who must approve travel expenses?", "Who is required to approve travel expenses?"),
    ("How long must invoices be retained?", "How long do invoices have to be kept?"),
    ("Can I buy a gift card online?", "Is it possible to purchase a gift card online?"),
    ("When must a data breach be reported?", "When does a data breach have to be reported?"),
]
#: Different questions in mostly the same words: the cache must never answer one from the other.
NEAR_MISSES = [
    ("How long are invoices kept?", "How long are contracts kept?"),
    ("Can I return a gift card?", "Can I buy a gift card?"),
    ("What is the gift limit for grade 2 employees?", "What is the gift limit for grade 3 employees?"),
    (
        "When must a data breach be reported to the authority?",
        "When must a data breach be reported to the data subjects?",
    ),
    ("How long must customer records be kept?", "How long must employee records be kept?"),
    ("How long does standard delivery take?", "How much does standard delivery cost?"),
    ("How long does express delivery take?", "How long does standard delivery take?"),
    ("Can sale items be refunded?", "Can sale items be exchanged?"),
    ("How long is the warranty on shoes?", "How long is the warranty on bags?"),
    ("Do you deliver to Norway?", "Do you deliver to Sweden?"),
    ("How do I delete my account?", "How do I create my account?"),
    ("How long does a refund take?", "How long does an exchange take?"),
    ("Can gift cards be returned?", "Can gift cards be exchanged?"),
    (
        "Must records be kept after the account is closed?",
        "Must records not be kept after the account is closed?",
    ),
    ("Where are payment details stored?", "Where are order records stored?"),
    ("Is wear and tear covered by the warranty?", "Is water damage covered by the warranty?"),
    ("Must I keep invoices?", "May I keep invoices?"),
    ("Where are payment details stored?", "When are payment details stored?"),
    ("Can I return shoes before 30 days?", "Can I return shoes after 30 days?"),
    ("Are all records kept for ten years?", "Are any records kept for ten years?"),
    ("How do I close my account?", "How do I delete my account?"),
    ("Who approves travel expenses?", "Who approves training expenses?"),
    ("How much does express delivery cost?", "How much does express delivery weigh?"),
    ("Is delivery free for large orders?", "Is delivery free for small orders?"),
    ("Can I return shoes bought online?", "Can I return shoes bought in a store?"),
    ("How long are records kept in Germany?", "How long are records kept in France?"),
]

_OLD_SIMILARITY = 0.95
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NEGATION = re.compile(r"\b(?:not|no|never|none|without|cannot|can't|mustn't|shouldn't|isn't|aren't)\b")


def cosine_only(first: str, second: str, similarity: float) -> bool:
    """The earlier rule: cosine ≥ 0.95, the same numbers and the same negation."""
    return (
        similarity >= _OLD_SIMILARITY
        and _NUMBER.findall(first) == _NUMBER.findall(second)
        and bool(_NEGATION.search(first.lower())) == bool(_NEGATION.search(second.lower()))
    )


def main() -> None:
    """Measure both rules on the labelled pairs and print every pair."""
    embedder = MiniLMEmbedder()
    rows = [(True, pair) for pair in PARAPHRASES] + [(False, pair) for pair in NEAR_MISSES]
    results = []
    for same, (first, second) in rows:
        vectors = embedder.embed([first, second])
        similarity = float(vectors[0] @ vectors[1])
        results.append((same, first, second, similarity))
    for name, rule in (
        ("cosine >= 0.95 only (before)", cosine_only),
        ("cosine + content terms", same_question),
    ):
        hits = [rule(first, second, similarity) for _, first, second, similarity in results]
        para = sum(hit for hit, (same, *_) in zip(hits, results, strict=True) if same)
        wrong = sum(hit for hit, (same, *_) in zip(hits, results, strict=True) if not same)
        print(
            f"{name}: paraphrases hit {para}/{len(PARAPHRASES)}, "
            f"near-misses hit (wrong) {wrong}/{len(NEAR_MISSES)}"
        )
    print()
    for same, first, second, similarity in results:
        differ = sorted(content_terms(first) ^ content_terms(second))
        verdict = "HIT " if same_question(first, second, similarity) else "miss"
        label = "para" if same else "near"
        print(f"{label} {verdict} {similarity:.3f} {differ}  {first} / {second}")


if __name__ == "__main__":
    main()

"""Quotes are verbatim substrings of the chunk they cite, and at most 300 characters."""

from actions.citing.citations import is_verbatim, quote_from, verify_citations
from policypal.contracts import Citation
from policypal.contracts.limits import MAX_QUOTE_CHARS


def citation(quote: str, chunk_id: str = "d1:0") -> Citation:
    return Citation(
        marker=1, document_id="d1", title="T", version="1", page=1, chunk_id=chunk_id, quote=quote
    )


def test_short_passage_is_quoted_whole() -> None:
    assert quote_from("  Records are kept for seven years.  ") == "Records are kept for seven years."


def test_long_passage_is_cut_at_a_word_boundary_and_stays_verbatim() -> None:
    passage = " ".join(f"word{i}" for i in range(200))
    quote = quote_from(passage)
    assert len(quote) <= MAX_QUOTE_CHARS
    assert passage.startswith(quote)
    assert passage[len(quote)] == " "


def test_passage_without_spaces_is_cut_at_the_limit() -> None:
    assert quote_from("x" * 500) == "x" * MAX_QUOTE_CHARS


def test_verbatim_check() -> None:
    source = "Customer records must be retained\nfor seven years."
    assert is_verbatim("records must be retained\nfor seven", source)
    assert not is_verbatim("records must be retained for seven", source)  # the line break is part of it
    assert not is_verbatim("   ", source)
    assert not is_verbatim("a" * 301, "a" * 400)


def test_verify_drops_quotes_not_in_their_chunk() -> None:
    texts = {"d1:0": "Records are kept for seven years.", "d1:1": "Passwords rotate every 90 days."}
    kept = citation("kept for seven years")
    paraphrase = citation("kept for 7 years")
    wrong_chunk = citation("Passwords rotate", chunk_id="d1:0")
    unknown_chunk = citation("Records", chunk_id="d9:0")
    assert verify_citations([kept, paraphrase, wrong_chunk, unknown_chunk], texts) == [kept]

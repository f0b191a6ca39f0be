"""The offline answer: the fact first, then verifiable quotes in relevance order, or mode C."""

import re

from actions.inquire.extractive_answer import compose_answer, lead_clause
from actions.inquire.lexical import term_weights
from actions.inquire.ranking import AnswerType, RankedChunk, Ranking, ScoredUnit
from actions.inquire.units import units_of
from actions.inquire.versions import version_choices
from actions.lifecycle.request import OFFLINE_MODEL
from policypal.contracts import ResolvedDocument
from policypal.vectorstore import ChunkHit
from tests.actions.inquire.hand_made_hits import chunk_hit

DOCS = [
    ResolvedDocument(document_id="d1", title="Retention Policy", version="2", doc_type="policy"),
    ResolvedDocument(document_id="d2", title="Security Standard", version="1.1", doc_type="regulatory"),
]


def hit(document_id: str, page: int, chunk_index: int, text: str) -> ChunkHit:
    title = next(d.title for d in DOCS if d.document_id == document_id)
    return chunk_hit(text, document_id=document_id, title=title, page=page, chunk_index=chunk_index)


def ranked(chunk: ChunkHit, scores: dict[str, float]) -> RankedChunk:
    """``chunk`` with each unit scored by the first key it starts with (0.05 otherwise)."""
    units = tuple(
        ScoredUnit(u, next((s for k, s in scores.items() if chunk.text[u.start :].startswith(k)), 0.05))
        for u in units_of(chunk.text, title=chunk.title)
    )
    return RankedChunk(chunk, max(u.score for u in units), units)


def ranking(*chunks: RankedChunk, query: str = "q") -> Ranking:
    ordered = sorted(chunks, key=lambda c: c.score, reverse=True)
    return Ranking(ordered, version_choices([c.hit for c in chunks], query), wants=AnswerType.of(query))


BACKUPS = hit(
    "d2", 4, 7, "Backups are encrypted at rest with AES-256. Keys are rotated by the security team."
)
RECORDS = hit("d1", 2, 3, "Customer records must be retained for seven years after the account is closed.")
SCOPE = hit(
    "d1", 1, 0, "This policy applies to every branch of the bank. It was approved by the board in 2024."
)


def test_the_lead_states_the_best_passage_and_citations_follow_relevance_not_pages() -> None:
    answer = compose_answer(
        DOCS,
        ranking(
            ranked(BACKUPS, {"Backups": 0.62}),
            ranked(RECORDS, {"Customer records": 0.84}),
            ranked(SCOPE, {"This policy": 0.58}),
        ),
        "How long must customer records be kept?",
    )

    assert answer.answer.startswith(
        "According to “Retention Policy” (version 2), page 2: Customer records must be retained for seven "
        "years after the account is closed. [1]"
    )
    assert [(c.document_id, c.page) for c in answer.citations] == [("d1", 2), ("d2", 4), ("d1", 1)]
    assert [c.marker for c in answer.citations] == [1, 2, 3]
    texts = {h.chunk_id: h.text for h in (BACKUPS, RECORDS, SCOPE)}
    for c in answer.citations:
        assert c.quote in texts[c.chunk_id]
        assert f"[{c.marker}]" in answer.answer
    assert "without a language model" in answer.answer
    assert OFFLINE_MODEL == "offline-extractive"


def test_weak_passages_far_below_the_best_are_left_out() -> None:
    answer = compose_answer(
        DOCS, ranking(ranked(RECORDS, {"Customer": 0.84}), ranked(BACKUPS, {"Backups": 0.4})), "q"
    )
    assert [c.chunk_id for c in answer.citations] == ["d1:3"]


def test_nothing_relevant_says_so_and_cites_nothing() -> None:
    answer = compose_answer(DOCS, ranking(ranked(RECORDS, {"Customer": 0.2})), "q")
    assert answer.citations == []
    assert "couldn't find a passage" in answer.answer
    assert "“Retention Policy”, “Security Standard”" in answer.answer
    assert "[" not in answer.answer
    assert compose_answer(DOCS, Ranking([], {}), "q").citations == []


def test_a_list_introduction_is_quoted_with_its_items() -> None:
    text = (
        "The UID and GID numbers are divided into classes as follows:\n0-99:\nGlobally allocated by the project.\n"
        "100-999:\nDynamically allocated system users and groups."
    )
    chunk = hit("d1", 5, 1, text)
    answer = compose_answer(DOCS, ranking(ranked(chunk, {"The UID": 0.7})), "How are UIDs divided?")
    [citation] = answer.citations
    assert citation.quote == text[: text.index("\n100-999")]


def test_a_question_about_a_number_quotes_the_next_unit_holding_it() -> None:
    text = (
        "Retention of customer records is governed by this section. The period is seven years. Other rules."
    )
    chunk = hit("d1", 3, 2, text)
    answer = compose_answer(DOCS, ranking(ranked(chunk, {"Retention": 0.7})), "How long are records kept?")
    assert (
        answer.citations[0].quote
        == "Retention of customer records is governed by this section. The period is seven years."
    )


def test_a_long_sentence_is_quoted_from_the_clause_that_answers_within_300_characters() -> None:
    filler = ", ".join(f"the ledger of branch {name}" for name in ["alpha", "beta", "gamma", "delta"] * 5)
    text = f"The register lists {filler}, and customer records must be retained for seven years."
    chunk = hit("d1", 3, 9, text)
    answer = compose_answer(
        DOCS, ranking(ranked(chunk, {"The register": 0.8})), "How long are customer records retained?"
    )
    [citation] = answer.citations
    assert len(citation.quote) <= 300
    assert citation.quote in text
    assert "seven years" in citation.quote
    assert "seven years" in answer.answer.split("\n")[0]


def test_the_same_text_in_two_versions_is_quoted_once_from_the_preferred_version() -> None:
    old = hit("d1", 2, 3, RECORDS.text).model_copy(update={"version": "1", "document_id": "d0"})
    answer = compose_answer(
        DOCS, ranking(ranked(RECORDS, {"Customer": 0.8}), ranked(old, {"Customer": 0.7})), "How long?"
    )
    assert [c.document_id for c in answer.citations] == ["d1"]
    assert "(version 2, the newest; also in scope: 1)" in answer.answer


def test_lead_clause_keeps_a_short_sentence_and_picks_the_clause_with_the_number() -> None:
    weights = term_weights("how many members", ["members"])
    assert lead_clause("Short sentence.", weights, wants_quantity=True) == "Short sentence."
    long = "The committee decides on technical policy; " * 5 + "it consists of up to 8 members; and so on."
    assert lead_clause(long, weights, wants_quantity=True) == "it consists of up to 8 members;"
    assert re.search(r"\d", lead_clause(long, weights, wants_quantity=True))


def test_a_sentence_is_quoted_with_the_command_or_example_that_continues_it() -> None:
    text = (
        "Debian provides unified access to the system default editor so that other programs can invoke it.\n"
        "Change it with the following command.\n$ sudo update-alternatives --config editor\n"
        "Unrelated text follows here."
    )
    chunk = hit("d1", 7, 4, text)
    answer = compose_answer(DOCS, ranking(ranked(chunk, {"Change it": 0.7})), "How do I change the editor?")
    assert (
        answer.citations[0].quote
        == "Change it with the following command.\n$ sudo update-alternatives --config editor"
    )


def test_a_passage_stating_the_number_asked_for_leads_when_it_ranks_close() -> None:
    vague = hit(
        "d1", 9, 1, "The minimum discussion period is counted from the time the last amendment was accepted."
    )
    exact = hit(
        "d1", 3, 2, "The minimum discussion period is 2 weeks, but may be varied by the Project Leader."
    )
    answer = compose_answer(
        DOCS,
        ranking(
            ranked(vague, {"The minimum": 0.8}),
            ranked(exact, {"The minimum": 0.72}),
            query="How long is the minimum discussion period?",
        ),
        "How long is the minimum discussion period?",
    )
    assert [(c.page, c.marker) for c in answer.citations] == [(3, 1), (9, 2)]
    assert "2 weeks" in answer.answer.split("\n")[0]


def test_weak_passages_are_not_found_unless_the_user_chose_to_continue() -> None:
    weak = ranking(ranked(RECORDS, {"Customer records": 0.2}), ranked(BACKUPS, {"Backups": 0.15}))
    question = "What do we do with archived chat transcripts?"
    assert compose_answer(DOCS, weak, question).citations == []
    # "Continue anyway": the best passages found, however weak, each cited.
    continued = compose_answer(DOCS, weak, question, floor=0.0)
    assert [c.document_id for c in continued.citations][:2] == ["d1", "d2"]
    assert continued.answer.startswith("According to “Retention Policy” (version 2), page 2:")

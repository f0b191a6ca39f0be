"""Re-ranking puts the answering passage first: over contents pages, boilerplate and old versions."""

from actions.inquire.lexical import (
    acronyms,
    asks_for_name,
    asks_for_quantity,
    coverage,
    has_name,
    has_quantity,
    named_titles,
    term_set,
    term_weights,
)
from actions.inquire.ranking import rank
from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkHit, sparse_terms
from tests.actions.inquire.hand_made_hits import chunk_hit

ANSWER = (
    "6.2. Composition\n"
    "1. The Technical Committee consists of up to 8 Developers, and should usually have at least 4\n"
    "members."
)
CONTENTS = (
    "Contents\n6 Technical committee . . . . . . . . . . . . 5\n6.1 Powers . . . . . . . . . . . . . . 5\n"
    "6.2 Composition . . . . . . . . . . . . . . 5"
)
OTHER = "The Project Leader may appoint Delegates and define an area of responsibility for them."


def constitution(text: str, *, version: str, page: int, score: float, boilerplate: bool = False) -> ChunkHit:
    hit = chunk_hit(text, title="Debian Constitution", page=page, score=score)
    return hit.model_copy(
        update={
            "version": version,
            "document_id": f"c{version.replace('.', '_')}",
            "boilerplate": boilerplate,
        }
    )


async def test_the_answering_passage_of_the_newest_version_comes_first(embedder: MiniLMEmbedder) -> None:
    query = "How many members can the Technical Committee have?"
    candidates = [
        constitution(CONTENTS, version="1.9", page=1, score=0.62, boilerplate=True),
        constitution(ANSWER, version="1.7", page=5, score=0.6),
        constitution(OTHER, version="1.9", page=4, score=0.5),
        constitution(ANSWER, version="1.9", page=5, score=0.58),
    ]
    ranking = await rank(query, embedder.embed([query])[0], candidates, embedder)

    first = ranking.chunks[0]
    assert (first.hit.version, first.hit.page) == ("1.9", 5)
    assert first.best is not None
    assert "up to 8 Developers" in ANSWER[first.best.unit.start : first.best.unit.end]
    assert ranking.chunks[1].hit.version == "1.7"
    assert ranking.version_note(first.hit) == "version 1.9, the newest; also in scope: 1.7"


async def test_a_named_version_wins_over_the_newest(embedder: MiniLMEmbedder) -> None:
    query = "In constitution 1.7, how many members could the Technical Committee have?"
    candidates = [
        constitution(ANSWER, version="1.9", page=5, score=0.6),
        constitution(ANSWER, version="1.7", page=5, score=0.6),
    ]
    ranking = await rank(query, embedder.embed([query])[0], candidates, embedder)
    assert [c.hit.version for c in ranking.chunks] == ["1.7", "1.9"]
    assert ranking.version_note(ranking.chunks[0].hit) == "version 1.7, as asked"


async def test_the_llm_sees_cleaned_passages_in_ranked_order(embedder: MiniLMEmbedder) -> None:
    query = "How many members can the Technical Committee have?"
    head = "Debian Constitution 5 / 12\n"
    candidates = [
        constitution(head + OTHER, version="1.9", page=4, score=0.55),
        constitution(head.replace("5", "6") + ANSWER, version="1.9", page=5, score=0.5),
    ]
    ranking = await rank(query, embedder.embed([query])[0], candidates, embedder)
    [best, *_] = ranking.sources(floor=0.35, limit=8)
    assert best.page == 5
    assert ranking.cleaned(best).text == ANSWER


def test_question_words_are_weighted_by_rarity() -> None:
    weights = term_weights("committee members", ["committee members", "committee", "committee rules"])
    assert weights["member"] > weights["committe"]
    assert coverage(weights, "the members") > coverage(weights, "the committee")
    assert coverage({}, "anything") == 0.0


def test_a_texts_terms_are_the_keyword_indexs_and_are_read_once() -> None:
    text = "The members of the Committee are appointed by the members."
    first = term_set(text)
    assert first == frozenset(sparse_terms.terms(text)) == {"member", "committe", "appoint"}
    assert term_set(text) is first


def test_titles_are_known_by_their_acronyms() -> None:
    assert "FHS" in acronyms("Filesystem Hierarchy Standard")
    assert "GPL" in acronyms("GNU General Public License v3")


def test_questions_about_numbers_and_passages_holding_them() -> None:
    assert asks_for_quantity("how long must records be kept?")
    assert asks_for_quantity("When was FHS 3.0 published?")
    assert not asks_for_quantity("where do config files go?")
    assert all(has_quantity(text) for text in ("within 30 days", "up to eight", "in March"))
    assert not has_quantity("no numbers here")


def test_a_question_names_a_document_by_acronym_or_by_a_word_of_its_title_alone() -> None:
    titles = [
        "GNU General Public License v2",
        "GNU General Public License v3",
        "Debian New Maintainers' Guide",
    ]
    assert named_titles("can I charge for GPLv2 software?", titles) == {"gnu general public license v2"}
    assert named_titles("When was version 3 of the GPL published?", titles) == {
        "gnu general public license v3"
    }
    assert len(named_titles("does the GPL allow it?", titles)) == 2
    assert named_titles("what does the guide recommend?", titles) == {"debian new maintainers' guide"}
    assert named_titles("how do I name my package?", titles) == set()


def test_questions_about_names_and_passages_holding_one() -> None:
    assert asks_for_name("what tool uploads a release to ftp.gnu.org?")
    assert asks_for_name("Which mailing list gets the announcements?")
    assert not asks_for_name("why is a umask of 0002 safe?")
    query = "what tool uploads a release to ftp.gnu.org?"
    assert has_name("Run DESTDIR=/tmp/stage make install", query)
    assert has_name("set the subject to ITP: foo", query)
    assert not has_name("upload it to ftp.gnu.org by hand", query)


async def test_a_fragment_opening_a_chunk_mid_sentence_is_not_a_passage(embedder: MiniLMEmbedder) -> None:
    query = "How many members can the Technical Committee have?"
    fragment = "consists of up to 8 Developers. The Chair is elected by the Committee."
    candidates = [constitution(fragment, version="1.9", page=5, score=0.6)]
    ranking = await rank(query, embedder.embed([query])[0], candidates, embedder)
    texts = [fragment[u.unit.start : u.unit.end] for u in ranking.chunks[0].units]
    assert texts == ["The Chair is elected by the Committee."]

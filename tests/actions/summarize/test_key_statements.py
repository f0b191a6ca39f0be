"""Key statements per part: whole sentences, the binding and central ones first, quoted verbatim, in order."""

from actions.summarize.document_parts import document_parts
from actions.summarize.key_statements import OVERVIEW_POINTS, digest_document
from tests.actions.summarize.chunk_builder import paged

CONTENTS = "Contents\n" + "\n".join(f"{n} Chapter {n} . . . . . . {n + 2}" for n in range(1, 9))


def chapter(number: int, topic: str) -> str:
    return (
        f"{number} {topic.capitalize()}\n"
        f"The {topic} register lists the branches of the bank and the staff of each branch in a table.\n"
        f"Each branch must keep its {topic} register up to date and send it to the compliance officer.\n"
        f"(This is reviewed whenever the {topic} rules change.)\n"
        f"It also applies to the {topic} records of agents working for the branch.\n"
        f"{number}.1 Details\n"
        f"The {topic} register records the date, the branch and the person responsible for each entry."
    )


TOPICS = ["retention", "transfers", "incidents", "training", "vendors", "audits", "complaints"]


def test_each_part_quotes_whole_binding_sentences_in_reading_order() -> None:
    chunks = paged([["Records Manual"], [CONTENTS]] + [[chapter(n, t)] for n, t in enumerate(TOPICS, 1)])
    parts = document_parts(chunks)
    digest = digest_document(chunks, parts, max_points=2)

    body = [p for p in digest.parts if not p.part.lead]
    assert [p.part.title for p in body] == [f"{n} {t.capitalize()}" for n, t in enumerate(TOPICS, 1)]
    for number, (part, topic) in enumerate(zip(body, TOPICS, strict=True), 1):
        texts = [s.plain for s in part.chosen]
        # The obligation outranks the table description; the aside and the sentence leaning on
        # the previous one are never candidates.
        assert part.ranked[0].plain.startswith(f"Each branch must keep its {topic} register")
        assert part.ranked[0].modality == "obligation"
        assert all(not t.startswith(("(", "It also")) for t in (s.plain for s in part.ranked))
        assert all(s.extract.chunk.page == number + 2 for s in part.chosen)
        positions = [s.extract.reading_position for s in part.chosen]
        assert positions == sorted(positions)
        for statement in part.chosen:
            extract = statement.extract
            assert extract.chunk.text[extract.start : extract.start + len(extract.text)] == extract.text
        # A long document's small parts make one point each (the overview adds the rest).
        assert len(texts) == 1
    # The title and contents pages give nothing.
    assert all(s.extract.chunk.page not in (1, 2) for p in digest.parts for s in p.ranked)


def test_a_long_document_gets_an_overview_not_repeated_in_its_parts() -> None:
    purpose = "This manual sets out how the bank keeps and protects the registers of its branches."
    first = f"1 Retention\n{purpose}\n" + chapter(1, "retention").split("\n", 1)[1]
    chunks = paged([[first], *[[chapter(n, t)] for n, t in enumerate(TOPICS, 1)][1:]])
    digest = digest_document(chunks, document_parts(chunks), max_points=2)

    assert 1 <= len(digest.overview) <= OVERVIEW_POINTS
    assert digest.overview[0].plain == purpose
    overview = {s.plain for s in digest.overview}
    assert not overview & {s.plain for p in digest.parts for s in p.chosen}


def test_a_short_document_has_no_overview() -> None:
    chunks = paged([[chapter(1, "retention")], [chapter(2, "training")]])
    digest = digest_document(chunks, document_parts(chunks), max_points=3)
    assert digest.overview == []
    # A short document's parts make more of their points: two of their three candidates here.
    assert [len(p.chosen) for p in digest.parts] == [2, 2]


def test_the_same_point_is_not_made_twice() -> None:
    rule = "Each branch must keep its retention register up to date and send it to the officer."
    again = "Each branch must keep its retention register up to date and send it to the officer every month."
    chunks = paged([[f"{chapter(1, 'retention')}\n{rule}\n{again}"], [chapter(2, "training")]])
    digest = digest_document(chunks, document_parts(chunks), max_points=3)
    chosen = [s.plain for s in digest.parts[0].chosen]
    assert len([t for t in chosen if t.startswith("Each branch must keep its retention")]) == 1

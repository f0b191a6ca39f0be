"""The redline of two versions: only real edits, each cited from the chunk that holds it.

Versions are built as the ingestor stores them: pages split into overlapping 1000/150 chunks by its
own splitter, a running head and a page number on every page, page breaks in different places.
"""

from actions.compare.provisions import document_provisions
from actions.compare.redline import VersionText, compose_redline, redline, version_pairs
from actions.wording_differences import text_key
from ingestor.chunking import normalize_text, split_text
from policypal.contracts import RedlineComparison, ResolvedDocument
from policypal.vectorstore import ChunkPoint

_FILLER = [
    f"Members of the {body} shall meet at least once in each quarter and keep written minutes of each meeting."
    for body in ("council", "board", "assembly", "panel", "bureau", "chamber")
]

OLD = [
    "Article 1. Scope",
    "This charter governs the association and every body it creates.",
    *_FILLER[:3],
    "Article 2. Voting",
    "The Chair has a casting vote when the votes are tied.",
    "A vote is valid when at least seven members take part in it.",
    "Members may change their votes until the voting period ends.",
    "Article 3. Records",
    "The secretary must keep the register of members up to date and publish it every year.",
    'Minutes are kept for "ten years" after the meeting.',
    *_FILLER[3:],
    "Article 4. Expiry",
    "A proposal that is not discussed for four weeks expires.",
]
NEW = [
    "Article 1. Scope",
    "This charter governs the association and every body it creates.",
    *_FILLER[:3],
    "Article 2. Records",  # renumbered, moved before Voting
    "The secretary must keep the register of members up to date and publish it every year.",
    "Minutes are kept for “ten years” after the meeting.",  # quote style only
    *_FILLER[3:],
    "Article 3. Voting",
    "There is no casting vote; ties are broken by lot.",
    "A vote is valid when at least five members take part in it.",
    "Members may change their votes until the voting period ends.",
    "A member must not vote on a matter in which they have a personal interest.",
]


def _version(lines: list[str], version: str, lines_per_page: int, *, hyphenate: bool = False) -> VersionText:
    document = ResolvedDocument(
        document_id=f"charter{version}", title="Charter", version=version, doc_type="policy"
    )
    text_lines = []
    for line in lines:
        if hyphenate and "publish it" in line:
            # A word broken at the end of a full line, as PDFs give it.
            line = line.replace("publish it", "pub-\nlish it")
        text_lines += line.split("\n")
    chunks: list[ChunkPoint] = []
    for page, start in enumerate(range(0, len(text_lines), lines_per_page), start=1):
        body = "\n".join(text_lines[start : start + lines_per_page])
        page_text = normalize_text(f"Charter of the Association\n{body}\nPage {page}")
        for piece in split_text(page_text, size=300, overlap=60):
            chunks.append(
                ChunkPoint(
                    tenant_id="t",
                    user_id="u",
                    document_id=document.document_id,
                    title="Charter",
                    version=version,
                    doc_type="policy",
                    page=page,
                    chunk_index=len(chunks),
                    text=piece,
                )
            )
    return VersionText(document, document_provisions(chunks))


def test_only_the_real_edits_are_reported_with_their_changed_words() -> None:
    old, new = _version(OLD, "1", 4), _version(NEW, "2", 5, hyphenate=True)
    found = redline(old, new)
    by_kind: dict[str, list[str]] = {}
    for item in found.items:
        side = item.change.after or item.change.before
        assert side is not None
        by_kind.setdefault(item.change.kind, []).append(side.key)

    assert sorted(by_kind) == ["added", "changed", "moved", "removed"]
    assert len(by_kind["changed"]) == 2
    assert any("There is no casting vote" in key for key in by_kind["changed"])
    assert any("at least five members" in key for key in by_kind["changed"])
    assert by_kind["added"] == [
        text_key("A member must not vote on a matter in which they have a personal interest.")
    ]
    assert by_kind["removed"] == [text_key("A proposal that is not discussed for four weeks expires.")]
    # The Records section moved: its provisions are moves, with no word changed (quotes, hyphenation
    # and the new number are not changes).
    moved = [item for item in found.items if item.change.kind == "moved"]
    assert moved
    assert all(not item.runs for item in moved)
    assert found.alignment.sections["Article 3. Records"] == "Article 2. Records"


def test_substantive_changes_come_first_with_what_they_change() -> None:
    found = redline(_version(OLD, "1", 4), _version(NEW, "2", 5))
    kinds = [(item.change.kind, item.substance) for item in found.items]
    substantive = [k for k in kinds if k[1]]
    assert kinds[: len(substantive)] == substantive
    number = next(
        item for item in found.items if "five" in (item.change.after.key if item.change.after else "")
    )
    assert "number" in number.substance
    added = next(item for item in found.items if item.change.kind == "added")
    assert added.substance == ["modality", "negation"]


def test_the_answer_marks_changed_words_and_cites_both_versions_verbatim() -> None:
    old, new = _version(OLD, "1", 4), _version(NEW, "2", 5)
    answer = compose_redline([old, new], reason="A redline, because they are versions of “Charter”.")

    assert "at least ~~seven~~ members" in answer.answer
    assert "at least **five** members" in answer.answer
    assert isinstance(answer.result, RedlineComparison)
    [pair] = answer.result.model_dump(mode="json")["pairs"]
    assert pair["counts"]["changed"] == 2
    assert pair["counts"]["added"] == 1
    assert pair["counts"]["removed"] == 1
    chunks = {
        c.chunk.chunk_id: c.chunk.text
        for v in (old, new)
        for p in v.provisions
        for piece in p.pieces
        for c in piece.page.chunks
    }
    assert answer.citations
    for citation in answer.citations:
        assert citation.quote in chunks[citation.chunk_id]
        assert f"[{citation.marker}]" in answer.answer
    five = next(c for c in pair["changes"] if c["kind"] == "changed" and "five" in c["after"]["text"])
    cited = {c.marker: c for c in answer.citations}
    assert "seven" in cited[five["before"]["marker"]].quote
    assert "five" in cited[five["after"]["marker"]].quote
    assert cited[five["after"]["marker"]].document_id == "charter2"


def test_identical_versions_have_no_changes() -> None:
    found = redline(_version(OLD, "1", 4), _version(OLD, "2", 6))
    assert found.items == []
    assert found.alignment.unchanged == len(found.first.provisions)


def test_several_versions_compare_consecutive_pairs_and_first_to_last() -> None:
    assert version_pairs(2) == [(0, 1)]
    assert version_pairs(4) == [(0, 1), (1, 2), (2, 3), (0, 3)]

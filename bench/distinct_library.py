"""Library-wide retrieval at a real library's size: 31 distinct real manuals, not copies of twelve.

    .venv/bin/python -m bench.distinct_library [--reuse-index] [--repeats 3] [--answers] [--misses]

``bench.library_scale`` reaches 10k and 30k points by copying the inquire bench's twelve documents as
noisy versions: the engine's speed at that size, but not many distinct, similar manuals competing for
a question. Here the library is the inquire bench's twelve documents (where its 63 questions' gold
pages are) and nineteen more manuals from Debian packages (``bench.inquire_corpus.distractors``:
Autoconf, Bash, Zsh, Flex, gnuplot, seven R manuals, Git, Linux-PAM, three more Debian guides),
ingested once by the real ingestor into Qdrant Edge and cached (``bench.inquire_corpus.distinct_index``).

Levels, each a fresh Edge index built from the cached points (tenant ``bench``, user ``reader``):

- ``small``: nine of the twelve gold documents (GNU standards and maintainers' guide, FHS, New Maintainers'
  Guide, GPL 2 and 3, three constitutions): ~1k points; only the questions with a gold page there.
- ``gold``: the twelve gold documents, the inquire bench's library as it is (~3k points).
- ``distinct``: all 31 documents, one tenant (~13k points, all the user's).
- ``distinct+tenants``: the same plus two other tenants' copies of the 31 (3 x the points in the
  index; the user's share is the ``distinct`` level's, the others count only as index size).

Per level and scope (untagged: the whole library of the user; tagged: the question's own document),
each question goes through what @Inquire runs: the resolver's offline clean query
(``bench.retrieval_recall.clean_query``, over the level's catalogue), the query embedded (once, not
timed: MiniLM's cost does not depend on the library), then the two steps of
``actions.inquire.retrieval.retrieve``: ``search_candidates`` (hybrid dense + BM25 search in scope,
fused, with the named-document merges) and ``adaptive_k`` (the stop line, 3-5 chunks a document),
timed together ``--repeats`` times. Recall@5: a chunk of a gold page among the first 5 retrieved
(after adaptive-k, what inquire reads), and among the first 5 fused candidates (the ranking alone,
to tell the two apart). Gold pages of documents absent from a level do not count, questions with
none left are not asked there. Tuning and held-out questions are reported apart, the held-out ones
as totals only. ``--answers`` also runs the whole
offline answer (``answer_inquiry``) untagged and counts answers citing a gold page, as
``bench.inquire_quality`` does; ``--misses`` prints the tuning questions missed at the largest level.
"""

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from actions.inquire.confidence import LowConfidence, thresholds_for
from actions.inquire.handler import answer_inquiry
from actions.inquire.retrieval import adaptive_k, search_candidates
from bench.inquire_corpus.distinct_index import CATALOGUE, index_folder, ingest, load_points, newest_folder
from bench.inquire_corpus.library import TENANT, USER
from bench.inquire_corpus.questions import QUESTIONS, Question, held_out
from bench.retrieval_recall import clean_query
from policypal.contracts import ActionRequested, ResolvedDocument
from policypal.embeddings import MiniLMEmbedder
from policypal.state import DocumentRecord
from policypal.vectorstore import ChunkIndex, ChunkPoint, open_embedded_index, sparse_vectors

RESULTS = Path(__file__).parent / "results" / "distinct_library.json"
OTHER_TENANTS = ("other-1", "other-2")
SMALL = (
    "gnu-standards",
    "gnu-maintain",
    "fhs",
    "maint-guide",
    "gpl2",
    "gpl3",
    "constitution-1_7",
    "constitution-1_8",
    "constitution-1_9",
)
UPSERT_BATCH = 256


@dataclass(frozen=True)
class Level:
    """A library to measure: the user's documents (None: all 31) and whether two more tenants share the index."""

    name: str
    documents: tuple[str, ...] | None
    other_tenants: bool


LEVELS = (
    Level("small", SMALL, other_tenants=False),
    Level("gold", tuple(d for d, _, _ in CATALOGUE[:12]), other_tenants=False),
    Level("distinct", None, other_tenants=False),
    Level("distinct+tenants", None, other_tenants=True),
)


def _records(document_ids: set[str]) -> list[DocumentRecord]:
    """The level's documents as the user's ready documents (what the resolver matches names against)."""
    return [
        DocumentRecord(
            document_id=document_id,
            tenant_id=TENANT,
            user_id=USER,
            title=title,
            version=version,
            doc_type="regulatory",
            filename=f"{document_id}.pdf",
            content_type="application/pdf",
            size_bytes=0,
            sha256=document_id,
            status="ready",
            request_id=f"ingest-{document_id}",
        )
        for document_id, title, version in CATALOGUE
        if document_id in document_ids
    ]


def _gold(question: Question, present: set[str]) -> dict[str, frozenset[int]]:
    """The question's gold pages in the level's documents."""
    return {doc: pages for doc, pages in question.gold.items() if doc in present}


async def _build(
    level: Level, chunks: list[ChunkPoint], vectors: np.ndarray, folder: Path, model_id: str
) -> ChunkIndex:
    """A fresh Edge index of ``level``: the user's chunks, then the other tenants' copies."""
    keep = [i for i, c in enumerate(chunks) if level.documents is None or c.document_id in level.documents]
    mine = [chunks[i] for i in keep]
    dense = vectors[keep].tolist()
    sparse = sparse_vectors(mine)
    index = await open_embedded_index(folder, model_id=model_id, dimension=vectors.shape[1])
    tenants = (TENANT, *OTHER_TENANTS) if level.other_tenants else (TENANT,)
    for tenant in tenants:
        copies = [c.model_copy(update={"tenant_id": tenant}) for c in mine] if tenant != TENANT else mine
        for start in range(0, len(copies), UPSERT_BATCH):
            end = start + UPSERT_BATCH
            await index.upsert(copies[start:end], dense[start:end], sparse[start:end])
    return index


def _event(query: str, number: int, tagged: DocumentRecord | None) -> ActionRequested:
    documents = (
        [
            ResolvedDocument(
                document_id=tagged.document_id,
                title=tagged.title,
                version=tagged.version,
                doc_type="regulatory",
            )
        ]
        if tagged
        else []
    )
    return ActionRequested(
        tenant_id=TENANT,
        user_id=USER,
        request_id=f"q{number}",
        thread_id="bench",
        action="inquire",
        query=query,
        documents=documents,
    )


@dataclass(frozen=True)
class Asked:
    """The questions of a level: their clean queries and vectors, and the level's documents."""

    numbers: list[int]
    queries: dict[int, str]
    vectors: dict[int, np.ndarray]
    present: set[str]
    records: dict[str, DocumentRecord]
    #: The small level's questions, counted apart at every level: the same questions as the library grows.
    small: list[int]
    hidden: frozenset[int]

    def tally(self, found: dict[int, bool]) -> dict[str, str]:
        """How many were found: of all, of the tuning, held-out (a total only) and small level's questions."""

        def share(numbers: list[int]) -> str:
            return f"{sum(found[n] for n in numbers)}/{len(numbers)}"

        return {
            "all": share(self.numbers),
            "tuning": share([n for n in self.numbers if n not in self.hidden]),
            "held_out": share([n for n in self.numbers if n in self.hidden]),
            "small_level": share(self.small),
        }


async def _asked(level: Level, chunks: list[ChunkPoint], embedder: MiniLMEmbedder) -> Asked:
    present = {c.document_id for c in chunks} if level.documents is None else set(level.documents)
    records = {r.document_id: r for r in _records(present)}
    numbers = [n for n, q in enumerate(QUESTIONS) if _gold(q, present)]
    queries = {n: await clean_query(QUESTIONS[n].text, list(records.values())) for n in numbers}
    vectors = dict(zip(numbers, embedder.embed([queries[n] for n in numbers]), strict=True))
    small = [n for n in numbers if _gold(QUESTIONS[n], set(SMALL))]
    return Asked(numbers, queries, vectors, present, records, small, held_out())


async def measure_level(
    level: Level,
    chunks: list[ChunkPoint],
    vectors: np.ndarray,
    embedder: MiniLMEmbedder,
    *,
    repeats: int,
    answers: bool,
) -> dict[str, Any]:
    """Search latency and recall@5 of every question answerable in ``level``, untagged and tagged."""
    asked = await _asked(level, chunks, embedder)
    row: dict[str, Any] = {
        "level": level.name,
        "documents": len(asked.present),
        "questions": len(asked.numbers),
    }
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        index = await _build(level, chunks, vectors, Path(folder), embedder.model_id)
        row["build_s"] = round(time.perf_counter() - started, 1)
        row["user_points"] = sum(c.document_id in asked.present for c in chunks)
        row["points"] = row["user_points"] * (3 if level.other_tenants else 1)
        thresholds = thresholds_for(embedder.model_id)
        for scope in ("untagged", "tagged"):
            row[scope] = await _measure_scope(scope, asked, index, thresholds.stop, repeats)
        if answers:
            row["answers_gold_cited"] = await _answers(asked, index, embedder)
        await index.aclose()
    return row


async def _measure_scope(
    scope: str, asked: Asked, index: ChunkIndex, stop: float, repeats: int
) -> dict[str, Any]:
    """Time inquire's retrieval ``repeats`` times a question; recall@5 of its fused candidates and of
    what adaptive-k keeps of them (``retrieve``: the same two steps)."""
    timings: list[float] = []
    candidates_found: dict[int, bool] = {}
    retrieved_found: dict[int, bool] = {}
    top: dict[int, list[str]] = {}
    for n in asked.numbers:
        question = QUESTIONS[n]
        gold = _gold(question, asked.present)
        tag = asked.records[question.document if question.document in asked.present else next(iter(gold))]
        event = _event(asked.queries[n], n, tag if scope == "tagged" else None)
        for _ in range(repeats):
            began = time.perf_counter()
            candidates = await search_candidates(event, asked.queries[n], asked.vectors[n], index=index)
            hits = adaptive_k(candidates, stop=stop)
            timings.append(time.perf_counter() - began)
        candidates_found[n] = any(h.page in gold.get(h.document_id, ()) for h in candidates[:5])
        retrieved_found[n] = any(h.page in gold.get(h.document_id, ()) for h in hits[:5])
        top[n] = [f"{h.document_id}:{h.page}" for h in hits[:5]]
    tuning = [n for n in asked.numbers if n not in asked.hidden]
    return {
        "p50_ms": round(statistics.median(timings) * 1000, 1),
        "p95_ms": round(float(np.percentile(timings, 95)) * 1000, 1),
        "searches": len(timings),
        "retrieved_recall_at_5": asked.tally(retrieved_found),
        "candidates_recall_at_5": asked.tally(candidates_found),
        "tuning_found": {n: retrieved_found[n] for n in tuning},
        "tuning_top5": {n: top[n] for n in tuning},
    }


async def _answers(asked: Asked, index: ChunkIndex, embedder: MiniLMEmbedder) -> dict[str, str]:
    """Untagged offline answers citing a gold page."""
    cited: dict[int, bool] = {}
    for n in asked.numbers:
        gold = _gold(QUESTIONS[n], asked.present)
        answer = await answer_inquiry(_event(asked.queries[n], n, None), index=index, embedder=embedder)
        citations = [] if isinstance(answer, LowConfidence) else answer.citations
        cited[n] = any(c.page in gold.get(c.document_id, ()) for c in citations)
    return asked.tally(cited)


async def main() -> None:
    """Ingest the library unless cached, measure every level, print the table and save the rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reuse-index", action="store_true", help="the last ingested library, any code")
    parser.add_argument("--repeats", type=int, default=3, help="timed searches per question and scope")
    parser.add_argument("--answers", action="store_true", help="also the whole offline answer, untagged")
    parser.add_argument(
        "--misses", action="store_true", help="print tuning questions missed at the largest level"
    )
    parser.add_argument("--levels", nargs="+", default=[level.name for level in LEVELS])
    args = parser.parse_args()
    folder = (newest_folder() if args.reuse_index else None) or index_folder()
    if not (folder / "points.npz").exists():
        folder.mkdir(parents=True, exist_ok=True)
        await ingest(folder)
    stats = json.loads((folder / "stats.json").read_text())
    chunks, vectors = load_points(folder)
    print(
        f"library {folder.name}: {len(stats)} documents, {sum(s['pages'] for s in stats.values())} pages, "
        f"{len(chunks)} chunks",
        flush=True,
    )
    embedder = MiniLMEmbedder(batch_size=8)
    embedder.embed(["warm up"])
    rows = []
    for level in (level for level in LEVELS if level.name in args.levels):
        rows.append(
            await measure_level(level, chunks, vectors, embedder, repeats=args.repeats, answers=args.answers)
        )
        _print_row(rows[-1])
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"library": stats, "levels": rows}, indent=1))
    if args.misses:
        _print_misses(rows[-1])


def _print_row(row: dict[str, Any]) -> None:
    print(
        f"{row['level']}: {row['documents']} documents, {row['user_points']} points of the user, "
        f"{row['points']} in the index, {row['questions']} questions",
        flush=True,
    )
    for scope in ("untagged", "tagged"):
        measured = row[scope]
        retrieved, candidates = measured["retrieved_recall_at_5"], measured["candidates_recall_at_5"]
        print(
            f"  {scope}: p50/p95 {measured['p50_ms']}/{measured['p95_ms']} ms; recall@5 retrieved "
            f"{retrieved['all']} (tuning {retrieved['tuning']}, held-out {retrieved['held_out']}, "
            f"small level's {retrieved['small_level']}), fused candidates {candidates['all']} "
            f"(small level's {candidates['small_level']})",
            flush=True,
        )
    if "answers_gold_cited" in row:
        cited = row["answers_gold_cited"]
        print(
            f"  untagged answers citing a gold page: {cited['all']} (tuning {cited['tuning']}, "
            f"held-out {cited['held_out']}, small level's {cited['small_level']})",
            flush=True,
        )


def _print_misses(row: dict[str, Any]) -> None:
    for n, hit in row["untagged"]["tuning_found"].items():
        if not hit:
            question = QUESTIONS[n]
            print(
                f"[{n}] {question.text}\n  gold {dict(question.gold)}\n  top 5 {row['untagged']['tuning_top5'][n]}"
            )


if __name__ == "__main__":
    asyncio.run(main())

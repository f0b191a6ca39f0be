"""Hybrid search at a real library's size: the embedded engine (Qdrant Edge) against local-mode Qdrant.

For each level (1k, 10k, 30k points of one user), both engines get the same points: the real chunks
of the inquire bench's library (Debian and GNU manuals, MiniLM vectors, ``bench.inquire_corpus``)
copied as further versions of each document until the user has ``level`` points, each copy's
vectors moved by a little seeded noise; then two other tenants get a copy of that user's library
(3 x level points in all). Every level and engine runs in a process of its own, so its peak RSS is
its own. Measured per run: upsert rate, hybrid search (``ChunkIndex.hybrid_search``, the whole of
inquire's retrieval but the question's embedding) p50/p95 untagged and tagged to the question's
document, recall@5 of the gold page library-wide and whether both engines rank the same top 5,
peak RSS and the RSS the engine holds once the bench's own copies of the points are freed. Then the
rate of writes to a directory in the ingestor's batches of 8 (local mode writes one SQLite
transaction per point), 1000 points per engine. And for Edge, a fresh process that opens the
index from disk and searches: its time to open and the RSS the open index adds.

The local-mode baseline is qdrant-client's ``:memory:`` store: its searches are the same Python
pass over every point as with a directory, whose one-transaction-per-point writes would take hours
to load 90k points. Run: ``python -m bench.library_scale [--levels 1000 10000 30000] [--queries 20]``.
"""

import argparse
import asyncio
import gc
import json
import math
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from bench.ingestion import CACHE
from bench.inquire_corpus.documents import DOCUMENTS
from bench.inquire_corpus.library import TENANT as LIBRARY_TENANT
from bench.inquire_corpus.library import USER as LIBRARY_USER
from bench.inquire_corpus.questions import QUESTIONS, held_out
from policypal.vectorstore import ChunkIndex, ChunkPoint, open_embedded_index, open_qdrant, sparse_vectors
from tests.support.offline_embedder import offline_embedder

SOURCE = CACHE / "library_scale" / "source.npz"
RESULTS = Path(__file__).parent / "results" / "library_scale.json"
TENANTS = ("bench", "other-1", "other-2")
USER = "reader"
ENGINES = ("local-mode", "edge")
#: The baseline's queries at the largest level are capped: each costs seconds.
BASELINE_QUERY_CAP = 10
NOISE = 0.01
#: Chunks the ingestor embeds and writes at once (``embed_batch_size``).
INGEST_BATCH = 8
WRITE_POINTS = 1000


async def _export_source() -> None:
    """The newest ingested inquire library and the questions, as arrays (done once)."""
    folders = sorted((CACHE / "inquire").glob("qdrant-*/stats.json"), key=lambda p: p.stat().st_mtime)
    if not folders:
        raise SystemExit("no ingested library: run `python -m bench.inquire_quality` once first")
    embedder = offline_embedder()
    index = await open_embedded_index(
        folders[-1].parent, model_id=embedder.model_id, dimension=embedder.dimension
    )
    payloads: list[dict[str, Any]] = []
    vectors: list[list[float]] = []
    for document in DOCUMENTS:
        owner = {"tenant_id": LIBRARY_TENANT, "user_id": LIBRARY_USER, "document_id": document.document_id}
        chunks = await index.document_chunks(**owner)
        dense = await index.document_chunk_vectors(**owner)
        payloads += [chunk.model_dump(mode="json") for chunk in chunks]
        vectors += [dense[chunk.chunk_index] for chunk in chunks]
    await index.aclose()
    hidden = held_out()
    questions = [question for i, question in enumerate(QUESTIONS) if i not in hidden]
    SOURCE.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        SOURCE,
        vectors=np.asarray(vectors, dtype=np.float32),
        payloads=np.asarray([json.dumps(p) for p in payloads]),
        question_vectors=embedder.embed([question.text for question in questions]),
        questions=np.asarray(
            [
                json.dumps({"text": q.text, "gold": {d: sorted(p) for d, p in q.gold.items()}})
                for q in questions
            ]
        ),
    )


def noisy_copies(level: int) -> Iterator[tuple[int, list[ChunkPoint], np.ndarray, list[Any]]]:
    """The real chunks, then copies of them, until ``level`` points: each copy's number, chunks,
    dense vectors (a copy's moved by seeded noise, renormalised) and BM25 vectors. The caller names
    the copies."""
    source = np.load(SOURCE)
    base = [ChunkPoint.model_validate(json.loads(p)) for p in source["payloads"]]
    base_sparse = sparse_vectors(base)
    rng = np.random.default_rng(7)
    for copy in range(math.ceil(level / len(base))):
        moved = source["vectors"] + (rng.standard_normal(source["vectors"].shape) * NOISE if copy else 0.0)
        moved /= np.linalg.norm(moved, axis=1, keepdims=True)
        count = min(len(base), level - copy * len(base))
        yield copy, base[:count], moved[:count], base_sparse[:count]


def _library(level: int) -> tuple[list[ChunkPoint], list[list[float]], list[Any]]:
    """``level`` points per tenant: the real chunks, then noisy copies as further versions."""
    chunks: list[ChunkPoint] = []
    vectors: list[list[float]] = []
    sparse: list[Any] = []
    for copy, originals, moved, terms in noisy_copies(level):
        chunks += [
            chunk.model_copy(update={"document_id": f"{chunk.document_id}~v{copy}", "user_id": USER})
            for chunk in originals
        ]
        vectors += moved.tolist()
        sparse += terms
    every = [c.model_copy(update={"tenant_id": tenant}) for tenant in TENANTS for c in chunks]
    return every, vectors * len(TENANTS), sparse * len(TENANTS)


def _rss_mb() -> float:
    """Resident memory now (not the peak)."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * resource.getpagesize() / 2**20


async def _measure(engine: str, level: int, queries: int) -> dict[str, Any]:
    start_rss = _rss_mb()
    chunks, vectors, sparse = _library(level)
    source = np.load(SOURCE)
    questions = [json.loads(q) for q in source["questions"]][:queries]
    question_vectors = source["question_vectors"][:queries].tolist()
    with tempfile.TemporaryDirectory() as folder:
        if engine == "edge":
            index = await open_embedded_index(Path(folder), model_id="bench", dimension=len(vectors[0]))
        else:
            index = ChunkIndex(open_qdrant(None), model_id="bench", dimension=len(vectors[0]))
            await index.ensure_collection()
        started = time.perf_counter()
        for start in range(0, len(chunks), 256):
            end = start + 256
            await index.upsert(chunks[start:end], vectors[start:end], sparse[start:end])
        result: dict[str, Any] = {
            "engine": engine,
            "level": level,
            "points": len(chunks),
            "upserts_per_s": round(len(chunks) / (time.perf_counter() - started)),
        }
        del chunks, vectors, sparse  # what stays resident is the engine's
        gc.collect()
        result["held_rss_mb"] = round(_rss_mb() - start_rss)
        for scope in ("untagged", "tagged"):
            timings, found, top = [], 0, []
            for question, vector in zip(questions, question_vectors, strict=True):
                gold = {doc: set(pages) for doc, pages in question["gold"].items()}
                tagged = [f"{next(iter(gold))}~v0"] if scope == "tagged" else None
                began = time.perf_counter()
                hits = await index.hybrid_search(
                    vector, question["text"], tenant_id=TENANTS[0], user_id=USER, document_ids=tagged
                )
                timings.append(time.perf_counter() - began)
                top.append([f"{h.document_id}:{h.chunk_index}" for h in hits[:5]])
                found += any(
                    h.document_id.split("~")[0] in gold and h.page in gold[h.document_id.split("~")[0]]
                    for h in hits[:5]
                )
            result[scope] = {
                "p50_ms": round(float(np.percentile(timings, 50)) * 1000, 1),
                "p95_ms": round(float(np.percentile(timings, 95)) * 1000, 1),
                "recall_at_5": round(found / len(questions), 3),
                "queries": len(questions),
                "top5": top,
            }
        await index.aclose()
        if engine == "edge":
            result |= _run("reopen", 0, folder)
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return result


async def _reopened(folder: str) -> dict[str, Any]:
    """What an Edge index costs a process that opens it from disk (as after a restart) and searches:
    the time to its first answer and the RSS it adds."""
    source = np.load(SOURCE)
    questions = [json.loads(q)["text"] for q in source["questions"]]
    vectors = source["question_vectors"].tolist()
    before = _rss_mb()
    started = time.perf_counter()
    index = await open_embedded_index(Path(folder), model_id="bench", dimension=len(vectors[0]))
    opened = 0.0
    for text, vector in zip(questions, vectors, strict=True):
        await index.hybrid_search(vector, text, tenant_id=TENANTS[0], user_id=USER)
        # Shards load on first use: opening is done when the first search has answered.
        opened = opened or time.perf_counter() - started
    held = _rss_mb() - before
    await index.aclose()
    return {"reopen_s": round(opened, 2), "reopened_held_rss_mb": round(held)}


async def _directory_writes(engine: str, points: int) -> dict[str, Any]:
    """Points/s written to a directory in the ingestor's batches (its embedding batch, 8 chunks)."""
    chunks, vectors, sparse = _library(points)
    chunks, vectors, sparse = chunks[:points], vectors[:points], sparse[:points]
    with tempfile.TemporaryDirectory() as folder:
        if engine == "edge":
            index = await open_embedded_index(Path(folder), model_id="bench", dimension=len(vectors[0]))
        else:
            index = ChunkIndex(
                open_qdrant(None, path=Path(folder)), model_id="bench", dimension=len(vectors[0])
            )
            await index.ensure_collection()
        started = time.perf_counter()
        for start in range(0, points, INGEST_BATCH):
            end = start + INGEST_BATCH
            await index.upsert(chunks[start:end], vectors[start:end], sparse[start:end])
        seconds = time.perf_counter() - started
        await index.aclose()
    return {"engine": engine, "points": points, "directory_points_per_s": round(points / seconds, 1)}


def _run(engine: str, level: int, queries: int | str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "bench.library_scale", "--worker", engine, str(level), str(queries)],
        check=True,
        capture_output=True,
        text=True,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    """Measure every level on both engines and print the table with the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[1000, 10000, 30000])
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--worker", nargs=3, metavar=("ENGINE", "LEVEL", "QUERIES|writes|FOLDER"))
    args = parser.parse_args()
    if args.worker:
        engine, level, queries = args.worker
        if engine == "reopen":
            measure = _reopened(queries)
        elif queries == "writes":
            measure = _directory_writes(engine, int(level))
        else:
            measure = _measure(engine, int(level), int(queries))
        print(json.dumps(asyncio.run(measure)))
        return
    if not SOURCE.exists():
        asyncio.run(_export_source())
    rows = []
    for level in args.levels:
        for engine in ENGINES:
            cap = BASELINE_QUERY_CAP if engine == "local-mode" and level >= 30000 else args.queries
            rows.append(_run(engine, level, min(args.queries, cap)))
            print(
                json.dumps({k: v for k, v in rows[-1].items() if k not in ("untagged", "tagged")}), flush=True
            )
    writes = [_run(engine, WRITE_POINTS, "writes") for engine in ENGINES]
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"search": rows, "directory_writes": writes}, indent=2))
    _report(rows, writes)


def _report(rows: list[dict[str, Any]], writes: list[dict[str, Any]]) -> None:
    print(
        "\nuser/all points | engine | upserts/s | untagged p50/p95 ms | tagged p50/p95 ms | recall@5 | RSS peak/held MB"
    )
    for row in rows:
        u, t = row["untagged"], row["tagged"]
        print(
            f"{row['level']}/{row['points']} | {row['engine']} | {row['upserts_per_s']} | "
            f"{u['p50_ms']}/{u['p95_ms']} | {t['p50_ms']}/{t['p95_ms']} | {u['recall_at_5']} | "
            f"{row['peak_rss_mb']}/{row['held_rss_mb']}"
        )
        if "reopen_s" in row:
            print(
                f"   reopened from disk: first answer in {row['reopen_s']} s, adding {row['reopened_held_rss_mb']} MB RSS"
            )
    by = {(r["level"], r["engine"]): r for r in rows}
    for level in sorted({r["level"] for r in rows}):
        old, new = by[(level, "local-mode")], by[(level, "edge")]
        print(
            f"{level}: edge/local-mode p95 ratio untagged {new['untagged']['p95_ms'] / old['untagged']['p95_ms']:.4f}, "
            f"tagged {new['tagged']['p95_ms'] / old['tagged']['p95_ms']:.4f}; same top 5: "
            + ", ".join(f"{scope} {_same_top(old[scope], new[scope])}" for scope in ("untagged", "tagged"))
        )
    rate = {w["engine"]: w["directory_points_per_s"] for w in writes}
    print(
        f"directory writes in batches of {INGEST_BATCH}: local-mode {rate['local-mode']} points/s, "
        f"edge {rate['edge']} points/s (ratio {rate['edge'] / rate['local-mode']:.1f})"
    )


def _same_top(old: dict[str, Any], new: dict[str, Any]) -> str:
    """In how many of the questions both asked the two engines returned the same top 5, in order."""
    pairs = list(zip(old["top5"], new["top5"], strict=False))
    return f"{sum(a == b for a, b in pairs)}/{len(pairs)}"


if __name__ == "__main__":
    main()

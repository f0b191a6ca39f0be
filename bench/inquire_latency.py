"""@Inquire POST → response through the running system at a real library's size, beside its parts.

    .venv/bin/python -m bench.inquire_latency [--levels 1000 10000 30000 distinct] [--questions 40]
        [--variants ours today] [--today REF]

What the issue's latency goals are about (docs/benchmarks.md, "Library scale"): the time from the
gateway's ``POST /v1/conversations/{id}/messages`` of an @Inquire message to its ``response`` event on
the notifier's SSE stream, through the resolver and the colocated worker, with the embedded index
(Qdrant Edge) already holding a library.

Per level, one Edge index is filled once and kept (``bench.library_scale``'s points: the inquire
bench's real chunks of twelve Debian and GNU manuals with their MiniLM and BM25 vectors, copied as
further versions of each document, "<version>-c<n>", until the user has ``level`` points; two other
tenants get a copy of that library); level ``distinct`` is instead the 31 distinct manuals of
``bench.distinct_library`` as it ingested them (12,681 points; run it once first), with the two other
tenants' copies. Every document of the user is listed in the catalog, ready, as an upload would
leave it. Each variant runs in a process of its own on a copy of that index:
``ours`` (this tree) and, when asked for, ``today`` (the ``libs`` and ``services`` of git ``REF``,
as ``bench.colocated_rss --today`` does). It starts the whole embedded system
(``policypal.cli.embedded_system``, as ``make up`` does), asks two unrelated warm-up questions, then
the first ``--questions`` tuning questions of ``bench.inquire_corpus`` one after another, each in a
new conversation, untagged (the user's whole library) and tagged (``@`` the question's document, its
first copy), and times POST → response. A question the resolver answers with a question of its own
(an ``interrupt``) or an error is counted, not timed.

Before the system starts, ``ours`` prepares every document's sentence vectors as its worker does
once an upload is ready (ADR 0018; timed and reported as ``prepared``): the questions come after the
library's uploads, as a user's do. The worker also keeps in memory the vectors of the sentences it
compared, so a question asked a second time (in the other scope) finds most of them at hand: each
question's first asking is reported as "cold" (a new question, what a user mostly asks), its second
as "warm"; the first scope alternates.

Baseline in the same run: once the system has stopped, the same questions in the same order in
the variant's process on the same index: the query's embedding and hybrid search ("search", what
``bench.library_scale`` and ``bench.distinct_library`` time) and the whole offline answer
(``answer_inquiry``), with the raw message as the query. The load average is read before the system
starts, after it stops and after the in-process part.

The copies share their text with the original chunks, so at 10k and 30k points an answer compares
no more distinct sentences than at 3k; a library of as many distinct documents would not let a
question reuse its neighbours' sentences as often (``bench.distinct_library`` measures ranking on
distinct manuals).
"""

import argparse
import asyncio
import json
import math
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from bench.ingestion import CACHE, today_tree, variant_result
from bench.library_scale import SOURCE, _export_source, noisy_copies

FOLDER = CACHE / "inquire_latency"
#: The bench client's token (``bench.chat_document.bench_client``) is this tenant's and user's.
TENANT = USER = "bench"
OTHER_TENANTS = ("other-1", "other-2")
#: Asked first and not timed: the worker's first answers load what it loads lazily. About nothing in
#: the questions, so no sentence they need is compared (and kept) before them.
WARM_UP = ("How do I mend a bicycle tyre?", "Which herbs grow well on a windowsill?")
VARIANTS = ("today", "ours")
SCOPES = ("untagged", "tagged")
#: The level of ``bench.distinct_library``'s 31 distinct manuals (12,681 points) instead of copies.
DISTINCT = "distinct"


def copy_id(document_id: str, copy: int) -> str:
    """The document id of the ``copy``-th copy (the original keeps its id)."""
    return document_id if copy == 0 else f"{document_id}-c{copy}"


def copy_version(version: str, copy: int) -> str:
    """The version label of the ``copy``-th copy: a further version of the same title."""
    return version if copy == 0 else f"{version}-c{copy}"


def copies(level: int) -> Iterator[tuple[list[Any], np.ndarray, list[Any]]]:
    """The user's chunks, dense and sparse vectors, a copy of the inquire library at a time, until
    the user has ``level`` points (``bench.library_scale.noisy_copies``), each copy a further version."""
    for copy, originals, moved, sparse in noisy_copies(level):
        chunks = [
            chunk.model_copy(
                update={
                    "user_id": USER,
                    "document_id": copy_id(chunk.document_id, copy),
                    "version": copy_version(chunk.version, copy),
                }
            )
            for chunk in originals
        ]
        yield chunks, moved, sparse


def distinct_manuals() -> Iterator[tuple[list[Any], np.ndarray, list[Any]]]:
    """The 31 distinct manuals of ``bench.distinct_library`` as it ingested them, as the user's."""
    from bench.inquire_corpus.distinct_index import load_points, newest_folder
    from policypal.vectorstore import sparse_vectors

    folder = newest_folder()
    if folder is None:
        raise SystemExit("no distinct library: run `python -m bench.distinct_library` once first")
    chunks, vectors = load_points(folder)
    chunks = [chunk.model_copy(update={"tenant_id": TENANT, "user_id": USER}) for chunk in chunks]
    yield chunks, vectors, sparse_vectors(chunks)


async def fill_index(path: Path, level: str) -> list[dict[str, Any]]:
    """An Edge index under ``path`` with the user's points of ``level`` and two other tenants' copies.

    Returns the user's documents (id, title, version, chunks) for the catalog.
    """
    from policypal.embeddings import MiniLMEmbedder
    from policypal.vectorstore import open_embedded_index

    model = MiniLMEmbedder()
    index = await open_embedded_index(path, model_id=model.model_id, dimension=model.dimension)
    documents: dict[str, dict[str, Any]] = {}
    try:
        for chunks, dense, sparse in distinct_manuals() if level == DISTINCT else copies(int(level)):
            for chunk in chunks:
                entry = documents.setdefault(
                    chunk.document_id,
                    {
                        "document_id": chunk.document_id,
                        "title": chunk.title,
                        "version": chunk.version,
                        "chunks": 0,
                    },
                )
                entry["chunks"] += 1
            for tenant in (TENANT, *OTHER_TENANTS):
                owned = [chunk.model_copy(update={"tenant_id": tenant}) for chunk in chunks]
                for start in range(0, len(owned), 256):
                    end = start + 256
                    await index.upsert(owned[start:end], dense[start:end].tolist(), sparse[start:end])
    finally:
        await index.aclose()
    return list(documents.values())


async def list_documents(redis_url: str, documents: list[dict[str, Any]]) -> None:
    """Every document of the user in the catalog, ready, as its ingestion would have left it."""
    from policypal.state import DocumentCatalog, DocumentRecord, connect_redis

    redis = connect_redis(redis_url)
    try:
        catalog = DocumentCatalog(redis)
        for document in documents:
            await catalog.create(
                DocumentRecord(
                    document_id=document["document_id"],
                    tenant_id=TENANT,
                    user_id=USER,
                    title=document["title"],
                    version=document["version"],
                    doc_type="regulatory",
                    filename=f"{document['document_id']}.pdf",
                    content_type="application/pdf",
                    size_bytes=1,
                    sha256=document["document_id"],
                    status="ready",
                    chunks=document["chunks"],
                    request_id=f"ingest-{document['document_id']}",
                )
            )
    finally:
        await redis.aclose()


def plan(questions: int) -> list[tuple[Any, str]]:
    """(question, scope) in the order asked: each question first in one scope, then in the other.

    The worker keeps the vectors of the sentences it has compared, so a question's second scope finds
    most of them ready: the first asking of each question is "cold" (a new question), the second
    "warm". The first scope alternates, so each scope is asked cold for half of the questions.
    """
    from bench.inquire_corpus.questions import QUESTIONS, held_out

    hidden = held_out()
    asked = [q for i, q in enumerate(QUESTIONS) if i not in hidden][:questions]
    order = []
    for number, question in enumerate(asked):
        scopes = SCOPES if number % 2 == 0 else SCOPES[::-1]
        order += [(question, scope) for scope in scopes]
    return order


async def ask(client: Any, text: str, documents: list[str]) -> tuple[str, float]:
    """POST one @Inquire message in a new conversation; its terminal event's type and the seconds to it."""
    from policypal.contracts import CHAT_TERMINAL_TYPES

    conversation = await client.create_conversation()
    started = time.perf_counter()
    accepted = await client.post_message(conversation, text, action="inquire", documents=documents)
    ending = "none"
    async for streamed in client.stream(
        f"/v1/conversations/{conversation}/events", request_id=accepted["request_id"]
    ):
        if streamed.event.type in CHAT_TERMINAL_TYPES:
            ending = streamed.event.type
            break
    return ending, time.perf_counter() - started


async def through_the_system(
    settings: Any, redis_url: str, index_dir: Path, questions: int
) -> dict[str, Any]:
    """Every question of ``plan``: seconds POST → response by scope and temperature, other endings."""
    from bench.chat_document import bench_client

    await list_documents(redis_url, json.loads((index_dir / "documents.json").read_text()))
    client = bench_client(settings)
    order = plan(questions)
    try:
        for text in WARM_UP:
            await ask(client, text, [])
        seconds: dict[str, list[float]] = {}
        endings: dict[str, int] = {}
        seen: set[str] = set()
        for question, scope in order:
            ending, elapsed = await ask(
                client, question.text, [question.document] if scope == "tagged" else []
            )
            endings[ending] = endings.get(ending, 0) + 1
            if ending == "response":
                seconds.setdefault(_series(scope, question.text, seen), []).append(elapsed)
            seen.add(question.text)
        return {"seconds": seconds, "endings": endings}
    finally:
        await client.aclose()


def _series(scope: str, text: str, seen: set[str]) -> str:
    return f"{scope} {'warm' if text in seen else 'cold'}"


async def in_process(index_path: Path, questions: int) -> dict[str, list[float]]:
    """The same questions in the same order in this process, on the same index, without the system:
    the query's embedding with the hybrid search ("search"), and the whole offline answer
    (``answer_inquiry``, "answer"), with the raw message as the query (no resolver)."""
    from actions.inquire.handler import answer_inquiry
    from actions.inquire.retrieval import embed_query, search_candidates
    from bench.inquire_corpus.library import resolved
    from policypal.contracts import ActionRequested
    from policypal.embeddings import MiniLMEmbedder
    from policypal.vectorstore import open_embedded_index

    embedder = MiniLMEmbedder()
    embedder.embed(["warm up"])
    index = await open_embedded_index(index_path, model_id=embedder.model_id, dimension=embedder.dimension)
    seconds: dict[str, list[float]] = {}
    seen: set[str] = set()
    try:
        for number, (question, scope) in enumerate(plan(questions)):
            event = ActionRequested(
                tenant_id=TENANT,
                user_id=USER,
                request_id=f"in-process-{number}",
                thread_id="bench",
                action="inquire",
                query=question.text,
                documents=[resolved(question.document)] if scope == "tagged" else [],
            )
            started = time.perf_counter()
            await search_candidates(event, event.query, await embed_query(embedder, event.query), index=index)
            searched = time.perf_counter()
            await answer_inquiry(event, index=index, embedder=embedder)
            series = _series(scope, question.text, seen)
            seconds.setdefault(f"search {series}", []).append(searched - started)
            seconds.setdefault(f"answer {series}", []).append(time.perf_counter() - searched)
            seen.add(question.text)
    finally:
        await index.aclose()
    return seconds


async def prepare_units(
    index_path: Path, documents: list[dict[str, Any]], *, tenant: str = TENANT, user: str = USER
) -> dict[str, float] | None:
    """What the worker does once each upload is ready: every document of the user gets its sentence
    vectors (``unit_preparation``, ADR 0018); None on a tree without it (``today``). Seconds and units
    embedded; a copy's sentences are copied from the original's, as the worker copies a new version's."""
    try:
        from actions.inquire.unit_preparation import prepare_unit_vectors
    except ImportError:
        return None
    from policypal.contracts import DocumentReady
    from policypal.embeddings import MiniLMEmbedder
    from policypal.vectorstore import open_embedded_index

    embedder = MiniLMEmbedder()
    index = await open_embedded_index(index_path, model_id=embedder.model_id, dimension=embedder.dimension)
    started, embedded = time.perf_counter(), 0
    try:
        for document in documents:
            ready = DocumentReady(
                tenant_id=tenant,
                user_id=user,
                request_id=f"ingest-{document['document_id']}",
                thread_id=document["document_id"],
                document_id=document["document_id"],
                pages=1,
                chunks=document.get("chunks", 0),
                parser="pdfium",
            )
            embedded += await prepare_unit_vectors(ready, index=index, embedder=embedder)
    finally:
        await index.aclose()
    return {"seconds": round(time.perf_counter() - started, 1), "embedded": embedded}


def run_variant(name: str, index_dir: Path, questions: int) -> dict[str, Any]:
    """In this process (started with the variant's PYTHONPATH): the system on a copy of the index, then
    the same questions in process on that copy."""
    from policypal.cli.embedded_system import EmbeddedSystem
    from policypal.config import Settings
    from policypal.devstack import free_port

    with tempfile.TemporaryDirectory(prefix=f"inquire-latency-{name}-") as folder:
        data_dir = Path(folder) / "data"
        shutil.copytree(index_dir / "qdrant", data_dir / "qdrant")
        documents = json.loads((index_dir / "documents.json").read_text())
        prepared = asyncio.run(prepare_units(data_dir / "qdrant", documents))
        settings = Settings(_env_file=None, data_dir=data_dir, port=free_port(), notifier_port=free_port())
        system = EmbeddedSystem(settings)
        load = [os.getloadavg()[0]]
        system.start()
        try:
            valkey = next(p for p in system.processes if p.name == "valkey")
            result = asyncio.run(through_the_system(settings, str(valkey.url), index_dir, questions))
        finally:
            system.stop()
            logs = FOLDER / f"logs-{name}-{index_dir.name}"
            shutil.rmtree(logs, ignore_errors=True)
            shutil.copytree(system.log_dir, logs)
        load.append(os.getloadavg()[0])
        # The system has let go of the index (one process at a time may open it).
        result["seconds"] |= asyncio.run(in_process(settings.qdrant_local_path, questions))
        load.append(os.getloadavg()[0])
    return {"variant": name, **result, "prepared": prepared, "load": [round(x, 2) for x in load]}


def _in_subprocess(name: str, index_dir: Path, questions: int, tree: Path | None) -> dict[str, Any]:
    return variant_result("bench.inquire_latency", ["--variant", name, str(index_dir), str(questions)], tree)


def level_index(level: str) -> Path:
    """The filled index of ``level`` (made once and kept under bench/.cache/inquire_latency)."""
    folder = FOLDER / f"level-{level}"
    if not (folder / "documents.json").exists():
        shutil.rmtree(folder, ignore_errors=True)
        documents = asyncio.run(fill_index(folder / "qdrant", level))
        (folder / "documents.json").write_text(json.dumps(documents))
    return folder


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (inclusive method), in milliseconds."""
    if len(values) < 2:
        return 1000 * values[0] if values else math.nan
    return 1000 * statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def report(rows: list[dict[str, Any]]) -> None:
    """Per level and variant: POST → response by scope, cold and warm, beside the in-process search
    and answer of the same questions, and the ratio to each; then ours against today when both ran."""
    print(
        "\n| user / index points | variant | scope | POST → response p50 / p95 ms | in-process answer "
        "p50 / p95 ms | search p50 / p95 ms | response / search p95 | other endings | load |"
    )
    print("|---|---|---|---:|---:|---:|---:|---|---|")
    for row in rows:
        seconds = row["seconds"]
        for series in [f"{scope} {temperature}" for scope in SCOPES for temperature in ("cold", "warm")]:
            response, answer, search = (seconds.get(f"{k}{series}", []) for k in ("", "answer ", "search "))
            others = {k: v for k, v in row["endings"].items() if k != "response"}
            print(
                f"| {row['points']} / {3 * row['points']} | {row['variant']} | {series} | {_spread(response)} | "
                f"{_spread(answer)} | {_spread(search)} | {percentile(response, 95) / percentile(search, 95):.0f}x | "
                f"{others or '–'} | {' → '.join(map(str, row['load']))} |"
            )
    by = {(r["level"], r["variant"]): r for r in rows}
    for level in sorted({r["level"] for r in rows}):
        if (level, "today") in by and (level, "ours") in by:
            old, new = by[(level, "today")]["seconds"], by[(level, "ours")]["seconds"]
            ratios = [
                f"{series} p50 {percentile(new[series], 50) / percentile(old[series], 50):.2f}, "
                f"p95 {percentile(new[series], 95) / percentile(old[series], 95):.2f}"
                for series in sorted(set(old) & set(new))
                if not series.startswith(("answer", "search"))
            ]
            print(f"{level}: ours / today: " + "; ".join(ratios))


def _spread(values: list[float]) -> str:
    return f"{percentile(values, 50):.0f} / {percentile(values, 95):.0f} (n={len(values)})"


def main() -> None:
    """Fill each level's index once, run every variant on it, print the table with the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--levels", nargs="+", default=["1000", "10000", "30000"], help=f"points of the user, or {DISTINCT}"
    )
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--today", default="main")
    parser.add_argument("--variants", nargs="+", default=["ours"], choices=VARIANTS)
    parser.add_argument(
        "--variant", nargs=3, metavar=("NAME", "INDEX_DIR", "QUESTIONS"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.variant:
        name, index_dir, questions = args.variant
        print(json.dumps(run_variant(name, Path(index_dir), int(questions))))
        return
    if not SOURCE.exists() and set(args.levels) - {DISTINCT}:
        asyncio.run(_export_source())
    tree = today_tree(args.today) if "today" in args.variants else None
    rows = []
    for level in args.levels:
        index_dir = level_index(level)
        for name in args.variants:
            points = sum(d["chunks"] for d in json.loads((index_dir / "documents.json").read_text()))
            row = {
                "level": level,
                "points": points,
                **_in_subprocess(name, index_dir, args.questions, tree if name == "today" else None),
            }
            print(
                json.dumps({k: row.get(k) for k in ("level", "variant", "endings", "prepared", "load")}),
                flush=True,
            )
            rows.append(row)
    results = Path(__file__).parent / "results"
    results.mkdir(exist_ok=True)
    (results / "inquire_latency.json").write_text(json.dumps(rows, indent=1))
    report(rows)


if __name__ == "__main__":
    main()

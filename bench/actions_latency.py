"""Latency of the summarize, compare and audit workers on the offline path (no language model).

Indexes real multi-page PDFs (generated with reportlab, read back with pypdf, chunked with the
ingestor's splitter, embedded with MiniLM into local Qdrant), then times each action's own work —
reading or searching Qdrant, embedding sentences, composing the cited answer — by calling the worker's
compose function directly, N times each. The bus adds ~40 ms per request (see "Chat latency").

    .venv/bin/python -m bench.actions_latency [--runs 5] [--show]
"""

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from actions.audit.auditing import audit
from actions.compare.comparison import compare
from actions.lifecycle.request import ActionAnswer
from actions.summarize.summarization import summarize
from policypal.contracts import ActionRequested
from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex, open_qdrant
from tests.actions.policy_library import COMPANY_POLICY, EMAIL, REGULATION_2024, REGULATION_2025
from tests.actions.worker_harness import IndexedDocument, index_pdf, request
from tests.pdf_factory import page_sentences

TENANT = "bench"


async def _no_progress(stage: str, message: str) -> None:
    return None


async def _library(index: ChunkIndex, embedder: MiniLMEmbedder) -> dict[str, IndexedDocument]:
    sources = {
        "reg24": ("Records Regulation", "2024", REGULATION_2024, "regulatory"),
        "reg25": ("Records Regulation", "2025", REGULATION_2025, "regulatory"),
        "policy": ("Northwind Data Policy", "1", COMPANY_POLICY, "policy"),
        "handbook": (
            "Operations Handbook",
            "2024",
            [" ".join(page_sentences(page, 40)) for page in range(1, 121)],
            "policy",
        ),
    }
    library = {}
    for doc_id, (title, version, pages, doc_type) in sources.items():
        library[doc_id] = await index_pdf(
            index,
            embedder,
            tenant=TENANT,
            document_id=doc_id,
            title=title,
            version=version,
            pages=pages,
            doc_type="policy" if doc_type == "policy" else "regulatory",
        )
    return library


def _cases(library: dict[str, IndexedDocument]) -> list[tuple[str, ActionRequested]]:
    reg24, reg25, policy, handbook = (library[k] for k in ("reg24", "reg25", "policy", "handbook"))
    return [
        ("summarize, 1 doc of 6 pages", request(TENANT, "summarize", "", [reg24])),
        (
            f"summarize, 1 doc of 120 pages ({len(handbook.chunks)} chunks)",
            request(TENANT, "summarize", "", [handbook]),
        ),
        ("summarize, 3 docs", request(TENANT, "summarize", "", [reg24, reg25, policy])),
        ("compare holistic, 2 docs", request(TENANT, "compare", "compare these", [reg24, reg25])),
        (
            "compare holistic, 120-page vs 7-page",
            request(TENANT, "compare", "compare these", [handbook, reg25]),
        ),
        (
            "compare focused, 3 docs",
            request(TENANT, "compare", "record retention period", [reg24, reg25, policy]),
        ),
        (
            "audit text mode, 5 statements vs 2 targets",
            request(
                TENANT,
                "audit",
                "audit this",
                [reg24, reg25],
                source_text=EMAIL,
                target_document_ids=["reg24", "reg25"],
            ),
        ),
        (
            "audit policy mode, vs 2 targets",
            request(
                TENANT,
                "audit",
                "audit",
                [policy, reg24, reg25],
                source_document_id="policy",
                target_document_ids=["reg24", "reg25"],
            ),
        ),
    ]


async def _run(runs: int, show: bool, workdir: Path) -> None:
    embedder = MiniLMEmbedder()
    client = open_qdrant(None, path=workdir / "q")
    index = ChunkIndex(client, model_id=embedder.model_id, dimension=embedder.dimension)
    await index.ensure_collection()
    started = time.perf_counter()
    library = await _library(index, embedder)
    print(
        f"indexed {sum(len(d.chunks) for d in library.values())} chunks in {time.perf_counter() - started:.1f} s"
    )
    composers: dict[str, Callable[..., Awaitable[ActionAnswer]]] = {
        "summarize": summarize,
        "compare": compare,
        "audit": audit,
    }
    print("| case | median ms | max ms | citations |")
    print("|---|---:|---:|---:|")
    for name, event in _cases(library):
        compose = composers[event.action]
        timings = []
        for _ in range(runs):
            start = time.perf_counter()
            answer = await compose(event, _no_progress, index=index, embedder=embedder)
            timings.append((time.perf_counter() - start) * 1000)
        print(f"| {name} | {statistics.median(timings):.0f} | {max(timings):.0f} | {len(answer.citations)} |")
        if show:
            print(answer.answer, "\n")
    await client.close()


def main() -> None:
    """Index the documents, time every case, print a markdown table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--show", action="store_true", help="print each answer once")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        asyncio.run(_run(args.runs, args.show, Path(workdir)))


if __name__ == "__main__":
    main()

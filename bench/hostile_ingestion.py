"""Hostile ingestion: time and peak memory to refuse a page of tens of MiB of words, and the wait of a
small upload behind a 500-page one, each against a baseline measured in the same run.

    .venv/bin/python -m bench.hostile_ingestion [--words-mib 50] [--large-pages 500]

1. Parsing runs in a child process per document (its own peak RSS): a 50-page PDF (baseline), then
   the hostile one-page PDF; goal <= 60 s to ``too_much_text`` and <= 1 GB peak RSS.
2. The pipeline (real Valkey catalog, in-memory Qdrant, offline MiniLM) indexes a 1-page PDF alone
   (baseline), then again while a ``--large-pages`` PDF is being embedded; goal <= 10 s. The large
   one is then deleted, and the time until its ingestion stops is reported too.
"""

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ingestor.parsing import IngestLimits, UploadedFile, parse_document
from ingestor.pipeline import ChunkingOptions, IngestPipeline
from ingestor.progress import ProgressReporter
from ingestor.rejections import DocumentRejected
from ingestor.work_turns import FairTurns
from policypal.contracts import DocumentUploaded, IngestProgress
from policypal.contracts.envelope import Envelope
from policypal.devstack import start_valkey
from policypal.embeddings import MiniLMEmbedder
from policypal.state import DocumentCatalog, RequestLedger
from policypal.vectorstore import ChunkIndex, open_qdrant
from tests import hostile_documents, pdf_factory
from tests.support.document_uploads import make_upload, record_for


async def _parse_only(data: bytes) -> dict[str, Any]:
    async def drop(_: IngestProgress) -> None:
        return None

    progress = ProgressReporter(make_upload("x"), drop)
    started = time.perf_counter()
    try:
        parsed = await parse_document(
            UploadedFile(data, "x.pdf", "application/pdf"),
            size=1000,
            overlap=150,
            limits=IngestLimits(),
            progress=progress,
        )
        outcome = f"parsed: {parsed.pages} pages, {len(parsed.chunks)} chunks"
    except DocumentRejected as rejection:
        outcome = f"{rejection.reason_code}: {rejection.reason}"
    seconds = time.perf_counter() - started
    return {
        "seconds": seconds,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "outcome": outcome,
    }


def _parse_in_child(path: Path) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "bench.hostile_ingestion", "--parse", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


class _Sink:
    def __init__(self, ledger: RequestLedger) -> None:
        self.ledger = ledger
        self.embedding: dict[str, asyncio.Event] = {}

    async def progress(self, event: IngestProgress) -> None:
        if event.stage == "embedding" and (event.done or 0) > 0:
            self.embedding.setdefault(event.document_id, asyncio.Event()).set()

    async def terminal(self, event: Envelope) -> Envelope:
        return await self.ledger.record_terminal(event)


class _Source:
    def __init__(self) -> None:
        self.objects: dict[str, bytes] = {}

    async def fetch(self, name: str) -> bytes:
        return self.objects[name]


async def _fairness(redis_url: str, large_pages: int) -> dict[str, Any]:
    from redis.asyncio import Redis

    redis = Redis.from_url(redis_url, decode_responses=True)
    catalog, ledger = DocumentCatalog(redis), RequestLedger(redis)
    embedder = MiniLMEmbedder()
    embedder.embed(["warm up"])
    client = open_qdrant(None)
    index = ChunkIndex(client, model_id=embedder.model_id, dimension=embedder.dimension)
    await index.ensure_collection()
    sink, source, turns = _Sink(ledger), _Source(), FairTurns()
    pipeline = IngestPipeline(
        catalog=catalog,
        ledger=ledger,
        index=index,
        embedder=embedder,
        source=source,
        sink=sink,
        options=ChunkingOptions(),
        turns=turns,
    )

    async def upload(document_id: str, data: bytes) -> DocumentUploaded:
        event = make_upload(document_id, tenant="bench")
        source.objects[event.object_name] = data
        await catalog.create(record_for(event))
        return event

    async def timed(event: DocumentUploaded) -> tuple[float, str]:
        started = time.perf_counter()
        result = await pipeline.run(event)
        return time.perf_counter() - started, result.type

    alone, alone_type = await timed(await upload("small-alone", pdf_factory.text_pdf(1)))
    large = await upload("large", pdf_factory.text_pdf(large_pages))
    sink.embedding["large"] = asyncio.Event()
    large_task = asyncio.create_task(pipeline.run(large))
    await sink.embedding["large"].wait()
    behind, behind_type = await timed(await upload("small-behind", pdf_factory.text_pdf(1)))
    record = await catalog.get("bench", "u1", "large")
    assert record is not None
    await catalog.delete(record)
    deleted_at = time.perf_counter()
    large_result = await large_task
    stop_seconds = time.perf_counter() - deleted_at
    left = await index.count(tenant_id="bench", document_id="large")
    await client.close()
    await redis.aclose()
    return {
        "small_alone_s": alone,
        "small_alone": alone_type,
        "small_behind_s": behind,
        "small_behind": behind_type,
        "large_pages": large_pages,
        "large_outcome": getattr(large_result, "reason_code", large_result.type),
        "large_stopped_after_delete_s": stop_seconds,
        "large_points_left": left,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--words-mib", type=float, default=50.0)
    parser.add_argument("--large-pages", type=int, default=500)
    parser.add_argument("--parse", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.parse:
        print(json.dumps(asyncio.run(_parse_only(args.parse.read_bytes()))))
        return
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        normal, hostile = work / "normal.pdf", work / "hostile.pdf"
        normal.write_bytes(pdf_factory.text_pdf(50))
        hostile.write_bytes(hostile_documents.words_page_pdf(int(args.words_mib * 1024 * 1024)))
        baseline = _parse_in_child(normal)
        attack = _parse_in_child(hostile)
        print(
            f"hostile PDF: {hostile.stat().st_size / 1048576:.1f} MiB file, {args.words_mib:g} MiB of words on one page"
        )
        print(
            f"  baseline 50-page PDF: {baseline['seconds']:.2f} s, peak RSS {baseline['peak_rss_mb']:.0f} MB ({baseline['outcome']})"
        )
        print(
            f"  hostile:              {attack['seconds']:.2f} s, peak RSS {attack['peak_rss_mb']:.0f} MB ({attack['outcome'][:90]})"
        )
        print(
            f"  ratio hostile/baseline: time {attack['seconds'] / baseline['seconds']:.2f}x, RSS {attack['peak_rss_mb'] / baseline['peak_rss_mb']:.2f}x"
        )
        valkey = start_valkey(work / "valkey", log_path=work / "valkey.log")
        try:
            fair = asyncio.run(_fairness(str(valkey.url), args.large_pages))
        finally:
            valkey.stop()
    print(f"small upload (1 page) behind a {fair['large_pages']}-page one:")
    print(f"  alone (baseline): {fair['small_alone_s']:.2f} s to {fair['small_alone']}")
    print(
        f"  behind the large one: {fair['small_behind_s']:.2f} s to {fair['small_behind']} "
        f"(ratio {fair['small_behind_s'] / fair['small_alone_s']:.2f}x)"
    )
    print(
        f"  large one deleted: stopped after {fair['large_stopped_after_delete_s']:.2f} s "
        f"({fair['large_outcome']}, {fair['large_points_left']} points left)"
    )


if __name__ == "__main__":
    main()

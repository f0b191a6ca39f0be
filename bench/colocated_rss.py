"""The colocated worker at a real library's size: resident memory with 10k points of one user in the
embedded index, while it ingests a long PDF and answers 50 questions at once; and the publish
timeouts and redeliveries under that load. Today's code (git ``REF``) and ours, in the same run.

    .venv/bin/python -m bench.colocated_rss [--points 10000] [--questions 50] [--today REF] [--variants ours today]

Per variant, a fresh directory with its own nats-server and Valkey (from their wheels) and an
embedded index (Qdrant Edge) holding ``--points`` points of one user: the real chunks of Debian's
policy.pdf, the FHS and the GNU coding standards (bench/.cache, see bench/ingestion.py), embedded once
and cached, then copied as further versions with seeded noise on their vectors until the level is
reached; for ``ours``, with every document's sentence vectors as its worker keeps them (ADR 0018). Then ``python -m policypal.cli.colocated`` with the ingestor and every action worker, as
``policypal up`` starts it (``today``: with the PYTHONPATH of bench/.cache/today-<commit>, as in
bench/ingestion.py). Its VmRSS is sampled every 0.25 s: once its consumers exist (idle), during the
ingestion of policy.pdf and the questions (asked once the embedding is under way), and its peak
(VmHWM). Publish timeouts are the worker log's "nats: timeout" / "timed out" lines, and the bench's
own when it asks the questions (counted, then tried again as the gateway would); redeliveries are
the inquire consumer's ``num_redelivered``. The worker's log is kept in bench/.cache/colocated_rss/.
"""

import argparse
import asyncio
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nats
import numpy as np
from nats.js.errors import NotFoundError

from bench.ingestion import CACHE, ROOT, _pythonpath_of, default_pdf, today_tree
from bench.inquire_latency import prepare_units

LIBRARY = CACHE / "colocated_rss" / "library.npz"
SOURCES = ("policy.pdf", "fhs-3.0.pdf", "standards.pdf")
TENANT, USER = "bench", "reader"
WORKERS = ("ingestor", "actions.inquire", "actions.summarize", "actions.compare", "actions.audit")
NOISE = 0.01
QUESTIONS = [
    "What permission modes should setuid and setgid executables have?",
    "Where should info documents be installed?",
    "What is /opt reserved for?",
    "How should a package keep its log files from growing forever?",
    "What does the Standards-Version field record?",
]


def _library_source() -> dict[str, Any]:
    """The real chunks of the source PDFs and their vectors, embedded once and cached."""
    if not LIBRARY.exists():
        from bench.audit_corpus.corpus import fetch_gnu_standards
        from bench.recall_corpus import fetch_documents as fetch_debian_policy
        from ingestor.chunking import chunk_pages
        from ingestor.pdf_text import extract_pages
        from policypal.embeddings import MiniLMEmbedder

        fetch_debian_policy()
        fetch_gnu_standards()
        texts: list[dict[str, Any]] = []
        for name in SOURCES:
            for chunk in chunk_pages(extract_pages((CACHE / name).read_bytes()), size=1000, overlap=150):
                # Document ids allow letters, digits, "_" and "-" only.
                document = Path(name).stem.replace(".", "_")
                texts.append({"document": document, "page": chunk.page, "text": chunk.text})
        vectors = MiniLMEmbedder().embed([t["text"] for t in texts])
        LIBRARY.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(LIBRARY, vectors=vectors, chunks=np.asarray([json.dumps(t) for t in texts]))
    source = np.load(LIBRARY)
    return {"vectors": source["vectors"], "chunks": [json.loads(c) for c in source["chunks"]]}


async def _fill_index(path: Path, points: int) -> list[str]:
    """The index of ``points`` points of the user; returns its document ids."""
    from policypal.embeddings import MiniLMEmbedder
    from policypal.vectorstore import ChunkPoint, open_embedded_index, sparse_vectors

    source = _library_source()
    rng = np.random.default_rng(7)
    model = MiniLMEmbedder()
    index = await open_embedded_index(path, model_id=model.model_id, dimension=model.dimension)
    documents: dict[str, None] = {}
    try:
        for copy in range(math.ceil(points / len(source["chunks"]))):
            noise = rng.standard_normal(source["vectors"].shape) * NOISE if copy else 0.0
            moved = source["vectors"] + noise
            moved /= np.linalg.norm(moved, axis=1, keepdims=True)
            count = min(len(source["chunks"]), points - copy * len(source["chunks"]))
            moved = moved[:count]
            chunks = [
                ChunkPoint(
                    tenant_id=TENANT,
                    user_id=USER,
                    document_id=f"{c['document']}-v{copy}",
                    title=c["document"],
                    version=str(copy),
                    doc_type="regulatory",
                    page=c["page"],
                    chunk_index=i,
                    text=c["text"],
                )
                for i, c in enumerate(source["chunks"][:count])
            ]
            documents.update(dict.fromkeys(chunk.document_id for chunk in chunks))
            sparse = sparse_vectors(chunks)
            for start in range(0, count, 256):
                end = start + 256
                await index.upsert(chunks[start:end], moved[start:end].tolist(), sparse[start:end])
    finally:
        await index.aclose()
    return list(documents)


@dataclass
class RssSampler:
    """VmRSS of one process every 0.25 s, tagged with the phase it was taken in."""

    pid: int
    phase: str = "starting"
    samples: dict[str, list[float]] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)

    def _status(self, key: str) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
        return 0.0

    def run(self) -> None:
        """Sample until stopped."""
        while not self._stop.wait(0.25):
            try:
                self.samples.setdefault(self.phase, []).append(self._status("VmRSS"))
            except OSError:
                return

    def peak(self) -> float:
        """The process's peak RSS (VmHWM)."""
        return self._status("VmHWM")

    def stop(self) -> None:
        """Stop sampling."""
        self._stop.set()


async def wait_for_consumers(js: Any, consumers: Sequence[tuple[str, str]], within: float = 120.0) -> None:
    """Return once every (stream, durable) of ``consumers`` exists: the workers are subscribed."""
    deadline = time.monotonic() + within
    while True:
        try:
            for stream, durable in consumers:
                await js.consumer_info(stream, durable)
            return
        except NotFoundError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


async def _drive(nats_url: str, redis_url: str, sampler: RssSampler, questions: int) -> dict[str, Any]:
    from actions.inquire.service import DURABLE
    from ingestor.service import CONSUMER
    from policypal.bus import build_broker, publish_event
    from policypal.config import Settings
    from policypal.contracts import ActionRequested
    from policypal.state import ConversationRecord, ConversationStore, DocumentCatalog, connect_redis
    from tests.support.document_uploads import make_upload, store_upload

    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    redis = connect_redis(redis_url)
    broker = build_broker(Settings(_env_file=None, nats_url=nats_url))
    await broker.start()
    try:
        await wait_for_consumers(js, [("DOCS", CONSUMER), ("ACTIONS", DURABLE)])
        await asyncio.sleep(3)
        sampler.phase = "idle"
        await asyncio.sleep(3)
        pdf = default_pdf()
        upload = make_upload("manual", tenant=TENANT)
        upload = upload.model_copy(update={"user_id": USER})
        await store_upload(js, DocumentCatalog(redis), upload, pdf.read_bytes())
        started = time.monotonic()
        sampler.phase = "ingesting"
        await publish_event(broker, upload)
        sub = await nc.subscribe(f"events.{TENANT}.manual.>")
        kinds: list[str] = []
        while "embedding" not in json.dumps(kinds):
            msg = await sub.next_msg(timeout=300)
            kinds.append(json.loads(msg.data).get("stage") or json.loads(msg.data)["type"])
        conversations = ConversationStore(redis)
        requests = []
        for n in range(questions):
            record = ConversationRecord(
                conversation_id=f"c{n}-{uuid.uuid4().hex[:6]}", tenant_id=TENANT, user_id=USER
            )
            await conversations.create(record)
            requests.append(
                ActionRequested(
                    tenant_id=TENANT,
                    user_id=USER,
                    request_id=f"req-{record.conversation_id}",
                    thread_id=record.conversation_id,
                    action="inquire",
                    query=f"{QUESTIONS[n % len(QUESTIONS)]} (ticket {n})",
                    documents=[],
                )
            )
        terminal = await nc.subscribe(f"events.{TENANT}.*.*")
        asked = time.monotonic()
        late = 0

        async def ask(request: ActionRequested) -> None:
            # As the gateway would: a late ack is counted and the publish tried again (same Nats-Msg-Id).
            nonlocal late
            while True:
                try:
                    await publish_event(broker, request)
                    return
                except TimeoutError:
                    late += 1

        await asyncio.gather(*(ask(r) for r in requests))
        ended: dict[str, str] = {}
        ready_at: float | None = None
        answered_at: float | None = None
        while len(ended) < questions or ready_at is None:
            msg = await terminal.next_msg(timeout=600)
            body = json.loads(msg.data)
            if body["type"] in ("response", "error", "interrupt") and body["request_id"].startswith("req-"):
                ended[body["request_id"]] = (
                    body["type"] if body["type"] != "error" else f"error:{body['code']}"
                )
                if len(ended) == questions:
                    answered_at = time.monotonic()
            elif body["type"] in ("document.ready", "document.failed"):
                ready_at = time.monotonic()
                chunks = body.get("chunks")
        sampler.phase = "after"
        await asyncio.sleep(3)
        consumer = await js.consumer_info("ACTIONS", DURABLE)
        return {
            "ingest_seconds": ready_at - started,
            "chunks": chunks,
            "answers_seconds": (answered_at or asked) - asked,
            "terminal_kinds": sorted(set(ended.values())),
            "redelivered": consumer.num_redelivered,
            "asking_timeouts": late,
        }
    finally:
        await broker.stop()
        await redis.aclose()
        await nc.close()


def run_variant(name: str, points: int, questions: int, tree: Path | None) -> dict[str, Any]:
    """One variant in a fresh directory: its own servers, index and colocated worker."""
    from policypal.devstack import start_nats_server, start_valkey

    with tempfile.TemporaryDirectory(prefix=f"colocated-{name}-") as folder:
        root = Path(folder)
        index_path = root / "qdrant"
        documents = asyncio.run(_fill_index(index_path, points))
        if tree is None:
            # What ours does once each upload is ready: the library's sentence vectors are kept too.
            asyncio.run(
                prepare_units(index_path, [{"document_id": d} for d in documents], tenant=TENANT, user=USER)
            )
        nats_server = start_nats_server(root / "nats", log_path=root / "nats.log")
        valkey = start_valkey(root / "valkey", log_path=root / "valkey.log")
        redis_url = f"redis://127.0.0.1:{valkey.port}/0"
        env = dict(os.environ) | {
            "NATS_URL": str(nats_server.url),
            "REDIS_URL": redis_url,
            "POLICYPAL_ENVIRONMENT": "test",
            "POLICYPAL_QDRANT_PATH": str(index_path),
            "POLICYPAL_QDRANT_LOCAL_OWNER": str(index_path.resolve()),
        }
        if tree is not None:
            env["PYTHONPATH"] = _pythonpath_of(tree)
        log_path = root / "worker.log"
        with log_path.open("wb") as log:
            worker = subprocess.Popen(
                [sys.executable, "-m", "policypal.cli.colocated", *WORKERS],
                env=env,
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            sampler = RssSampler(worker.pid)
            thread = threading.Thread(target=sampler.run, daemon=True)
            thread.start()
            try:
                driven = asyncio.run(_drive(str(nats_server.url), redis_url, sampler, questions))
                peak = sampler.peak()
            finally:
                sampler.stop()
                worker.terminate()
                worker.wait(timeout=60)
                nats_server.stop()
                valkey.stop()
        text = log_path.read_text(errors="replace")
        (LIBRARY.parent / f"{name}-worker.log").write_text(text)
        timeouts = sum(1 for line in text.splitlines() if "nats: timeout" in line or "timed out" in line)
    phases = {k: max(v) for k, v in sampler.samples.items() if v}
    return {
        "variant": name,
        "points": points,
        **driven,
        "rss_mb": phases,
        "peak_rss_mb": peak,
        "timeouts": timeouts,
    }


def main() -> None:
    """Each variant in turn; a table of RSS by phase, ingestion time, answers, timeouts, redeliveries."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--points", type=int, default=10_000)
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--today", default="HEAD")
    parser.add_argument("--variants", nargs="+", default=["today", "ours"], choices=("today", "ours"))
    args = parser.parse_args()
    results = []
    for name in args.variants:
        tree = today_tree(args.today) if name == "today" else None
        result = run_variant(name, args.points, args.questions, tree)
        print(json.dumps(result), flush=True)
        results.append(result)
    print(
        f"{'variant':<8}{'points':>8}{'idle MB':>9}{'ingesting MB':>14}{'peak MB':>9}{'ingest s':>10}"
        f"{'answers s':>11}{'timeouts':>10}{'asking timeouts':>17}{'redelivered':>13}  endings"
    )
    for r in results:
        print(
            f"{r['variant']:<8}{r['points']:>8}{r['rss_mb'].get('idle', 0):>9.0f}"
            f"{r['rss_mb'].get('ingesting', 0):>14.0f}{r['peak_rss_mb']:>9.0f}{r['ingest_seconds']:>10.1f}"
            f"{r['answers_seconds']:>11.1f}{r['timeouts']:>10}{r['asking_timeouts']:>17}{r['redelivered']:>13}"
            f"  {','.join(r['terminal_kinds'])}"
        )


if __name__ == "__main__":
    main()

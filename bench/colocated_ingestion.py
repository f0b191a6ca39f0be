"""Ingestion inside the colocated worker, as ``policypal up`` runs it: chunks/s against today's code.

    .venv/bin/python -m bench.colocated_ingestion [--pdf PATH] [--rounds N] [--today REF] [--points N]
                                                  [--min-ratio R]

Per run, a fresh directory with its own nats-server and Valkey (from their wheels) and an embedded
index (Qdrant Edge; ``--points`` points of one user first, as in bench/colocated_rss.py), then
``python -m policypal.cli.colocated`` with the ingestor and every action worker, the argv
``policypal up`` uses. Once its consumers exist and it has idled 3 s, the PDF (default Debian's
policy.pdf, see bench/ingestion.py) is stored and its ``docs.uploaded`` published; the clock runs
until ``document.ready``. From the worker's progress events: when the passages were embedded, and
what came after them before ``document.ready`` ("rules s": the rule units, in code that found them
during the ingestion; about nothing since they are found after it, docs/adr/0019); from ``/proc``:
the worker's CPU seconds (user + system) over the ingestion.

``today`` is the code of git ``REF`` (``git archive`` into bench/.cache, first on that worker's
PYTHONPATH, as in bench/ingestion.py); ``today`` and ``ours`` alternate for ``--rounds`` rounds, so
each ratio is taken between neighbouring runs on a shared machine. ``outside`` is our pipeline on the
same PDF without the bus, in a process of its own (bench/ingestion.py's ``ours``), run once per
round: ``inside/outside`` near 1 says the colocated process costs the ingestion nothing.
``--min-ratio R`` exits 1 when the median ours/today chunks/s ratio is below ``R`` (a regression
gate for CI or a pre-merge check).
"""

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nats

from bench.colocated_rss import TENANT, USER, _fill_index, wait_for_consumers
from bench.ingestion import ROOT, _in_subprocess, _pythonpath_of, default_pdf, today_tree

DOCUMENT = "manual"


def _cpu_seconds(pid: int) -> float:
    # Fields 14 and 15 of /proc/<pid>/stat (after the command name): user and system clock ticks.
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _ingest(nats_url: str, redis_url: str, data: bytes, worker_pid: int) -> dict[str, Any]:
    from ingestor.service import CONSUMER
    from policypal.bus import build_broker, publish_event
    from policypal.config import Settings
    from policypal.state import DocumentCatalog, connect_redis
    from tests.support.document_uploads import make_upload, store_upload

    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    redis = connect_redis(redis_url)
    broker = build_broker(Settings(_env_file=None, nats_url=nats_url))
    await broker.start()
    try:
        await wait_for_consumers(js, [("DOCS", CONSUMER)], within=180.0)
        await asyncio.sleep(3)
        upload = make_upload(DOCUMENT, tenant=TENANT).model_copy(update={"user_id": USER})
        await store_upload(js, DocumentCatalog(redis), upload, data)
        events = await nc.subscribe(f"events.{TENANT}.{DOCUMENT}.>")
        cpu, started = _cpu_seconds(worker_pid), time.monotonic()
        await publish_event(broker, upload)
        stages: dict[str, float] = {}
        while True:
            body = json.loads((await events.next_msg(timeout=1800)).data)
            stages.setdefault(body.get("stage") or body["type"], time.monotonic() - started)
            if body["type"] in ("document.ready", "document.failed"):
                break
        if body["type"] != "document.ready":
            raise RuntimeError(f"the ingestion failed: {body.get('reason')}")
        return {
            "chunks": body["chunks"],
            "seconds": stages["document.ready"],
            "cpu_seconds": _cpu_seconds(worker_pid) - cpu,
            "passages_seconds": stages["embedded"] - stages["embedding"],
            "rules_seconds": stages["document.ready"] - stages["embedded"],
        }
    finally:
        await broker.stop()
        await redis.aclose()
        await nc.close()


def run_inside(name: str, pdf: Path, points: int, tree: Path | None) -> dict[str, Any]:
    """One ingestion of ``pdf`` inside a fresh colocated worker (``tree``: today's code, else ours)."""
    from policypal.cli.embedded_system import VECTOR_WORKERS
    from policypal.devstack import start_nats_server, start_valkey

    with tempfile.TemporaryDirectory(prefix=f"colocated-ingestion-{name}-") as folder:
        root = Path(folder)
        index_path = root / "qdrant"
        if points:
            asyncio.run(_fill_index(index_path, points))
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
        with (root / "worker.log").open("wb") as log:
            worker = subprocess.Popen(
                [sys.executable, "-m", "policypal.cli.colocated", *VECTOR_WORKERS],
                env=env,
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            try:
                result = asyncio.run(_ingest(str(nats_server.url), redis_url, pdf.read_bytes(), worker.pid))
            finally:
                worker.terminate()
                worker.wait(timeout=60)
                nats_server.stop()
                valkey.stop()
    return {"variant": name, **result, "load": os.getloadavg()[0]}


def _row(r: dict[str, Any]) -> str:
    rules = f"{r['rules_seconds']:>8.1f}" if "rules_seconds" in r else f"{'-':>8}"
    passages = f"{r['passages_seconds']:>12.1f}" if "passages_seconds" in r else f"{'-':>12}"
    return (
        f"{r['variant']:<9}{r['chunks']:>7}{r['seconds']:>9.1f}{r['chunks'] / r['seconds']:>10.2f}"
        f"{1000 * r['cpu_seconds'] / r['chunks']:>14.1f}{passages}{rules}{r['load']:>7.1f}"
    )


def main() -> None:
    """Alternate today, ours (inside the colocated worker) and outside; print runs and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pdf", type=Path)
    parser.add_argument("--today", default="HEAD", help="git ref of today's code (default HEAD)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--points", type=int, default=0, help="points of one user in the index first")
    parser.add_argument("--min-ratio", type=float, help="exit 1 below this median ours/today chunks/s")
    args = parser.parse_args()
    pdf: Path = (args.pdf or default_pdf()).resolve()
    tree = today_tree(args.today)
    print(f"input: {pdf}; today = {args.today} ({tree.name}); {args.points} points in the index first")
    print(
        f"{'variant':<9}{'chunks':>7}{'seconds':>9}{'chunks/s':>10}{'CPU ms/chunk':>14}"
        f"{'passages s':>12}{'rules s':>8}{'load':>7}"
    )
    versus_today: list[float] = []
    versus_outside: list[float] = []
    for k in range(args.rounds):
        order = ("today", "ours") if k % 2 == 0 else ("ours", "today")
        runs = {name: run_inside(name, pdf, args.points, tree if name == "today" else None) for name in order}
        outside = _in_subprocess("ours", pdf) | {"variant": "outside", "load": os.getloadavg()[0]}
        for name in (*order, "outside"):
            print(_row(runs.get(name, outside)), flush=True)
        speed = {name: r["chunks"] / r["seconds"] for name, r in runs.items()}
        versus_today.append(speed["ours"] / speed["today"])
        versus_outside.append(speed["ours"] / (outside["chunks"] / outside["seconds"]))
    ratio = statistics.median(versus_today)
    print(f"chunks/s ours/today per round: {', '.join(f'{x:.2f}' for x in versus_today)}; median {ratio:.2f}")
    print(
        f"chunks/s ours inside/outside per round: {', '.join(f'{x:.2f}' for x in versus_outside)};"
        f" median {statistics.median(versus_outside):.2f}"
    )
    if args.min_ratio is not None and ratio < args.min_ratio:
        print(f"REGRESSION: median ours/today {ratio:.2f} < {args.min_ratio}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

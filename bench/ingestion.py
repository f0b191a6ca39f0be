"""Ingestion throughput and peak memory: our pipeline against today's code and the LangChain stack.

    .venv/bin/pip install -r requirements/bench.txt
    .venv/bin/python -m bench.ingestion [--pdf PATH | --pages N] [--today REF] [--rounds N]
    .venv/bin/python -m bench.ingestion --variants ours baseline embed   # the original comparison

Each variant runs in its own subprocess (fresh interpreter, so ``ru_maxrss`` is that variant's peak):

- ``today``: the ``ours`` variant run on the code of git ``REF`` (default HEAD, the last commit):
  ``git archive REF libs services`` is unpacked once into bench/.cache/today-<commit>/ (read-only for
  the repository) and put first on that subprocess's PYTHONPATH, so every ``policypal.*``, ``ingestor``
  and ``actions`` module comes from it. ``today`` and ``ours`` alternate for ``--rounds`` rounds (the
  machine is shared, so each ratio is taken between neighbouring runs) and the bench prints chunks/s
  and CPU seconds per chunk of each, and their ratios.

- ``ours``: ``ingestor.pipeline.IngestPipeline`` without the bus (in-memory catalog/ledger/sink): the
  parser, our chunker (1000/150, never across pages), MiniLMEmbedder as the ingestor service uses it
  (``background_embedder`` where the code has it), the rule units, upsert into the embedded engine
  (Qdrant Edge, a fresh directory) as ``policypal up`` runs it.
- ``baseline``: LangChain ``PyPDFLoader`` + ``RecursiveCharacterTextSplitter(1000, 150)``, the same
  embedder and batch size, upsert into the same kind of local Qdrant in batches of 64 (what
  LangChain's Qdrant store does).
- ``embed``: only embedding our chunks (chunked before the clock starts), to show how much of our
  time is parse + chunk + index overhead.

The embedder is loaded before the clock starts in every variant. Default input: Debian's policy.pdf
(193 pages) from ``apt-get download debian-policy`` cached in bench/.cache; else a generated
120-page PDF. ``--pages N`` uses a generated N-page PDF instead (e.g. 500 for the memory goal).
"""

import argparse
import asyncio
import gzip
import io
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CACHE = Path(__file__).parent / ".cache"
ROOT = Path(__file__).resolve().parent.parent
CHUNK_SIZE, CHUNK_OVERLAP, BATCH = 1000, 150, 8
#: Chunks whose vectors are compared between today's embedder and ours.
SAME_VECTORS_SAMPLE = 200


# --- input -----------------------------------------------------------------------------------


def default_pdf() -> Path:
    """Debian's policy.pdf if apt can fetch it, else a generated 120-page text PDF."""
    CACHE.mkdir(parents=True, exist_ok=True)
    policy = CACHE / "policy.pdf"
    if policy.exists():
        return policy
    try:
        subprocess.run(["apt-get", "download", "debian-policy"], cwd=CACHE, check=True, capture_output=True)
        deb = next(CACHE.glob("debian-policy_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(deb), str(CACHE / "x")], check=True, capture_output=True)
        gz = CACHE / "x/usr/share/doc/debian-policy/policy.pdf.gz"
        policy.write_bytes(gzip.decompress(gz.read_bytes()))
        return policy
    except (OSError, subprocess.CalledProcessError, StopIteration) as exc:
        print(f"(no Debian PDF: {exc}; generating one)", file=sys.stderr)
    return generated_pdf(120)


def generated_pdf(pages: int) -> Path:
    """A generated text PDF of ``pages`` pages, cached in bench/.cache."""
    CACHE.mkdir(parents=True, exist_ok=True)
    generated = CACHE / f"generated-{pages}.pdf"
    if not generated.exists():
        generated.write_bytes(_generate_pdf(pages))
    return generated


def _generate_pdf(pages: int) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    words = [
        "the",
        "controller",
        "shall",
        "keep",
        "records",
        "of",
        "processing",
        "activities",
        "under",
        "its",
        "responsibility",
    ]
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    for page in range(pages):
        y = A4[1] - 50
        for line in range(50):
            canvas.drawString(40, y, " ".join(words[(page + line + k) % len(words)] for k in range(14)))
            y -= 14
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


# --- variants (run inside a subprocess) ---------------------------------------------------------


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


async def _ours(pdf: Path, data: bytes, qdrant_dir: Path) -> dict[str, Any]:
    from bench.offline_pipeline import offline_pipeline
    from ingestor.pipeline import ChunkingOptions
    from policypal import embeddings
    from policypal.contracts import DocumentUploaded
    from policypal.embeddings import MiniLMEmbedder
    from policypal.vectorstore import open_embedded_index

    upload = DocumentUploaded(
        tenant_id="bench",
        user_id="bench",
        request_id="bench",
        document_id="doc",
        object_name="doc",
        filename=pdf.name,
        content_type="application/pdf",
        size_bytes=len(data),
        sha256="-",
        title=pdf.stem,
        version="1",
        doc_type="regulatory",
    )
    embedder = MiniLMEmbedder(batch_size=BATCH)
    embedder.embed(["warm up"])
    # As the ingestor service wraps it, where this code has the wrapper (today's may not).
    as_ingestor = getattr(embeddings, "background_embedder", None)
    ingest_embedder = as_ingestor(embedder) if as_ingestor else embedder
    index = await open_embedded_index(qdrant_dir, model_id=embedder.model_id, dimension=embedder.dimension)
    pipeline = offline_pipeline(
        upload,
        data,
        index,
        ingest_embedder,
        ChunkingOptions(chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP),
    )
    started, cpu = time.perf_counter(), _cpu_seconds()
    ready = await pipeline.run(upload)
    seconds, cpu = time.perf_counter() - started, _cpu_seconds() - cpu
    count = await index.count(tenant_id="bench", document_id="doc")
    await index.aclose()
    result = ready.model_dump(include={"pages", "chunks", "parser"})
    return {**result, "seconds": seconds, "cpu_seconds": cpu, "indexed": count}


def _baseline(pdf: Path, qdrant_dir: Path) -> dict[str, Any]:
    import uuid

    from langchain_community.document_loaders import PyPDFLoader
    from langchain_text_splitters import RecursiveCharacterTextSplitter
    from qdrant_client import QdrantClient, models

    from policypal.embeddings import MiniLMEmbedder

    embedder = MiniLMEmbedder(batch_size=BATCH)
    embedder.embed(["warm up"])
    client = QdrantClient(path=str(qdrant_dir))
    client.create_collection(
        "chunks", vectors_config=models.VectorParams(size=embedder.dimension, distance=models.Distance.COSINE)
    )
    started = time.perf_counter()
    documents = PyPDFLoader(str(pdf)).load()
    chunks = RecursiveCharacterTextSplitter(
        chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP
    ).split_documents(documents)
    for i in range(0, len(chunks), 64):
        batch = chunks[i : i + 64]
        vectors = embedder.embed([c.page_content for c in batch])
        client.upsert(
            "chunks",
            points=[
                models.PointStruct(
                    id=str(uuid.uuid4()), vector=v.tolist(), payload={"text": c.page_content, **c.metadata}
                )
                for c, v in zip(batch, vectors, strict=True)
            ],
            wait=True,
        )
    seconds = time.perf_counter() - started
    count = client.count("chunks").count
    client.close()
    from ingestor.glued_text import looks_glued

    glued = sum(looks_glued(c.page_content) for c in chunks)
    return {
        "pages": len(documents),
        "chunks": len(chunks),
        "seconds": seconds,
        "indexed": count,
        "glued_chunks": glued,
    }


def _embed_only(pdf: Path) -> dict[str, Any]:
    from ingestor.chunking import chunk_pages
    from ingestor.pdf_text import extract_pages
    from policypal.embeddings import MiniLMEmbedder

    texts = [
        c.text for c in chunk_pages(extract_pages(pdf.read_bytes()), size=CHUNK_SIZE, overlap=CHUNK_OVERLAP)
    ]
    embedder = MiniLMEmbedder(batch_size=BATCH)
    embedder.embed(["warm up"])
    started = time.perf_counter()
    embedder.embed(texts)
    return {"chunks": len(texts), "seconds": time.perf_counter() - started}


def _same_vectors(pdf: Path, tree: Path) -> dict[str, Any]:
    """Cosine between today's and our vectors of the same chunks: equal vectors, equal recall."""
    import importlib.util

    from ingestor.chunking import chunk_pages
    from ingestor.pdf_text import extract_pages
    from policypal.embeddings import MiniLMEmbedder

    spec = importlib.util.spec_from_file_location(
        "today_minilm", tree / "libs/embeddings/policypal/embeddings/minilm.py"
    )
    assert spec is not None
    assert spec.loader is not None
    today = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(today)
    chunks = chunk_pages(extract_pages(pdf.read_bytes()), size=CHUNK_SIZE, overlap=CHUNK_OVERLAP)
    texts = [c.text for c in chunks][:SAME_VECTORS_SAMPLE]
    cosines = (today.MiniLMEmbedder(batch_size=BATCH).embed(texts) * MiniLMEmbedder().embed(texts)).sum(
        axis=1
    )
    return {"texts": len(texts), "min_cosine": float(cosines.min()), "mean_cosine": float(cosines.mean())}


def run_variant(name: str, pdf: Path) -> dict[str, Any]:
    """Run one variant in this process and return its measurements."""
    qdrant_dir = Path(tempfile.mkdtemp(prefix=f"bench-{name}-"))
    try:
        if name in ("ours", "today"):
            result = asyncio.run(_ours(pdf, pdf.read_bytes(), qdrant_dir / "index"))
        elif name == "baseline":
            result = _baseline(pdf, qdrant_dir)
        else:
            result = _embed_only(pdf)
    finally:
        shutil.rmtree(qdrant_dir, ignore_errors=True)
    return {**result, "peak_rss_mb": _peak_rss_mb()}


# --- driver ----------------------------------------------------------------------------------


def today_tree(ref: str) -> Path:
    """The ``libs`` and ``services`` of git ``ref``, unpacked once under bench/.cache (no git state changes)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", ref], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    tree = CACHE / f"today-{commit}"
    if not (tree / "libs").exists():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "archive", commit, "libs", "services"], cwd=ROOT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def _pythonpath_of(tree: Path) -> str:
    # Every package folder of the workspace (each holds a ``policypal/<pkg>`` portion or a service).
    roots = sorted(p for p in (tree / "libs").iterdir() if p.is_dir())
    roots += sorted(p for p in (tree / "services").iterdir() if p.is_dir())
    return os.pathsep.join([str(ROOT), *map(str, roots)])


def _in_subprocess(name: str, pdf: Path, tree: Path | None = None) -> dict[str, Any]:
    return variant_result("bench.ingestion", ["--variant", name, "--pdf", str(pdf)], tree)


def variant_result(module: str, arguments: list[str], tree: Path | None) -> dict[str, Any]:
    """Run bench ``module`` with ``arguments`` in a fresh interpreter, on the code of ``tree`` (an
    unpacked git ref, ``today_tree``) when given; its result is the JSON of its last output line."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = _pythonpath_of(tree)
    out = subprocess.run(
        [sys.executable, "-m", module, *arguments],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def against_today(pdf: Path, ref: str, rounds: int) -> None:
    """``today`` and ``ours`` alternately, ``rounds`` times; prints each run and the ratios."""
    tree = today_tree(ref)
    print(f"input: {pdf}; today = {ref} ({tree.name})")
    print(
        f"{'round':<6}{'variant':<8}{'chunks':>7}{'seconds':>9}{'chunks/s':>10}{'CPU ms/chunk':>14}{'peak RSS MB':>13}"
    )
    speed: list[float] = []
    cpu: list[float] = []
    for k in range(rounds):
        pair = {}
        for name in ("today", "ours"):
            r = _in_subprocess(name, pdf, tree if name == "today" else None)
            pair[name] = r
            print(
                f"{k + 1:<6}{name:<8}{r['chunks']:>7}{r['seconds']:>9.1f}{r['chunks'] / r['seconds']:>10.2f}"
                f"{1000 * r['cpu_seconds'] / r['chunks']:>14.1f}{r['peak_rss_mb']:>13.0f}",
                flush=True,
            )
        today, ours = pair["today"], pair["ours"]
        speed.append((ours["chunks"] / ours["seconds"]) / (today["chunks"] / today["seconds"]))
        cpu.append((today["cpu_seconds"] / today["chunks"]) / (ours["cpu_seconds"] / ours["chunks"]))
    print(f"ratio chunks/s ours/today per round: {', '.join(f'{x:.2f}' for x in speed)}")
    print(f"ratio chunks/s ours/today (median): {statistics.median(speed):.2f}")
    print(f"ratio CPU per chunk today/ours (median): {statistics.median(cpu):.2f}")
    same = _same_vectors(pdf, tree)
    print(
        f"vectors of {same['texts']} chunks, today against ours: cosine min {same['min_cosine']:.7f},"
        f" mean {same['mean_cosine']:.7f}"
    )


def main() -> None:
    """Measure the variants, each in its own process, and print a table with ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pdf", type=Path)
    parser.add_argument("--pages", type=int, help="use a generated PDF of this many pages")
    parser.add_argument("--today", default="HEAD", help="git ref of today's code (default HEAD)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--variants", nargs="+", choices=("ours", "baseline", "embed"))
    parser.add_argument("--variant", choices=("ours", "today", "baseline", "embed"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    pdf: Path = (args.pdf or (generated_pdf(args.pages) if args.pages else default_pdf())).resolve()
    if args.variant:
        print(json.dumps(run_variant(args.variant, pdf)))
        return
    if not args.variants:
        against_today(pdf, args.today, args.rounds)
        return
    against_baseline(pdf)


def against_baseline(pdf: Path) -> None:
    """The original comparison: ours, LangChain's stack and embedding alone, with ratios ours/baseline."""
    results = {name: _in_subprocess(name, pdf) for name in ("ours", "baseline", "embed")}
    ours, base, embed = results["ours"], results["baseline"], results["embed"]
    pages = ours["pages"]
    ours_pps, base_pps = pages / ours["seconds"], base["pages"] / base["seconds"]
    print(f"input: {pdf} ({pages} pages)")
    print(f"{'variant':<10}{'pages':>7}{'chunks':>8}{'seconds':>9}{'pages/s':>9}{'peak RSS MB':>13}")
    for name, r in results.items():
        pps = f"{r['pages'] / r['seconds']:.2f}" if "pages" in r else "-"
        print(
            f"{name:<10}{r.get('pages', '-'):>7}{r['chunks']:>8}{r['seconds']:>9.1f}{pps:>9}{r['peak_rss_mb']:>13.0f}"
        )
    print(
        f"parser (ours): {ours['parser']}; baseline chunks with glued words: {base['glued_chunks']}/{base['chunks']}"
    )
    print(f"ratio pages/s ours/baseline: {ours_pps / base_pps:.2f}")
    print(f"ratio peak RSS ours/baseline: {ours['peak_rss_mb'] / base['peak_rss_mb']:.2f}")
    print(f"ratio chunks ours/baseline: {ours['chunks'] / base['chunks']:.2f}")
    overhead = 1 - embed["seconds"] / ours["seconds"]
    print(
        f"embedding only: {embed['seconds']:.1f} s of our {ours['seconds']:.1f} s -> parse+chunk+index {overhead:.0%}"
    )


if __name__ == "__main__":
    main()

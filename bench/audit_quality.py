"""@Audit quality: planted violations in company documents, audited against real regulations.

    .venv/bin/python -m bench.audit_quality [--split dev|held-out|all] [--mode offline] [--show]

Targets: the Debian Policy Manual (193 pp), the FHS 3.0 (50 pp), the GNU Coding Standards (90 pp)
and the GPL-3 (plain text), from Debian packages (``bench.audit_corpus.corpus``). Sources: six
company documents written for the bench (a ~10-page packaging policy, a developer guideline, a
licensing policy and a filesystem-layout guideline audited in policy mode; a release e-mail and an
ops e-mail audited in text mode), each with planted violations and compliant clauses on the same
topics among ordinary filler. Gold: ``bench/audit_corpus/gold.json``.

Everything is ingested by the real ingestor pipeline (``bench.offline_pipeline``, 1000/150, MiniLM)
into a fresh local Qdrant; targets as ``regulatory``, policy-mode sources as ``policy``. Each source
is then audited by ``actions.audit.auditing.audit`` exactly as the worker calls it, and only its
public output is read (``ActionAnswer.result``, an ``AuditResult``, as clients read its JSON, and ``.citations``), so the
bench keeps working when the audit is rewritten. Scoring: ``bench.audit_corpus.scoring``.

Splits: ``dev`` (6 sources) is what to look at while tuning; ``held-out`` (3 sources) exists so that
the audit is not tuned on everything: do not read its sources or gold, and report it separately.
``--show`` prints each dev source's clauses and findings; it never prints held-out ones.

Modes: ``offline`` (no language model) today. A second mode (``--llm``, a scripted OpenAI-compatible
server) plugs in as another entry of ``MODES`` returning an ``LLM``.

Prints a table per source, per split and overall, and writes the numbers to
bench/.cache/audit_quality.json.
"""

import argparse
import asyncio
import hashlib
import json
import logging
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from actions.audit.auditing import audit
from actions.audit.target_rules import prepare_rules
from bench.audit_corpus.corpus import (
    CONTENT_TYPES,
    SPLITS,
    Gold,
    Source,
    fetch_targets,
    load_gold,
    normalise,
    section_of,
    text_sections,
)
from bench.audit_corpus.scoring import SourceScore, read_findings, score_source, source_record, summarise
from bench.ingestion import CACHE
from bench.offline_pipeline import offline_pipeline
from ingestor.pipeline import ChunkingOptions
from policypal.contracts import ActionRequested, DocType, DocumentReady, DocumentUploaded, ResolvedDocument
from policypal.contracts.audit import AuditResult
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from policypal.vectorstore import ChunkIndex, open_qdrant

TENANT, USER = "bench", "auditor"
RESULTS = CACHE / "audit_quality.json"
GOALS = {
    "found_rate": 0.85,  # planted violations found with the right target page, at least
    "flagged_rate": 0.10,  # compliant clauses flagged, at most
    "boilerplate": 0,  # findings whose target page is boilerplate
    "latency_seconds": 20.0,  # the ~10-page policy against 3 regulations, at most
}
#: The audit's language model per mode; None is the offline audit.
MODES: dict[str, Callable[[], LLM | None]] = {"offline": lambda: None}


@dataclass(frozen=True)
class Corpus:
    """The gold and everything read from disk before the event loop runs."""

    gold: Gold
    sources: list[Source]
    #: document id → (file name, bytes): the targets and the policy-mode sources
    files: dict[str, tuple[str, bytes]]
    #: target id → its sections (name, normalised text), for targets without pages
    sections: dict[str, list[tuple[str, str]]]
    #: source id → its text
    texts: dict[str, str]


def load_corpus(split: str) -> Corpus:
    """The gold, the sources of ``split`` and their files (targets fetched when missing)."""
    gold = load_gold()
    sources = [s for s in gold.sources if split == "all" or s.split == split]
    files = {doc_id: (path.name, path.read_bytes()) for doc_id, path in fetch_targets(gold).items()}
    files |= {s.id: (s.file, s.path.read_bytes()) for s in sources if s.mode == "policy"}
    sections = {t.id: text_sections(t.path.read_text()) for t in gold.targets.values() if not t.paged}
    return Corpus(gold, sources, files, sections, {s.id: s.path.read_text() for s in sources})


async def ingest(
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    doc_id: str,
    file: tuple[str, bytes],
    title: str,
    doc_type: DocType,
) -> dict[str, Any]:
    """Ingest one file through the real pipeline, then find its rule units as the audit worker does
    once a document is ready (so an audit's latency is measured with its targets' rules prepared);
    its pages, chunks and seconds (both steps)."""
    name, data = file
    upload = DocumentUploaded(
        tenant_id=TENANT,
        user_id=USER,
        request_id=f"ingest-{doc_id}",
        document_id=doc_id,
        object_name=doc_id,
        filename=name,
        content_type=CONTENT_TYPES[Path(name).suffix],
        size_bytes=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        title=title,
        version="1",
        doc_type=doc_type,
    )
    started = time.perf_counter()
    options = ChunkingOptions(chunk_size=1000, chunk_overlap=150)
    ready = await offline_pipeline(upload, data, index, embedder, options).run(upload)
    if not isinstance(ready, DocumentReady):
        raise SystemExit(f"ingesting {name} failed: {ready.model_dump_json()}")
    await prepare_rules(ready, index=index, embedder=embedder)
    return {
        **ready.model_dump(include={"pages", "chunks"}),
        "seconds": round(time.perf_counter() - started, 2),
    }


async def check_gold(index: ChunkIndex, corpus: Corpus) -> list[str]:
    """Problems with the gold against what was ingested: a rule quote not on its gold pages (or
    section), a policy-mode clause not in the source's chunks. Empty when the gold holds."""
    problems = []
    chunks = {
        doc_id: await index.document_chunks(tenant_id=TENANT, user_id=USER, document_id=doc_id)
        for doc_id in corpus.files
    }
    sections = corpus.sections
    for source in corpus.sources:
        texts = [normalise(c.text) for c in chunks.get(source.id, [])]
        for clause in source.clauses:
            if source.mode == "policy" and not any(normalise(clause.text) in t for t in texts):
                problems.append(f"{source.id}/{clause.id}: clause not found in the ingested source")
            for rule in clause.rules:
                if rule.target in sections:
                    if section_of(rule.quote, sections[rule.target]) not in rule.sections:
                        problems.append(f"{clause.id}: rule quote not in section(s) {sorted(rule.sections)}")
                    continue
                quote = normalise(rule.quote)
                pages = {c.page for c in chunks[rule.target] if quote in normalise(c.text)}
                if not pages & rule.pages:
                    problems.append(
                        f"{clause.id}: rule quote not on {rule.target} pages {sorted(rule.pages)}"
                    )
    return problems


def request(source: Source, gold: Gold, text: str) -> ActionRequested:
    """The audit request of ``source`` against its targets, as the resolver hands it to the worker."""
    documents = [
        ResolvedDocument(document_id=t, title=gold.targets[t].title, version="1", doc_type="regulatory")
        for t in source.targets
    ]
    mode: dict[str, Any] = {"source_text": text}
    if source.mode == "policy":
        documents.insert(
            0, ResolvedDocument(document_id=source.id, title=source.title, version="1", doc_type="policy")
        )
        mode = {"source_document_id": source.id}
    return ActionRequested(
        tenant_id=TENANT,
        user_id=USER,
        request_id=f"audit-{source.id}",
        thread_id="bench",
        action="audit",
        query="audit this against " + ", ".join(gold.targets[t].title for t in source.targets),
        documents=documents,
        target_document_ids=list(source.targets),
        **mode,
    )


async def _no_progress(stage: str, message: str) -> None:
    return None


async def audit_source(
    source: Source, corpus: Corpus, index: ChunkIndex, embedder: MiniLMEmbedder, llm: LLM | None
) -> SourceScore:
    """Audit one source and score the answer (an error is recorded and scores nothing)."""
    gold = corpus.gold
    event = request(source, gold, corpus.texts[source.id])
    started = time.perf_counter()
    try:
        answer = await audit(event, _no_progress, index=index, embedder=embedder, llm=llm)
    except Exception as exc:  # a bench reports a failed audit and goes on with the next source
        traceback.print_exc()
        score = score_source(source, [], gold.targets, time.perf_counter() - started)
        score.error = f"{type(exc).__name__}: {exc}"
        return score
    seconds = time.perf_counter() - started
    result = answer.result.model_dump(mode="json") if isinstance(answer.result, AuditResult) else None
    findings = read_findings(result, answer.citations, corpus.sections)
    return score_source(source, findings, gold.targets, seconds)


async def run(
    corpus: Corpus, mode: str, qdrant_dir: Path, show: bool = False, reuse: bool = False
) -> dict[str, Any]:
    """Ingest, audit every source of ``corpus`` in ``mode``, print the table; the results as JSON.

    ``reuse``: a document already in the index at ``qdrant_dir`` is not ingested again."""
    gold, sources = corpus.gold, corpus.sources
    llm = MODES[mode]()
    embedder = MiniLMEmbedder()
    embedder.embed(["warm up"])
    client = open_qdrant(None, path=qdrant_dir)
    index = ChunkIndex(client, model_id=embedder.model_id, dimension=embedder.dimension)
    try:
        await index.ensure_collection()
        ingestion: dict[str, Any] = {}
        documents = [(t.id, t.title, "regulatory") for t in gold.targets.values()]
        documents += [(s.id, s.title, "policy") for s in sources if s.mode == "policy"]
        for doc_id, title, kind in documents:
            if reuse and await index.count(tenant_id=TENANT, document_id=doc_id) > 0:
                continue
            file = corpus.files[doc_id]
            ingestion[doc_id] = await ingest(index, embedder, doc_id, file, title, kind)
            print(f"ingested {file[0]}: {ingestion[doc_id]}", flush=True)
        problems = await check_gold(index, corpus)
        for problem in problems:
            print(f"GOLD PROBLEM: {problem}")
        scores = []
        for source in sources:
            scores.append(await audit_source(source, corpus, index, embedder, llm))
            print(f"audited {source.id} in {scores[-1].seconds:.1f} s", flush=True)
    finally:
        await client.close()
    results = _results(scores, corpus, mode, ingestion, problems)
    if show:
        print_details(scores)
    print_table(scores, results)
    return results


def _results(
    scores: list[SourceScore], corpus: Corpus, mode: str, ingestion: dict[str, Any], problems: list[str]
) -> dict[str, Any]:
    latency = next((s for s in scores if s.source.latency_case), None)
    overall = summarise(scores)
    return {
        "mode": mode,
        "goals": GOALS,
        "goals_met": {
            "found_rate": (overall["found_rate"] or 0.0) >= GOALS["found_rate"],
            "flagged_rate": (overall["flagged_rate"] or 0.0) <= GOALS["flagged_rate"],
            "boilerplate": overall["boilerplate"] <= GOALS["boilerplate"],
            "latency_seconds": latency is not None and latency.seconds <= GOALS["latency_seconds"],
        },
        "overall": overall,
        "splits": {split: summarise(s for s in scores if s.source.split == split) for split in SPLITS},
        "sources": {s.source.id: source_record(s) for s in scores},
        "latency": None
        if latency is None
        else {
            "source": latency.source.id,
            "words": len(corpus.texts[latency.source.id].split()),
            "targets": list(latency.source.targets),
            "seconds": round(latency.seconds, 2),
        },
        "ingestion": ingestion,
        "gold_problems": problems,
    }


#: The table's columns after the name: title, width, and the cell of a summary (``summarise``).
COLUMNS: list[tuple[str, int, Callable[[dict[str, Any]], str]]] = [
    ("found@page", 14, lambda s: _frac(s, "found", "violations")),
    ("found@doc", 14, lambda s: _frac(s, "found_any_page", "violations")),
    ("hit", 14, lambda s: _frac(s, "hit", "violations")),
    ("compl.flagged", 14, lambda s: _frac(s, "flagged", "compliant")),
    ("findings", 9, lambda s: str(s["findings"])),
    ("boilerpl.", 10, lambda s: str(s["boilerplate"])),
    ("other", 7, lambda s: str(s["other"])),
    ("audit s", 9, lambda s: f"{s['audit_seconds']:.1f}"),
]
LEGEND = (
    "found@page: violations with a finding on the gold target and page (GPL-3: section); "
    "found@doc: on the gold target, any page;\nhit: any finding quoting the violation; compl.flagged: "
    "compliant clauses quoted by a finding; boilerpl.: findings citing a boilerplate page;\n"
    "other: findings quoting no planted clause (filler); audit s: wall time of audit(), ingestion excluded."
)


#: Wide enough for the longest source id and a space.
NAME_WIDTH = 30


def print_table(scores: list[SourceScore], results: dict[str, Any]) -> None:
    """The per-source, per-split and overall table, then the latency case and the goals."""
    header = f"{'source':<{NAME_WIDTH}}{'split':<9}{'mode':<7}" + "".join(f"{c[0]:>{c[1]}}" for c in COLUMNS)
    print(f"\n@Audit quality ({results['mode']}): planted violations against the gold rules")
    print(header)
    print("-" * len(header))
    for score in scores:
        note = f"  ERROR {score.error}" if score.error else ""
        print(_row(score.source.id, score.source.split, score.source.mode, source_record(score)) + note)
    print("-" * len(header))
    for split in SPLITS:
        print(_row(split, "", "", results["splits"][split]))
    print(_row("overall", "", "", results["overall"]))
    print(LEGEND)
    latency = results["latency"]
    if latency:
        print(
            f"\nLatency: {latency['source']} ({latency['words']} words, ~10 pages) against "
            f"{len(latency['targets'])} regulations: {latency['seconds']:.1f} s"
        )
    print(
        "Goals: >= 85% violations found@page; <= 10% compliant clauses flagged; 0 boilerplate "
        "targets; the 10-page policy against 3 regulations in <= 20 s."
    )
    if results["gold_problems"]:
        print(f"{len(results['gold_problems'])} gold problem(s), see above.")


def print_details(scores: list[SourceScore]) -> None:
    """Each dev source's clauses and findings (``--show``); held-out sources are never shown."""
    for score in (s for s in scores if s.source.split == "dev"):
        print(f"\n== {score.source.id}")
        for c in score.clauses:
            outcome = "found" if c.found else "found@doc" if c.found_any_page else "hit" if c.hit else "-"
            print(f"  {c.clause.id:<9}{c.clause.label:<11}{outcome}")
        for finding, clause_ids in score.matched:
            where = finding.page if finding.section is None else f"§{finding.section}"
            quote = " ".join(finding.source_quote.split())[:80]
            print(f"  finding {finding.target}:{where} {','.join(clause_ids) or 'other'}: {quote}")


def _row(name: str, split: str, mode: str, summary: dict[str, Any]) -> str:
    return f"{name:<{NAME_WIDTH}}{split:<9}{mode:<7}" + "".join(
        f"{cell(summary):>{width}}" for _, width, cell in COLUMNS
    )


def _frac(summary: dict[str, Any], part: str, whole: str) -> str:
    total = summary[whole]
    share = f"{100 * summary[part] / total:.0f}%" if total else "-"
    return f"{summary[part]}/{total} {share}"


def main() -> None:
    """Run the bench from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="all", help="sources to audit")
    parser.add_argument(
        "--mode", choices=sorted(MODES), default="offline", help="audit with or without a model"
    )
    parser.add_argument(
        "--show", action="store_true", help="print each dev source's clauses and findings (never held-out)"
    )
    parser.add_argument(
        "--index",
        type=Path,
        help="keep the ingested corpus in this directory between runs (re-ingesting takes minutes); "
        "delete it after a change to ingestion",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    started = time.perf_counter()
    corpus = load_corpus(args.split)
    if args.index is not None:
        args.index.mkdir(parents=True, exist_ok=True)
        results = asyncio.run(run(corpus, args.mode, args.index, args.show, reuse=True))
    else:
        with tempfile.TemporaryDirectory(prefix="audit-quality-") as qdrant_dir:
            results = asyncio.run(run(corpus, args.mode, Path(qdrant_dir), args.show))
    results["bench_seconds"] = round(time.perf_counter() - started, 1)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(f"Bench took {results['bench_seconds']:.0f} s; numbers written to {RESULTS}")


if __name__ == "__main__":
    main()

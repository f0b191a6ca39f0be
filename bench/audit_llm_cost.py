"""What an audit costs on the LLM path: calls, prompt and completion tokens, per source.

    .venv/bin/python -m bench.audit_llm_cost [--index DIR]

The corpus of ``bench.audit_quality`` (same targets, same sources, the real ingestion), audited
by the worker's ``audit`` with a language model: a scripted OpenAI-compatible server on this machine
that answers every judgement batch (each clause "complies" with its first listed rule, so the reply
has the size of a real one). The server reports prompt tokens as its characters / 4, the estimate the
client uses for servers that report none. The quality of a model's judgements is not measured here
(no model runs on this machine); what is measured is what the audit sends.

For scale, each source also gets the prompt size of the first build's design for the same request:
the whole source text (text mode) or 10 sampled chunks (policy mode), plus 5 chunks per target
(text mode) or 3 chunks per theme and target with 3 themes (policy mode), at the targets' average
chunk length, plus its instructions; that design checked only what it sampled.

``--oracle`` answers instead as a model that judged every clause as the gold does: a clause that is
a planted violation breaches the first listed rule on a gold page (GPL-3: section) of its gold
target, every other clause complies with its first listed rule. The audit's answer is then scored as
``bench.audit_quality`` scores it: what the model path finds end to end (matching, what the model is
shown, rule ids, the report's findings and citations) if the model judged perfectly, its ceiling.
Compliant clauses are never flagged by construction, so that column says nothing here.
"""

import argparse
import asyncio
import json
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from actions.audit.auditing import audit
from bench.audit_corpus.corpus import Gold, normalise
from bench.audit_corpus.scoring import read_findings, score_source, summarise
from bench.audit_quality import TENANT, USER, Corpus, ingest, load_corpus, request
from policypal.config import Settings
from policypal.contracts.audit import AuditResult
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from policypal.vectorstore import ChunkIndex, open_qdrant
from tests.support.openai_server import RecordedRequest, Reply, ScriptedOpenAI

#: The first build's audit instructions, in characters (its prompt beside the passages).
FIRST_BUILD_INSTRUCTIONS = 1300
_CLAUSE = re.compile(r"^## Clause (\d+)\n.*\nRules: (R\d+)", re.MULTILINE)


def judge_all(request: RecordedRequest) -> Reply:
    """A judgement for every clause of the batch: it complies with its first listed rule."""
    prompt = request.messages[-1]["content"]
    judgements = [
        {
            "clause": int(number),
            "verdict": "complies",
            "rule": first_rule,
            "severity": "Low",
            "consequence": "",
            "suggestion": "",
        }
        for number, first_rule in _CLAUSE.findall(prompt)
    ]
    return Reply.json({"judgements": judgements})


_RULE = re.compile(r"^- (R\d+) \[([^\]]*)\]", re.MULTILINE)
_PAGE = re.compile(r"p\. (\d+)$")
_SECTION = re.compile(r"^§(\d+)\.")


def judge_by_gold(gold: Gold) -> Callable[[RecordedRequest], Reply]:
    """A model that judges every clause of a batch as the gold does (see the module's docstring)."""
    names = {t.title: t.id for t in gold.targets.values()}
    planted = [(normalise(c.text), c) for s in gold.sources for c in s.clauses if c.label == "violation"]

    def judge(request: RecordedRequest) -> Reply:
        prompt = request.messages[-1]["content"]
        places = _rule_places(prompt.split("## Clause ")[0], names)
        judgements = []
        for block in prompt.split("## Clause ")[1:]:
            number, *lines = block.split("## Request")[0].strip().split("\n")
            ids = (
                next(line for line in lines if line.startswith("Rules: ")).removeprefix("Rules: ").split(", ")
            )
            clause = normalise(" ".join(line for line in lines if not line.startswith("Rules: ")))
            violation = next((c for p, c in planted if p[:60] in clause or clause[:60] in p), None)
            breached = next(
                (
                    rule_id
                    for rule_id in ids
                    for rule in (violation.rules if violation else ())
                    if places.get(rule_id, ("", None, None))[0] == rule.target
                    and (places[rule_id][1] in rule.pages or places[rule_id][2] in rule.sections)
                ),
                None,
            )
            judgements.append(
                {
                    "clause": int(number),
                    "verdict": "breach" if breached else "complies",
                    "rule": breached or ids[0],
                    "severity": "High",
                    "consequence": "",
                    "suggestion": "",
                }
            )
        return Reply.json({"judgements": judgements})

    return judge


def _rule_places(listing: str, names: dict[str, str]) -> dict[str, tuple[str, int | None, str | None]]:
    """Each listed rule id's target, page and section number, read off the prompt's rule list."""
    places: dict[str, tuple[str, int | None, str | None]] = {}
    target = ""
    for line in listing.splitlines():
        if line.startswith("### "):
            # "### “Debian Policy Manual” (1)": the title between the quotes names the target.
            target = names.get(line.removeprefix("### ").split("”")[0].lstrip("“"), "")
        elif rule := _RULE.match(line):
            where = rule.group(2)
            page = _PAGE.search(where)
            section = _SECTION.match(where)
            places[rule.group(1)] = (
                target,
                int(page.group(1)) if page else None,
                section.group(1) if section else None,
            )
    return places


async def measure(corpus: Corpus, qdrant_dir: Path, *, oracle: bool = False) -> dict[str, Any]:
    """Ingest the corpus, audit every source through the scripted model; tokens per source (and with
    ``oracle``, what the audit found)."""
    embedder = MiniLMEmbedder()
    index = ChunkIndex(
        open_qdrant(None, path=qdrant_dir), model_id=embedder.model_id, dimension=embedder.dimension
    )
    await index.ensure_collection()
    chunk_chars: dict[str, float] = {}
    for doc_id, file in corpus.files.items():
        kind = "regulatory" if doc_id in corpus.gold.targets else "policy"
        title = corpus.gold.targets[doc_id].title if kind == "regulatory" else doc_id
        if not await index.count(tenant_id=TENANT, document_id=doc_id):
            await ingest(index, embedder, doc_id, file, title, kind)
        chunks = await index.document_chunks(tenant_id=TENANT, user_id=USER, document_id=doc_id)
        chunk_chars[doc_id] = sum(len(c.text) for c in chunks) / max(1, len(chunks))
    results: dict[str, Any] = {}
    async with ScriptedOpenAI(reply_for=judge_by_gold(corpus.gold) if oracle else judge_all) as server:
        settings = Settings(_env_file=None, openai_api_key="bench", openai_base_url=server.base_url)
        llm = LLM.from_settings(settings)
        try:
            for source in corpus.sources:
                calls = len(server.requests)
                started = time.perf_counter()
                event = request(source, corpus.gold, corpus.texts[source.id])
                answer = await audit(event, _quiet, index=index, embedder=embedder, llm=llm)
                seconds = time.perf_counter() - started
                sent = server.requests[calls:]
                clauses = sum(len(_CLAUSE.findall(r.messages[-1]["content"])) for r in sent)
                result = answer.result if isinstance(answer.result, AuditResult) else None
                results[source.id] = {
                    "mode": source.mode,
                    "calls": len(sent),
                    "clauses_checked": result.statements_checked if result else 0,
                    "clauses_sent": clauses,
                    "prompt_tokens": answer.usage.prompt_tokens,
                    "completion_tokens": answer.usage.completion_tokens,
                    "first_build_prompt_tokens": _first_build_tokens(source, corpus, chunk_chars),
                    "seconds": round(seconds, 2),
                }
                if oracle:
                    findings = read_findings(
                        result.model_dump(mode="json") if result else None, answer.citations, corpus.sections
                    )
                    score = summarise([score_source(source, findings, corpus.gold.targets, seconds)])
                    results[source.id]["found"] = f"{score['found']}/{score['violations']}"
                    results[source.id]["flagged"] = f"{score['flagged']}/{score['compliant']}"
        finally:
            await llm.aclose()
            await index.aclose()
    return results


def _first_build_tokens(source: Any, corpus: Corpus, chunk_chars: dict[str, float]) -> int:
    targets = sum(chunk_chars[t] for t in source.targets)
    if source.mode == "text":
        chars = len(corpus.texts[source.id]) + 5 * targets
    else:
        chars = 10 * chunk_chars[source.id] + 9 * targets
    return int((chars + FIRST_BUILD_INSTRUCTIONS) / 4)


async def _quiet(stage: str, message: str) -> None:
    """Progress is not shown."""


def main() -> None:
    """Run the measure on every source and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--index",
        type=Path,
        help="keep the ingested corpus in this directory between runs (as bench.audit_quality)",
    )
    parser.add_argument(
        "--oracle", action="store_true", help="judge by the gold: the model path's ceiling, end to end"
    )
    args = parser.parse_args()
    corpus = load_corpus("all")
    if args.index is not None:
        args.index.mkdir(parents=True, exist_ok=True)
        results = asyncio.run(measure(corpus, args.index, oracle=args.oracle))
    else:
        with tempfile.TemporaryDirectory() as qdrant_dir:
            results = asyncio.run(measure(corpus, Path(qdrant_dir), oracle=args.oracle))
    print(
        f"{'source':<30}{'mode':<8}{'calls':>6}{'checked':>9}{'sent':>6}{'prompt':>9}{'compl.':>8}{'first':>8}{'s':>7}"
    )
    for name, r in results.items():
        print(
            f"{name:<30}{r['mode']:<8}{r['calls']:>6}{r['clauses_checked']:>9}{r['clauses_sent']:>6}"
            f"{r['prompt_tokens']:>9}{r['completion_tokens']:>8}{r['first_build_prompt_tokens']:>8}{r['seconds']:>7}"
            + (f"  found {r['found']}" if "found" in r else "")
        )
    print(
        "prompt/compl.: tokens sent and received by the audit; first: the first build's prompt for the same request."
    )
    print(json.dumps(results))


if __name__ == "__main__":
    main()

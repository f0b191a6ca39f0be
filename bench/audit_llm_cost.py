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
"""

import argparse
import asyncio
import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from actions.audit.auditing import audit
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


async def measure(corpus: Corpus, qdrant_dir: Path) -> dict[str, Any]:
    """Ingest the corpus, audit every source through the scripted model; tokens per source."""
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
    async with ScriptedOpenAI(reply_for=judge_all) as server:
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
    args = parser.parse_args()
    corpus = load_corpus("all")
    if args.index is not None:
        args.index.mkdir(parents=True, exist_ok=True)
        results = asyncio.run(measure(corpus, args.index))
    else:
        with tempfile.TemporaryDirectory() as qdrant_dir:
            results = asyncio.run(measure(corpus, Path(qdrant_dir)))
    print(
        f"{'source':<23}{'mode':<8}{'calls':>6}{'checked':>9}{'sent':>6}{'prompt':>9}{'compl.':>8}{'first':>8}{'s':>7}"
    )
    for name, r in results.items():
        print(
            f"{name:<23}{r['mode']:<8}{r['calls']:>6}{r['clauses_checked']:>9}{r['clauses_sent']:>6}"
            f"{r['prompt_tokens']:>9}{r['completion_tokens']:>8}{r['first_build_prompt_tokens']:>8}{r['seconds']:>7}"
        )
    print(
        "prompt/compl.: tokens sent and received by the audit; first: the first build's prompt for the same request."
    )
    print(json.dumps(results))


if __name__ == "__main__":
    main()

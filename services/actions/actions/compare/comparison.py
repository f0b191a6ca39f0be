"""One @Compare request: 2-5 documents, holistic (stratified samples, themes) or focused (a topic)."""

from collections.abc import Sequence

from actions.compare.focus import focus_topic
from actions.compare.focused import TopicSentences, compose_focused
from actions.compare.holistic import DocumentSentences, compose_holistic
from actions.extracts import embed_extracts, embed_texts, sentence_extracts
from actions.request_lifecycle import OfflineAnswer, Progress, Refusal
from actions.stratified_sampling import sample_document
from policypal.contracts import ActionRequested, ResolvedDocument
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkIndex

MIN_DOCUMENTS, MAX_DOCUMENTS = 2, 5
#: Seed 000, holistic: 15-20 chunks per document, spread over it.
HOLISTIC_SHARE, HOLISTIC_MIN, HOLISTIC_MAX = 0.18, 15, 20
#: Seed 000, focused: 3-5 chunks per document nearest to the topic.
FOCUSED_CHUNKS = 5


async def compare(
    event: ActionRequested, progress: Progress, *, index: ChunkIndex, embedder: Embedder
) -> OfflineAnswer:
    """The offline comparison of the request's documents: focused when the query names a topic."""
    documents = event.documents
    if not MIN_DOCUMENTS <= len(documents) <= MAX_DOCUMENTS:
        raise Refusal(
            "compare_needs_2_to_5_documents",
            f"Please tag between {MIN_DOCUMENTS} and {MAX_DOCUMENTS} documents to compare; "
            f"{len(documents)} {'was' if len(documents) == 1 else 'were'} given.",
        )
    topic = focus_topic(event.query)
    if topic is None:
        return await _holistic(event, documents, progress, index=index, embedder=embedder)
    return await _focused(event, documents, topic, progress, index=index, embedder=embedder)


async def _holistic(
    event: ActionRequested,
    documents: Sequence[ResolvedDocument],
    progress: Progress,
    *,
    index: ChunkIndex,
    embedder: Embedder,
) -> OfflineAnswer:
    await progress("sampling", "Reading passages from beginning to end of each document…")
    sentences = []
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
        extracts = sentence_extracts(sample.chunks)
        sentences.append(DocumentSentences(doc, extracts, await embed_extracts(embedder, extracts)))
    await progress("comparing", "Finding common themes and comparing the documents theme by theme…")
    return compose_holistic(sentences)


async def _focused(
    event: ActionRequested,
    documents: Sequence[ResolvedDocument],
    topic: str,
    progress: Progress,
    *,
    index: ChunkIndex,
    embedder: Embedder,
) -> OfflineAnswer:
    await progress("retrieving", f"Searching each document for “{topic}”…")
    [topic_vector] = await embed_texts(embedder, [topic])
    candidates = []
    for doc in documents:
        hits = await index.search(
            topic_vector.tolist(),
            tenant_id=event.tenant_id,
            user_id=event.user_id,
            document_ids=[doc.document_id],
            limit=FOCUSED_CHUNKS,
        )
        extracts = sentence_extracts(hits)
        vectors = await embed_extracts(embedder, extracts)
        candidates.append(TopicSentences(doc, extracts, vectors, [float(s) for s in vectors @ topic_vector]))
    await progress("comparing", "Comparing what each document says on the topic…")
    return compose_focused(topic, candidates)

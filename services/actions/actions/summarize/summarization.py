"""One @Summarize request: sample each document, then draft the summary with the model or offline."""

import logging
from dataclasses import replace

from actions.drafting import llm_fallback_notice
from actions.extracts import embed_extracts, sentence_extracts
from actions.request_lifecycle import ActionAnswer, OnDelta, Progress, Refusal
from actions.stratified_sampling import DocumentSample, sample_document
from actions.summarize.drafted_summary import draft_summary
from actions.summarize.extractive_summary import (
    SENTENCES_EACH,
    SENTENCES_SINGLE,
    DocumentDigest,
    central_sentences,
    compose_summary,
)
from policypal.contracts import ActionRequested, ResolvedDocument
from policypal.embeddings import Embedder
from policypal.llm import LLM, LLMError
from policypal.vectorstore import ChunkIndex

logger = logging.getLogger(__name__)

#: Seed 000: 1-5 documents per action.
MAX_DOCUMENTS = 5


async def summarize(
    event: ActionRequested,
    progress: Progress,
    tokens: OnDelta | None = None,
    *,
    index: ChunkIndex,
    embedder: Embedder,
    llm: LLM | None = None,
) -> ActionAnswer:
    """The summary of the request's documents (1-5), each from its stratified sample.

    With an ``llm`` the model drafts it, streamed to ``tokens``; without one, or when the model fails
    after its retries, it is the offline extractive summary (then with a notice).
    """
    documents = event.documents
    if not documents:
        raise Refusal("no_documents", "Please tag the document you would like summarised.")
    if len(documents) > MAX_DOCUMENTS:
        raise Refusal(
            "too_many_documents",
            f"Please tag at most {MAX_DOCUMENTS} documents to summarise; {len(documents)} were given.",
        )
    titles = ", ".join(f"“{doc.title}”" for doc in documents)
    await progress("sampling", f"Reading passages from beginning to end of {titles}…")
    samples = [
        await sample_document(
            index, tenant_id=event.tenant_id, user_id=event.user_id, document_id=doc.document_id
        )
        for doc in documents
    ]
    pairs = list(zip(documents, samples, strict=True))
    notices: list[str] = []
    if llm is not None and tokens is not None:
        await progress("summarizing", "Summarizing the key points, rules and requirements of each document…")
        try:
            return await draft_summary(event, pairs, llm=llm, embedder=embedder, on_delta=tokens)
        except LLMError as exc:
            logger.warning("summarize answered offline: %s", exc)
            notices.append(llm_fallback_notice("summary"))
    else:
        await progress("summarizing", "Selecting the sentences that best represent each document…")
    answer = await _extractive(pairs, embedder)
    return replace(answer, notices=notices)


async def _extractive(
    pairs: list[tuple[ResolvedDocument, DocumentSample]], embedder: Embedder
) -> ActionAnswer:
    count = SENTENCES_SINGLE if len(pairs) == 1 else SENTENCES_EACH
    digests = []
    for doc, sample in pairs:
        extracts = sentence_extracts(sample.chunks)
        vectors = await embed_extracts(embedder, extracts)
        digests.append(DocumentDigest(doc, sample, central_sentences(extracts, vectors, count)))
    return compose_summary(digests)

"""One @Summarize request: sample each document, pick its central sentences, compose the summary."""

from actions.extracts import embed_extracts, sentence_extracts
from actions.request_lifecycle import OfflineAnswer, Progress, Refusal
from actions.stratified_sampling import sample_document
from actions.summarize.extractive_summary import (
    SENTENCES_EACH,
    SENTENCES_SINGLE,
    DocumentDigest,
    central_sentences,
    compose_summary,
)
from policypal.contracts import ActionRequested
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkIndex

#: Seed 000: 1-5 documents per action.
MAX_DOCUMENTS = 5


async def summarize(
    event: ActionRequested, progress: Progress, *, index: ChunkIndex, embedder: Embedder
) -> OfflineAnswer:
    """The offline summary of the request's documents (1-5), each from its stratified sample."""
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
    await progress("summarizing", "Selecting the sentences that best represent each document…")
    count = SENTENCES_SINGLE if len(documents) == 1 else SENTENCES_EACH
    digests = []
    for doc, sample in zip(documents, samples, strict=True):
        extracts = sentence_extracts(sample.chunks)
        vectors = await embed_extracts(embedder, extracts)
        digests.append(DocumentDigest(doc, sample, central_sentences(extracts, vectors, count)))
    return compose_summary(digests)

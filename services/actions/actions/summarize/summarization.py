"""One @Summarize request: read each document whole, find its parts, then summarise them in order.

The offline summary quotes each part's key statements; with a model, the same per-part material is
drafted within the per-call passage budget (see ``drafted_summary``).
"""

import asyncio
import logging
from dataclasses import replace

from actions.drafting import llm_fallback_notice
from actions.lifecycle.request import ActionAnswer, OnDelta, Progress
from actions.summarize.document_parts import document_parts
from actions.summarize.drafted_summary import draft_summary
from actions.summarize.extractive_summary import DocumentSummary, compose_summary
from actions.summarize.key_statements import StructuredDigest, digest_document
from policypal.contracts import ActionRequested
from policypal.contracts.codes import ErrorCode, StatusStage
from policypal.contracts.limits import MAX_DOCUMENTS
from policypal.embeddings import Embedder
from policypal.llm import LLM, LLMError
from policypal.state import Refusal
from policypal.vectorstore import ChunkIndex, ChunkPoint

logger = logging.getLogger(__name__)

#: Key statements per part: more for a single document, fewer each when several share the answer.
POINTS_SINGLE = 3
POINTS_EACH = 2


async def summarize(
    event: ActionRequested,
    progress: Progress,
    tokens: OnDelta | None = None,
    *,
    index: ChunkIndex,
    embedder: Embedder,
    llm: LLM | None = None,
) -> ActionAnswer:
    """The summary of the request's documents (1-5), each part by part in its own order.

    With an ``llm`` the model drafts it, streamed to ``tokens``; without one, or when the model fails
    after its retries, it is the offline extractive summary (then with a notice).
    """
    documents = event.documents
    if not documents:
        raise Refusal(ErrorCode.NO_DOCUMENTS, "Please tag the document you would like summarised.")
    if len(documents) > MAX_DOCUMENTS:
        raise Refusal(
            ErrorCode.TOO_MANY_DOCUMENTS,
            f"Please tag at most {MAX_DOCUMENTS} documents to summarise; {len(documents)} were given.",
        )
    titles = ", ".join(f"“{doc.title}”" for doc in documents)
    await progress(
        StatusStage.READING,
        f"Reading {titles} and finding {'its' if len(documents) == 1 else 'their'} parts…",
    )
    points = POINTS_SINGLE if len(documents) == 1 else POINTS_EACH
    summaries = []
    for doc in documents:
        chunks = await index.document_chunks(
            tenant_id=event.tenant_id, user_id=event.user_id, document_id=doc.document_id
        )
        # CPU-bound (about a second for a 200-page manual): off the event loop.
        digest = await asyncio.to_thread(_digest, chunks, points)
        summaries.append(DocumentSummary(doc, digest))
    notices: list[str] = []
    # Nothing to send (nothing indexed yet): the offline answer says so without a model call.
    material = any(part.chosen for summary in summaries for part in summary.digest.parts)
    if llm is not None and tokens is not None and material:
        await progress(
            StatusStage.SUMMARIZING, "Summarizing the key points, rules and requirements of each part…"
        )
        try:
            return await draft_summary(event, summaries, llm=llm, embedder=embedder, on_delta=tokens)
        except LLMError as exc:
            logger.warning("summarize answered offline: %s", exc)
            notices.append(llm_fallback_notice("summary"))
    else:
        await progress(StatusStage.SUMMARIZING, "Selecting the key statements of each part…")
    return replace(compose_summary(summaries), notices=notices)


def _digest(chunks: list[ChunkPoint], points: int) -> StructuredDigest:
    return digest_document(chunks, document_parts(chunks), max_points=points)

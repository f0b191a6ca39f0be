"""Adaptive stratified sampling (docs/product.md, Stratified sampling): a share of a document's chunks, spread over all of it.

The document is cut into as many equal segments as chunks are wanted and the middle chunk of each
segment is taken, so the sample reaches from the beginning to the end and never clusters in one
section. No page numbers are assumed: positions are chunk indexes in reading order.
"""

import math
from dataclasses import dataclass

from policypal.vectorstore import ChunkIndex, ChunkPoint

#: Summarize: 15-20 % of the chunks, at least 10, at most 30 (docs/product.md, Stratified sampling: 20 -> 10, 100 -> 18, 500 -> 30).
SUMMARY_SHARE = 0.18
SUMMARY_MIN = 10
SUMMARY_MAX = 30


@dataclass(frozen=True)
class DocumentSample:
    """The chunks taken from one document, in reading order, and how many it has."""

    document_id: str
    total_chunks: int
    chunks: list[ChunkPoint]


def sample_size(
    total: int, *, share: float = SUMMARY_SHARE, minimum: int = SUMMARY_MIN, maximum: int = SUMMARY_MAX
) -> int:
    """How many of ``total`` chunks to read: ``share`` of them within [minimum, maximum], never above total."""
    if total <= 0:
        return 0
    return min(total, max(minimum, min(maximum, round(total * share))))


def stratified_positions(total: int, count: int) -> list[int]:
    """``count`` distinct positions in ``range(total)``: the middle of each of ``count`` equal segments."""
    if count >= total:
        return list(range(total))
    width = total / count
    # The middle, rounded down but never before the segment's first whole position (segments under
    # two chunks wide would otherwise lose their start to rounding).
    return [max(int((segment + 0.5) * width), math.ceil(segment * width - 1e-9)) for segment in range(count)]


async def sample_document(
    index: ChunkIndex,
    *,
    tenant_id: str,
    user_id: str,
    document_id: str,
    share: float = SUMMARY_SHARE,
    minimum: int = SUMMARY_MIN,
    maximum: int = SUMMARY_MAX,
) -> DocumentSample:
    """The stratified sample of one document of this tenant and user (empty when nothing is indexed)."""
    chunks = await index.document_chunks(tenant_id=tenant_id, user_id=user_id, document_id=document_id)
    count = sample_size(len(chunks), share=share, minimum=minimum, maximum=maximum)
    picked = [chunks[position] for position in stratified_positions(len(chunks), count)]
    return DocumentSample(document_id=document_id, total_chunks=len(chunks), chunks=picked)

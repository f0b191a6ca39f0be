"""Search hits made by hand, for the tests of what the inquire worker does with retrieved chunks."""

from policypal.vectorstore import ChunkHit


def chunk_hit(
    text: str,
    *,
    document_id: str = "d1",
    title: str = "Retention Policy",
    page: int = 1,
    chunk_index: int = 0,
    score: float = 0.5,
) -> ChunkHit:
    """A hit of version 2 of a policy of tenant ``t``'s user ``u``."""
    return ChunkHit(
        tenant_id="t",
        user_id="u",
        document_id=document_id,
        title=title,
        version="2",
        doc_type="policy",
        page=page,
        chunk_index=chunk_index,
        text=text,
        score=score,
    )

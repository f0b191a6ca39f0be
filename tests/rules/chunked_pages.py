"""Chunks of test pages as the ingestor's own chunker cuts them (realistic overlaps)."""

from ingestor.chunking import normalize_text, split_text
from policypal.vectorstore import ChunkPoint


def chunks_of(
    pages: list[tuple[int | None, str]],
    *,
    size: int = 260,
    overlap: int = 60,
    sections: list[str] | None = None,
) -> list[ChunkPoint]:
    """The chunks of each (page, text) in order, indexed over the document; ``sections`` per page."""
    chunks: list[ChunkPoint] = []
    for number, (page, text) in enumerate(pages):
        for piece in split_text(normalize_text(text), size=size, overlap=overlap):
            chunks.append(
                ChunkPoint(
                    tenant_id="acme",
                    user_id="u1",
                    document_id="fhs-3",
                    title="Filesystem Hierarchy Standard",
                    version="3.0",
                    doc_type="regulatory",
                    set_name="linux",
                    page=page,
                    section=sections[number] if sections else None,
                    chunk_index=len(chunks),
                    text=piece,
                )
            )
    return chunks

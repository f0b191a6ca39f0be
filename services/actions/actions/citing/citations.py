"""Citations that can be checked: every quote is a verbatim substring of the chunk it cites."""

from collections.abc import Mapping, Sequence

from policypal.contracts import Citation
from policypal.contracts.limits import MAX_QUOTE_CHARS
from policypal.vectorstore import ChunkPlace


def quote_from(passage: str, limit: int = MAX_QUOTE_CHARS) -> str:
    """``passage`` cut to at most ``limit`` characters, at a word boundary when one is near.

    Nothing is added or normalised, so the quote stays a verbatim substring of its source.
    """
    passage = passage.strip()
    if len(passage) <= limit:
        return passage
    cut = passage[:limit]
    space = cut.rfind(" ")
    # Cutting mid-word is better than a quote shortened to a stub.
    return (cut[:space] if space > limit // 2 else cut).rstrip()


def is_verbatim(quote: str, source: str) -> bool:
    """True if ``quote`` is a non-empty, short enough, exact substring of ``source``."""
    return bool(quote.strip()) and len(quote) <= MAX_QUOTE_CHARS and quote in source


def cite(hit: ChunkPlace, quote: str, marker: int) -> Citation:
    """The citation of ``quote`` taken from ``hit`` (a chunk, or a rule in one), for ``[marker]``."""
    return Citation(
        marker=marker,
        document_id=hit.document_id,
        title=hit.title,
        version=hit.version,
        page=hit.page,
        chunk_id=hit.chunk_id,
        quote=quote,
    )


def verify_citations(citations: Sequence[Citation], chunk_texts: Mapping[str, str]) -> list[Citation]:
    """The citations whose quote appears verbatim in the text of the chunk they name; others dropped."""
    return [c for c in citations if is_verbatim(c.quote, chunk_texts.get(c.chunk_id, ""))]

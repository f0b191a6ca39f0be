"""Numbering the [N] citations of an answer, each a verified verbatim quote of the chunk it names."""

from actions.citing.citations import is_verbatim, quote_from
from actions.extracts import Extract
from policypal.contracts import Citation


class CitationMarkers:
    """Hands out markers 1..N in the order extracts are cited; the same extract keeps its marker.

    ``first`` starts the numbering later, for citations added after those of another part of an answer.
    """

    def __init__(self, first: int = 1) -> None:
        self._markers: dict[tuple[str, int], int] = {}
        self._citations: list[Citation] = []
        self._first = first

    def mark(self, extract: Extract) -> int | None:
        """The marker citing ``extract``; None when its quote is not verbatim in its chunk (then drop it)."""
        key = (extract.chunk.chunk_id, extract.start)
        if key in self._markers:
            return self._markers[key]
        quote = quote_from(extract.text)
        if not is_verbatim(quote, extract.chunk.text):
            return None
        marker = self._first + len(self._citations)
        self._markers[key] = marker
        self._citations.append(
            Citation(
                marker=marker,
                document_id=extract.chunk.document_id,
                title=extract.chunk.title,
                version=extract.chunk.version,
                page=extract.chunk.page,
                chunk_id=extract.chunk.chunk_id,
                quote=quote,
            )
        )
        return marker

    @property
    def citations(self) -> list[Citation]:
        """Every citation handed out, by marker."""
        return list(self._citations)


def shown(extract: Extract) -> str:
    """The extract on one line as an answer shows it, marked as cut when its quote had to be shortened."""
    quote = quote_from(extract.text)
    text = " ".join(quote.split())
    return f"{text} …" if len(quote) < len(extract.text.strip()) else text

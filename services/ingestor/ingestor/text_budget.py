"""How much text one document may bring: characters, passages, and characters on one PDF page.

The budget is spent while the document is read, page by page, so a document that holds too much
stops with ``too_much_text`` before its text is kept, chunked whole or embedded: memory and time stay
bounded by the limits, not by what the file holds.
"""

from dataclasses import dataclass, field

from ingestor import rejections


@dataclass(frozen=True)
class TextLimits:
    """Per document: extracted characters, passages (chunks), and characters on any one PDF page."""

    max_chars: int = 8_000_000
    max_chunks: int = 10_000
    max_page_chars: int = 100_000


@dataclass
class TextBudget:
    """What one document has used of its ``TextLimits``; raises ``DocumentRejected`` when over."""

    limits: TextLimits
    chars: int = field(default=0, init=False)
    chunks: int = field(default=0, init=False)

    def page_allowance(self) -> int:
        """Characters the next page may hold: the per-page limit or what is left, whichever is less."""
        return min(self.limits.max_page_chars, self.limits.max_chars - self.chars)

    def refuse_page(self, number: int, bound: int) -> None:
        """Reject the document when page ``number`` may hold ``bound`` characters, above its allowance."""
        if bound <= self.page_allowance():
            return
        if bound > self.limits.max_page_chars:
            raise rejections.too_much_text(
                f"Page {number} holds more than {self.limits.max_page_chars:,} characters of text, "
                "more than any real page."
            )
        self._over_chars(self.chars + bound)

    def spend_text(self, chars: int) -> None:
        """Count extracted characters; rejects the document once it holds more than the limit."""
        self.chars += chars
        if self.chars > self.limits.max_chars:
            self._over_chars(self.chars)

    def refuse_estimate(self, estimate: int) -> None:
        """Reject the document, before it is read, when its text is estimated above the limit."""
        if estimate > self.limits.max_chars:
            raise rejections.too_much_text(
                f"The document holds about {estimate:,} characters of text, more than the limit of "
                f"{self.limits.max_chars:,}."
            )

    def spend_chunks(self, chunks: int) -> None:
        """Count passages; rejects the document once it is cut into more than the limit."""
        self.chunks += chunks
        if self.chunks > self.limits.max_chunks:
            raise rejections.too_much_text(
                f"The document is cut into more than {self.limits.max_chunks:,} passages, the limit per document."
            )

    def _over_chars(self, at_least: int) -> None:
        raise rejections.too_much_text(
            f"The document holds at least {at_least:,} characters of text, more than the limit of "
            f"{self.limits.max_chars:,}."
        )

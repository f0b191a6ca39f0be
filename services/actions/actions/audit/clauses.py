"""What an audit checks: every clause of the source, a pasted text or a whole policy document.

A clause is a sentence or a list item that states something (headings, contents lines, questions and
fragments are not clauses). A document's clauses come from all of its chunks, boilerplate left out,
each with the chunk that holds it for its citation; a pasted text's are spans of that text.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from policypal.rules import boilerplate_chunks, document_clauses, quote_around, segment
from policypal.vectorstore import ChunkPoint

# "Term: a/an/the …", a glossary entry: a term of a few words, no sentence ("We do not keep a change
# log: the history is enough" states a practice).
_DEFINITION: Final = re.compile(
    r"^(?!(?:[\w.'’/-]+\s+)*?(?:we|you|they|it|is|are|was|were|do|does|did|not|no|never|must|shall|should|will|"
    r"can|may|has|have)\b)(?:[\w.'’/-]+\s?){1,4}:\s+(?:a|an|the)\s",
    re.IGNORECASE,
)
# "To: Packaging and Operations", "Subject: …": a pasted e-mail's header lines.
_MAIL_HEADER: Final = re.compile(r"^(?:from|to|cc|bcc|reply-to|subject|date|sent)\s*:", re.IGNORECASE)
#: More clauses than this are not checked (about 120 pages of policy): the report says how many were.
MAX_CLAUSES: Final = 3000


@dataclass(frozen=True)
class Clause:
    """A clause of the audited source: its words as matched, a verbatim quote, and where it stands."""

    text: str
    quote: str
    chunk: ChunkPoint | None = None
    section: str | None = None

    @property
    def page(self) -> int | None:
        """The page of a document's clause (None for a pasted text or an unpaged document)."""
        return self.chunk.page if self.chunk is not None else None


def text_clauses(source_text: str) -> list[Clause]:
    """The clauses of a pasted text (an e-mail, a paragraph of policy), quotes verbatim from it."""
    clauses = []
    for statement in segment(source_text).statements:
        if _is_claim(statement.plain):
            quote = quote_around(statement.text, 0)
            text = f"{statement.lead_in} {statement.plain}" if statement.lead_in else statement.plain
            clauses.append(Clause(text=text, quote=quote, section=statement.section))
    return clauses[:MAX_CLAUSES]


def policy_clauses(chunks: Sequence[ChunkPoint]) -> list[Clause]:
    """The clauses of a whole indexed document, in reading order, its boilerplate left out."""
    skip = boilerplate_chunks(chunks)
    return [
        Clause(text=c.text, quote=c.quote, chunk=c.chunk, section=c.statement.section)
        for c in document_clauses(chunks, skip=skip)
        if _is_claim(c.statement.plain)
        and not _is_heading(c.statement.plain, (c.chunk.section, c.statement.section))
    ][:MAX_CLAUSES]


def _is_heading(plain: str, sections: tuple[str | None, ...]) -> bool:
    """Whether ``plain`` is the title of the section it stands in ("7. Command-line tools and run-time
    behaviour", a Markdown heading whose marks the ingestion dropped, read as a numbered item)."""
    words = _WORDS.findall(plain.lower())
    return bool(words) and any(
        section and _WORDS.findall(section.lower())[-len(words) :] == words for section in sections
    )


_WORDS: Final = re.compile(r"[\w'’-]+")


def _is_claim(plain: str) -> bool:
    """A statement: not a question, a lead-in ("Download notes:"), a glossary entry ("Binary
    package: the .deb file that…"), which define words rather than state a practice, or an e-mail's
    header line."""
    text = plain.strip()
    return not (text.endswith(("?", ":")) or _DEFINITION.match(text) or _MAIL_HEADER.match(text))

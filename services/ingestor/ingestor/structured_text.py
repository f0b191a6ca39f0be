"""DOCX, HTML, Markdown, plain text and e-mail through ``unstructured``, as blocks under section titles.

Offline strategies only (see ``offline_nlp``). Every element becomes a ``Block``: running text under
the latest title, or a whole table. Headers and footers are dropped (a DOCX repeats them on every
page: indexing them would make every page match). Synchronous and CPU-bound: run it in a thread.

``unstructured`` reads a numbered heading of a plain text ("  1. Source Code.", "4.2 Retention") as a
list item, so a licence or a regulation kept as text had one section for most of its length. A
short numbered item that stands alone between paragraphs titles its section; one among other items
is an item of a list. It also calls a short paragraph a title: one that is a whole sentence (a full
stop after several words) stays text under the section it is in.
"""

import io
import logging
import re
from dataclasses import dataclass
from typing import Literal

from ingestor import rejections
from ingestor.code_spans import keep_code_spans
from ingestor.docx_pages import mark_hard_page_breaks
from ingestor.offline_nlp import configure_offline
from ingestor.tables import Table, table_from_html
from policypal.filetypes import FileKind, UndecodableText, decode_text

logger = logging.getLogger(__name__)

_SKIPPED = frozenset({"Header", "Footer", "PageBreak", "PageNumber", "Image"})
#: "1. Source Code.", "4.2 Retention", "§ 3 Scope", "Article 5. Definitions": a number, then a title.
_NUMBERED = re.compile(r"^(?:§\s*|(?:section|article|part|chapter)\s+)?\d+(?:\.\d+)*\.?\s+\S", re.IGNORECASE)
#: A heading is a title, not a sentence: a few words.
MAX_HEADING_WORDS = 10
#: A "title" of more words than this that ends in a full stop is a sentence.
MAX_TITLE_SENTENCE_WORDS = 8


@dataclass(frozen=True)
class Block:
    """A run of text, or one table, within a section (``section`` None before the first title)."""

    kind: Literal["text", "table"]
    text: str
    section: str | None
    page: int | None
    table: Table | None = None


def partition_structured(data: bytes, kind: FileKind) -> list[Block]:
    """The blocks of a non-PDF document; raises ``DocumentRejected`` for undecodable or damaged files."""
    configure_offline()
    try:
        elements = _partition(data, kind)
    except rejections.DocumentRejected:
        raise
    except Exception as exc:
        logger.info("unstructured cannot read the %s: %s: %s", kind, type(exc).__name__, exc)
        raise rejections.corrupt(
            f"The {KIND_NAMES[kind]} is damaged or truncated and cannot be read."
        ) from exc
    return _blocks(elements, preface=_email_preface(elements) if kind == "email" else None)


KIND_NAMES: dict[FileKind, str] = {
    "pdf": "PDF",
    "docx": "Word document",
    "html": "HTML page",
    "markdown": "Markdown document",
    "text": "text file",
    "email": "e-mail",
}


def _partition(data: bytes, kind: FileKind) -> list[object]:
    from unstructured.partition.docx import partition_docx
    from unstructured.partition.email import partition_email
    from unstructured.partition.html import partition_html
    from unstructured.partition.md import partition_md
    from unstructured.partition.text import partition_text

    if kind == "docx":
        pages_marked = mark_hard_page_breaks(data)
        return list(partition_docx(file=io.BytesIO(pages_marked), infer_table_structure=True))
    if kind == "email":
        return list(partition_email(file=io.BytesIO(data)))
    text = _decoded(data)
    if kind == "html":
        return list(partition_html(text=text))
    if kind == "markdown":
        return list(partition_md(text=keep_code_spans(text)))
    return list(partition_text(text=text))


def _decoded(data: bytes) -> str:
    try:
        return decode_text(data).text
    except UndecodableText as exc:
        raise rejections.undecodable_text() from exc


def _email_preface(elements: list[object]) -> Block | None:
    """Sender, recipients, subject and date as the first block: an audit must cite who wrote what."""
    if not elements:
        return None
    metadata = getattr(elements[0], "metadata", None)
    subject = getattr(metadata, "subject", None)
    lines = [
        f"{label}: {', '.join(value) if isinstance(value, list) else value}"
        for label, value in (
            ("From", getattr(metadata, "sent_from", None)),
            ("To", getattr(metadata, "sent_to", None)),
            ("Subject", subject),
            ("Date", getattr(metadata, "last_modified", None)),
        )
        if value
    ]
    return Block("text", "\n".join(lines), subject, None) if lines else None


def _blocks(elements: list[object], *, preface: Block | None) -> list[Block]:
    blocks: list[Block] = [preface] if preface else []
    section = preface.section if preface else None
    kept = [e for e in elements if type(e).__name__ not in _SKIPPED]
    for position, element in enumerate(kept):
        category = type(element).__name__
        text = str(getattr(element, "text", "") or "").strip()
        metadata = getattr(element, "metadata", None)
        page = getattr(metadata, "page_number", None)
        if category == "Table":
            markup = getattr(metadata, "text_as_html", None)
            table = table_from_html(markup) if markup else None
            if table is not None and table.rows:
                blocks.append(Block("table", text, section, page, table))
                continue
        if not text:
            continue
        if (category == "Title" and not _sentence(text)) or _numbered_heading(kept, position, text):
            section = text
        blocks.append(Block("text", text, section, page))
    return blocks


def _sentence(text: str) -> bool:
    """A "title" that is a whole sentence ("“This License” refers to version 3 of the GNU General
    Public License.") opens no section: ``unstructured`` calls a short paragraph a title."""
    return text.endswith(".") and len(text.split()) > MAX_TITLE_SENTENCE_WORDS


def _numbered_heading(elements: list[object], position: int, text: str) -> bool:
    """Whether the list item at ``position`` is a numbered heading: short, and no other item next to it."""
    if type(elements[position]).__name__ != "ListItem":
        return False
    if not _NUMBERED.match(text) or len(text.split()) > MAX_HEADING_WORDS:
        return False
    neighbours = elements[max(position - 1, 0) : position] + elements[position + 1 : position + 2]
    return all(type(e).__name__ != "ListItem" for e in neighbours)

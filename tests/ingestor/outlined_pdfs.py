"""PDFs with outlines (bookmarks), well made by reportlab or damaged on purpose with pypdf."""

import io
import itertools
import textwrap
from dataclasses import dataclass

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject, TextStringObject
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from tests import pdf_factory


@dataclass(frozen=True)
class Heading:
    """A heading printed on the page and bookmarked: ``level`` 0 is a chapter."""

    number: str
    title: str
    level: int


#: Page by page: the headings on it (top to bottom) and the prose after each; page 1 has no heading.
BOOK: list[list[Heading]] = [
    [],
    [Heading("1", "Scope and Purpose", 0), Heading("1.1", "Who Must Comply", 1)],
    [],
    [Heading("1.2", "Records Retention", 1)],
    [Heading("2", "Vendor Management", 0)],
]


def outlined_pdf(book: list[list[Heading]] = BOOK, *, sentences: int = 14) -> bytes:
    """A book whose headings are printed and bookmarked where they stand (mid-page for the second).

    Every heading is followed by ``sentences`` sentences of prose naming the page, so a page with
    two headings has text under each.
    """
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    for number, headings in enumerate(book, start=1):
        y = A4[1] - 60
        for part, heading in enumerate(headings or [None]):
            if heading is not None:
                key = f"h{number}-{part}"
                canvas.bookmarkHorizontal(key, 0, y + 14)
                canvas.addOutlineEntry(heading.title, key, level=heading.level)
                canvas.drawString(50, y, f"{heading.number} {heading.title}")
                y -= 20
            for line in textwrap.wrap(
                " ".join(pdf_factory.page_sentences(number * 10 + part, sentences)), 95
            ):
                canvas.drawString(50, y, line)
                y -= 14
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _with_outline_root(data: bytes) -> tuple[PdfWriter, DictionaryObject]:
    """A writer holding ``data``'s pages and an empty outline root, for outlines built by hand."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    root = DictionaryObject({NameObject("/Type"): NameObject("/Outlines")})
    writer._root_object[NameObject("/Outlines")] = writer._add_object(root)
    return writer, root


def _item(writer: PdfWriter, title: str, destination: object) -> DictionaryObject:
    item = DictionaryObject({NameObject("/Title"): TextStringObject(title)})
    if destination is not None:
        item[NameObject("/Dest")] = destination
    writer._add_object(item)
    return item


def _saved(writer: PdfWriter) -> bytes:
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def cyclic_outline_pdf(pages: int = 3) -> bytes:
    """An outline whose entries point back at each other (/Next and /First loops)."""
    writer, root = _with_outline_root(pdf_factory.text_pdf(pages))
    page = writer.pages[1].indirect_reference
    first = _item(writer, "Loop one", ArrayObject([page, NameObject("/Fit")]))
    second = _item(writer, "Loop two", ArrayObject([page, NameObject("/Fit")]))
    first[NameObject("/Next")] = second.indirect_reference
    second[NameObject("/Next")] = first.indirect_reference
    second[NameObject("/First")] = first.indirect_reference
    root[NameObject("/First")] = first.indirect_reference
    return _saved(writer)


def broken_destinations_pdf(pages: int = 3) -> bytes:
    """Entries whose destinations are garbage: a missing name, a number, a page that is no page."""
    writer, root = _with_outline_root(pdf_factory.text_pdf(pages))
    items = [
        _item(writer, "Named but missing", TextStringObject("no-such-destination")),
        _item(writer, "A bare number", NumberObject(7)),
        _item(writer, "Not a page", ArrayObject([NumberObject(999), NameObject("/Fit")])),
        _item(writer, "No destination", None),
    ]
    for item, following in itertools.pairwise(items):
        item[NameObject("/Next")] = following.indirect_reference
    root[NameObject("/First")] = items[0].indirect_reference
    return _saved(writer)


def huge_outline_pdf(entries: int, pages: int = 3) -> bytes:
    """A flat outline of ``entries`` entries spread over the pages."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_factory.text_pdf(pages))))
    for i in range(entries):
        writer.add_outline_item(title=f"Entry {i}", page_number=i % pages)
    return _saved(writer)


def single_target_outline_pdf(entries: int, pages: int = 6) -> bytes:
    """An outline whose entries all point at the first page, as generators that lost the targets write."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_factory.text_pdf(pages))))
    for i in range(entries):
        writer.add_outline_item(title=f"Chapter {i + 1}", page_number=0)
    return _saved(writer)

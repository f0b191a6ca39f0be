"""PDFs made by the tests themselves (reportlab): every fixture is known and deterministic."""

import io
import textwrap

from reportlab.lib.pagesizes import A4
from reportlab.lib.pdfencrypt import StandardEncryption
from reportlab.pdfgen.canvas import Canvas

WORDS = [
    *("policy", "compliance", "retention", "record", "officer", "audit", "control", "privacy", "breach"),
    *("notice", "consent", "processing", "vendor", "contract", "review", "annual", "training", "access"),
    *("incident", "report", "register"),
]


def page_sentences(page: int, count: int = 40) -> list[str]:
    """Deterministic prose for one page; each sentence names its page so tests can check placement."""
    sentences = []
    for i in range(count):
        words = [WORDS[(page * 7 + i * 3 + k) % len(WORDS)] for k in range(9)]
        sentences.append(f"Page {page} clause {i} says the {' '.join(words)}.")
    return sentences


def _write_lines(canvas: Canvas, text_lines: list[str]) -> None:
    y = A4[1] - 60
    for line in text_lines:
        canvas.drawString(50, y, line)
        y -= 14


def _wrap(sentences: list[str], width: int = 95) -> list[str]:
    lines, current = [], ""
    for word in " ".join(sentences).split():
        if len(current) + len(word) + 1 > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    if current:
        lines.append(current)
    return lines


def text_pdf(pages: int, *, sentences_per_page: int = 40, blank_pages: frozenset[int] = frozenset()) -> bytes:
    """A PDF with ``pages`` pages of prose; page numbers in ``blank_pages`` (1-based) have no text."""
    return _build(pages, sentences_per_page, blank_pages, encrypt=None)


def drawing_only_pdf(pages: int = 2) -> bytes:
    """Like a scanned document: shapes on every page, no text layer at all."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    for i in range(pages):
        for k in range(30):
            canvas.rect(40 + k * 3, 60 + i * 10 + k * 20, 400, 12, fill=1)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def encrypted_pdf(*, user_password: str) -> bytes:
    """A 2-page text PDF encrypted with ``user_password`` ('' opens without asking)."""
    encryption = StandardEncryption(user_password, ownerPassword="owner-secret", canCopy=0)
    return _build(2, 20, frozenset(), encrypt=encryption)


def _build(pages: int, sentences: int, blank: frozenset[int], *, encrypt: StandardEncryption | None) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, encrypt=encrypt)
    for number in range(1, pages + 1):
        if number in blank:
            canvas.rect(100, 100, 200, 200)
        else:
            _write_lines(canvas, _wrap(page_sentences(number, sentences)))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def kerned_pdf(pages: int, *, glued_pages: frozenset[int] | None = None) -> bytes:
    """Words separated only by TJ kerning, as LaTeX does: pypdf glues them, pdfminer does not.

    Pages outside ``glued_pages`` (1-based; default all) use ordinary spaces.
    """
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    for number in range(1, pages + 1):
        kerned = glued_pages is None or number in glued_pages
        text = canvas.beginText(50, A4[1] - 60)
        text.setFont("Helvetica", 10)
        for line in _wrap(page_sentences(number, 30), width=80):
            if kerned:
                # A gap of 120/1000 em is too small for pypdf to read as a space; pdfminer reads it.
                parts = " -120 ".join(f"({word})" for word in line.split())
                text._code.append(f"[{parts}] TJ")  # reportlab has no public TJ-array API
                text._code.append("0 -13 Td")
            else:
                text.textLine(line)
        canvas.drawText(text)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def make_pdf(pages: list[str], *, title: str = "Test document") -> bytes:
    """A PDF with one page per string; paragraphs kept, lines wrapped at 85 characters."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    canvas.setTitle(title)
    for page_text in pages:
        lines = [line for paragraph in page_text.split("\n") for line in textwrap.wrap(paragraph, 85) or [""]]
        _write_lines(canvas, lines)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def one_page_pdf(text: str) -> bytes:
    """A small one-page PDF whose bytes differ with ``text``."""
    return make_pdf([text])

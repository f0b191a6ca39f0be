"""Text of a PDF, page by page: pypdf first, pdfminer.six where pypdf glues words together.

Everything here is CPU-bound and synchronous; async callers run it in a worker thread. Any error the
parsers raise on a document's bytes is a property of those bytes (they are already in memory), so it
becomes a ``corrupt`` rejection rather than a retry.
"""

import io
import logging
from dataclasses import dataclass
from typing import Final

from pypdf import PasswordType, PdfReader
from pypdf.errors import DependencyError, FileNotDecryptedError

from ingestor import rejections
from ingestor.glued_text import glue_score, looks_glued

logger = logging.getLogger(__name__)

PYPDF: Final = "pypdf"
PDFMINER: Final = "pdfminer"

#: After this many glued pages the document is treated as made by a glueing producer, and pypdf is
#: skipped for the remaining pages: trying both on every page would double the parse time.
STICKY_AFTER: Final = 2


@dataclass(frozen=True)
class PageText:
    """The text of one page; ``number`` is 1-based, ``parser`` names the extractor that produced it."""

    number: int
    text: str
    parser: str


class _PdfminerPages:
    """pdfminer.six over one document, parsed once, with random access to pages."""

    def __init__(self, data: bytes) -> None:
        from pdfminer.pdfdocument import PDFDocument
        from pdfminer.pdfinterp import PDFResourceManager
        from pdfminer.pdfpage import PDFPage
        from pdfminer.pdfparser import PDFParser

        parser = PDFParser(io.BytesIO(data))
        document = PDFDocument(parser, password="")
        self._pages = list(PDFPage.create_pages(document))
        # Shared so fonts are decoded once for the whole document.
        self._resources = PDFResourceManager(caching=True)

    def text(self, index: int) -> str:
        from pdfminer.converter import TextConverter
        from pdfminer.layout import LAParams
        from pdfminer.pdfinterp import PDFPageInterpreter

        out = io.StringIO()
        device = TextConverter(self._resources, out, laparams=LAParams())
        try:
            PDFPageInterpreter(self._resources, device).process_page(self._pages[index])
        finally:
            device.close()
        return out.getvalue()


class PdfText:
    """An opened PDF whose pages can be extracted one at a time (so callers can report progress)."""

    def __init__(self, data: bytes, reader: PdfReader, page_count: int) -> None:
        self._data = data
        self._reader = reader
        self.page_count = page_count
        self._pdfminer: _PdfminerPages | None = None
        self._pdfminer_unusable = False
        self._glued_pages = 0

    @classmethod
    def open(cls, data: bytes) -> "PdfText":
        """Open ``data`` as a PDF, trying the empty password on encrypted files.

        Raises ``DocumentRejected`` (empty_file, corrupt, encrypted) when the bytes cannot be read.
        """
        if not data:
            raise rejections.empty_file()
        # The header may follow some junk, but within the first KB (PDF spec implementation note).
        if b"%PDF-" not in data[:1024]:
            raise rejections.corrupt("The file is not a PDF (it does not start with a PDF header).")
        try:
            reader = PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted and _decrypt_with_empty_password(reader) is PasswordType.NOT_DECRYPTED:
                raise rejections.encrypted()
            page_count = len(reader.pages)
        except rejections.DocumentRejected:
            raise
        except (FileNotDecryptedError, DependencyError, NotImplementedError) as exc:
            logger.info("cannot decrypt PDF: %s", exc)
            raise rejections.encrypted() from exc
        except Exception as exc:
            logger.info("unreadable PDF: %s: %s", type(exc).__name__, exc)
            raise rejections.corrupt("The PDF is damaged or truncated and cannot be read.") from exc
        if page_count == 0:
            raise rejections.corrupt("The PDF has no pages.")
        return cls(data, reader, page_count)

    def page(self, index: int) -> PageText:
        """Text of page ``index`` (0-based); raises ``DocumentRejected`` (corrupt) if no parser can read it."""
        number = index + 1
        if self._glued_pages >= STICKY_AFTER:
            fallback = self._pdfminer_text(index)
            if fallback is not None:
                return PageText(number, fallback, PDFMINER)
        try:
            text = self._reader.pages[index].extract_text() or ""
        except Exception as exc:
            logger.info("pypdf failed on page %d (%s: %s); trying pdfminer", number, type(exc).__name__, exc)
            fallback = self._pdfminer_text(index)
            if fallback is None:
                raise rejections.corrupt(f"Page {number} of the PDF is damaged and cannot be read.") from exc
            return PageText(number, fallback, PDFMINER)
        if not looks_glued(text):
            return PageText(number, text, PYPDF)
        self._glued_pages += 1
        fallback = self._pdfminer_text(index)
        # Keep pypdf's text if pdfminer does no better (e.g. a script without spaces between words).
        if fallback is not None and (glue_score(fallback) or 0.0) < (glue_score(text) or 0.0):
            return PageText(number, fallback, PDFMINER)
        return PageText(number, text, PYPDF)

    def _pdfminer_text(self, index: int) -> str | None:
        """pdfminer's text of a page, or None when pdfminer cannot read it (the caller decides)."""
        if self._pdfminer_unusable:
            return None
        if self._pdfminer is None:
            try:
                self._pdfminer = _PdfminerPages(self._data)
            except Exception as exc:
                # Opening failed once: it would fail for every page, so stop trying.
                logger.info("pdfminer cannot open the PDF: %s: %s", type(exc).__name__, exc)
                self._pdfminer_unusable = True
                return None
        try:
            return self._pdfminer.text(index)
        except Exception as exc:
            logger.info("pdfminer failed on page %d: %s: %s", index + 1, type(exc).__name__, exc)
            return None


def _decrypt_with_empty_password(reader: PdfReader) -> PasswordType:
    # Many "encrypted" PDFs only restrict printing or copying and open with the empty user password.
    return reader.decrypt("")


def extract_pages(data: bytes) -> list[PageText]:
    """Every page's text of a PDF, in order (convenience for callers that need no progress)."""
    pdf = PdfText.open(data)
    return [pdf.page(i) for i in range(pdf.page_count)]


def parser_name(pages: list[PageText]) -> str:
    """'pypdf', 'pdfminer', or 'pypdf+pdfminer' when both were needed, for the DocumentReady event."""
    used = {page.parser for page in pages if page.text.strip()}
    if used == {PDFMINER}:
        return PDFMINER
    if used == {PYPDF, PDFMINER}:
        return f"{PYPDF}+{PDFMINER}"
    return PYPDF

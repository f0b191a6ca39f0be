"""Text of a PDF, page by page: PDFium first, pypdf where PDFium cannot read, pdfminer.six for glued words.

pypdf opens and checks the file (encryption with the empty password, damage, page count). Text
comes from PDFium (pypdfium2, Chrome's PDF engine, a binary wheel): ~20x faster than pypdf and it
keeps the spaces pypdf loses on LaTeX PDFs (Debian's policy.pdf: 193 pages in 0.4 s, no glued page,
where pypdf took 6.7 s and glued most pages). A page PDFium cannot read goes to pypdf; a page that
still looks glued goes to pdfminer.six.

Everything here is CPU-bound and synchronous; async callers run it in a worker thread. Any error the
parsers raise on a document's bytes is a property of those bytes (they are already in memory), so it
becomes a ``corrupt`` rejection rather than a retry.
"""

import io
import logging
import threading
from dataclasses import dataclass
from typing import Final

from pypdf import PageObject, PasswordType, PdfReader
from pypdf.errors import DependencyError, FileNotDecryptedError

from ingestor import rejections
from ingestor.glued_text import glue_score, looks_glued
from ingestor.pdf_outline import OutlineSections, read_outline

logger = logging.getLogger(__name__)

PDFIUM: Final = "pdfium"
PYPDF: Final = "pypdf"
PDFMINER: Final = "pdfminer"
#: PDFium is not thread-safe, not even across documents, and ingestion runs documents in parallel threads.
_PDFIUM_LOCK = threading.Lock()

#: After this many glued pages the document is treated as made by a glueing producer, and the fast
#: extractors are skipped for the remaining pages: trying both on every page would double the time.
STICKY_AFTER: Final = 2


@dataclass(frozen=True)
class PageText:
    """The text of one page; ``number`` is 1-based, ``parser`` names the extractor that produced it."""

    number: int
    text: str
    parser: str


class _PdfiumPages:
    """PDFium over one document (opened with the empty password, as pypdf was)."""

    def __init__(self, data: bytes) -> None:
        import pypdfium2 as pdfium  # type: ignore[import-untyped]

        with _PDFIUM_LOCK:
            self._document = pdfium.PdfDocument(data, password="")

    def text(self, index: int) -> str:
        with _PDFIUM_LOCK:
            page = self._document[index]
            try:
                textpage = page.get_textpage()
                try:
                    return pdfium_plain_text(textpage.get_text_range())
                finally:
                    textpage.close()
            finally:
                page.close()

    def close(self) -> None:
        with _PDFIUM_LOCK:
            self._document.close()


def pdfium_plain_text(text: str) -> str:
    """PDFium's page text as plain text: words hyphenated across lines joined, ``\n`` line ends.

    PDFium marks a hyphen it found at a line end with U+FFFE ("pack\ufffe\r\nage").
    """
    return text.replace("\ufffe\r\n", "").replace("\ufffe", "").replace("\r\n", "\n").replace("\r", "\n")


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
        self._pdfium: _PdfiumPages | None = None
        self._pdfium_unusable = False
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
        text, parser = self._fast_text(index)
        if parser == PDFMINER or not looks_glued(text):
            return PageText(number, text, parser)
        self._glued_pages += 1
        fallback = self._pdfminer_text(index)
        # Keep the fast text if pdfminer does no better (e.g. a script without spaces between words).
        if fallback is not None and (glue_score(fallback) or 0.0) < (glue_score(text) or 0.0):
            return PageText(number, fallback, PDFMINER)
        return PageText(number, text, parser)

    def outline(self) -> OutlineSections:
        """The sections the document's outline (bookmarks) sets; empty when it has none or it is unusable."""
        return OutlineSections(read_outline(self._reader, self.page_count))

    def page_object(self, index: int) -> PageObject:
        """pypdf's object of page ``index`` (0-based), for checks made before any text is extracted."""
        return self._reader.pages[index]

    def close(self) -> None:
        """Release PDFium's copy of the document (the garbage collector would, later)."""
        if self._pdfium is not None:
            self._pdfium.close()
            self._pdfium = None
        self._pdfium_unusable = True

    def _fast_text(self, index: int) -> tuple[str, str]:
        """PDFium's text of a page, else pypdf's, else pdfminer's; with the parser that produced it."""
        text = self._pdfium_text(index)
        if text is not None:
            return text, PDFIUM
        number = index + 1
        try:
            return self._reader.pages[index].extract_text() or "", PYPDF
        except Exception as exc:
            logger.info("pypdf failed on page %d (%s: %s); trying pdfminer", number, type(exc).__name__, exc)
            fallback = self._pdfminer_text(index)
            if fallback is None:
                raise rejections.corrupt(f"Page {number} of the PDF is damaged and cannot be read.") from exc
            return fallback, PDFMINER

    def _pdfium_text(self, index: int) -> str | None:
        """PDFium's text of a page, or None when PDFium cannot read it (pypdf is tried instead)."""
        if self._pdfium_unusable:
            return None
        if self._pdfium is None:
            try:
                self._pdfium = _PdfiumPages(self._data)
            except Exception as exc:
                logger.info("PDFium cannot open the PDF: %s: %s", type(exc).__name__, exc)
                self._pdfium_unusable = True
                return None
        try:
            return self._pdfium.text(index)
        except Exception as exc:
            logger.info("PDFium failed on page %d: %s: %s", index + 1, type(exc).__name__, exc)
            return None

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
    try:
        return [pdf.page(i) for i in range(pdf.page_count)]
    finally:
        pdf.close()


def parser_name(pages: list[PageText]) -> str:
    """The extractors that produced text, e.g. 'pdfium' or 'pdfium+pdfminer', for the DocumentReady event."""
    used = {page.parser for page in pages if page.text.strip()}
    return "+".join(parser for parser in (PDFIUM, PYPDF, PDFMINER) if parser in used) or PDFIUM

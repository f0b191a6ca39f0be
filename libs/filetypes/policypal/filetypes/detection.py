"""Recognising an uploaded file from its bytes: magic numbers, ZIP contents, then text sniffing.

The file name and the client's Content-Type are never consulted: both are whatever the sender's
machine guessed, and a lying extension must not route bytes to the wrong parser. Shared by the
gateway (accept or answer 415) and the ingestor (choose the parser).
"""

import io
import re
import zipfile
from dataclasses import dataclass
from typing import Final, Literal

from policypal.filetypes.text_decoding import SAMPLE_BYTES, text_encoding

FileKind = Literal["pdf", "docx", "html", "markdown", "text", "email"]

#: Media type recorded for each kind we parse.
MEDIA_TYPES: Final[dict[FileKind, str]] = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "html": "text/html",
    "markdown": "text/markdown",
    "text": "text/plain",
    "email": "message/rfc822",
}

# Readers accept a PDF header within the first KiB (some generators prepend junk); so do we.
_PDF_HEADER_WINDOW: Final = 1024
_OLE2: Final = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# Office encrypts DOCX/XLSX into an OLE2 container with a stream of this (UTF-16) name.
_ENCRYPTED_PACKAGE: Final = "EncryptedPackage".encode("utf-16-le")
_SIGNATURES: Final = (
    (b"\x89PNG\r\n\x1a\n", "image/png", "a PNG image"),
    (b"\xff\xd8\xff", "image/jpeg", "a JPEG image"),
    (b"GIF8", "image/gif", "a GIF image"),
    (b"II*\x00", "image/tiff", "a TIFF image"),
    (b"MM\x00*", "image/tiff", "a TIFF image"),
    (b"{\\rtf", "application/rtf", "an RTF document"),
    (b"\x1f\x8b", "application/gzip", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "application/x-7z-compressed", "a 7-Zip archive"),
    (b"Rar!", "application/vnd.rar", "a RAR archive"),
)
# ZIP entries that name the Office format; a DOCX's local headers carry the name in clear text, so
# even a truncated file (no central directory) is recognised.
_ZIP_FORMATS: Final = (
    (b"word/document.xml", None, ""),
    (
        b"xl/workbook.xml",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "a spreadsheet (XLSX)",
    ),
    (
        b"ppt/presentation.xml",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "a presentation (PPTX)",
    ),
    (b"content.xml", "application/vnd.oasis.opendocument", "an OpenDocument file"),
)
_HTML_START = re.compile(
    rb"^(?:\s|<!--.*?-->|<\?xml[^>]*>)*<(?:!doctype\s+html|html|head|body)[\s>]", re.I | re.S
)
_HTML_ANYWHERE = re.compile(rb"<(?:html|body)[\s>]", re.I)
_HEADER_LINE = re.compile(r"^([!-9;-~]+):[ \t]*(.*)$")
_MAIL_HEADERS: Final = frozenset(
    {"to", "cc", "subject", "date", "message-id", "mime-version", "received", "return-path", "reply-to"}
)
_MARKDOWN_SIGNS = re.compile(
    r"^(?:#{1,6}[ \t]+\S|```|~~~|\|?[ \t]*:?-{3,}:?[ \t]*\|[ \t|:-]*$|[^\n]+\n(?:={3,}|-{3,})[ \t]*$)", re.M
)


@dataclass(frozen=True)
class DetectedType:
    """What the bytes are: a ``kind`` PolicyPal parses, or None with a description of what they are."""

    kind: FileKind | None
    media_type: str
    description: str
    encrypted: bool = False

    @property
    def supported(self) -> bool:
        """True when PolicyPal can index files of this kind."""
        return self.kind is not None


def _parsed(kind: FileKind, description: str) -> DetectedType:
    return DetectedType(kind, MEDIA_TYPES[kind], description)


def detect_file_type(data: bytes) -> DetectedType:
    """The type of ``data``, judged from the bytes alone (magic numbers, ZIP entries, text sniffing)."""
    if not data:
        return DetectedType(None, "application/x-empty", "an empty file")
    if b"%PDF-" in data[:_PDF_HEADER_WINDOW]:
        return _parsed("pdf", "a PDF document")
    if data.startswith(b"PK\x03\x04"):
        return _zip_type(data)
    if data.startswith(_OLE2):
        if _ENCRYPTED_PACKAGE in data:
            return DetectedType(
                None, "application/x-ole-storage", "a password-protected Office document", encrypted=True
            )
        return DetectedType(None, "application/x-ole-storage", "a legacy Office file (DOC, XLS, PPT)")
    for signature, media_type, description in _SIGNATURES:
        if data.startswith(signature):
            return DetectedType(None, media_type, description)
    return _text_type(data)


def _zip_type(data: bytes) -> DetectedType:
    names = _zip_names(data)
    for entry, media_type, description in _ZIP_FORMATS:
        found = entry.decode() in names if names is not None else entry in data
        if found:
            return (
                _parsed("docx", "a Word document (DOCX)")
                if media_type is None
                else DetectedType(None, media_type, description)
            )
    return DetectedType(None, "application/zip", "a ZIP archive")


def _zip_names(data: bytes) -> set[str] | None:
    """Entry names from the central directory, or None when the archive is damaged."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return set(archive.namelist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return None


def _text_type(data: bytes) -> DetectedType:
    encoding = text_encoding(data)
    if encoding is None:
        return DetectedType(None, "application/octet-stream", "binary data of an unknown format")
    head = data[:SAMPLE_BYTES]
    if _HTML_START.match(head) or _HTML_ANYWHERE.search(head[:4096]):
        return _parsed("html", "an HTML page")
    sample = head.decode(encoding, errors="replace")
    if _looks_like_email(sample):
        return _parsed("email", "an e-mail message")
    if _MARKDOWN_SIGNS.search(sample):
        return _parsed("markdown", "a Markdown document")
    return _parsed("text", "a plain-text document")


def _looks_like_email(sample: str) -> bool:
    """An RFC 5322 header block: every line a header (or its continuation), with From and another."""
    names: set[str] = set()
    for line in sample.lstrip("\ufeff").splitlines():
        if not line.strip():
            break
        if line[0] in " \t" and names:
            continue
        match = _HEADER_LINE.match(line)
        if match is None:
            return False
        names.add(match.group(1).lower())
    return "from" in names and bool(names & _MAIL_HEADERS)

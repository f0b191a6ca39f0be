"""Looking inside a document's markup before a parser does: XML entity declarations, amount of text.

A DOCX part that declares a DTD can define entities that expand to gigabytes ("billion laughs");
Word never writes one (OOXML forbids DTDs), so any DOCTYPE refuses the file. The amount of text a
DOCX, HTML, Markdown or text file holds is estimated from its raw markup, so that a file with far
too much text is refused before ``unstructured`` spends minutes and gigabytes on it.
"""

import io
import re
import zipfile
from typing import IO, Final

from ingestor import rejections
from policypal.filetypes import FileKind, UndecodableText, decode_text

_READ_BLOCK: Final = 1024 * 1024
_DECLARATIONS: Final = tuple(
    marker.encode(encoding)
    for marker in ("<!DOCTYPE", "<!ENTITY")
    for encoding in ("utf-8", "utf-16-le", "utf-16-be")
)
_LONGEST_MARKER: Final = max(len(marker) for marker in _DECLARATIONS)
_TAG = re.compile(rb"<[^>]*>")
_HTML_CODE = re.compile(r"<(script|style)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_HTML_TAG = re.compile(r"<[^>]*>")


def check_xml_parts(data: bytes) -> None:
    """Raise ``DocumentRejected`` (xml_entities) if any XML part of the DOCX declares a DTD or entities.

    The ZIP must already have passed ``zip_guard.check_zip`` (its parts' sizes are bounded).
    """
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if info.filename.endswith((".xml", ".rels")) and _declares_entities(archive, info):
                raise rejections.xml_entities(info.filename)


def _declares_entities(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bool:
    tail = b""
    with archive.open(info) as part:
        while block := part.read(_READ_BLOCK):
            window = tail + block
            if any(marker in window for marker in _DECLARATIONS):
                return True
            tail = window[-_LONGEST_MARKER:]
    return False


def structured_text_bound(data: bytes, kind: FileKind) -> int | None:
    """About how many characters of text the file holds (an upper estimate), or None if unknown."""
    if kind == "docx":
        return _docx_text(data)
    if kind in ("text", "markdown", "html"):
        try:
            text = decode_text(data).text
        except UndecodableText:
            return None  # the parser refuses it with its own reason
        if kind == "html":
            text = _HTML_TAG.sub("", _HTML_CODE.sub("", text))
        return len(text)
    return None


def _docx_text(data: bytes) -> int:
    """Bytes outside the tags of the Word parts (body, headers, footers, notes), read block by block."""
    total = 0
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if info.filename.startswith("word/") and info.filename.endswith(".xml"):
                with archive.open(info) as part:
                    total += _outside_tags(part)
    return total


def _outside_tags(part: IO[bytes]) -> int:
    total = 0
    carry = b""
    while block := part.read(_READ_BLOCK):
        window = carry + block
        # A tag cut by the block boundary is finished with the next block.
        cut = window.rfind(b"<")
        if cut != -1 and window.find(b">", cut) == -1:
            window, carry = window[:cut], window[cut:]
        else:
            carry = b""
        total += len(_TAG.sub(b"", window))
    return total + len(carry)

"""How much text a PDF page can hold at most, known before any extractor reads it.

PDFium keeps about 160 bytes per character of a page it extracts (measured: 5 M characters took
830 MB), so a page must be judged before it is handed over. Every character PDFium extracts comes
from a string in the page's content streams or in the forms (Form XObjects) they paint, plus a
space or line break it inserts between strings; so the decoded length of those streams bounds the
text. When that length is above what the page may hold, the bytes inside strings (and two per
string for the inserted breaks) give a tighter bound, which is what real pages full of drawing
instructions need. Fonts that map one code to several characters (ligatures) can exceed the
bound; the exact count after extraction still stops those.
"""

import logging
import re
from typing import Final

from pypdf import PageObject
from pypdf.errors import LimitReachedError
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, PdfObject, StreamObject

logger = logging.getLogger(__name__)

#: Forms painting forms deeper than this are not real documents; their text is not counted further.
MAX_FORM_DEPTH: Final = 8
# A literal string (with one level of balanced parentheses and escapes) or a hex string.
_STRING = re.compile(rb"\((?:[^()\\]|\\.|\((?:[^()\\]|\\.)*\))*\)|<[0-9A-Fa-f\s]*>", re.DOTALL)


class PageTooLargeError(Exception):
    """A content stream decodes to more than the parser will decode (pypdf's output limit)."""


def page_text_bound(page: PageObject, *, allowance: int) -> int:
    """An upper bound of the characters of ``page``; above ``allowance`` it is only known to be above.

    Raises ``PageTooLargeError`` when a stream decodes to more than pypdf's output limit.
    """
    bound = 0
    seen: set[int] = set()
    for data in _streams(page, seen):
        bound += len(data) if len(data) <= allowance - bound else _string_chars(data)
        if bound > allowance:
            return bound
    return bound


def _string_chars(data: bytes) -> int:
    """Characters the strings of a content stream can yield: their bytes plus two breaks each."""
    total = 0
    for match in _STRING.finditer(data):
        length = match.end() - match.start() - 2
        # Hex strings hold two digits per byte; a bare "<>" is nothing.
        total += (length // 2 if data[match.start()] == ord("<") else length) + 2
    return total


def _streams(page: PageObject, seen: set[int]) -> list[bytes]:
    """Decoded data of the page's content streams and of the forms in its resources (each once)."""
    streams: list[bytes] = []
    contents = _resolve(page.get("/Contents"))
    parts = list(contents) if isinstance(contents, ArrayObject) else [contents]
    for part in parts:
        stream = _resolve(part)
        if isinstance(stream, StreamObject):
            streams.append(_decoded(stream))
    _form_streams(_resolve(page.get("/Resources")), seen, streams, depth=0)
    return streams


def _form_streams(resources: object, seen: set[int], streams: list[bytes], *, depth: int) -> None:
    if not isinstance(resources, DictionaryObject) or depth > MAX_FORM_DEPTH:
        return
    xobjects = _resolve(resources.get("/XObject"))
    if not isinstance(xobjects, DictionaryObject):
        return
    for reference in xobjects.values():
        form = _resolve(reference)
        if not isinstance(form, StreamObject) or form.get("/Subtype") != "/Form" or id(form) in seen:
            continue
        seen.add(id(form))
        streams.append(_decoded(form))
        _form_streams(_resolve(form.get("/Resources")), seen, streams, depth=depth + 1)


def _decoded(stream: StreamObject) -> bytes:
    try:
        data: bytes = stream.get_data()
    except LimitReachedError as exc:
        raise PageTooLargeError(str(exc)) from exc
    except Exception as exc:
        # PDFium will not read what pypdf cannot decode either; the raw bytes still bound the text.
        logger.info(
            "cannot decode a content stream (%s: %s); counting its raw bytes", type(exc).__name__, exc
        )
        return bytes(stream._data)
    return data


def _resolve(value: object) -> object:
    return value.get_object() if isinstance(value, (IndirectObject, PdfObject)) else value

"""Turning the bytes of a text file into text: BOM, then UTF-8, then a detected legacy encoding.

Binary data (NUL bytes outside UTF-16/32) is never "decoded": charset detectors will name some
single-byte encoding for anything, and indexing that would be garbage.
"""

import codecs
import re
from dataclasses import dataclass
from typing import Final

import charset_normalizer

_BOMS: Final = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
#: Enough bytes to judge the encoding of a file without reading all of it.
SAMPLE_BYTES: Final = 64 * 1024


_TIE_WINNER: Final = "cp1252"
_NON_ASCII = re.compile(rb"[\x80-\xff]")


class UndecodableText(ValueError):  # noqa: N818 - reads as the verdict on the bytes
    """The bytes are not text in any encoding we can recognise."""


@dataclass(frozen=True)
class DecodedText:
    """A text file's content and the encoding it was read with."""

    text: str
    encoding: str


def decode_text(data: bytes) -> DecodedText:
    """The whole of ``data`` as text; raises ``UndecodableText`` for binary or unknown encodings."""
    encoding = text_encoding(data)
    if encoding is None:
        raise UndecodableText("not text in a recognisable encoding")
    try:
        return DecodedText(data.decode(encoding), encoding)
    except (UnicodeDecodeError, LookupError):
        pass
    # The sample decoded but a later part does not: judge by the lines that are not ASCII.
    legacy = None if b"\x00" in data else _guess_encoding(_from_first_non_ascii(data))
    if legacy is None:
        raise UndecodableText(f"not valid {encoding} throughout, and no other encoding fits")
    try:
        return DecodedText(data.decode(legacy), legacy)
    except (UnicodeDecodeError, LookupError) as exc:
        raise UndecodableText(f"neither {encoding} nor {legacy} throughout") from exc


def text_encoding(data: bytes) -> str | None:
    """The encoding ``data`` is written in, judged from its first ``SAMPLE_BYTES``; None if not text."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding
    sample = data[:SAMPLE_BYTES]
    if b"\x00" in sample:
        return None
    try:
        # Incremental, not final: the sample may end inside a multi-byte character.
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=len(sample) == len(data))
        return "utf-8"
    except UnicodeDecodeError:
        pass
    return _guess_encoding(_from_first_non_ascii(sample))


def _guess_encoding(sample: bytes) -> str | None:
    results = charset_normalizer.from_bytes(sample)
    best = results.best()
    if best is None or best.encoding is None:
        return None
    # Short samples often fit several single-byte code pages equally well; Windows-1252 is by far
    # the most common legacy encoding of documents, so it wins a tie.
    tied = {str(m.encoding) for m in results if (m.chaos, m.coherence) == (best.chaos, best.coherence)}
    return _TIE_WINNER if _TIE_WINNER in tied else str(best.encoding)


def _from_first_non_ascii(data: bytes) -> bytes:
    """``SAMPLE_BYTES`` of ``data`` from just before its first non-ASCII byte: where encodings differ.

    A detector fed a mostly-ASCII sample has nothing to go on and guesses (big5 for French text).
    """
    first = _NON_ASCII.search(data)
    start = max(0, first.start() - 64) if first else 0
    return data[start : start + SAMPLE_BYTES]

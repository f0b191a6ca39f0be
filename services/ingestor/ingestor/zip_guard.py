"""Refusing ZIP containers (DOCX) that would unpack to far more than any real document.

A DOCX is a ZIP; a "zip bomb" of a few KB can declare gigabytes of XML. python-docx reads each part
with ``zipfile``, which stops at the declared size, so checking the central directory's declared
sizes before parsing bounds the memory the parse can take.
"""

import io
import zipfile
from typing import Final

from ingestor import rejections

#: Real DOCX parts compress 5-20x (XML); 100x only happens with deliberately repetitive content.
MAX_RATIO: Final = 100
#: The ratio is only judged for parts big enough to matter.
RATIO_FLOOR_BYTES: Final = 1024 * 1024
MAX_ENTRIES: Final = 10_000


def check_zip(data: bytes, *, max_unpacked_bytes: int) -> None:
    """Raise ``DocumentRejected`` if ``data`` is a damaged ZIP or would unpack too large."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise rejections.corrupt("The Word document is damaged or truncated and cannot be read.") from exc
    if len(infos) > MAX_ENTRIES:
        raise rejections.decompression_bomb(
            f"The Word document holds {len(infos)} parts, more than any real document; it was not opened."
        )
    total = sum(info.file_size for info in infos)
    if total > max_unpacked_bytes:
        raise rejections.decompression_bomb(
            f"The Word document would unpack to {total} bytes, more than the limit of "
            f"{max_unpacked_bytes}; it was not opened."
        )
    for info in infos:
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > RATIO_FLOOR_BYTES and ratio > MAX_RATIO:
            raise rejections.decompression_bomb(
                f"A part of the Word document ({info.filename}) is compressed {ratio:.0f} to 1, "
                "which only a decompression bomb does; it was not opened."
            )

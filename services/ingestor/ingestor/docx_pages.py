"""Page numbers for Word documents that only have hard page breaks.

``unstructured`` numbers DOCX pages from ``w:lastRenderedPageBreak``, which Word writes when it saves
but LibreOffice, python-docx and most generators do not. Such files only carry the breaks their
author typed (``w:br w:type="page"``), and every chunk would lose its page. When a document has no
rendered break at all, each hard break is marked as a rendered one, so citations can name a page.
"""

import io
import re
import zipfile

_BODY = "word/document.xml"
_RENDERED_BREAK = b"<w:lastRenderedPageBreak"
# A hard page break: <w:br w:type="page"/> (attribute order and spacing vary by producer).
_HARD_BREAK = re.compile(rb"<w:br\b[^>]*\bw:type=\"page\"[^>]*/>")


def mark_hard_page_breaks(data: bytes) -> bytes:
    """``data`` with a rendered break after each hard page break, or unchanged if none is needed."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        if _BODY not in archive.namelist():
            return data
        body = archive.read(_BODY)
        if _RENDERED_BREAK in body or not _HARD_BREAK.search(body):
            return data
        marked = _HARD_BREAK.sub(lambda found: found.group(0) + b"<w:lastRenderedPageBreak/>", body)
        output = io.BytesIO()
        with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as rewritten:
            for item in archive.infolist():
                rewritten.writestr(item, marked if item.filename == _BODY else archive.read(item.filename))
    return output.getvalue()

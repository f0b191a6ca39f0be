"""Files built to hurt an ingestor: a PDF page holding megabytes of words, a billion-laughs DOCX.

Written byte by byte (no PDF library): a real library would refuse to write such a page, or take
minutes doing it. Deterministic for a given size.
"""

import io
import random
import zipfile
import zlib

VOCABULARY = [
    "policy",
    "retention",
    "record",
    "officer",
    "audit",
    "control",
    "privacy",
    "breach",
    "notice",
    "consent",
    "vendor",
    "contract",
    "review",
    "annual",
    "training",
    "access",
    "incident",
    "report",
    "register",
    "compliance",
]


def words_page_pdf(text_bytes: int, *, seed: int = 7) -> bytes:
    """A one-page PDF whose page shows about ``text_bytes`` characters of words (compressed stream)."""
    rnd = random.Random(seed)
    lines: list[str] = []
    size = 0
    while size < text_bytes:
        line = " ".join(rnd.choice(VOCABULARY) for _ in range(12))
        lines.append(f"({line}) '\n")
        size += len(line) + 1
    content = zlib.compress(("BT /F1 2 Tf 20 820 Td 2 TL\n" + "".join(lines) + "ET\n").encode(), 6)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> "
        b"/Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def billion_laughs_docx(base: bytes) -> bytes:
    """``base`` (a valid DOCX) with a document body declaring nested entities that expand to ~3 GB."""
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{level} "{("&lol" + str(level - 1) + ";") * 10}">' for level in range(1, 10)
    ]
    body = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f"<!DOCTYPE w:document [{''.join(entities)}]>\n"
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        "<w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>"
    ).encode()
    output = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(base)) as source,
        zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as docx,
    ):
        for item in source.infolist():
            docx.writestr(item, body if item.filename == "word/document.xml" else source.read(item.filename))
    return output.getvalue()

"""Twelve long real documents from Debian packages, as PDFs in bench/.cache.

PDF manuals are taken as shipped (``apt-get download`` + ``dpkg-deb -x``, as ``bench.ingestion`` does
for policy.pdf). Plain-text documents (the GPL from base-files' common-licenses, three versions of
the Debian Constitution from doc-debian) are typeset into PDFs here, 60 lines a page in Courier with
the page number at the foot, so that they have pages to cite and both stacks read the same file.
"""

import gzip
import io
import subprocess
from dataclasses import dataclass
from pathlib import Path

from bench.ingestion import CACHE
from bench.recall_corpus import fetch_documents as fetch_policy_and_fhs

#: Typeset text: lines a page, and the longest line before it wraps.
LINES_PER_PAGE, WRAP_AT = 60, 96


@dataclass(frozen=True)
class Document:
    """One document of the library: where it comes from and how it is catalogued."""

    document_id: str
    title: str
    version: str
    package: str
    #: The file inside the package (``.gz`` is decompressed); a ``.txt`` is typeset into a PDF.
    member: str

    @property
    def pdf(self) -> Path:
        """Where the PDF is kept in the cache."""
        return CACHE / "inquire" / f"{self.document_id}.pdf"


DOCUMENTS = [
    Document("policy", "Debian Policy Manual", "4.6.2.0", "debian-policy", ""),
    Document("fhs", "Filesystem Hierarchy Standard", "3.0", "debian-policy", ""),
    Document(
        "devref",
        "Debian Developer's Reference",
        "12.18",
        "developers-reference",
        "usr/share/developers-reference/developers-reference.pdf",
    ),
    Document(
        "gnu-standards",
        "GNU Coding Standards",
        "2022-03-23",
        "gnu-standards",
        "usr/share/doc/gnu-standards/standards.pdf.gz",
    ),
    Document(
        "gnu-maintain",
        "Information for Maintainers of GNU Software",
        "2022-03-23",
        "gnu-standards",
        "usr/share/doc/gnu-standards/maintain.pdf.gz",
    ),
    Document(
        "maint-guide",
        "Debian New Maintainers' Guide",
        "1.2.53",
        "maint-guide",
        "usr/share/doc/maint-guide/maint-guide.en.pdf",
    ),
    Document(
        "debian-reference",
        "Debian Reference",
        "2.100",
        "debian-reference-en",
        "usr/share/debian-reference/debian-reference.en.pdf",
    ),
    Document(
        "gpl2", "GNU General Public License v2", "2", "base-files", "usr/share/common-licenses/GPL-2.txt"
    ),
    Document(
        "gpl3", "GNU General Public License v3", "3", "base-files", "usr/share/common-licenses/GPL-3.txt"
    ),
    Document(
        "constitution-1_7",
        "Debian Constitution",
        "1.7",
        "doc-debian",
        "usr/share/doc/debian/constitution.1.7.txt.gz",
    ),
    Document(
        "constitution-1_8",
        "Debian Constitution",
        "1.8",
        "doc-debian",
        "usr/share/doc/debian/constitution.1.8.txt.gz",
    ),
    Document(
        "constitution-1_9",
        "Debian Constitution",
        "1.9",
        "doc-debian",
        "usr/share/doc/debian/constitution.txt.gz",
    ),
]
BY_ID = {document.document_id: document for document in DOCUMENTS}


def fetch_all() -> dict[str, Path]:
    """Every document's PDF, fetched and made when missing."""
    return {document.document_id: fetch(document) for document in DOCUMENTS}


def fetch(document: Document) -> Path:
    """``document`` as a PDF in the cache."""
    if document.document_id in ("policy", "fhs"):
        return fetch_policy_and_fhs()[document.document_id]
    if document.pdf.exists():
        return document.pdf
    document.pdf.parent.mkdir(parents=True, exist_ok=True)
    if document.member.endswith(".txt") and document.package == "base-files":
        # The licences are on every Debian system; the package need not be fetched.
        text = Path("/", document.member.removesuffix(".txt")).read_text()
    else:
        data = package_member(document.package, document.member)
        if not document.member.removesuffix(".gz").endswith(".txt"):
            document.pdf.write_bytes(data)
            return document.pdf
        text = data.decode()
    document.pdf.write_bytes(typeset(text))
    return document.pdf


def package_member(package: str, member: str, *, debs: Path = CACHE, extracted: Path = CACHE / "x") -> bytes:
    """The file ``member`` of Debian package ``package`` (``.gz`` decompressed), downloaded into
    ``debs`` and unpacked into ``extracted`` when missing."""
    if not (extracted / member).exists():
        found = sorted(debs.glob(f"{package}_*.deb"))
        if not found:
            debs.mkdir(parents=True, exist_ok=True)
            subprocess.run(["apt-get", "download", package], cwd=debs, check=True, capture_output=True)
            found = sorted(debs.glob(f"{package}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(found[-1]), str(extracted)], check=True, capture_output=True)
    data = (extracted / member).read_bytes()
    return gzip.decompress(data) if member.endswith(".gz") else data


def typeset(text: str) -> bytes:
    """``text`` as a PDF: Courier 9 pt, ``LINES_PER_PAGE`` lines a page, the page number at the foot."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    lines: list[str] = []
    for line in text.expandtabs().splitlines():
        while len(line) > WRAP_AT:
            cut = line.rfind(" ", 0, WRAP_AT)
            cut = cut if cut > 0 else WRAP_AT
            lines.append(line[:cut])
            line = "    " + line[cut:].lstrip()
        lines.append(line)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    for number, first in enumerate(range(0, len(lines), LINES_PER_PAGE), start=1):
        canvas.setFont("Courier", 9)
        y = A4[1] - 50
        for line in lines[first : first + LINES_PER_PAGE]:
            canvas.drawString(40, y, line)
            y -= 12
        canvas.drawCentredString(A4[0] / 2, 30, str(number))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()

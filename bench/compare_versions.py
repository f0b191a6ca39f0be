"""Real versions of real documents for the @Compare redline bench, and their gold changes.

Debian's doc-debian package ships the Debian Constitution 1.0 … 1.9 and the Social Contract 1.0, 1.1
and current as plain text; base-files ships the GPL-2 and GPL-3 (/usr/share/common-licenses). They
are fetched into bench/.cache with ``apt-get download`` + ``dpkg-deb -x`` when missing, then set as
PDFs (a running head and a page number on every page, 50 lines a page) so that the redline reads
them as the ingestor does, page breaks and running heads included.

Gold: the paragraphs of each text (blank-line blocks, list items, headings), normalised for what is
not a change (spacing, hyphenation at line ends, quote and dash styles, a leading list or section
number), diffed in order; every paragraph on either side of a non-equal stretch is a gold change.
"""

import difflib
import gzip
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from bench.ingestion import CACHE
from tests.pdf_factory import make_pdf

DOC_DEBIAN = CACHE / "doc-debian"
LICENSES = Path("/usr/share/common-licenses")
LINES_PER_PAGE = 50
CONSTITUTION = ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9"]
SOCIAL_CONTRACT = ["1.0", "1.1", "1.2"]

_QUOTES = re.compile(r"[\"'`´‘’‚‛“”„‟«»]")
_DASHES = re.compile(r"[‐‑‒–—―−]+|-{2,}")
_ENUMERATOR = re.compile(
    r"^(?:§\s*)?(?:\(?(?:[A-Z]\.)?\d+(?:\.\d+)*[.)]?|\(?[a-zA-Z][.)]|\(?[ivxlc]{1,5}[.)])\s+"
)
_ITEM_START = re.compile(r"^\s*(?:\(?(?:\d{1,2}|[a-z])[.)]|[-*•])\s+")
_HEADING = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.(?:\d+\.?)*)\s+[A-Z]")


@dataclass(frozen=True)
class Version:
    """One version of a document: its id, title, version label and text."""

    id: str
    title: str
    version: str
    text: str

    def pdf(self) -> bytes:
        """The text set as a PDF: a running head and a page number on every page."""
        lines = self.text.split("\n")
        pages = []
        for number, start in enumerate(range(0, len(lines), LINES_PER_PAGE), start=1):
            body = "\n".join(lines[start : start + LINES_PER_PAGE])
            pages.append(f"{self.title}, version {self.version}\n{body}\nPage {number}")
        return make_pdf(pages, title=f"{self.title} {self.version}")


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of a text, as written and normalised."""

    text: str
    key: str


def fetch_versions() -> dict[str, list[Version]]:
    """The version families of the bench, oldest first, fetched into bench/.cache when missing."""
    folder = DOC_DEBIAN / "usr/share/doc/debian"
    if not folder.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(["apt-get", "download", "doc-debian"], cwd=CACHE, check=True, capture_output=True)
        deb = next(CACHE.glob("doc-debian_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(deb), str(DOC_DEBIAN)], check=True, capture_output=True)

    def read(name: str) -> str:
        return gzip.decompress((folder / name).read_bytes()).decode("utf-8", errors="replace")

    def constitution(version: str) -> str:
        return read(
            "constitution.txt.gz" if version == CONSTITUTION[-1] else f"constitution.{version}.txt.gz"
        )

    def contract(version: str) -> str:
        current = version == SOCIAL_CONTRACT[-1]
        return read("social-contract.txt.gz" if current else f"social-contract.{version}.txt.gz")

    return {
        "constitution": [
            Version(f"constitution-{v.replace('.', '_')}", "Debian Constitution", v, constitution(v))
            for v in CONSTITUTION
        ],
        "social-contract": [
            Version(f"social-contract-{v.replace('.', '_')}", "Debian Social Contract", v, contract(v))
            for v in SOCIAL_CONTRACT
        ],
        "gpl": [
            Version(f"gpl-{v}", "GNU General Public License", v, (LICENSES / f"GPL-{v}").read_text())
            for v in ("2", "3")
        ],
    }


def paragraphs(text: str) -> list[Paragraph]:
    """The paragraphs of a plain text: blank-line blocks, each list item and heading on its own."""
    found: list[str] = []
    current: list[str] = []
    for line in text.split("\n"):
        starts_anew = bool(_ITEM_START.match(line) or _HEADING.match(line))
        if not line.strip() or starts_anew:
            if current:
                found.append(" ".join(current))
            current = [line.strip()] if line.strip() else []
            continue
        current.append(line.strip())
    if current:
        found.append(" ".join(current))
    return [Paragraph(p, key) for p in found if (key := normalised(p))]


def normalised(text: str) -> str:
    """What a paragraph says, spacing, hyphenation, quote and dash styles and its number aside."""
    text = re.sub(r"(?<=[a-z])-\s+(?=[a-z])", "", text)
    text = _DASHES.sub("-", _QUOTES.sub("", text))
    text = re.sub(r"(?<=\w)-(?=\w)", "", text)
    return _ENUMERATOR.sub("", " ".join(text.split()))


def gold_changes(first: str, second: str) -> tuple[list[Paragraph], list[Paragraph]]:
    """The changed paragraphs of each text: those of ``first`` gone or reworded, those of ``second`` new."""
    ours, theirs = paragraphs(first), paragraphs(second)
    matcher = difflib.SequenceMatcher(a=[p.key for p in ours], b=[p.key for p in theirs], autojunk=False)
    before, after = [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            before += ours[i1:i2]
            after += theirs[j1:j2]
    # A paragraph only moved is still a change (a move), found on both sides.
    return before, after

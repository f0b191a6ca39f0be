"""Targets, sources and gold of the @Audit quality bench, read from ``gold.json``.

Targets are regulations from Debian packages, fetched into bench/.cache like the retrieval bench
does (``apt-get download`` + ``dpkg-deb -x``): policy.pdf and fhs-3.0.pdf from ``debian-policy``,
standards.pdf from ``gnu-standards``, and the GPL-3 as plain text from base-files'
/usr/share/common-licenses. Sources are the company documents in this folder.

Gold, per source: its file, mode (``policy``: ingested and audited by document id; ``text``: passed
as ``source_text``), split, targets, and every planted clause with its label. A violation names
the rules it breaks: a target and the pages (1-based, as the ingestor records them) that state the
rule, or for the page-less GPL-3 text the numbered sections; with a short verbatim quote of the
rule. Per target, the boilerplate pages (title, contents, index, revision history, the document's
own licence), or sections for the GPL-3.
"""

import gzip
import json
import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from bench.ingestion import CACHE
from bench.recall_corpus import fetch_documents as fetch_debian_policy

HERE = Path(__file__).parent
GOLD_FILE = HERE / "gold.json"
GPL3 = Path("/usr/share/common-licenses/GPL-3")
#: What each target document is, by file name in bench/.cache: its upload content type.
CONTENT_TYPES = {".pdf": "application/pdf", ".txt": "text/plain", ".md": "text/markdown"}

Label = Literal["violation", "compliant"]
Mode = Literal["policy", "text"]
Split = Literal["dev", "held-out"]
SPLITS: tuple[Split, ...] = ("dev", "held-out")


@dataclass(frozen=True)
class Rule:
    """Where a target states the rule a planted violation breaks."""

    target: str
    pages: frozenset[int]
    sections: frozenset[str]
    quote: str


@dataclass(frozen=True)
class Clause:
    """A planted clause of a source: verbatim text, label and, for a violation, its rules."""

    id: str
    label: Label
    kind: str | None
    text: str
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class Source:
    """A company document audited by the bench."""

    id: str
    file: str
    title: str
    mode: Mode
    split: Split
    targets: tuple[str, ...]
    latency_case: bool
    clauses: tuple[Clause, ...]

    @property
    def path(self) -> Path:
        """The source file in bench/audit_corpus."""
        return HERE / self.file

    @property
    def violations(self) -> list[Clause]:
        """The planted violations."""
        return [c for c in self.clauses if c.label == "violation"]

    @property
    def compliant(self) -> list[Clause]:
        """The compliant clauses."""
        return [c for c in self.clauses if c.label == "compliant"]


@dataclass(frozen=True)
class Target:
    """A regulation the sources are audited against."""

    id: str
    title: str
    version: str
    file: str
    boilerplate_pages: frozenset[int]
    boilerplate_sections: frozenset[str]

    @property
    def path(self) -> Path:
        """The document in bench/.cache (fetched by ``fetch_targets``)."""
        return CACHE / self.file

    @property
    def paged(self) -> bool:
        """Whether the ingestor records pages for it (PDF) or not (plain text)."""
        return self.path.suffix == ".pdf"


@dataclass(frozen=True)
class Gold:
    """The whole gold: targets by id, and sources in order."""

    targets: dict[str, Target]
    sources: list[Source]


def load_gold(path: Path = GOLD_FILE) -> Gold:
    """The gold of ``gold.json``; raises ValueError when a clause is not verbatim in its source."""
    raw: dict[str, Any] = json.loads(path.read_text())
    targets = {
        target_id: Target(
            id=target_id,
            title=t["title"],
            version=t["version"],
            file=t["file"],
            boilerplate_pages=frozenset(t["boilerplate"].get("pages", [])),
            boilerplate_sections=frozenset(t["boilerplate"].get("sections", [])),
        )
        for target_id, t in raw["targets"].items()
    }
    sources = [_source(s) for s in raw["sources"]]
    for source in sources:
        text = source.path.read_text()
        for clause in source.clauses:
            if text.count(clause.text) != 1:
                raise ValueError(f"{source.id}/{clause.id}: not verbatim (exactly once) in {source.file}")
            for rule in clause.rules:
                if rule.target not in source.targets:
                    raise ValueError(f"{source.id}/{clause.id}: rule target {rule.target} is not a target")
    return Gold(targets, sources)


def _source(s: dict[str, Any]) -> Source:
    clauses = tuple(
        Clause(
            id=c["id"],
            label=c["label"],
            kind=c.get("kind"),
            text=c["text"],
            rules=tuple(
                Rule(
                    target=r["target"],
                    pages=frozenset(r.get("pages", [])),
                    sections=frozenset(r.get("sections", [])),
                    quote=r["quote"],
                )
                for r in c.get("rules", [])
            ),
        )
        for c in s["clauses"]
    )
    return Source(
        id=s["id"],
        file=s["file"],
        title=s["title"],
        mode=s["mode"],
        split=s["split"],
        targets=tuple(s["targets"]),
        latency_case=bool(s.get("latency_case", False)),
        clauses=clauses,
    )


def fetch_gnu_standards() -> Path:
    """bench/.cache/standards.pdf, from the ``gnu-standards`` package (apt-get when missing)."""
    standards = CACHE / "standards.pdf"
    if not standards.exists():
        extracted = CACHE / "x/usr/share/doc/gnu-standards/standards.pdf.gz"
        if not extracted.exists():
            found = sorted(CACHE.glob("gnu-standards_*.deb"))
            if not found:
                subprocess.run(
                    ["apt-get", "download", "gnu-standards"], cwd=CACHE, check=True, capture_output=True
                )
                found = sorted(CACHE.glob("gnu-standards_*.deb"))
            subprocess.run(
                ["dpkg-deb", "-x", str(found[-1]), str(CACHE / "x")], check=True, capture_output=True
            )
        standards.write_bytes(gzip.decompress(extracted.read_bytes()))
    return standards


def fetch_targets(gold: Gold) -> dict[str, Path]:
    """Every target document in bench/.cache, fetched with apt-get when missing."""
    fetch_debian_policy()  # policy.pdf and fhs-3.0.pdf
    fetch_gnu_standards()
    gpl = CACHE / "GPL-3.txt"
    if not gpl.exists():
        shutil.copyfile(GPL3, gpl)
    paths = {target_id: target.path for target_id, target in gold.targets.items()}
    missing = [str(p) for p in paths.values() if not p.exists()]
    if missing:
        raise SystemExit(f"missing target documents: {', '.join(missing)}")
    return paths


# --- text matching ---------------------------------------------------------------------------

_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‐": "-", "…": " "})
#: Markup that the ingestor may drop from Markdown (emphasis, code) and that never decides a match.
_MARKUP = re.compile(r"[*`_]")


def normalise(text: str) -> str:
    """``text`` for matching: NFKC (ligatures), case-folded, straight quotes, no markup, one space."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    text = _MARKUP.sub("", text).replace("...", " ")
    return " ".join(text.split())


# --- the GPL-3 text: sections instead of pages --------------------------------------------------

_SECTION = re.compile(r"^\s{1,4}(\d{1,2})\. [A-Z].*\.$")


def text_sections(text: str) -> list[tuple[str, str]]:
    """(name, normalised text) of each section of the GPL-3: ``header``, ``preamble``, ``0``-``17``,
    ``appendix`` (How to Apply These Terms)."""
    sections: list[tuple[str, list[str]]] = [("header", [])]
    for line in text.splitlines():
        stripped = line.strip()
        if stripped == "Preamble":
            sections.append(("preamble", []))
        elif stripped == "END OF TERMS AND CONDITIONS":
            sections.append(("appendix", []))
        elif (match := _SECTION.match(line)) and sections[-1][0] != "appendix":
            sections.append((match.group(1), []))
        sections[-1][1].append(line)
    return [(name, normalise("\n".join(lines))) for name, lines in sections]


def section_of(quote: str, sections: list[tuple[str, str]]) -> str | None:
    """The section whose text holds ``quote`` (whole, else its first or last 40 characters)."""
    wanted = normalise(quote)
    for probe in (wanted, wanted[:40], wanted[-40:]):
        if len(probe) < 15:
            continue
        for name, body in sections:
            if probe in body:
                return name
    return None

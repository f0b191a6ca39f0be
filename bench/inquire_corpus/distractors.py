"""Nineteen more long real manuals from Debian packages: the distractors of the distinct library.

Together with the inquire bench's twelve documents (``documents.DOCUMENTS``, where the questions'
gold pages are) they make a library of 31 distinct documents for one user, many of them about
neighbouring subjects (shells, build tools, packaging, licences), so that library-wide ranking has
real competitors. Fetched like ``documents``: ``apt-get download`` + ``dpkg-deb -x`` into
bench/.cache/distinct_library; PDF manuals are taken as shipped, plain-text ones typeset into PDFs
(``documents.typeset``) so that every document has pages. R's 2,415-page function reference
(``refman.pdf``) is left out on purpose: one reference of that size would be a third of the library.
"""

from dataclasses import dataclass
from pathlib import Path

from bench.ingestion import CACHE
from bench.inquire_corpus.documents import package_member, typeset

FOLDER = CACHE / "distinct_library"


@dataclass(frozen=True)
class Distractor:
    """One distractor document: its catalogue entry and where it is in its package."""

    document_id: str
    title: str
    version: str
    package: str
    #: The file inside the package (``.gz`` is decompressed); a ``.txt`` is typeset into a PDF.
    member: str

    @property
    def pdf(self) -> Path:
        """Where the PDF is kept in the cache."""
        return FOLDER / "pdf" / f"{self.document_id}.pdf"


_R = "usr/share/R/doc/manual"
DISTRACTORS = [
    Distractor("autoconf", "Autoconf", "2.71", "autoconf-doc", "usr/share/doc/autoconf/autoconf.pdf.gz"),
    Distractor("bash-man", "Bash manual page", "5.2", "bash-doc", "usr/share/doc/bash/bash.pdf"),
    Distractor("bashref", "Bash Reference Manual", "5.2", "bash-doc", "usr/share/doc/bash/bashref.pdf"),
    Distractor("zsh", "The Z Shell Manual", "5.9", "zsh-doc", "usr/share/doc/zsh-common/zsh.pdf"),
    Distractor(
        "debmake",
        "Guide for Debian Maintainers",
        "1.17",
        "debmake-doc",
        "usr/share/doc/debmake-doc/debmake-doc.en.pdf",
    ),
    Distractor(
        "debian-history",
        "A Brief History of Debian",
        "2.28",
        "debian-history",
        "usr/share/doc/debian-history/docs/project-history.en.pdf",
    ),
    Distractor(
        "debian-faq",
        "The Debian GNU/Linux FAQ",
        "11.1",
        "debian-faq",
        "usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz",
    ),
    Distractor(
        "flex", "Lexical Analysis With Flex", "2.6.4", "flex-doc", "usr/share/doc/flex-doc/flex.pdf.gz"
    ),
    Distractor("gnuplot", "gnuplot documentation", "5.4", "gnuplot-doc", "usr/share/doc/gnuplot/gnuplot.pdf"),
    Distractor("r-faq", "R FAQ", "4.2.2", "r-doc-pdf", f"{_R}/R-FAQ.pdf"),
    Distractor("r-intro", "An Introduction to R", "4.2.2", "r-doc-pdf", f"{_R}/R-intro.pdf"),
    Distractor("r-data", "R Data Import/Export", "4.2.2", "r-doc-pdf", f"{_R}/R-data.pdf"),
    Distractor("r-lang", "R Language Definition", "4.2.2", "r-doc-pdf", f"{_R}/R-lang.pdf"),
    Distractor("r-exts", "Writing R Extensions", "4.2.2", "r-doc-pdf", f"{_R}/R-exts.pdf"),
    Distractor("r-admin", "R Installation and Administration", "4.2.2", "r-doc-pdf", f"{_R}/R-admin.pdf"),
    Distractor("r-ints", "R Internals", "4.2.2", "r-doc-pdf", f"{_R}/R-ints.pdf"),
    Distractor("git-manual", "Git User Manual", "2.39.5", "git-doc", "usr/share/doc/git-doc/user-manual.txt"),
    Distractor(
        "pam-sag",
        "The Linux-PAM System Administrators' Guide",
        "1.5.2",
        "libpam-doc",
        "usr/share/doc/libpam-doc/txt/Linux-PAM_SAG.txt.gz",
    ),
    Distractor(
        "pam-adg",
        "The Linux-PAM Application Developers' Guide",
        "1.5.2",
        "libpam-doc",
        "usr/share/doc/libpam-doc/txt/Linux-PAM_ADG.txt.gz",
    ),
]


def fetch_distractors() -> dict[str, Path]:
    """Every distractor's PDF, fetched and made when missing."""
    return {distractor.document_id: fetch(distractor) for distractor in DISTRACTORS}


def fetch(distractor: Distractor) -> Path:
    """``distractor`` as a PDF in the cache."""
    if distractor.pdf.exists():
        return distractor.pdf
    distractor.pdf.parent.mkdir(parents=True, exist_ok=True)
    data = package_member(distractor.package, distractor.member, debs=FOLDER / "debs", extracted=FOLDER / "x")
    if distractor.member.removesuffix(".gz").endswith(".txt"):
        data = typeset(data.decode())
    distractor.pdf.write_bytes(data)
    return distractor.pdf

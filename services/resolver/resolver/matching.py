"""Finding documents by name: titles written out in a message, and fuzzy matching of loose names.

Pure functions over lists of ``Named`` documents (registry entries or catalog records), so the same
rules serve the conversation's registry and the user's whole catalog.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rapidfuzz import fuzz

from policypal.contracts import DocType

#: docs/product.md, Fuzzy title match: title + version at 85 % or more counts.
FUZZY_THRESHOLD = 85.0
_MIN_COMPACT_TITLE = 5
#: Initials shorter than this ("PP" for "Privacy Policy") say too little to match on.
_MIN_INITIALS = 3
#: One word in capitals, digits allowed: "DORA", "PSD2", "CET1".
_ACRONYM = re.compile(r"[A-Z][A-Z0-9]+")

#: Capitalised words that open sentences or name actions, never documents.
_NOT_NAMES = frozenset(
    """what how when where why who which is are was were does do did can could should must may will would
    the a an this that these those it i we our my your please and or now then also compare summarize
    summarise audit inquire explain describe list tell give show find check against with about versus vs
    web search latest current recent today""".split()  # noqa: SIM905 - a word list reads better as text
)
#: Generic nouns that may end a document's name ("the FSA guidelines").
_NAME_TAILS = (
    r"guidelines?|regulations?|rules|rulebook|policy|policies|act|directive|standard|framework|handbook|"
    r"manual|circular|code|procedures?|report|document|doc"
)
#: Nouns that end a document's name even after a lowercase word or two ("the Ubuntu packaging guide").
_KIND_TAILS = (
    r"guides?|manuals?|handbooks?|licen[cs]es?|constitution|charter|contract|specifications?|agreement|"
    r"standards?|guidelines"
)
_NAME = re.compile(
    r"\b((?:[A-Z][\w&'.-]*|\d{4})(?:\s+(?:[A-Z][\w&'.-]*|\d+(?:\.\d+)*|of|and|for|on))*)"
    rf"(\s+(?:(?:[a-z][\w-]*\s+){{1,2}}(?:{_KIND_TAILS})|{_NAME_TAILS}|{_KIND_TAILS}))?\b"
)
#: Words that point into a document ("Article 5 of", "Section 4.2"): with their number, not a name.
_LOCATORS = frozenset(
    """article art art. section chapter annex part paragraph para recital schedule clause page table
    figure appendix item step""".split()  # noqa: SIM905 - a word list reads better as text
)


class Named(Protocol):
    """Anything with a document's identity: a registry entry or a catalog record."""

    @property
    def document_id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def doc_type(self) -> DocType: ...


@dataclass(frozen=True)
class TitleHit:
    """A document whose title appears in a message; ``with_version`` when its version does too."""

    document_id: str
    position: int
    with_version: bool


def compact(text: str) -> str:
    """Lower case without spaces or punctuation: "Bank Negara 2024" and "BankNegara2024" meet."""
    return re.sub(r"[\W_]+", "", text.lower())


def title_hits(text: str, documents: Sequence[Named]) -> list[TitleHit]:
    """Documents whose title (with or without the version) is written in ``text``.

    When a title is written with a version, only the documents of that version count: "Bank Negara
    2024" is not a hit for the 2025 edition, while a bare "Bank Negara" is a hit for both.
    """
    lowered = text.lower()
    squeezed = compact(text)
    hits: list[TitleHit] = []
    for doc in documents:
        key = compact(doc.title)
        if len(key) < _MIN_COMPACT_TITLE or key not in squeezed:
            continue
        position = lowered.find(doc.title.lower())
        with_version = bool(doc.version) and compact(doc.title + doc.version) in squeezed
        hits.append(TitleHit(doc.document_id, position if position >= 0 else len(text), with_version))
    titles = {d.document_id: compact(d.title) for d in documents}
    versioned = {titles[h.document_id] for h in hits if h.with_version}
    return [h for h in hits if h.with_version or titles[h.document_id] not in versioned]


def loose_names(text: str) -> list[tuple[str, int]]:
    """Things in ``text`` that look like a document's name ("FSA guidelines", "BankNegara2024").

    Runs of capitalised words, acronyms and years, with a generic tail such as "guidelines";
    sentence openers and action words are not names. Returns (name, position) pairs.
    """
    names: list[tuple[str, int]] = []
    for match in _NAME.finditer(text):
        words = match.group(1).split()
        start = match.start(1)
        while words and (
            words[0].lower().strip(".") in _NOT_NAMES
            or words[0].lower() in _LOCATORS
            or (words[0].lower() == "of" or (re.fullmatch(r"\d+(?:\.\d+)*", words[0]) and len(words[0]) != 4))
        ):
            start += len(words[0]) + 1
            words = words[1:]
        while words and words[-1].lower() in {"of", "and", "for", "on"}:
            words = words[:-1]
        if not words or (len(words) == 1 and words[0].isdigit()):
            continue
        name = " ".join(words) + (match.group(2) or "")
        names.append((name, start))
    return names


def stands_for(acronym: str, title: str) -> bool:
    """Whether the one-word ``acronym`` is the acronym ``title`` is known by.

    Either the initials of the title's words before any bracket or number ("DORA" for "Digital
    Operational Resilience Act"), or written in brackets ("General Data Protection Regulation (GDPR)").
    """
    if not _ACRONYM.fullmatch(acronym):
        return False
    key = acronym.lower()
    if key in {compact(b) for b in re.findall(r"\(([^)]*)\)", title)}:
        return True
    initials = "".join(w[0] for w in re.split(r"[(\d]", title, maxsplit=1)[0].split()).lower()
    return len(key) >= _MIN_INITIALS and initials == key


def acronym_within(name: str, title: str) -> bool:
    """Whether ``name`` is the acronym of consecutive words of ``title``: "GPL" in "GNU General Public License"."""
    if not re.fullmatch(r"[A-Z][A-Z0-9]{2,}", name):
        return False
    initials = "".join(word[0] for word in re.findall(r"[A-Za-z]+", title)).lower()
    return name.lower() in initials


def fuzzy_matches(name: str, documents: Sequence[Named]) -> list[str]:
    """The documents whose title + version match ``name`` at ``FUZZY_THRESHOLD`` or more, best only.

    Several documents come back when they score the same (one title, two versions): the caller asks
    the user which one. A year or number in the name must be in the document's title or version.
    """
    numbers = set(re.findall(r"\d+", name))
    scored: list[tuple[float, str]] = []
    for doc in documents:
        label = f"{doc.title} {doc.version}"
        if numbers - set(re.findall(r"\d+", label)):
            continue
        score = max(
            fuzz.token_set_ratio(name.lower(), label.lower()),
            fuzz.ratio(compact(name), compact(label)),
            fuzz.ratio(compact(name), compact(doc.title)),
            100.0 if stands_for(name, doc.title) else 0.0,
        )
        if score >= FUZZY_THRESHOLD:
            scored.append((score, doc.document_id))
    if not scored:
        return []
    best = max(score for score, _ in scored)
    return [document_id for score, document_id in scored if score == best]

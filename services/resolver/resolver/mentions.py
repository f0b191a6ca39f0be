"""Taking the composer's @mentions out of a message, so workers get the plain question."""

import re
from collections.abc import Iterable

from policypal.state import DocumentRecord

#: Action tags the composer offers (docs/product.md, Mentions), plus @Web; any of them may open a message.
ACTION_TAGS = ("summarize", "inquire", "compare", "audit", "web")


def mention_names(documents: Iterable[DocumentRecord]) -> list[str]:
    """The names that may follow an @ for ``documents``: titles, set names and ids.

    Titles and set names count as written and without their spaces, as the gateway's suggestions
    insert them ("@PrudentialRulebook"), and so do titles with their version, which the suggestions
    insert when a title has several ("@GNUGeneralPublicLicense(3)"). A set mention reaches the
    resolver as its member documents, so their set name is theirs too.
    """
    names: list[str] = []
    for doc in documents:
        for label in (doc.title, doc.set_name or "", *versioned_labels(doc.title, doc.version)):
            names.extend((label, "".join(label.split())))
        names.append(doc.document_id)
    return list(dict.fromkeys(n for n in names if n.strip()))


def versioned_labels(title: str, version: str) -> list[str]:
    """A title with its version as people write it after an @: "Title (3)", "Title (v3)", "Title 3"."""
    if not version.strip():
        return []
    written = {version.strip()}
    if re.fullmatch(r"\d+(?:\.\d+)*", version.strip()):
        written.add(f"v{version.strip()}")
    return [form for v in sorted(written) for form in (f"{title} ({v})", f"{title}({v})", f"{title} {v}")]


def strip_mentions(text: str, names: Iterable[str]) -> str:
    """``text`` without ``@<action>`` tags and ``@<name>`` for each given name (titles, ids).

    Only known names are removed: a free ``@`` elsewhere (an e-mail address, "@ 5 %") is part of the
    question. Longer names go first so "@Bank Negara 2024" wins over "@Bank Negara".
    """
    candidates = sorted({n.strip() for n in (*ACTION_TAGS, *names) if n.strip()}, key=len, reverse=True)
    pattern = re.compile(
        r"(?<![\w@])@(?:" + "|".join(re.escape(n) for n in candidates) + r")(?![\w-])", re.IGNORECASE
    )
    stripped = re.sub(r"\s+", " ", pattern.sub(" ", text))
    # Mentions leave gaps before punctuation ("@Doc: what" -> " : what") and a stray comma in front; a
    # dot that starts a word (".deb", ".so") is part of it, not punctuation.
    stripped = re.sub(r" ([,;:.?!])(?!\w)", r"\1", stripped)
    return stripped.strip().lstrip(",;:").strip()


def mention_spans(text: str, names: Iterable[str]) -> list[tuple[str, int, int]]:
    """(name, start, end) of every ``@<action>`` tag and ``@<name>`` mention in ``text``."""
    candidates = sorted({n.strip() for n in (*ACTION_TAGS, *names) if n.strip()}, key=len, reverse=True)
    pattern = re.compile(
        r"(?<![\w@])@(" + "|".join(re.escape(n) for n in candidates) + r")(?![\w-])", re.IGNORECASE
    )
    return [(m.group(1), m.start(), m.end()) for m in pattern.finditer(text)]


def mask_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with each span blanked out, so positions of everything else stay where they were."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)

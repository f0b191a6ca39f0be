"""Names for the themes of a comparison: a section title the documents share, else a shared key phrase.

A theme found by clustering sentences is named by what a reader would recognise: the heading most of
its sentences stand under ("Record retention"), when that heading holds in at least two documents or
most of the theme; else its key phrase, two or three content words running together ("personal
data", "security incidents"), preferring one that several documents use, weighed against the other
themes so that each theme is named by what sets it apart. Word bags are the last resort.
"""

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from actions.compare.provisions import section_title
from actions.themes import Theme, content_words

#: A heading names a theme when this share of its sentences stand under it (or two documents do).
SECTION_SHARE = 0.4
# Words, and the punctuation that ends a phrase.
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|[^\sA-Za-z]")


def named_themes(
    themes: Sequence[Theme],
    texts: Sequence[str],
    sections: Sequence[str | None],
    owners: Sequence[int],
) -> list[Theme]:
    """``themes`` (over ``texts``, each under heading ``sections[i]`` of document ``owners[i]``) renamed."""
    phrase_counts = [Counter(p for i in theme.members for p in key_phrases(texts[i])) for theme in themes]
    spread = Counter(p for counts in phrase_counts for p in counts)
    named: list[Theme] = []
    used: set[str] = set()
    for theme, counts in zip(themes, phrase_counts, strict=True):
        name = _by_section(theme, sections, owners, used) or _by_phrase(
            theme, counts, spread, len(themes), texts, owners, used
        )
        name = name or theme.name
        used.add(name.casefold())
        named.append(replace(theme, name=name))
    return named


def key_phrases(text: str) -> list[str]:
    """The runs of two or three content words of ``text`` (lower-cased), each run's sub-phrases too."""
    runs: list[list[str]] = [[]]
    for token in _TOKEN.findall(text):
        word = token.lower().strip("'-")
        if word[:1].isalpha() and content_words(word):
            runs[-1].append(word)
        elif runs[-1]:
            runs.append([])
    phrases = []
    for run in runs:
        for size in (2, 3):
            phrases += [" ".join(run[k : k + size]) for k in range(len(run) - size + 1)]
    return phrases


def _by_section(
    theme: Theme, sections: Sequence[str | None], owners: Sequence[int], used: set[str]
) -> str | None:
    titles = Counter(section_title(sections[i]) for i in theme.members if sections[i])
    for title, count in titles.most_common():
        if not title or title in used:
            continue
        documents = {owners[i] for i in theme.members if sections[i] and section_title(sections[i]) == title}
        if count >= 2 and (len(documents) >= 2 or count >= SECTION_SHARE * len(theme.members)):
            return _display(title)
    return None


def _by_phrase(
    theme: Theme,
    counts: Counter[str],
    spread: Counter[str],
    theme_total: int,
    texts: Sequence[str],
    owners: Sequence[int],
    used: set[str],
) -> str | None:
    held = {i: set(key_phrases(texts[i])) for i in theme.members}

    def documents(phrase: str) -> int:
        return len({owners[i] for i in theme.members if phrase in held[i]})

    ranked = sorted(
        (p for p in counts if p not in used),
        key=lambda p: (
            -documents(p),
            counts[p] < 2,
            -counts[p] * math.log(1 + theme_total / spread[p]),
            -len(p),
            p,
        ),
    )
    return _display(ranked[0]) if ranked else None


def _display(name: str) -> str:
    return name[:1].upper() + name[1:]

"""Items a rule requires by listing them, and a clause that keeps to only some of them.

Regulations list what they require: "The following targets are required and must be implemented by
debian/rules: clean, binary, binary-arch, binary-indep, build, build-arch and build-indep." A clause
that does only part of the list breaks the rule as plainly as one that denies it: "Our debian/rules
files only need to implement build, binary and clean". The clause must enumerate at least two of
the items after "only", in a part of it saying what the rule does with them (one common word,
"build", is no list, nor is "only build binary packages", nor "only build and binary do real work");
the items it leaves out are what it goes without, unless another part of it names them without
leaving them out ("only build and clean by hand; binary-arch comes from the helper" keeps the list).
"""

import re
from typing import Final

from actions.audit.key_terms import key_terms
from actions.audit.verdict import Verdict

#: Fewest items a list has, and fewest of them a clause names after "only".
MIN_ITEMS: Final = 3
MIN_NAMED: Final = 2
# The list after a colon, up to the sentence's end: "…: clean, binary, binary-arch and build-indep."
_LIST: Final = re.compile(r":\s*(?P<items>[^:;]+?)\s*\.?\s*$")
_ITEM_SEPARATOR: Final = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)
# An item is one name: letters, digits and joiners, no spaces ("binary-arch", "debian/control").
_ITEM: Final = re.compile(r"[`‘'\"“]?(?P<name>[A-Za-z][\w./+-]*)[`’'\"”]?")
# What "only" governs: up to the end of its part of the sentence.
_ONLY: Final = re.compile(r"\bonly\b(?P<scope>[^;.]*)", re.IGNORECASE)
_NAME: Final = re.compile(r"[A-Za-z][\w./+-]*[\w+]|[A-Za-z]")
# What joins the names of an enumeration.
_JOIN: Final = r"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s|/)\s*"
# The parts of a clause, each saying one thing: "only build, binary and clean; … so leave them out".
_PART: Final = re.compile(r";|\.\s+")
# A part that leaves out what it names: "so leave them out", "we skip …", "nothing", "without …".
_LEFT_OUT: Final = re.compile(
    r"\b(?:leave|leaves|leaving|left)\b[^;.]*\bout\b|\b(?:omit\w*|skip\w*|drop\w*|without|no|not|"
    r"nothing|never|none)\b",
    re.IGNORECASE,
)


def listed_items(act: str) -> list[str]:
    """The items an obligation's ``act`` lists after a colon, lower case, when each is one name and
    there are ``MIN_ITEMS`` or more; else none."""
    found = _LIST.search(act)
    return _items(found) if found is not None else []


def _items(found: re.Match[str]) -> list[str]:
    """The items of a list ``_LIST`` found, when each is one name and there are enough of them."""
    items = []
    for part in _ITEM_SEPARATOR.split(found.group("items")):
        item = _ITEM.fullmatch(part.strip())
        if item is None:
            return []
        items.append(item.group("name").lower())
    return items if len(items) >= MIN_ITEMS else []


def by_listed_items(clause: str, act: str, negative: bool, said: str) -> Verdict | None:
    """The verdict on a clause that keeps to only some of the items an obligation lists; None when the
    rule lists none, or the clause does not restrict itself to some of them."""
    listing = _LIST.search(act) if not negative else None
    items = _items(listing) if listing is not None else []
    if listing is None or not items:
        return None
    # What the rule does with its list ("implemented by debian/rules"): the clause's enumeration must
    # be of what it does the same with ("only need to implement build, binary and clean"), not of
    # what else it says of them ("only build and binary do real work").
    doing = key_terms(act[: listing.start()])
    parts = _PART.split(clause)
    for at, part in enumerate(parts):
        only = _ONLY.search(part)
        kept = _enumerated(only.group("scope"), items) if only else []
        if len(kept) < MIN_NAMED or not doing & key_terms(part):
            continue
        # Items named in another part count as kept, unless that part leaves them out.
        elsewhere = {
            name
            for other in parts[:at] + parts[at + 1 :]
            if not _LEFT_OUT.search(other)
            for name in _names(other)
        }
        lacking = [item for item in items if item not in kept and item not in elsewhere]
        if lacking:
            return Verdict(
                True,
                "lacks_listed",
                f"{said} and lists {', '.join(items)}; the clause keeps to {', '.join(kept)} and goes without "
                f"{', '.join(lacking)}.",
                f"Provide {', '.join(lacking)} as the rule requires, or record why it does not apply.",
            )
    return None


def _enumerated(scope: str, items: list[str]) -> list[str]:
    """The items ``scope`` enumerates ("`build`, `binary` and `clean`"): names of the list one after
    the other, joined by commas, "and", "or" or a slash; "build binary packages and clean up" is no
    enumeration of "build", "binary" and "clean"."""
    item = "|".join(re.escape(i) for i in sorted(items, key=len, reverse=True))
    quoted = rf"[`‘'\"“]?(?:{item})[`’'\"”]?(?![\w/-])"
    run = re.compile(rf"(?<![\w/-]){quoted}(?:{_JOIN}{quoted})+", re.IGNORECASE)
    longest = max((m.group(0) for m in run.finditer(scope)), key=len, default="")
    return [name for name in _names(longest) if name in items]


def _names(text: str) -> list[str]:
    return [name.lower() for name in _NAME.findall(text)]

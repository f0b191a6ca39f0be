"""A program that behaves differently by the name it is invoked by, against a rule forbidding it.

The GNU Coding Standards ask that a utility's behaviour not depend on the name used to invoke it ("It
is useful sometimes to make a link to a utility with a different name, and that should not change
what it does"). A clause says it in its own words: "when started through the ``quill-preview``
symlink it switches to read-only mode", "if you symlink the binary as gullwing-follow, it starts in
follow mode", "checks argv[0]". Such a clause shares few words with the rule and ranks it low, so the
rule is matched to every clause in which a program is invoked by another name and changes what it
does (``matching``), as a licence's provisions are (``provision_acts``). A link that changes nothing
("the symlink behaves exactly like the binary") does not do it.
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirms

# The rule: behaviour not to depend on the name a program is invoked by.
_FORBIDS: Final = re.compile(
    r"\b(?:don[’']t|do\s+not|not|never)\b[^.;]{0,60}\b(?:depend\w*\s+on\s+the\s+name|"
    r"the\s+name\s+used\s+to\s+invoke)|\bdifferent\s+name\b[^.;]{0,40}\bshould\s+not\s+change\s+what\s+it\s+does",
    re.IGNORECASE,
)
# Invoked by another name: through a link or an alias, or by reading the name it was invoked by.
_OTHER_NAME: Final = re.compile(
    r"\b(?:sym-?link(?:s|ed)?|symbolic\s+links?|hard\s*links?|aliases|alias(?:ed)?|"
    r"link(?:ed)?\s+(?:as|named|called))\b|"
    r"\bargv\s*\[\s*0\s*\]|\bname\s+(?:it\s+was|it\s+is|the\s+program\s+(?:was|is))\s+"
    r"(?:started|called|invoked|run)\s+(?:under|as|by|with)\b|\binvoked\s+as\b|\bcalled\s+as\b",
    re.IGNORECASE,
)
# What it then does differently.
_CHANGES: Final = re.compile(
    r"\b(?:behaves?\s+differently|\w+[- ]mode(?!\s*\d)|"
    r"checks?\s+(?:the\s+)?(?:name|argv)|depending\s+on\s+(?:the\s+)?name)\b",
    re.IGNORECASE,
)

_SAME: Final = re.compile(
    r"\b(?:exactly\s+like|just\s+like|the\s+same\s+as|identical(?:ly)?)\b", re.IGNORECASE
)


@lru_cache(maxsize=8192)
def forbids_name_dependent_behaviour(rule: str) -> bool:
    """Whether ``rule`` forbids a program's behaviour to depend on the name it is invoked by."""
    return bool(_FORBIDS.search(rule))


def behaviour_by_invocation_name(clause: str) -> str | None:
    """The words by which a program in ``clause``, invoked by another name, does something else; else None."""
    named = _OTHER_NAME.search(clause)
    if named is None or not affirms(clause):
        return None
    # What the link does is said in the same part of the sentence ("…; dry-run mode needs --dry-run"
    # is another statement), and a link said to act the same changes nothing.
    start = clause.rfind(";", 0, named.start()) + 1
    end = clause.find(";", named.end())
    part = clause[start : end if end >= 0 else len(clause)]
    changes = _CHANGES.search(part)
    if changes is None or _SAME.search(part):
        return None
    return f"{named.group(0)} … {changes.group(0)}"

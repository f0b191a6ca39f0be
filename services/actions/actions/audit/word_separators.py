"""Names with words run together in capitals, against a rule to separate words with underscores.

The GNU Coding Standards ask that words in a name be separated by underscores ("so that the Emacs
word commands can be useful within them") and kept in lower case. A clause naming its functions or
variables in camel case ("named in camelCase, for example sendSampleBatch") breaks it. Such a clause
shares few words with the rule, so the rule is matched to every clause that names things in camel
case (``matching``), as a licence's provisions are (``provision_acts``). A clause avoiding it ("never
camelCase") does not.
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirms

# The rule: words in a name separated by underscores.
_UNDERSCORES: Final = re.compile(r"\buse\s+underscores\s+to\s+separate\s+words\b", re.IGNORECASE)
# Camel case by name, or names in it given in code form or as examples.
_CAMEL_CASE: Final = re.compile(
    r"\b(?:camel\s*case|camel-case|mixed\s*case|pascal\s*case|studly\s*caps|lower\s*camel\s*case)\b",
    re.IGNORECASE,
)
# A word in capitals within a name ("sendSampleBatch"), not a device's number ("ttyS0").
_CAMEL_NAME: Final = re.compile(r"\b[a-z]+(?:[A-Z][a-z]{2,}[a-z0-9]*)+\b")
_NAMING: Final = re.compile(r"\bnam(?:e|es|ed|ing)\b|\bidentifiers?\b|\bcalled\b", re.IGNORECASE)


@lru_cache(maxsize=8192)
def separates_words_by_underscores(rule: str) -> bool:
    """Whether ``rule`` asks for words in a name to be separated by underscores."""
    return bool(_UNDERSCORES.search(rule))


def camel_case_names(clause: str) -> str | None:
    """The words by which ``clause`` names things in camel case, else None."""
    if _NAMING.search(clause) is None:
        return None
    named = _CAMEL_CASE.search(clause) or _CAMEL_NAME.search(clause)
    # What the clause says up to the name decides: "never camelCase" avoids it.
    return named.group(0) if named and affirms(clause[: named.end()]) else None

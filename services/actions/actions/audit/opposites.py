"""Acts that undo each other: a clause that keeps what a rule requires removed, or rejects what it
requires accepted, does the opposite of the rule's act rather than leaving it out. (Disabling is
read as a denial already, ``polarity``.)

A denial needs a negation ("logs are not removed"); a practice often says the opposite in a verb of
its own ("purging leaves the logs in place", "a mailbox that rejects all mail"). The pairs are few
and plain on purpose: an opposite read too widely would turn agreement into conflict.
"""

from typing import Final

from actions.audit.key_terms import key_terms

_PAIRS: Final = (
    ("remove delete purge erase discard overwrite strip drop", "keep kept retain leave leaves left preserve"),
    ("accept", "reject refuse bounce"),
)
_OPPOSITE: Final[dict[str, frozenset[str]]] = {}
for _one, _other in _PAIRS:
    for _term in key_terms(_one):
        _OPPOSITE[_term] = key_terms(_other)
    for _term in key_terms(_other):
        _OPPOSITE[_term] = key_terms(_one)


def opposite_acts(verbs: frozenset[str], terms: frozenset[str]) -> frozenset[str]:
    """The ``terms`` (a clause's, stemmed) that name the opposite of one of the act's ``verbs``."""
    return frozenset().union(*(_OPPOSITE.get(verb, frozenset()) for verb in verbs)) & terms

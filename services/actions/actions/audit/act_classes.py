"""Verbs that name one act whatever the word: a package that "keeps" a file in its tree "contains" it,
a script that "rewrites" a conffile "alters" it.

A prohibition is broken only by a clause that does its act (``proposition``), and a clause seldom
uses the rule's own verb. The audit's embedder reads some pairs alike (``lexicon``: begin/start,
delete/remove) but not these: keep/contain, rewrite/alter, ship/include, ask/prompt and send/transmit
are as far apart for it as delete/keep. So the few acts a software or licence rule forbids most are
listed here, each as the verbs that do it (irregular forms too: the stemmer keeps "kept" apart). The
lists are short and plain on purpose: a verb that is also a common noun ("change", "patch", "place"
aside) would read a clause's subject as its act.
"""

from typing import Final

from actions.audit.key_terms import key_terms

_CLASSES: Final = (
    # Putting a thing into a package, a tree or a place.
    "install ship carry contain put place deliver bundle keep kept hold held embed embedded",
    # Changing what exists.
    "alter modify edit rewrite rewrote rewritten overwrite overwritten amend tamper append",
    # Passing data or files on to someone else.
    "send sent transmit upload forward submit transfer",
    # Asking a person for an answer.
    "ask prompt query",
    # Taking a thing away.
    "delete remove erase purge discard strip wipe clear clean empty prune",
    # Starting a program.
    "run ran execute invoke launch spawn",
    # Getting a thing from elsewhere.
    "download fetch retrieve",
    # Putting one thing in another's place.
    "replace substitute swap supplant supersede",
    # Passing copies of a work on.
    "distribute redistribute convey propagate",
)
_KIN: Final[dict[str, frozenset[str]]] = {}
for _verbs in _CLASSES:
    _stems = key_terms(_verbs)
    for _stem in _stems:
        _KIN[_stem] = _KIN.get(_stem, frozenset()) | _stems


def same_act(verbs: frozenset[str], terms: frozenset[str]) -> frozenset[str]:
    """The ``terms`` (stemmed) that name the act of one of ``verbs`` (stemmed) by another verb of its class."""
    return frozenset().union(*(_KIN.get(verb, frozenset()) for verb in verbs)) & terms

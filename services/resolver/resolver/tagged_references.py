"""Reference words and names in a message that tags documents: the tags are the strongest signal.

"Summarize this manual." with the Debian Policy Manual tagged, "What changed between these two
versions?" with both versions tagged, "Is the GPL clear about …" with the GNU General Public License
tagged: the words point at the tagged documents, not at the conversation's registry, and "GPL" is not
a document to ask for. A reference is left to the registry only when the tags cannot be what it
means: more documents than were tagged ("those three" with two tags), another kind ("that regulation"
with only a policy tagged), or the other side of an audit ("Audit @ACME against those").
"""

import re
from collections.abc import Mapping, Sequence

from policypal.contracts import ActionName
from resolver.matching import Named, acronym_within, compact, fuzzy_matches, stands_for
from resolver.references import Reference
from resolver.validation import audit_split

#: A name shorter than this (compacted) is too short to be part of a title ("EU", "v2").
_MIN_PART = 3


def covered_by_tagged(
    reference: Reference,
    tagged: Sequence[Named],
    *,
    positions: Mapping[str, int],
    message: str,
    action: ActionName,
) -> bool:
    """Whether ``reference`` means (some of) the ``tagged`` documents rather than earlier ones.

    ``positions`` says where each tagged document is mentioned in ``message``.
    """
    if not tagged:
        return False
    split = audit_split(message) if action == "audit" else None
    if split is not None:
        # An audit's sides: a reference means the tagged documents on its own side only.
        side = reference.position > split
        tagged = [d for d in tagged if (positions.get(d.document_id, len(message)) > split) == side]
        if not tagged:
            return False
    if reference.count is not None and reference.count > len(tagged):
        return False
    return reference.doc_type is None or any(_of_kind(d, reference) for d in tagged)


def names_a_tagged(name: str, tagged: Sequence[Named]) -> bool:
    """Whether a loose ``name`` ("GPL", "Debian Policy", "General Public License v3") is a tagged title."""
    key = compact(name)
    if len(key) < _MIN_PART:
        return False
    for document in tagged:
        title = compact(document.title)
        if key in title or stands_for(name, document.title) or acronym_within(name, document.title):
            return True
    return bool(fuzzy_matches(name, tagged))


def _of_kind(document: Named, reference: Reference) -> bool:
    """A tagged document fits a typed reference by its type, or by the noun in its title ("this manual")."""
    if document.doc_type == reference.doc_type:
        return True
    noun = re.sub(r"(?:s|es)$", "", reference.phrase.split()[-1].lower())
    return len(noun) >= _MIN_PART and noun in document.title.lower()

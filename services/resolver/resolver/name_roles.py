"""Whether a loose name in a message stands for a document or is the topic of the question.

Compliance questions are full of acronyms that are subjects, not sources: "PEP screening", "KYC
checks", "our CET1 ratio", "how do we file a SAR?". Asking the user to tag a "PEP" document there is
wrong. Other acronyms are documents: the user's uploaded "GDPR", or "DORA" in "does DORA require…".
The offline rule weighs three kinds of evidence instead of trusting the capital letters:

- the user's documents: a name that matches one of them (title + version, or its acronym) is one;
- the message: a name in a document position ("in X", "under X", "according to X", "comply with
  X", "against X", "X says", "does X require", "summarize X") is a document; an acronym that
  modifies a noun ("PEP screening", "AML training") is a topic;
- a short list of well-known regulations: "DORA requirements" names a regulation even as a modifier,
  so when it is not uploaded the user is asked, while "PEP" with no such evidence is a topic.
"""

import re
from collections.abc import Sequence
from typing import Literal

from resolver.matching import Named, compact, fuzzy_matches, stands_for

#: Nouns that make a name a document's name on their own ("the ABC guidelines").
_DOCUMENT_NOUN = re.compile(
    r"\b(?:guidelines?|regulations?|rulebook|policy|act|directive|standards?|framework|guides?|manual|"
    r"handbook|licen[cs]e|constitution|charter|contract|specification|agreement)\b",
    re.I,
)
#: Regulations a compliance officer names without saying "regulation" (first word, compacted).
KNOWN_REGULATIONS = frozenset(
    """gdpr dora mifid mifidii mifir psd2 psd3 crr crr2 crr3 crd crdiv crdv crdvi basel baseliii baseliv
    sox emir amld amld5 amld6 amlr mica nis2 ccpa hipaa fatca sfdr ucits aifmd priips eidas fcpa glba
    solvency solvencyii""".split()  # noqa: SIM905 - a word list reads better as text
)
#: Verbs that follow a document: "GDPR says", "does DORA require", "MiFID II applies".
_DOCUMENT_VERB_AFTER = re.compile(
    r"\s+(?:says?|said|states?|requires?|required|mandates?|sets?\s+out|defines?|specif(?:y|ies)|"
    r"prescribes?|stipulates?|allows?|permits?|prohibits?|expects?|appl(?:y|ies)|covers?|obliges?|"
    r"lays?\s+down|demands?|imposes?|contains?)\b",
    re.I,
)
#: Words after a name that are not a noun it modifies ("KYC is", "GDPR and", "DORA?").
_FUNCTION_WORDS = (
    r"and|or|nor|but|to|for|of|in|on|at|by|with|from|into|is|are|was|were|be|been|being|do|does|did|has|"
    r"have|had|can|could|should|would|will|shall|may|might|must|the|a|an|that|this|these|those|which|who|"
    r"as|than|if|vs|versus|when|where|while|so|too|also|only|yet|it|its|we|our|they|their|you|your|i"
)
#: A lowercase noun right after an acronym: "PEP screening", "CET1 ratio", "ICT providers".
_MODIFIED_NOUN = re.compile(rf"\s+(?!(?:{_FUNCTION_WORDS})\b)[a-z][a-z-]+\b")
#: How many words after an acronym may still belong to a title: "FSA conduct rules".
_MAX_PHRASE_NOUNS = 3
#: What comes before a document: "in", "under", "according to", "comply with", "audit … against".
_DOCUMENT_CUE_BEFORE = re.compile(
    r"(?:\b(?:in|under|per|against|within|versus|vs\.?|according\s+to|pursuant\s+to|subject\s+to|"
    r"compl(?:y|ies|iant|iance)\s+with|in\s+line\s+with|aligned\s+with|consistent\s+with|"
    r"(?:required|mandated|imposed|set|issued|published|defined)\s+by|"
    r"(?:article|art\.|section|chapter|annex|recital|part|schedule|paragraph)\s+[\w.()]+\s+of|"
    r"summari[sz]e|compare|audit|review)\s+(?:the\s+)?)$",
    re.I,
)
#: What comes before the subject of a question: "what do we say about AML?".
_TOPIC_CUE_BEFORE = re.compile(r"\b(?:about|regarding|concerning|around)\s+(?:the\s+|a\s+|an\s+)?$", re.I)
#: Words that make a modified acronym the firm's own subject: "our GDPR training".
_OWN = re.compile(r"\b(?:our|my|internal|in-house)\s+$", re.I)

Role = Literal["document", "modifier", "topic", "bare"]


def name_role(name: str, start: int, text: str) -> Role:
    """Where ``name`` (at ``start`` in ``text``) stands: in a document position, modifying a noun, as
    the subject of the question ("about X"), or none of these.
    """
    after = text[start + len(name) :]
    before = text[:start]
    if _DOCUMENT_VERB_AFTER.match(after):
        return "document"
    if _MODIFIED_NOUN.match(after):
        return "modifier"
    if _DOCUMENT_CUE_BEFORE.search(before):
        return "document"
    if _TOPIC_CUE_BEFORE.search(before):
        return "topic"
    return "bare"


def has_document_noun(name: str) -> bool:
    """Whether ``name`` ends in or holds a document noun: "Fedora Packaging Guidelines", "ISO 27001 standard"."""
    return _DOCUMENT_NOUN.search(name) is not None


def is_known_regulation(name: str) -> bool:
    """Whether ``name`` is a well-known regulation's short name ("GDPR", "MiFID II", "Basel III")."""
    words = name.split()
    return bool(words) and (compact(name) in KNOWN_REGULATIONS or compact(words[0]) in KNOWN_REGULATIONS)


def refers_to_a_document(name: str, start: int, text: str, documents: Sequence[Named]) -> bool:
    """Whether the loose ``name`` at ``start`` in ``text`` means a document rather than a topic.

    ``documents`` are the user's (catalog and conversation registry). In a document position a name
    is a document (asked about when the user has none of that name). A name that modifies a noun or
    is what the question is about ("about AML") is a topic unless a document is known by that very
    name ("GDPR fines" with an uploaded "GDPR" or "General Data Protection Regulation"; "KYC checks"
    is about KYC, not only about the "KYC Procedure"), or it starts a title written out ("FSA
    conduct rules"); a well-known regulation modifying a noun ("DORA requirements") is a document.
    The firm's own ("our GDPR training") is a topic unless it is a title written out. Anywhere
    else a name is a document when it is a well-known regulation or matches one of ``documents``.
    """
    if not _looks_like_a_name(name):
        return False
    if _DOCUMENT_NOUN.search(name):
        return True
    role = name_role(name, start, text)
    if role == "document":
        return True
    titled = any(compact(d.title) == compact(name) or stands_for(name, d.title) for d in documents)
    if role == "topic":
        return titled
    if role == "modifier":
        own = bool(_OWN.search(text[:start]))
        return _phrase_matches(name, text[start + len(name) :], documents) or (
            not own and (titled or is_known_regulation(name))
        )
    return is_known_regulation(name) or bool(fuzzy_matches(name, documents))


def _phrase_matches(name: str, after: str, documents: Sequence[Named]) -> bool:
    """Whether ``name`` with the nouns it modifies is a document's title: "FSA conduct rules"."""
    nouns: list[str] = []
    for _ in range(_MAX_PHRASE_NOUNS):
        noun = _MODIFIED_NOUN.match(after)
        if noun is None:
            break
        nouns.append(noun.group(0).strip())
        after = after[noun.end() :]
        if fuzzy_matches(f"{name} {' '.join(nouns)}", documents):
            return True
    return False


def _looks_like_a_name(name: str) -> bool:
    """Only names with an acronym, a number, CamelCase or a document noun count; "Capital" does not."""
    return bool(re.search(r"\b[A-Z]{2,}\b|\d|[a-z][A-Z]", name) or _DOCUMENT_NOUN.search(name))

"""What a rule's subject refers back to: "This file must neither be compressed …" after "… in the file
/usr/share/doc/package/copyright".

Regulations often state a thing in one sentence and rule on it in the next, by a pronoun or a
demonstrative ("It must consist of at least 2 characters", "These files should be …", "The file must
consist of the process identifier …"). Alone, such a rule names nothing a clause could be matched
on. Its referent is found in the statement before it, in the same section:

- a noun after "this", "these", "such", "that", "those" or "the" (from a short list of nouns that
  name things a rule places, names or formats: file, directory, script, field …): that noun's
  nearest mention in the previous statement, with the words that qualify it (up to a determiner or
  a preposition before it; a path, name or parenthesis right after it);
- "it" or "they" as the subject: the previous statement's own subject (its words before its verb),
  or that statement's referent in turn when its subject refers back too.

"It is recommended that …", "It must be possible to …" and the like say nothing of a thing: no
referent. Nothing is guessed when the previous statement does not name the noun.
"""

import re
from collections.abc import Sequence
from typing import Final

#: How far back a chain of referring subjects is followed ("These scripts are …". "They must …".
#: "They should …").
MAX_CHAIN: Final = 3
#: A subject longer than this is no noun phrase but a clause read wrongly.
MAX_SUBJECT_WORDS: Final = 10

_NOUNS: Final = (
    r"files?|director(?:y|ies)|scripts?|programs?|fields?|packages?|librar(?:y|ies)|entr(?:y|ies)|"
    r"commands?|variables?|values?|options?|names?|strings?|lines?|links?|sockets?|tools?|utilit(?:y|ies)|"
    r"hierarch(?:y|ies)|trees?|subdirector(?:y|ies)|archives?|notices?|copies|copy|manuals?|pages?|"
    r"documents?|data|information|messages?|targets?|versions?|sections?|areas?|locations?|dependenc(?:y|ies)"
)
# The noun must head the subject: "The file must …", not "The file name should …".
_NOUN_ANAPHOR: Final = re.compile(
    rf"^\W*(?:this|these|that|those|such|the|each\s+such)\s+(?:same\s+)?(?P<noun>{_NOUNS})\b"
    r"(?:\s+itself|\s+themselves)?(?=\s*[,(]|\s+(?:is|are|was|were|has|have|must|shall|should|may|might|"
    r"can|will|need|needs|contains?|consists?|includes?|gives?)\b)",
    re.IGNORECASE,
)
# "This must …" refers to a thing as "it" does; "This is …", "This means …" sum up what was said.
_PRONOUN: Final = re.compile(
    r"^\W*(?:it|they)\b|^\W*(?:this|that)\s+(?:must|shall|should|may|might|can|will|needs?\s+to|has\s+to)\b",
    re.IGNORECASE,
)
# A subject that names no thing of its own: a person addressed, a pronoun, or an opening phrase.
_NO_THING: Final = re.compile(
    r"^\W*(?:you|we|one|i|he|she|it|they|this|that|there|here|in|on|at|for|if|when|while|whereas|although|"
    r"though|because|since|unless|as|see|etc)\b|\b(?:it|they)$",
    re.IGNORECASE,
)
# "It is recommended that …", "It must be possible to …", "It also means …": no thing is referred to.
# "It must be written to by …" is about a thing: "to" after the participle opens no infinitive.
_IMPERSONAL: Final = re.compile(
    r"^\W*it\s+(?:(?:also|then|therefore|thus|still|only|now)\s+)?(?:(?:\w+\s+){0,2}?(?:is|be|was|seems?)\s+"
    r"(?:(?:\w+ly|not|also)\s+)?(?:a\s+good\s+idea|\w+)\s+(?:that|for|whether|if|when|to\s+(?!by\b)\w)|"
    r"(?:follows|means|implies|happens|depends)\b)",
    re.IGNORECASE,
)
# Where a subject ends: its first verb or modal form (after a relative clause's own verb:
# "Packages that provide a terminal emulator must …").
_VERB: Final = re.compile(
    r"(?<!\bthat)(?<!\bwhich)(?<!\bwho)\s(?:is|are|was|were|has|have|had|must|shall|should|may|might|can|"
    r"could|will|would|need|needs|contains?|consists?|includes?|holds?|gives?|specifies|specify|lists?|"
    r"describes?|appears?|uses?|means?)\b",
    re.IGNORECASE,
)
# What qualifies a noun right after it: a path (a PDF may break it after a slash: "/usr/share/doc/
# PACKAGE/copyright"), a quoted or parenthesised name, a name in code form.
_AFTER_NOUN: Final = re.compile(
    r"^\s*(?:\([^)]{1,80}\)|[“\"'‘][^”\"'’]{1,60}[”\"'’]|/\s?[\w.*<>+-]+(?:/\s?[\w.*<>+-]+)*/?|[\w.-]*[/_.][\w./*<>+-]+)"
)
# Where the words qualifying a noun begin, reading back: a determiner, a preposition, a verb or a comma.
_QUALIFIER_STOP: Final = re.compile(
    r"^(?:the|a|an|this|these|that|those|such|its|their|each|every|any|all|of|in|into|on|to|for|by|with|"
    r"from|as|at|over|under|than|via|per|about|between|without|within|after|before|during|through|upon|"
    r"against|and|or|is|are|was|were|be|been|has|have|must|shall|"
    r"should|may|might|can|could|will|would|which|who|whose|what|where|how|why|whether|if|not)$",
    re.IGNORECASE,
)
_MAX_QUALIFIERS: Final = 3
_SUBJECT_OPENER: Final = re.compile(
    r"^(?:in\s+(?:this|that|such\s+a|either|each)\s+case|then|also|thus|therefore|similarly|likewise)\s+",
    re.IGNORECASE,
)


def referent(statement: str, previous: Sequence[str]) -> str | None:
    """What the subject of ``statement`` refers back to, read off ``previous`` (the statements before
    it in its section, nearest first); None when its subject names a thing itself, or nothing before
    it names what it refers to."""
    return _referent(statement, previous, MAX_CHAIN)


def section_area(statement: str, sections: Sequence[str]) -> str | None:
    """The directory "This directory …" refers to when no statement before it names one: the one path
    the nearest of ``sections`` (outermost first) is titled by ("3.12. /mnt : Mount point for a
    temporarily mounted filesystem" › "3.12.1. Purpose"); None for any other subject, or a title
    naming none or several."""
    noun = _NOUN_ANAPHOR.match(_SUBJECT_OPENER.sub("", statement.lstrip()))
    if noun is None or not _DIRECTORY.fullmatch(noun.group("noun")):
        return None
    for title in reversed(sections):
        found = _TITLE_PATH.findall(title)
        if found:
            return f"the directory {found[0]}" if len(set(found)) == 1 else None
    return None


_DIRECTORY: Final = re.compile(r"director(?:y|ies)", re.IGNORECASE)
# A path a section is titled by: "3.15. /run : Run-time variable data".
_TITLE_PATH: Final = re.compile(r"(?<![\w/])/[\w.+-]+(?:/[\w.+-]+)*")


def _referent(statement: str, previous: Sequence[str], chain: int) -> str | None:
    if not previous or chain == 0:
        return None
    # "In this case they should …" refers back as "They should …" does.
    statement = _SUBJECT_OPENER.sub("", statement.lstrip())
    noun = _NOUN_ANAPHOR.match(statement)
    if noun is not None:
        return _mention(previous[0], noun.group("noun"))
    if _PRONOUN.match(statement) and not _IMPERSONAL.match(statement):
        before = previous[0]
        subject = _subject(before)
        if subject is None:
            return None
        if _PRONOUN.match(subject) or _NOUN_ANAPHOR.match(before):
            return _referent(before, previous[1:], chain - 1)
        return None if _NO_THING.search(subject) else subject
    return None


def _subject(statement: str) -> str | None:
    """The words of ``statement`` before its first verb, when they read as a noun phrase."""
    verb = _VERB.search(statement)
    if verb is None or "(" in statement[: verb.start()]:
        return None
    subject = statement[: verb.start()].strip(" ,;:")
    # "For example, the crond PID file is named …": an opening adverbial is no part of the subject.
    subject = subject.rsplit(",", 1)[-1].strip()
    # A footnote's number before its first word is no part of it either, nor "In this case".
    subject = _SUBJECT_OPENER.sub("", re.sub(r"^\d+\s+", "", subject))
    words = subject.split()
    if not words or len(words) > MAX_SUBJECT_WORDS or _IMPERSONAL.match(statement):
        return None
    return subject


def _mention(statement: str, noun: str) -> str | None:
    """The nearest (last) mention of ``noun`` in ``statement`` with the words qualifying it."""
    stem = _stem(noun)
    found = None
    for match in re.finditer(r"[\w/.*<>+-]+", statement):
        if _stem(match.group(0).lower()) == stem:
            found = match
    if found is None:
        return None
    before = statement[: found.start()].split()
    qualifiers: list[str] = []
    for word in reversed(before[-_MAX_QUALIFIERS:]):
        if _QUALIFIER_STOP.match(word.strip(",;:()")) or word.endswith((",", ";", ":")):
            break
        qualifiers.insert(0, word)
    after = _AFTER_NOUN.match(statement[found.end() :])
    tail = re.sub(r"/\s+", "/", after.group(0).strip()).rstrip(".") if after else ""
    return " ".join([*qualifiers, found.group(0), tail]).strip()


def _stem(noun: str) -> str:
    """A noun's singular stem, enough to tell "files" is "file" and "directories" "directory"."""
    noun = noun.lower()
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    if noun.endswith("s") and not noun.endswith("ss"):
        return noun[:-1]
    return noun

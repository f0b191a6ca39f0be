"""Polarity: whether a sentence does, denies, permits or waives what it is about, which of its
terms it negates or leaves out, what is only its purpose, and the verbs a rule's act opens with.

"We never ship…" denies; "Staff may…" permits; "need not", "is optional", "no consent needed" waive;
anything else states a practice, which does. A negation inside a condition or a relative clause
("if it is not…", "files that are not…") does not deny the main statement. "must not … without
consent" forbids going without consent: a double negative that requires consent. Leaving out is
denying too ("copyright lines are omitted", "rather than calling the scripts"), and a purpose or a
reason ("so that local changes are preserved") says why, not what is done.
"""

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Final, Literal

from actions.audit.key_terms import key_terms
from policypal.rules import NEGATIVE_MODALITIES, is_instruction, modal_cue
from policypal.rules.modality import CONDITION_OPENERS

Stance = Literal["does", "does_not", "permits", "waives"]

# Words that deny or withhold what the sentence is about ("no more than" is a limit, not a denial).
_NEGATION: Final = re.compile(
    r"\b(?:not|never|without|none|nothing|neither|nor|cannot|skip(?:s|ped|ping)?|omit(?:s|ted|ting)?|"
    r"exempt(?:s|ed)?|bypass(?:es|ed|ing)?|waive[sd]?|ignor(?:e|es|ed|ing)|disabl(?:e|es|ed|ing)|avoid|"
    r"(?:leave|leaves|leaving|left)\s+out)\b|"
    r"lack(?:s|ed|ing)?|n['’]t\b|\bno\b(?!-|\s+(?:more|less|fewer|later|earlier|sooner)\b|\s+longer\s+than\b)",
    re.IGNORECASE,
)
_CONDITION: Final = re.compile(
    r"\b(?:if|unless|when|whenever|whether|except)\b(?:[^\S\n]+[\w'’/-]+){0,4}\s*$", re.IGNORECASE
)
_PLAIN_NEGATION: Final = re.compile(
    r"\b(?:not|never)\b|n['’]t\b|\bno\b(?!-|\s+(?:more|less|fewer|later|earlier|sooner)\b|\s+longer\s+than\b)",
    re.I,
)
# "need not", "does not have to": what follows is waived, not ruled out.
_WAIVER_BEFORE: Final = re.compile(r"\bneeds?\s*$", re.IGNORECASE)
# "not required", "not necessary", "not have to", "not when…", "not if…": a waiver or a condition.
_WAIVER_AFTER: Final = re.compile(
    r"\s*(?:(?:be\s+)?(?:required|necessary|mandatory|obligatory|needed)\b|(?:have|need)\s+to\b|"
    r"(?:only\s+)?(?:when|if|unless|where|whenever|while|until|before|after)\b)",
    re.IGNORECASE,
)
# A comma closes such a clause: "whenever it helps, no consent needed" denies.
_QUALIFIER: Final = re.compile(
    r"\b(?:if|unless|when|whenever|where|whether|that|which|who|whose|except)\b(?:[^\S\n]+[\w'’/-]+){0,4}\s*$",
    re.IGNORECASE,
)
# What a negation governs: the words after it up to the end of its clause, at most a few.
# A purpose ("in order to build") is not what the negation before it governs, nor the case it is
# said of ("nothing breaks when /tmp is wiped" denies no /tmp).
# A dot inside a name ("/etc/init.d", "invoke-rc.d") ends no scope.
_SCOPE: Final = re.compile(
    r"^(?:(?!\b(?:so\s+that|in\s+order|so\s+as\s+to|because|when|whenever|unless|until|once)\b)"
    r"(?:[^,.;:()]|\.(?=\w))){0,60}",
    re.I,
)
# "must not … without X", "must not … unless X": the exception is what the rule requires.
_EXCEPTION: Final = re.compile(r"^[^.;:(]{0,80}?\b(?:without|unless|except)\b", re.IGNORECASE)
# The restrictive "only": "must consist only of …", "may only be …".
_ONLY: Final = re.compile(r"\bonly\b", re.IGNORECASE)


# Leaving what is done to someone's judgement or to circumstance waives it: "is left to the author's
# judgement", "at the discretion of each team", "is up to the customer", "teams decide whether to…",
# "where practical", "encouraged but not required".
_DISCRETION: Final = re.compile(
    r"\b(?:(?:is|are)\s+(?:entirely\s+)?(?:left|up)\s+to\s+(?:the|each|every|their|its|individual)\b|"
    r"at\s+(?:the|their|its|his|her)\s+(?:own\s+)?discretion\b|at\s+the\s+discretion\s+of\b|"
    r"(?:decides?|chooses?)\s+(?:for\s+(?:themselves|itself)\s+)?whether\b|"
    r"(?:where|when|if|as)\s+(?:practical|practicable|convenient|feasible|time\s+permits)\b|"
    r"on\s+a\s+best[- ]effort\s+basis\b|"
    r"(?:encouraged|recommended|welcome|suggested),?\s+but\s+not\s+(?:required|mandatory|enforced)\b)",
    re.IGNORECASE,
)


def stance(sentence: str) -> Stance:
    """What the sentence does with its subject: does it, does not, permits it, or waives it. What it
    quotes is mentioned, not said ("should read like `tool: Could not read x.`" denies nothing)."""
    sentence = _QUOTED.sub(lambda m: " " * len(m.group(0)), sentence)
    if _DISCRETION.search(sentence):
        return "waives"
    # "The downloads come without a copy of the licence; customers can look it up online": what the
    # sentence states first is denied, whatever a later part lets someone else do.
    first, _, rest = sentence.partition(";")
    if rest and modal_cue(first, can_permits=True) is None and denies(first):
        return "does_not"
    cue = modal_cue(sentence, can_permits=True)
    if cue is not None:
        after = sentence[cue.start + len(cue.words) :]
        if cue.modality in NEGATIVE_MODALITIES:
            return "does" if requires_exception(after) else "does_not"
        if cue.modality == "permission":
            return "waives" if cue.waives or denies(after) else "permits"
        return "does_not" if denies(after) else "does"
    return "does_not" if denies(sentence) else "does"


#: A message in parentheses after the names it follows ("(tk-merge: Could not open gauge file.)"), its
#: words grouped: an example, wherever examples are read.
PARENTHESISED_MESSAGE: Final = r"\(((?:[^\s:()]+:)+\s[^()]+)\)"
# A quoted example: in backticks, or in double quotes ("…", “…”) of at least two words, or a message
# in parentheses.
_QUOTED: Final = re.compile(rf"`[^`]+`|\"[^\"]*\s[^\"]*\"|“[^”]*\s[^”]*”|{PARENTHESISED_MESSAGE}")


def affirms(clause: str) -> bool:
    """Whether ``clause`` does or permits what it says, its purpose aside ("so that … without a manual
    refresh" denies nothing of what is done)."""
    return stance(without_purpose(clause)) in ("does", "permits")


def affirmed_match(pattern: re.Pattern[str], clause: str) -> re.Match[str] | None:
    """The first match of ``pattern`` in ``clause``, where what the clause says up to it does or permits
    it: "…, so the download link never changes" after "unpacks into src" denies the link's change, not
    the unpacking; "we never remove licence headers" denies the removal."""
    found = pattern.search(clause)
    return found if found is not None and affirms(clause[: found.end()]) else None


def before_denial(sentence: str) -> str:
    """What ``sentence`` says before its first negation, its opening reason aside: whom or what the
    denial is about ("packages" in "Because …, packages do not need to ship a copyright file")."""
    sentence = _REASON_BEFORE.sub(" ", sentence)
    found = _NEGATION.search(sentence)
    return sentence[: found.start()] if found else sentence


def denies(text: str) -> bool:
    """True when ``text`` negates its main statement (not only inside a condition)."""
    return any(not _QUALIFIER.search(text[: match.start()]) for match in _NEGATION.finditer(text))


def requires_exception(after_modal: str) -> bool:
    """True when a prohibition's words forbid going without something: "must not X without consent"."""
    return bool(_EXCEPTION.match(after_modal))


def restricts(rule: str) -> bool:
    """True when the rule allows only what it names ("must consist only of lower case letters")."""
    return bool(_ONLY.search(rule))


def negated_scopes(sentence: str) -> list[str]:
    """The words each plain negation in ``sentence`` governs ("don't compute it from argv[0]" →
    "compute it from argv[0]"), in reading order.

    Only "not", "n't", "never" and "no": "without local changes" or "avoid" name a circumstance, and
    too often share a term with a clause that does no wrong. A waiver ("need not install", "is not
    required") permits leaving something out rather than ruling it out, and a negated condition
    ("but not when it is only removed") limits when the rule applies: neither rules anything out.
    """
    scopes: list[str] = []
    for match in _PLAIN_NEGATION.finditer(sentence):
        # "so that they don't grow" is the rule's purpose; only a condition ("if it is not…") is not.
        if _CONDITION.search(sentence[: match.start()]) or _WAIVER_BEFORE.search(sentence[: match.start()]):
            continue
        after = sentence[match.end() :]
        if _WAIVER_AFTER.match(after):
            continue
        scope = _SCOPE.match(after)
        if scope and scope.group(0).strip():
            scopes.append(scope.group(0))
    return scopes


_TURNED_AWAY: Final = re.compile(r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\b", re.IGNORECASE)


def turned_away_scopes(sentence: str) -> list[str]:
    """The words each "instead of" / "rather than" in ``sentence`` governs ("use invoke-rc.d instead of
    calling them directly" → "calling them directly"): what a rule turns away from."""
    return [
        scope.group(0)
        for match in _TURNED_AWAY.finditer(sentence)
        if (scope := _SCOPE.match(sentence[match.end() :])) and scope.group(0).strip()
    ]


@lru_cache(maxsize=8192)
def preferred_terms(sentence: str) -> frozenset[str]:
    """The key terms of what ``sentence`` names, in parentheses, in preference to what it turns away
    from ("a scheme that provides confidentiality (https, for example, rather than http or git)" →
    https). Outside parentheses the words before "instead of" are the whole act, shared with what it
    turns away from ("use invoke-rc.d to invoke the init scripts, instead of calling them"): none."""
    found: set[str] = set()
    for match in _TURNED_AWAY.finditer(sentence):
        before = sentence[: match.start()]
        opened = before.rfind("(")
        if opened >= 0 and ")" not in before[opened:]:
            found |= key_terms(before[opened + 1 :])
    return frozenset(found) - _EXAMPLE_WORDS


_EXAMPLE_WORDS: Final = key_terms("example instance")


def negated_terms(sentence: str) -> frozenset[str]:
    """The key terms a plain negation in ``sentence`` governs ("don't compute it from argv[0]" → argv)."""
    return frozenset().union(*(key_terms(scope) for scope in negated_scopes(sentence)))


# Denial in the wider sense: a negation, or a verb of leaving out or putting something else in its place.
# "whatever TMPDIR is set to", "regardless of the number of failures": what makes no difference to
# what is done is not honoured, though what is done is still done.
_DENIAL: Final = re.compile(
    _NEGATION.pattern
    + r"|\b(?:avoid(?:s|ed|ing)?|exclud(?:e|es|ed|ing)|drop(?:s|ped|ping)?|instead\s+of|rather\s+than|"
    r"(?:leave|leaves|leaving|left)\s+out|in\s+place\s+of|whatever|regardless\s+of|irrespective\s+of|"
    r"no\s+matter)\b",
    re.IGNORECASE,
)
# A purpose or a reason says why, not what is done: "so that local changes are preserved", and "so"
# without "that" before what someone can or will then do ("deletes it at every boot so old fragments
# cannot fill the disk"); after a comma, "so" says what follows ("it is large, so we cannot ship it")
# and is kept, unless a thing then never or cannot happen.
_PURPOSE_AFTER: Final = re.compile(
    r"(?:\bso\s+that|\bin\s+order\s+(?:to|that)|\bso\s+as\s+to|\bbecause\b|,\s*since\b|,\s*as\b|"
    r"(?<![,;])\s\bso\s+(?:\w+\s+){1,6}?(?:can|cannot|can[’']t|could|couldn[’']t|will|won[’']t|would|wouldn[’']t)\b|"
    # After a comma too, where what follows is a thing that then never or cannot happen ("…, so a plain
    # `make install` never touches the live system"), not what the writer does ("…, so we cannot ship it").
    r",\s*so\s+(?:a|an|the|no|every|any|each)\s+(?:[\w`$./-]+\s+){0,6}?"
    r"(?:never|no\s+longer|cannot|can[’']t|won[’']t|will\s+never|can\s+never)\b)"
    r"[^.;]*",
    re.I,
)
# An opening infinitive of purpose: "To avoid a dependency on adduser, the postinst appends …" (a
# sentence's own capital "To": a rule's act after its modal words, "to strip binaries by …", is no purpose),
# and an opening "So that …," ("So that site wrappers report their own identity, the first line is …").
_PURPOSE_BEFORE: Final = re.compile(
    r"^\W*(?:(?i:in\s+order\s+(?:to|that)|so\s+as\s+to|so\s+that|to\s+ensure)|To\s+[a-z]\w*)\b[^,;]*[,;]"
)
# An opening reason ends at its comma: "Because the SDK is too large for our repository, the build
# downloads it …" does what follows (a reason further on runs to the sentence's end).
_REASON_BEFORE: Final = re.compile(r"^\W*(?:because|since|as)\b[^,;]*[,;]", re.I)
# A participle of leaving out after its object: "copyright lines are omitted".
_LEFT_OUT: Final = re.compile(
    r"\b(?:is|are|was|were|be|been|gets?)\s+(?:\w+ly\s+)?(?:omitted|skipped|excluded|dropped|left\s+out|missing|absent|"
    r"disabled|ignored|waived|avoided|bypassed|exempted|not\s+(?:yet\s+)?(?:implemented|supported|"
    r"provided|included|shipped|offered|available|handled))\b",
    re.IGNORECASE,
)
# A gerund whose object is a pronoun ends there: "Removing a package without purging it keeps the
# files" leaves out the purge, not the files.
_GERUND_WITH_PRONOUN: Final = re.compile(
    r"^\s+\w+ing\s+(?:it|them|him|her|this|these|those)\b", re.IGNORECASE
)
_SCOPE_BEFORE: Final = re.compile(r"(?:[^,.;:()]|\.(?=\w)){0,60}$")


# "leave the Uploaders field out of debian/control": leaving out with its object before the particle.
_LEFT_OUT_OBJECT: Final = re.compile(
    r"\b(?P<verb>leave|leaves|leaving|left)\s+(?P<object>(?:(?!out\b)(?![\w-]+ing\b)[\w/.@<>$-]+\s+){1,5}?)out\b",
    re.IGNORECASE,
)


def particle_first(sentence: str) -> str:
    """``sentence`` with "leave X out" written "leave out X", so what is left out follows the denial
    as it does after any other ("we leave the Uploaders field out" leaves out the Uploaders field)."""
    return _LEFT_OUT_OBJECT.sub(lambda m: f"{m.group('verb')} out {m.group('object').strip()}", sentence)


def without_purpose(sentence: str, *, opening_reason: bool = True) -> str:
    """``sentence`` without its purpose or reason clauses: what it does, not why. ``opening_reason``:
    also without a reason it opens with; a rule keeps it ("Since these files normally appear in the
    source directory, they should …" names what "they" are)."""
    if opening_reason:
        sentence = _REASON_BEFORE.sub(" ", sentence)
    return _PURPOSE_AFTER.sub(" ", _PURPOSE_BEFORE.sub(" ", sentence))


def denied_terms(sentence: str) -> frozenset[str]:
    """The key terms ``sentence`` denies, leaves out or replaces ("packages do not include manual
    pages" → manual, page; "copyright lines are omitted" → copyright, line), outside conditions."""
    text = without_purpose(sentence)
    found: set[str] = set()
    for match, scope in _denial_scopes(text):
        named = key_terms(scope)
        if not named:
            before = _SCOPE_BEFORE.search(text[: match.start()])
            named = key_terms(before.group(0)) if before else frozenset()
        found |= named
    for match in _LEFT_OUT.finditer(text):
        before = _SCOPE_BEFORE.search(text[: match.start()])
        if before and not _QUALIFIER.search(text[: match.start()]):
            found |= key_terms(before.group(0))
    return frozenset(found)


def denied_scopes(sentence: str) -> list[str]:
    """What each denial of ``sentence`` governs, outside conditions and its purpose ("builds without
    -g unless …" → "-g")."""
    return [scope for _, scope in _denial_scopes(without_purpose(sentence)) if scope]


def denied_acts(sentence: str) -> list[str]:
    """The acts ``sentence``'s denials name: the verb in -ing form a denial's scope opens with ("write
    to the log rather than sending mail" → sending), or the verb after a prohibition the sentence
    itself states ("Teams must not reuse this account" → reuse)."""
    acts = []
    text = without_purpose(sentence)
    for match, scope in _denial_scopes(text):
        first = scope.split()[:1]
        if not first:
            continue
        gerund = len(first[0]) > 4 and first[0].lower().endswith("ing")
        # A prohibition the clause itself states ("Teams must not reuse this account") names its act by
        # the verb that follows it.
        stated = (
            first[0].isalpha()
            and first[0].lower() not in _NOT_ACTS
            and bool(_MODAL_DENIAL.search(text[: match.end()]))
        )
        if gerund or stated:
            acts.append(first[0])
    return acts


_MODAL_DENIAL: Final = re.compile(
    r"\b(?:must|should|may|shall)\s+not$|\b(?:mustn|shouldn)['’]t$", re.IGNORECASE
)
# Words after a negation that are not the act: "must not be …", "should not ever …".
_NOT_ACTS: Final = frozenset(
    {"be", "have", "ever", "always", "only", "also", "even", "just", "yet", "normally"}
)


# The rest of a list after its first item: ", copyright line or licence line" (items of a few words).
_LIST_ITEM: Final = r"[\w'’/.$-]+(?:\s+[\w'’/.$-]+){0,2}"
_LIST_REST: Final = re.compile(
    rf"(?:,\s*{_LIST_ITEM})+,?\s+(?:or|and|nor)\s+{_LIST_ITEM}(?=\s*(?:[,.;:)]|$))"
)


def _denial_scopes(text: str) -> Iterator[tuple[re.Match[str], str]]:
    """Each denial of ``text`` outside a condition, with the words it governs ("" when none follow)."""
    for match in _DENIAL.finditer(text):
        if _QUALIFIER.search(text[: match.start()]):
            continue
        scope = _GERUND_WITH_PRONOUN.match(text[match.end() :]) or _SCOPE.match(text[match.end() :])
        governed = scope.group(0) if scope else ""
        # "with no program name, copyright line or licence line": a denial governs the whole list.
        if governed and (listed := _LIST_REST.match(text, match.end() + len(governed))):
            governed += listed.group(0)
        yield match, governed


# Words between a modal form and its verb: "must not be deleted", "must not ever attempt".
# "should still consider providing them", "should try to keep": the act is what is to be considered.
_AUXILIARY: Final = re.compile(
    r"^(?:\W*\b(?:be|been|being|have|ever|just|also|still|directly|(?!(?:apply|reply|supply|comply|imply|rely|"
    r"multiply)\b)\w+ly|to|consider|try\s+to|needs?\s+to)\b)*\W*",
    re.I,
)
_VERBS: Final = re.compile(r"([\w'’-]+)(?:\s+(?:or|and)\s+([\w'’-]+))?")


def after_auxiliaries(after: str) -> str:
    """What follows a modal form once its auxiliaries are read past ("be deleted" → "deleted")."""
    auxiliary = _AUXILIARY.match(after)
    return after[auxiliary.end() :] if auxiliary else after


def act_verbs(after: str) -> list[str]:
    """The verbs an act opens with: "close" in "close the bug report", "contain" and "make" in
    "contain or make hard links"."""
    rest = after_auxiliaries(after)
    # "also apply to /var/run": a path or a figure is no verb.
    if after[: len(after) - len(rest)].endswith("/") or rest[:1].isdigit():
        return []
    words = _VERBS.match(rest)
    return [w for w in words.groups() if w] if words else []


def rule_subject(rule: str, modal_words: str) -> str:
    """What a rule says before its modal words: what it binds ("Package names (both source and binary)"
    of "Package names … must consist only of …"); "" when the words are not found."""
    return rule[: max(rule.lower().find(modal_words.lower()), 0)]


def rule_act(rule: str, modal_words: str) -> str:
    """What a rule says after its modal words: the act it asks for or forbids. An instruction's modal
    words are its verb ("Keep a change log"), and so the act's first word; a condition's are followed
    by whom it binds ("provided that you keep intact all notices"), and the act by what they do."""
    at = rule.lower().find(modal_words.lower())
    if at < 0:
        return rule
    if is_instruction(modal_words):
        return rule[at:]
    after = rule[at + len(modal_words) :]
    return _CONDITION_SUBJECT.sub(" ", after, count=1) if _CONDITION_OPENER.fullmatch(modal_words) else after


_CONDITION_OPENER: Final = re.compile(CONDITION_OPENERS, re.IGNORECASE)
# Whom a condition binds, when a pronoun says it: the act begins after it.
_CONDITION_SUBJECT: Final = re.compile(r"^\W*(?:you|they|we|he|she|it)\b", re.IGNORECASE)

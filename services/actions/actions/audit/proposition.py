"""What a rule is about, and whether a clause speaks of it: what a polarity verdict weighs.

A rule is a subject, a modal form and an act ("Log files | must | be rotated occasionally"), often
with a purpose ("so that they don't grow indefinitely") and, in a prohibition, an exception
("without consent"). Its proposition is the key terms of its subject and act, the purpose and the
terms it rules out left aside. A clause can break or keep the rule only when it speaks of that
proposition (shares enough of its terms, weighted by their rarity among the target's rules); to
deny an obligation it must deny the act's head (its first terms, and in the passive its subject);
to break a prohibition it must do the act, by the rule's own verb or a word the lexicon reads as it,
to what the act names and by the means or agent it names ("by maintainer scripts").
"""

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from actions.audit.act_classes import same_act
from actions.audit.key_terms import key_terms, key_terms_in_order, words_for_terms
from actions.audit.lexicon import Lexicon, words_of
from actions.audit.polarity import (
    act_verbs,
    after_auxiliaries,
    denied_terms,
    negated_scopes,
    negated_terms,
    turned_away_scopes,
    without_purpose,
)
from policypal.rules.modality import SUBORDINATORS

#: A clause speaks of a proposition when it shares this many of its terms, or this share of their weight.
MIN_SHARED_TERMS: Final = 2
MIN_SHARED_WEIGHT: Final = 0.3
#: The act's first terms (its verb and object): what a clause must deny to deny an obligation.
HEAD_TERMS: Final = 2
_PASSIVE: Final = re.compile(r"\W*(?:\w+ly\s+)?be\b", re.IGNORECASE)
# An opening subordinate clause, or "In the common case that …,": when a rule holds, not what it binds.
_OPENING_CONDITION: Final = re.compile(
    rf"^\W*(?:{SUBORDINATORS}|in\s+(?:the|this|that|such|any|each|either)\s+(?:\w+\s+)?cases?)\b"
    r"[^,;:]{3,200},\s*",
    re.IGNORECASE,
)
# A condition after the act ("should be removed when the package is purged"): the case the rule governs.
_TRAILING_CONDITION: Final = re.compile(
    r"\b(?:when|whenever|if|once|while|in\s+case)\s+(?P<case>[^;:.]+)(?P<lead_in>:)?", re.IGNORECASE
)
_FOLLOWING: Final = re.compile(r"\bfollowing\b", re.IGNORECASE)
_EXCEPTION: Final = re.compile(r"\b(?:without|unless|except)\b", re.IGNORECASE)
# An act restricted to some agent or case: "should be done only by packages providing …".
_ONLY_BY: Final = re.compile(r"\bonly\s+(?:by|if|when|where|through|via)\b", re.IGNORECASE)
# "… should not try to use it; they should cancel the second installation …": a second clause with a
# modal form of its own is another rule, not part of the act the first forbids.
_NEXT_RULE: Final = re.compile(
    r";\s*(?:[\w’']+\s+){0,4}?(?:must|shall|should|may|need|ought)\b", re.IGNORECASE
)
_ALTERNATIVE: Final = re.compile(r"[,;]?\s*(?:and\s+|but\s+)?instead\b(?!\s+of\b)", re.IGNORECASE)
# The means or agent of a forbidden act ("strip binaries by passing the -s flag to install", "be
# modified by maintainer scripts"): the act done otherwise, or by someone else, is not forbidden.
_MEANS: Final = re.compile(
    r"\bby\s+(?!(?:default|hand|itself|themselves|now|then)\b)([^,;.]+)", re.IGNORECASE
)


# A generic noun before "of" ("set the value of DESTDIR", "the use of tabs"): what follows names the
# object the act is done to.
_GENERIC_OF: Final = re.compile(
    r"\b(?:the\s+|a\s+|an\s+|any\s+)?(?:value|use|name|number|kind|type|contents?|form|amount|size)\s+of\s+",
    re.IGNORECASE,
)
# The state an act keeps its object in ("keep intact all notices", "leave the headers unchanged"): part
# of the verb, not the object the act is done to.
_STATE_KEPT: Final = re.compile(r"\b(?:intact|unchanged|unaltered|unmodified|untouched)\b", re.IGNORECASE)
# Where an act's object ends: a clause boundary, a purpose, a reason, a condition or a relative clause.
_OBJECT_END: Final = re.compile(
    r"[;:()]|\.(?!\w)|,\s*(?:which|that|who|so|because|since|unless|except|if|when|as)\b|\b(?:so\s+that|in\s+order|unless|except)\b",
    re.IGNORECASE,
)
_PREPOSITION: Final = re.compile(r"\b(?:in|into|to|from|with|on|under|by|for|at|of|between|within)\b", re.I)
_ITEM_SEPARATOR: Final = re.compile(r",\s*(?:(?:and|or)\s+)?|\s+(?:and|or|nor)\s+", re.IGNORECASE)


# Adverbs that hedge how often or how surely an act is done, not how: "must not normally be …".
_HEDGES: Final = frozenset(
    {
        "normally",
        "usually",
        "generally",
        "typically",
        "really",
        "simply",
        "merely",
        "necessarily",
        "currently",
        "already",
        "actually",
        "ordinarily",
        "ideally",
        "strictly",
        "only",
        "possibly",
        "certainly",
        "deliberately",
    }
)
_ADVERB: Final = re.compile(r"\b\w+ly\b", re.IGNORECASE)


def _manner(act: str) -> frozenset[str]:
    """The key terms of the adverbs of manner before the act's verb ("statically" in "be statically
    linked"), hedges aside."""
    prefix = act[: len(act) - len(after_auxiliaries(act))]
    adverbs = [w for w in _ADVERB.findall(prefix) if w.lower() not in _HEDGES]
    return key_terms(" ".join(adverbs)) if adverbs else frozenset()


# A verb of saying and the "that" its content opens with, up to a negation in that content.
_SAYING_THAT: Final = re.compile(
    r"\b(?:state|states|stated|stating|say|says|said|mention|mentions|indicate|indicates|declare|declares|"
    r"explain|explains|note|notes)\b[^.;:]{0,60}?\bthat\b[^.;:]{0,80}$",
    re.IGNORECASE,
)


def _reported(act: str, scope: str) -> bool:
    """Whether the negation governing ``scope`` stands in what ``act`` has someone say ("state … that the
    package is not part of …")."""
    at = act.find(scope)
    return at > 0 and bool(_SAYING_THAT.search(act[:at]))


def _listed_objects(act: str) -> frozenset[str]:
    """The terms each item of the act's listed objects alone uses; none when the object is no list."""
    words = after_auxiliaries(act)
    verbs = act_verbs(act)
    for verb in verbs:
        at = words.lower().find(verb.lower())
        if at >= 0:
            words = words[at + len(verb) :]
    end = _OBJECT_END.search(words)
    parts = _ITEM_SEPARATOR.split(words[: end.start()] if end else words)
    # "install files in both /path and /usr/path": the list is of places, not of objects.
    if _PREPOSITION.search(parts[0]):
        return frozenset()
    items = [terms for item in parts if (terms := key_terms(item))]
    if len(items) < 2:
        return frozenset()
    counts = Counter(term for item in items for term in item)
    return frozenset(term for term, n in counts.items() if n == 1)


_WITHOUT: Final = re.compile(r"\bwithout\s+([^,;.()]+)", re.IGNORECASE)


def _lacking(rule: str) -> frozenset[str]:
    """The key terms of what ``rule`` says something goes without."""
    return frozenset().union(*(key_terms(m.group(1)) for m in _WITHOUT.finditer(rule)))


def _case(before: str, act: str) -> frozenset[str]:
    """The key terms only the condition after ``act`` names, none of the rule's other words."""
    condition = _TRAILING_CONDITION.search(act)
    if condition is None:
        return frozenset()
    case = condition.group("case")
    # "… when all of the following hold: the files are shipped in the binary package": the item is
    # the case (the lead-in alone names none).
    if condition.group("lead_in") and _FOLLOWING.search(case):
        case = act[condition.end() :]
    return key_terms(case) - key_terms(f"{before} {act[: condition.start()]}")


@dataclass(frozen=True)
class Proposition:
    """A rule's proposition: its terms, the head of its act, what it rules out, its act's verbs."""

    about: frozenset[str]
    head: frozenset[str]
    ruled_out: frozenset[str]
    verbs: tuple[str, ...]
    #: The head of each act the rule rules out, its first terms ("don't compute it from argv[0]" →
    #: compute, argv; "not to include the program name" → program, name, "include" being generic).
    #: A clause breaks such a rule only by doing that act, not by sharing a word further on.
    ruled_out_heads: frozenset[str] = frozenset()
    #: The head of what a prohibition's "by …" names (its act's means or agent: "passing | flag" in "by
    #: passing the -s flag to install"): a clause does the act only when it names one of these too.
    means: frozenset[str] = frozenset()
    #: What each item of a prohibition's listed objects alone names ("contain any hard links, device
    #: special files, sockets or setuid or setgid files" → hard, link, …, setuid, setgid; "file", which
    #: several items share, names none): a clause doing the act to any item does it.
    listed: frozenset[str] = frozenset()
    #: How a prohibition's act is done, when it says so before its verb ("must not be statically
    #: linked"): linking dynamically is not the act it forbids.
    manner: frozenset[str] = frozenset()
    #: What the rule's words say a thing goes without ("Obsolete configuration files without local
    #: changes"): a circumstance of what it names, not what it names.
    lacking: frozenset[str] = frozenset()
    #: What the rule's subject itself denies ("symbols that are not documented entry points"): a
    #: clause denying it names the same things, it does not leave out the act.
    denied_in_subject: frozenset[str] = frozenset()
    #: What only the condition after the act names ("when the package is purged" → package, purge):
    #: a clause that names none of it is not in the case the rule governs.
    case: frozenset[str] = frozenset()
    #: What a prohibition read as requiring its exception forbids ("must not attempt network access,
    #: except via the loopback interface" → attempt, network, access), or what an obligation allows
    #: only to some ("… should be done only by packages providing the init script subsystem"): a
    #: clause denying it keeps the rule, it does not go without the exception.
    excepted_act: frozenset[str] = frozenset()
    #: What the rule binds, as its words before the modal form name it ("This copyright notice").
    subject: frozenset[str] = frozenset()
    #: The first term of what an act by "use" uses ("count" in "use a count of errors as the exit
    #: status"): with the verb saying nothing, a clause does the act only when it names this.
    generic_object: str | None = None
    #: What an act by "use" uses its object as ("exit, status" in "use a count of errors as the exit
    #: status"), its object's own terms aside: a clause does the act only when it names one of these too.
    used_as: frozenset[str] = frozenset()
    #: Whether the act says what a thing is ("must not be a symbolic link"), with no verb of its own.
    copular: bool = False

    @classmethod
    @lru_cache(maxsize=8192)
    def of(cls, before: str, after: str, negative: bool, excepting: bool = False) -> "Proposition":
        """The proposition of a rule whose words before and after its modal form are given (read
        once per rule: an audit meets each rule with many clauses). ``excepting``: a prohibition read
        as requiring its exception ("must not attempt network access, except via the loopback
        interface"), whose head is then the exception's: a clause denying the forbidden act keeps it."""
        # "must not share data without consent": the exception is not what is forbidden.
        exception = _EXCEPTION.search(after) if negative else None
        act = after[: exception.start()] if exception else after
        # "must not call the scripts directly, and instead must use invoke-rc.d": what it forbids
        # ends where the alternative it requires begins, or another rule does.
        ends = [m for m in (_ALTERNATIVE.search(act), _NEXT_RULE.search(act)) if m] if negative else []
        alternative = min(ends, key=lambda m: m.start(), default=None)
        act = act[: alternative.start()] if alternative else act
        after = after[: alternative.start()] if alternative else after
        # "use invoke-rc.d instead of calling the scripts directly": the alternative turned away from
        # is ruled out as a negated act is.
        # "should state in the copyright file that the package is not part of the Debian distribution":
        # a negation in what the act has someone say is what is said, not what is ruled out.
        scopes = [s for s in negated_scopes(after) if not _reported(after, s)] + turned_away_scopes(after)
        outside = after
        for scope in scopes:
            outside = outside.replace(scope, " ")
        ruled_out = frozenset().union(*(key_terms(scope) for scope in scopes)) - key_terms(outside)
        about = key_terms(without_purpose(f"{before} {act}", opening_reason=False)) - ruled_out
        excepted = _EXCEPTION.search(after) if excepting else None
        required = after[excepted.end() :] if excepted else after_auxiliaries(after)
        # "Directly managing the /etc/rc?.d links … should be done only by packages providing the init
        # script subsystem": what it restricts to some is, for everyone else, an excepted act.
        only = _ONLY_BY.search(after) if not negative and not excepting else None
        if excepted:
            excepted_act = key_terms(after[: excepted.start()]) - key_terms(required)
        elif only:
            excepted_act = key_terms(f"{before} {after[: only.start()]}") - key_terms(after[only.end() :])
        else:
            excepted_act = frozenset()
        opening = key_terms_in_order(_STATE_KEPT.sub(" ", _GENERIC_OF.sub(" ", required)))[:HEAD_TERMS]
        # "In the common case that a package starts a single service, they | should be named …": the
        # opening condition tells what the rule is about, but it is not the subject the act is done to.
        bound = key_terms(without_purpose(_OPENING_CONDITION.sub("", before), opening_reason=False))
        subject = bound if _PASSIVE.match(after) else frozenset()
        heads = {
            term for scope in scopes for term in key_terms_in_order(after_auxiliaries(scope))[:HEAD_TERMS]
        }
        means = _MEANS.search(without_purpose(act, opening_reason=False)) if negative else None
        return cls(
            about,
            frozenset(opening) | subject,
            ruled_out,
            tuple(act_verbs(after)),
            frozenset(heads) & ruled_out,
            frozenset(key_terms_in_order(means.group(1))[:HEAD_TERMS]) if means else frozenset(),
            _listed_objects(act) if negative else frozenset(),
            _manner(act) if negative else frozenset(),
            _lacking(f"{before} {after}"),
            denied_terms(before) | negated_terms(before),
            _case(before, act),
            excepted_act,
            bound,
            _generic_object(after, opening),
            _used_as(after),
            bool(_COPULA.match(after)),
        )

    def spoken_of(self, terms: frozenset[str], weights: Mapping[str, float]) -> bool:
        """Whether a clause with ``terms`` speaks of this proposition (see the module's docstring); "the
        number of" speaks of a count."""
        terms = terms | {name for name, kin in _SAME_OBJECT.items() if kin & terms}
        shared = terms & self.about
        if not shared:
            return False
        total = sum(weights.get(t, 1.0) for t in self.about)
        carried = sum(weights.get(t, 1.0) for t in shared)
        return len(shared) >= MIN_SHARED_TERMS or carried >= MIN_SHARED_WEIGHT * total

    def act_in(self, clause: str, affirmed: frozenset[str], lexicon: Lexicon | None) -> str | None:
        """The clause's word for the act's verb ("starts" for "begin"), "" when a verb is a generic one
        ("use", "include", "make") and the object decides, None when the clause does not do the act:
        the verb done to something else than the head names ("strip the executables in the build
        directory" is not done by making stripped copies) is not the act, nor is the act done otherwise
        than by the means or agent the rule names."""
        if self.means and not self.means & affirmed:
            return None
        if self.manner and not self.manner & affirmed:
            return None
        named = [key_terms(verb) for verb in self.verbs]
        # "must not contain or make hard links": with a generic verb among them, the object decides
        # ("use a count of errors as the exit status" is not done by exiting with status 2 on an error).
        if not named or not all(named):
            used = self.generic_object
            # "must not be a symbolic link": what a thing is said to be decides, its subject aside (a
            # clause names the subject whatever it says of it).
            if used is None and self.copular:
                own = self.head - self.subject
                return "" if not own or own & affirmed or self.listed & affirmed else None
            return "" if used is None or self._names_object(used, affirmed) else None
        stems = frozenset().union(*named)
        objects = self.head - stems
        if objects and not objects & affirmed and not self.listed & affirmed:
            return None
        if stems & affirmed:
            return ", ".join(words_for_terms(clause, stems & affirmed)) or ", ".join(sorted(stems & affirmed))
        # One act, whichever verb of its class says it: a package that "ships" a menu entry
        # "installs" it, a script that "rewrites" a conffile "alters" it.
        if kin := same_act(stems, affirmed):
            return ", ".join(words_for_terms(clause, kin)) or ", ".join(sorted(kin))
        if lexicon is None:
            return None
        # "installed uncompressed" is the opposite of "compressed", however alike the two words read.
        said = [
            w
            for w in words_of(clause)
            if key_terms(w)
            and key_terms(w) <= affirmed
            and not key_terms(_NEGATING_PREFIX.sub("", w)) & stems
        ]
        return next((word for verb in self.verbs if (word := lexicon.alike(verb, said))), None)

    def _names_object(self, used: str, affirmed: frozenset[str]) -> bool:
        """Whether the clause names what an act by "use" uses (``used``, or one of a listed object's
        items, or a count by "the number of"), and what it uses it as."""
        if self.used_as and not self.used_as & affirmed:
            return False
        return bool(({used} | _SAME_OBJECT.get(used, frozenset())) & affirmed) or bool(self.listed & affirmed)


_COPULA: Final = re.compile(r"^\W*(?:not\s+)?be\s+(?:a|an|the|one)\b", re.IGNORECASE)
_NEGATING_PREFIX: Final = re.compile(r"^(?:un|non-?)", re.IGNORECASE)
# "Use" says nothing of the act; what it uses does. An object naming words ("the term “illegal”", "the
# word …") names them after it, so it is no object a clause need repeat.
_USE_OPENING: Final = r"^\W*(?:also\s+)?(?:use|using)\b"
_USE: Final = re.compile(_USE_OPENING, re.IGNORECASE)
_NAMING_WORDS: Final = frozenset(key_terms("term terms word words phrase name names value"))
# A count is what "the number of …" names.
_SAME_OBJECT: Final = {"count": frozenset(key_terms("number total"))}


_USED_AS: Final = re.compile(rf"{_USE_OPENING}(?P<used>[^,;.]*?)\bas\s+(?P<role>[^,;.]+)", re.I)


def _used_as(after: str) -> frozenset[str]:
    """The terms of what an act by "use" uses its object as, its object's own terms aside ("use the
    copyright file as a general README file" → general, readme)."""
    used = _USED_AS.match(after_auxiliaries(after))
    return key_terms(used.group("role")) - key_terms(used.group("used")) if used else frozenset()


def _generic_object(after: str, opening: list[str]) -> str | None:
    """The first term of what an act by "use" uses ("count" in "use a count of errors as the exit
    status"); None for any other act, or an object naming words."""
    if not opening or not _USE.match(after_auxiliaries(after)):
        return None
    return None if opening[0] in _NAMING_WORDS else opening[0]

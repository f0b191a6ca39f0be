"""Checking every clause against the rules that govern it in one target, offline.

For each clause its most related rules are judged (``judgement.judge``). How clearly a rule must be
about the clause before its conflict is reported (its standing, ``matching.standings``) depends on
what the conflict rests on (``FLAG``): the clause's own figure past the rule's limit, or its path
inside an area the rule forbids, is specific evidence; a polarity reading alone (the rule requires,
the clause denies) needs the rule to stand out as the one about the clause. A conflict is dropped
when a rule the clause keeps stands clearly higher (``MARGIN``): a clause is checked against what
governs it most, not against whatever rule it can be made to contradict. A clause no binding rule
stands out for (``RELATED``) has no governing rule there.
"""

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from actions.audit.characters import names_characters, names_whole_subject
from actions.audit.clauses import Clause
from actions.audit.document_names import as_document_words
from actions.audit.identifiers import identifiers
from actions.audit.judgement import judge, severity_of
from actions.audit.lexicon import Lexicon
from actions.audit.matching import JUDGED, Candidate, matched_by_what_clauses_do
from actions.audit.placement import names_what_is_placed
from actions.audit.provision_acts import PROVISION_ACTS
from actions.audit.top_level import new_directories_verdict
from actions.audit.verdict import Reading, Verdict
from policypal.contracts import ResolvedDocument
from policypal.contracts.audit import AssessedBy, Severity
from policypal.rules import is_binding
from policypal.rules.number_words import CARDINAL_ALTERNATION
from policypal.vectorstore import RulePoint

#: A binding rule of at least this standing governs the clause.
RELATED: Final = 0.8
# The standing a conflict needs, by the evidence its reading rests on.
_BY_EVIDENCE: Final[dict[Reading, float]] = {
    # A figure past a limit, for what the words before the limit say it measures (``judgement``).
    "quantity": RELATED - 2.5,
    "sets_limit": RELATED - 2.0,
    # The clause does or allows a forbidden act by the rule's own, rare verb, and to all it names.
    "forbidden_act": RELATED - 2.0,
    # The clause denies the act by the rule's own verb, and all that the act's head names ("We do not
    # keep a change log" for "Keep a change log"): as specific as doing its opposite.
    "denied_act": RELATED - 1.0,
    # All that the rule rules out ("instead of calling them directly"), done inside a path its act names.
    "ruled_out_in_path": RELATED - 2.0,
    # An option or variable the rule requires by name, denied by name ("no longer understands --help"):
    # as specific as a name in code form the rule rules out.
    "lacks_identifier": RELATED - 2.0,
    # Only some of the names a rule lists, enumerated after "only" ("only build, binary and clean").
    "lacks_listed": RELATED - 2.0,
    "forbidden_path": RELATED - 3.0,
    # A directory the clause adds right under an area whose top level the rule keeps closed: matched
    # by the path the clause adds (``matching._naming_its_area``), not by relatedness.
    "new_top_level": -math.inf,
    "read_only": RELATED - 3.0,
    "required_path": RELATED,
    # What the rule's subject names, placed elsewhere than the rule requires.
    "misplaced": RELATED - 2.0,
    # The clause denies having what the rule requires at a path ("does not include …/copyright").
    "denied_path": RELATED - 2.0,
    # What the rule's subject names, given a value of the kind the rule requires, but not the one it
    # requires ("mode 0777" for "mode 644 or 755"): as specific as a figure past a limit.
    "other_value": RELATED - 2.0,
    # A value the rule forbids by name ("modes like 4711"), given by the clause ("mode 4711").
    "forbidden_value": RELATED - 2.0,
    # A name the clause gives for what the rule's subject names, with a character the rule does not
    # allow there ("as in Kestrel_Agent" for "lower case letters, digits, plus, minus and periods").
    "characters": RELATED - 3.0,
    # An example message the clause gives, out of the form the rule sets for messages, or beginning
    # with a capital or ending with a period where the rule forbids it: as specific as a figure.
    "message_format": RELATED - 2.0,
    # A mode the clause gives that grants or withholds what the rule says of everyone's access
    # ("mode 0600" for "world-readable"): as specific as a value.
    "mode_bits": RELATED - 2.0,
    # A polarity conflict already rests on the clause doing, denying or leaving out what the rule
    # itself names (``judgement``), so the rule need not stand out quite as clearly.
    "polarity": RELATED - 0.4,
    # The clause does the opposite of the act, by a verb that undoes it, to what the act names
    # ("a mailbox that rejects all incoming mail" for "must accept mail"): more specific than a denial.
    "opposite": RELATED - 1.0,
    # The clause denies several terms of the act but not its head ("prints the option names, without
    # saying how to invoke the program"): it must be about the rule beyond doubt.
    "omission": RELATED + 1.0,
    # The clause says in so many words that it allows ("are allowed", "may", "are free to") what a rule
    # of the same subject allows only in the form it names: as specific as a figure past a limit.
    "permits_more": RELATED - 2.0,
    "model": RELATED,
}
# A provision broken by what the clause does (``provision_acts``: further restrictions, relicensing, a
# device locked to its vendor's key, a build fetching over the network, …) is matched by that act, not
# by relatedness: any standing.
_BY_ACT: Final[dict[Reading, float]] = {act.reading: -math.inf for act in PROVISION_ACTS}
#: The standing a conflict needs, by the evidence it rests on or the act it is matched by.
FLAG: Final[dict[Reading, float]] = _BY_EVIDENCE | _BY_ACT
#: A polarity reading judges only the clause's most related rules: further down, a rule shares words
#: with the clause more often than its subject.
POLARITY_RANKS: Final = 3
#: The readings that rest on the words a clause shares with the rule, judged only within ``POLARITY_RANKS``.
_BY_SHARED_WORDS: Final = frozenset(
    {"polarity", "omission", "opposite", "permits_more", "forbidden_act", "denied_act"}
)
#: A second breached rule is reported when its conflict is nearly as strong as the first (standing).
SECOND_WITHIN: Final = 2.5
#: A conflict stands unless a rule the clause keeps stands higher than the conflicting one by this.
MARGIN: Final = 1.0


@dataclass(frozen=True)
class Breach:
    """A clause that breaks a rule of a target: the pair, the verdict and its severity."""

    clause: Clause
    target: ResolvedDocument
    candidate: Candidate
    verdict: Verdict
    severity: Severity
    #: Set when a language model judged the pair: its account of the impact and its fix.
    consequence: str | None = None
    suggestion: str | None = None
    assessed_by: AssessedBy = "offline-rules"

    @property
    def rule(self) -> RulePoint:
        """The rule broken."""
        return self.candidate.rule


@dataclass
class TargetCheck:
    """What the clauses met in one target: breaches, agreements, and each governed clause's best rule."""

    target: ResolvedDocument
    rules: int
    breaches: list[Breach] = field(default_factory=list)
    consistent: int = 0
    ungoverned: int = 0
    governing: list[tuple[Clause, Candidate, bool]] = field(default_factory=list)


def check_target(
    clauses: Sequence[Clause],
    candidates: Sequence[Sequence[Candidate]],
    target: ResolvedDocument,
    rules: int,
    weights: Mapping[str, float] | None = None,
    lexicon: Lexicon | None = None,
) -> TargetCheck:
    """Judge each clause against its candidate rules in ``target`` (``rules`` binding rules in all;
    ``weights``: its key terms' rarity, ``TargetRules.rarity``; ``lexicon``: words naming the same act)."""
    check = TargetCheck(target, rules)
    lowest = min(FLAG.values())
    for clause, found in zip(clauses, candidates, strict=True):
        judged = _judged(clause, found, lowest, weights, lexicon)
        broken = _breaches(clause.text, judged)
        if broken:
            for candidate, verdict in broken:
                check.breaches.append(
                    Breach(clause, target, candidate, verdict, severity_of(candidate.rule.modality))
                )
                check.governing.append((clause, candidate, True))
            continue
        governing = [c for c, _ in judged if c.standing >= RELATED]
        if governing:
            check.consistent += 1
            check.governing.append((clause, governing[0], False))
        else:
            check.ungoverned += 1
    return check


def governing_verdict(
    clause: Clause,
    candidate: Candidate,
    weights: Mapping[str, float] | None = None,
    lexicon: Lexicon | None = None,
) -> Verdict | None:
    """The verdict on ``clause`` under the candidate's rule; None when the rule cannot be broken."""
    rule = candidate.rule
    if not is_binding(rule.modality):
        return None
    if candidate.added:
        # Matched by the directories the clause adds where the rule keeps the top level closed, and
        # the target names none of them: the matching read what the judgement of one rule cannot.
        return new_directories_verdict(rule.text, rule.modal_words, candidate.added)
    sections = [*rule.enclosing_sections, *([rule.section] if rule.section else [])]
    # "a copy of the GPL" is read as naming what the GNU General Public License calls "this License".
    text = as_document_words(clause.text, rule.title)
    return judge(
        text, rule.text, rule.modality, rule.modal_words, weights, lexicon, sections, referent=rule.referent
    )


def _judged(
    clause: Clause,
    found: Sequence[Candidate],
    lowest: float,
    weights: Mapping[str, float] | None,
    lexicon: Lexicon | None,
) -> list[tuple[Candidate, Verdict]]:
    """The verdicts on ``clause`` that count: its first ``JUDGED`` candidates (polarity only within
    the first ``POLARITY_RANKS``), rules against further restrictions, and further down only conflicts
    on what it states (``STATED``) with rules that name a figure, a value or a place."""
    judged = []
    for rank, candidate in enumerate(found):
        if candidate.standing < lowest:
            continue
        deep = rank >= JUDGED and not matched_by_what_clauses_do(candidate.rule.text)
        # A candidate by the clause's area is there for what the clause states, however the rule names it
        # ("a new subdirectory of the root filesystem").
        if (
            deep
            and not (candidate.by_area or candidate.by_example)
            and not _names_figures(candidate.rule.text)
        ):
            continue
        verdict = governing_verdict(clause, candidate, weights, lexicon)
        if verdict is None or (
            deep
            and not _stated(verdict)
            and not _keeps_value(verdict)
            and not _by_shared_identifier(clause.text, candidate.rule.text, verdict)
        ):
            continue
        # Further down, a path inside a forbidden area counts for what the rule forbids placing there:
        # "No binaries may be located under /etc" says nothing of an init script in /etc/init.d.
        if (
            deep
            and verdict.reading == "forbidden_path"
            and not names_what_is_placed(clause.text, candidate.rule.text)
        ):
            continue
        # A new top-level directory counts where the matching found it by the clause's area, which
        # knows the directories the target names (the judgement of one rule does not).
        if verdict.reading == "new_top_level" and not candidate.by_area:
            continue
        if (
            rank >= POLARITY_RANKS
            and verdict.reading in _BY_SHARED_WORDS
            and not _by_shared_identifier(clause.text, candidate.rule.text, verdict)
        ):
            continue
        judged.append((candidate, verdict))
    return judged


def _by_shared_identifier(clause: str, rule: str, verdict: Verdict) -> bool:
    """A forbidden act resting on a name in code form that both name ("taken from `argv[0]`" for "don’t
    compute it from argv[0]"): as telling as a path shared, however many rules share more words."""
    return verdict.reading == "forbidden_act" and bool(identifiers(rule).keys() & identifiers(clause).keys())


_FIGURE: Final = re.compile(rf"\d|/|\b(?:{CARDINAL_ALTERNATION})\b", re.IGNORECASE)


@lru_cache(maxsize=8192)
def _names_figures(rule: str) -> bool:
    """Whether a rule names a number, a value, a path or characters: only such a rule can be broken by
    what a clause states (``STATED``)."""
    return bool(_FIGURE.search(rule)) or names_characters(rule)


#: Conflicts resting on what the clause states of the rule's own subject (a figure, a value, a place):
#: weighed among all the candidates, not only the first ``JUDGED``, as shared words do not make them.
STATED: Final = frozenset(
    {
        "quantity",
        "other_value",
        "forbidden_value",
        "misplaced",
        "forbidden_path",
        "read_only",
        "characters",
        "message_format",
        "mode_bits",
        "new_top_level",
        "ruled_out_in_path",
    }
)


def _matched_by_what_it_states(clause: str, candidate: Candidate, verdict: Verdict) -> bool:
    """A write into an area the rule keeps free of writes, where the rule was matched by that area, or
    a name with characters a rule on names does not allow, where the rule was matched by the name
    (``matching``): matched by what the clause does, like a further restriction, whatever its standing."""
    rule = candidate.rule
    return (
        (candidate.by_area and verdict.reading == "read_only")
        or (candidate.by_example and verdict.reading == "message_format")
        or (candidate.by_value and verdict.reading == "forbidden_value")
        or (
            candidate.by_name
            and verdict.reading == "characters"
            and names_whole_subject(clause, rule.text, rule.modal_words)
        )
    )


def _stated(verdict: Verdict) -> bool:
    return verdict.conflict and verdict.reading in STATED


def _keeps_value(verdict: Verdict) -> bool:
    """A clause giving the very value a rule allows: weighed among all candidates, as a value stated
    against a rule's is (``STATED``), for it outweighs a conflict on another rule's value."""
    return not verdict.conflict and verdict.reading == "other_value"


_PROVISION_READINGS: Final = frozenset(_BY_ACT)


def _breaches(clause: str, judged: Sequence[tuple[Candidate, Verdict]]) -> list[tuple[Candidate, Verdict]]:
    """The rules ``clause`` breaks: the strongest conflict, and a second one on another page that is
    nearly as strong (a clause can break two rules; the officer sees both)."""

    def strength(item: tuple[Candidate, Verdict]) -> float:
        return item[0].standing - FLAG[item[1].reading]

    conflicts = sorted(
        (
            (c, v)
            for c, v in judged
            if v.conflict and (c.standing >= FLAG[v.reading] or _matched_by_what_it_states(clause, c, v))
        ),
        key=strength,
        reverse=True,
    )
    if not conflicts:
        return []
    worst = conflicts[0]
    # A provision broken by what the clause does ("creates /var/lock/radio.ttyS1" against the "LCK.."
    # naming convention) stands whatever other rules of the area the clause keeps (placing the lock in
    # /var/lock): keeping one rule does not undo breaking another.
    # A conflict as specific as a provision (the rule's own verb, a figure, a value) elsewhere stands too.
    if worst[1].reading in _PROVISION_READINGS:
        also = [
            c
            for c in conflicts[1:]
            if (c[1].reading in _PROVISION_READINGS or c[1].reading in _SPECIFIC)
            and _place(c[0].rule) != _place(worst[0].rule)
        ]
        return [worst, *also[:1]]
    # A value another rule allows in so many words ("They should have mode 4754", for setuid programs
    # restricted to a group) is no breach of the general one ("should be mode 4755 or 2755").
    if worst[1].reading == "other_value" and any(_keeps_value(v) for _, v in judged):
        return []
    # A polarity agreement is only the absence of a denial, and a path where the rule wants it only
    # keeps the place: either outweighs another polarity reading or a path, not a figure, a limit, a
    # write into an area kept free of writes ("appends entries to /etc/passwd", where accounts belong),
    # or what the rule rules out done inside its own path, that the clause states.
    specific = worst[1].reading in (
        "quantity",
        "sets_limit",
        "read_only",
        "characters",
        "message_format",
        "mode_bits",
        "ruled_out_in_path",
        "forbidden_value",
    )
    # Names the clause gives are weighed only against rules on the characters of names. A clause that
    # neither does nor denies a rule's act ("unaddressed") keeps nothing that could outweigh a breach.
    by_names = worst[1].reading == "characters"
    agreeing = [
        c.standing
        for c, v in judged
        if not v.conflict
        and c.standing >= RELATED
        and not (specific and v.reading in ("polarity", "required_path"))
        and not (by_names and v.reading != "characters")
        and v.reading != "unaddressed"
    ]
    if agreeing and max(agreeing) > worst[0].standing + MARGIN:
        return []
    second = [
        item
        for item in conflicts[1:]
        if _place(item[0].rule) != _place(worst[0].rule) and strength(item) >= strength(worst) - SECOND_WITHIN
    ]
    return [worst, *second[:1]]


#: Conflicts resting on the rule's own verb, a figure or a value: as specific as a provision's act.
_SPECIFIC: Final = frozenset(
    {"forbidden_act", "denied_act", "quantity", "forbidden_value", "other_value", "mode_bits"}
)


def _place(rule: RulePoint) -> tuple[int | None, str | None]:
    """Where a rule stands, for telling two breaches apart: its page, or for a text without pages
    (the GPL-3) its section."""
    return (rule.page, None) if rule.page is not None else (None, rule.section or rule.rule_id)

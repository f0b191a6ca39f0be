"""Which rules of a target govern a clause: the same meaning, and the same key terms.

Relatedness mixes the cosine of the clause's embedding with the rule's, and with the passage the rule
stands in (its chunk: a rule is one sentence, often "This should normally be…", and its passage says
what it is about), and the share of the clause's key terms (stemmed, weighted by their rarity among
the target's rules, the rule's section title included) that the rule also uses. The terms keep a
clause about "/usr/local" from meeting a rule about "/usr/share" just because both are about
installing files; the embeddings find the rule a clause paraphrases.

How related is related enough depends on the clause: a long, specific clause is close to many rules,
a short one to few. So each candidate also gets its *standing*: how far its relatedness stands above
the clause's relatedness to the target's rules at large, in standard deviations, less what the best
of that many unrelated rules would reach by chance (about sqrt(2 ln n) for n rules). A rule that
stands out is about the clause; one that is merely the closest of a thousand is not. All in memory,
on one target's rules at a time.
"""

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from actions.audit.characters import gives_names, rules_characters
from actions.audit.document_names import as_document_words
from actions.audit.key_terms import key_terms
from actions.audit.message_format import gives_example_message, sets_message_form
from actions.audit.placement import forbidden_areas, places
from actions.audit.polarity import rule_act, rule_subject
from actions.audit.provision_acts import PROVISION_ACTS, provision_of
from actions.audit.quantities import depth, path_within, paths
from actions.audit.read_only import keeps_free_of_writes, writes
from actions.audit.top_level import (
    added_at_top_level,
    calls_directory_new,
    closed_top_level,
    unknown_at_top_level,
)
from actions.audit.values import forbidden_values, values
from actions.audit.verdict import Reading
from policypal.contracts import ResolvedDocument
from policypal.rules import NEGATIVE_MODALITIES, is_binding
from policypal.vectorstore import RulePoint, StoredRule

#: Weight of the embedding cosines in relatedness; the rest is the shared key terms.
DENSE_WEIGHT: Final = 0.6
#: Of the embedding part, the weight of the rule's own sentence; the rest is its passage's.
RULE_WEIGHT: Final = 0.7
#: Fewer rules than this give no reliable spread: standing is then read off relatedness itself.
MIN_RULES_FOR_SPREAD: Final = 30
#: For such small targets, the relatedness at standing 0, and the relatedness one unit of standing is worth.
SMALL_TARGET_ORIGIN: Final = 0.344
SMALL_TARGET_UNIT: Final = 0.02
#: Rules considered per clause and target: what a language model may be shown (``drafted_audit``).
CANDIDATES: Final = 20
#: The offline judgement reads only the first of them: its readings rest on shared words, which
#: lower-ranked rules share with a clause by chance more often than by subject (10 flagged one more
#: compliant clause of the bench and found nothing more). A conflict on what the clause states of the
#: rule's own subject (a figure, a value, a place: ``checking.STATED``) counts at any rank.
JUDGED: Final = 6


@dataclass(frozen=True)
class Candidate:
    """A rule that may govern a clause: how related they are, by meaning and by key terms."""

    rule: RulePoint
    relatedness: float
    similarity: float
    term_share: float
    #: How far above chance the rule's relatedness stands for this clause (see the module's docstring).
    standing: float = 0.0
    #: A candidate by the clause's area (``_naming_its_area``), whatever its relatedness.
    by_area: bool = False
    #: A rule on the characters of names, a candidate of a clause that gives a name, whatever its
    #: relatedness ("packaged as Marram_RoomKit" for "Package names must consist only of …").
    by_name: bool = False
    #: A rule on the form of messages, a candidate of a clause that gives an example message, whatever
    #: its relatedness ("for example \"gaugeq: Could not read …\"" for "should not begin with a capital").
    by_example: bool = False
    #: A prohibition naming a value the clause gives ("UID 65535" for "65535: This value must not be
    #: used"), whatever its relatedness.
    by_value: bool = False
    #: The directories the clause adds at the top level of an area the rule keeps closed, none of them
    #: one the target names (``_adding_at_top_level``): the rule is a candidate by that area.
    added: tuple[str, ...] = ()


@dataclass(frozen=True)
class TargetRules:
    """One target's rules ready for matching: units, vectors, key terms and their rarity."""

    rules: list[RulePoint]
    vectors: npt.NDArray[np.float32]
    #: Each rule's passage (its chunk's vector; the rule's own where the passage is unknown).
    passages: npt.NDArray[np.float32]
    rule_terms: list[frozenset[str]]
    rarity: dict[str, float]
    #: BM25's length normalisation per rule (k1 = 1.2, b = 0.75; tf = 1): a long run-on rule shares
    #: many terms with any clause by its length alone.
    length_factors: list[float]
    #: The areas (file-system paths) each rule names, the root left aside.
    rule_paths: list[list[str]]
    #: Every area the target's rules name: a directory a clause calls new is one the target never names.
    known_paths: list[str]
    #: The rules that allow only, or forbid, characters in a name (``characters``).
    name_rules: list[int]
    #: The rules that are provisions a clause breaks by what it does, by their reading (``provision_acts``).
    provision_rules: dict[Reading, list[int]]
    #: The rules setting the form of messages (``message_format``).
    message_rules: list[int]
    #: The prohibitions by each value they forbid by name (``values.forbidden_values``).
    value_rules: dict[str, list[int]]

    @classmethod
    def of(
        cls, stored: Sequence[StoredRule], passages: Mapping[int, Sequence[float]] | None = None
    ) -> "TargetRules":
        """Index ``stored`` rules (one target's) for matching; ``passages`` are its chunks' vectors by index."""
        rules = [s.rule for s in stored]
        # "This file must …" is matched on what it refers back to as well ("the file …/copyright").
        rule_terms = [key_terms(f"{r.section or ''} {r.referent or ''} {r.text}") for r in rules]
        counts: Counter[str] = Counter(t for ts in rule_terms for t in ts)
        total = len(rules)
        rarity = {t: math.log((total + 1) / (n + 0.5)) for t, n in counts.items()}
        vectors = (
            np.asarray([s.vector for s in stored], dtype=np.float32)
            if stored
            else np.zeros((0, 1), np.float32)
        )
        known = passages or {}
        around = (
            np.asarray(
                [known.get(s.rule.chunk_index, s.vector) for s in stored],
                dtype=np.float32,
            )
            if stored
            else vectors
        )
        average = sum(len(ts) for ts in rule_terms) / max(1, total)
        factors = [2.2 / (1 + 1.2 * (0.25 + 0.75 * len(ts) / max(average, 1.0))) for ts in rule_terms]
        named = [[p for p in paths(r.text) if p != "/"] for r in rules]
        known_paths = [area for areas in named for area in areas]
        name_rules = [
            j
            for j, rule in enumerate(rules)
            if rules_characters(rule.text, rule.modal_words, rule.modality in NEGATIVE_MODALITIES)
        ]
        provision_rules: dict[Reading, list[int]] = {}
        for j, rule in enumerate(rules):
            if provision := provision_of(rule.text):
                provision_rules.setdefault(provision.reading, []).append(j)
        message_rules = [
            j
            for j, rule in enumerate(rules)
            if sets_message_form(rule.text, rule.modal_words, rule.modality in NEGATIVE_MODALITIES)
        ]
        value_rules: dict[str, list[int]] = {}
        for j, rule in enumerate(rules):
            if rule.modality in NEGATIVE_MODALITIES:
                # A figure ("65535", "4711") is as specific as a name in code form; a format ("HTML") is
                # not, and is left to relatedness.
                for value in forbidden_values(
                    rule_subject(rule.text, rule.modal_words), rule_act(rule.text, rule.modal_words)
                ):
                    if value[0].isdigit():
                        value_rules.setdefault(value, []).append(j)
        return cls(
            rules,
            vectors,
            around,
            rule_terms,
            rarity,
            factors,
            named,
            known_paths,
            name_rules,
            provision_rules,
            message_rules,
            value_rules,
        )

    def unseen_rarity(self) -> float:
        """The weight of a term no rule uses: the rarest possible."""
        return math.log(len(self.rules) + 2)


def matched_by_what_clauses_do(rule: str) -> bool:
    """Whether ``rule`` is matched to a clause by what the clause does, whatever its rank or
    relatedness: a provision of ``provision_acts`` (against further restrictions, on the licence's own
    copy, on network access in a build, …)."""
    return provision_of(rule) is not None


def governing_rules(
    clauses: Sequence[str],
    clause_vectors: npt.NDArray[np.float32],
    target: TargetRules,
    *,
    limit: int = CANDIDATES,
) -> list[list[Candidate]]:
    """For each clause, the ``limit`` most related rules of ``target``, most related first, and for a
    clause that restricts what recipients may do, the target's rules against further restrictions."""
    if not target.rules or not clauses:
        return [[] for _ in clauses]
    similarity = clause_vectors @ target.vectors.T
    meaning = RULE_WEIGHT * similarity + (1 - RULE_WEIGHT) * (clause_vectors @ target.passages.T)
    title = target.rules[0].title
    shares = _term_shares([key_terms(as_document_words(c, title)) for c in clauses], target)
    relatedness = DENSE_WEIGHT * meaning + (1 - DENSE_WEIGHT) * shares
    standing = standings(relatedness)
    found: list[list[Candidate]] = []
    top = min(limit, len(target.rules))
    for i in range(len(clauses)):
        best = np.argpartition(-relatedness[i], top - 1)[:top]
        ordered = sorted(best, key=lambda j: -relatedness[i, j])
        # A provision broken by what a clause does governs every clause doing its act (``provision_acts``):
        # a restriction on recipients, relicensing, a device locked to its vendor's key, …
        for act in PROVISION_ACTS:
            governed = target.provision_rules.get(act.reading)
            if governed and act.done_by(clauses[i]) is not None:
                ordered += [j for j in governed if j not in ordered]
        by_area = _naming_its_area(clauses[i], target)
        # A directory the clause adds where a rule keeps the top level closed makes that rule one too.
        adding = _adding_at_top_level(clauses[i], target)
        by_area += [j for j in adding if j not in by_area][:AREA_RULES]
        ordered += [j for j in by_area if j not in ordered]
        by_name = target.name_rules if target.name_rules and gives_names(clauses[i]) else []
        ordered += [j for j in by_name if j not in ordered]
        by_example = (
            target.message_rules if target.message_rules and gives_example_message(clauses[i]) else []
        )
        ordered += [j for j in by_example if j not in ordered]
        by_value = (
            [j for value in values(clauses[i]) for j in target.value_rules.get(value, [])]
            if target.value_rules
            else []
        )
        ordered += [j for j in by_value if j not in ordered]
        found.append(
            [
                Candidate(
                    target.rules[j],
                    float(relatedness[i, j]),
                    float(similarity[i, j]),
                    float(shares[i, j]),
                    float(standing[i, j]),
                    j in by_area,
                    j in by_name,
                    j in by_example,
                    j in by_value,
                    adding.get(j, ()),
                )
                for j in ordered
            ]
        )
    return found


#: A clause's area is named by at most this many rules for them to be its candidates by the area alone.
AREA_RULES: Final = 3


def _naming_its_area(clause: str, target: TargetRules) -> list[int]:
    """The rules naming the most specific area (two levels deep at least) that holds a path of the
    clause ("/etc/group" for "appends a line to /etc/group"), when few do: a path shared is as telling as
    a rare word, and a long rule listing several shares little else with the clause; and for a clause
    that writes, a few rules keeping an area that holds its path free of writes."""
    used = paths(clause, affirmed_only=True)
    if not used:
        return []
    best: list[int] = []
    deepest = 1
    for j, named in enumerate(target.rule_paths):
        held = [depth(area) for area in named for p in used if path_within(p, area)]
        if not held or max(held) < deepest:
            continue
        if max(held) > deepest:
            best, deepest = [], max(held)
        best.append(j)
    found = best if deepest >= 2 and len(best) <= AREA_RULES else []
    # A clause writing into an area a rule keeps free of writes ("/usr … read-only") meets that rule,
    # however broad the area.
    if writes(clause):
        found += [
            j
            for j, named in enumerate(target.rule_paths)
            if j not in found
            and keeps_free_of_writes(target.rules[j].text)
            and any(path_within(p, area) for area in named for p in used)
        ][:AREA_RULES]
    # So does a clause placing things inside an area a prohibition keeps them out of ("unpacked by dpkg
    # into /usr/local/bin" for "must not place any files in /usr/local"), where rules naming a deeper
    # area holding the path ("/usr/local/bin" in a PATH) are the most specific.
    if places(clause):
        found += [
            j
            for j, rule in enumerate(target.rules)
            if j not in found
            and rule.modality in NEGATIVE_MODALITIES
            and any(
                depth(area) >= 2 and path_within(p, area)
                for area in forbidden_areas(rule.text, rule.modal_words)
                for p in used
            )
        ][:AREA_RULES]
    # So does a clause adding a directory where a rule keeps the top level closed ("/var/osprey"), one
    # the target itself never names.
    if calls_directory_new(clause):
        found += [
            j
            for j, rule in enumerate(target.rules)
            if j not in found
            and rule.modality in NEGATIVE_MODALITIES
            and (area := closed_top_level(rule.text)) is not None
            and added_at_top_level(clause, area, target.known_paths)
        ][:AREA_RULES]
    return found


def _adding_at_top_level(clause: str, target: TargetRules) -> dict[int, tuple[str, ...]]:
    """The prohibitions keeping an area's top level closed ("must not use a direct subdirectory under
    the /usr hierarchy"), by index, with the directories a clause placing things there adds at that
    level that the target never names ("/usr/quaystone" of "installs into its own tree at
    /usr/quaystone/"; ``top_level.unknown_at_top_level``)."""
    if not (places(clause) or calls_directory_new(clause)):
        return {}
    adding = {}
    for j, rule in enumerate(target.rules):
        area = closed_top_level(rule.text) if rule.modality in NEGATIVE_MODALITIES else None
        added = unknown_at_top_level(clause, area, target.known_paths) if area is not None else []
        if added:
            adding[j] = tuple(added)
    return adding


def standings(relatedness: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Each clause's (row's) relatedness to each rule as standing above chance (clauses × rules)."""
    count = relatedness.shape[1]
    if count < MIN_RULES_FOR_SPREAD:
        small: npt.NDArray[np.float32] = (relatedness - SMALL_TARGET_ORIGIN) / SMALL_TARGET_UNIT
        return small
    spread = relatedness.std(axis=1, keepdims=True)
    spread[spread == 0] = 1.0
    chance = math.sqrt(2 * math.log(count))
    standing: npt.NDArray[np.float32] = (
        relatedness - relatedness.mean(axis=1, keepdims=True)
    ) / spread - chance
    return standing


def _term_shares(clause_terms: Sequence[frozenset[str]], target: TargetRules) -> npt.NDArray[np.float32]:
    """Share of each clause's key-term weight that each rule also has (clauses × rules)."""
    vocabulary = {t: k for k, t in enumerate({t for ts in clause_terms for t in ts})}
    unseen = target.unseen_rarity()
    weights = np.zeros((len(clause_terms), len(vocabulary)), dtype=np.float32)
    for i, ts in enumerate(clause_terms):
        for t in ts:
            weights[i, vocabulary[t]] = target.rarity.get(t, unseen)
    present = np.zeros((len(target.rules), len(vocabulary)), dtype=np.float32)
    for j, ts in enumerate(target.rule_terms):
        for t in ts:
            k = vocabulary.get(t)
            if k is not None:
                present[j, k] = target.length_factors[j]
    totals = weights.sum(axis=1, keepdims=True)
    totals[totals == 0] = 1.0
    shares: npt.NDArray[np.float32] = (weights @ present.T) / totals
    return shares


@dataclass(frozen=True)
class Matched:
    """One target's rules and, for each clause, the rules most related to it."""

    target: ResolvedDocument
    rules: TargetRules
    candidates: list[list[Candidate]]

    @property
    def binding(self) -> int:
        """How many of the target's rules can be breached (must, must not, should, should not)."""
        return sum(1 for rule in self.rules.rules if is_binding(rule.modality))

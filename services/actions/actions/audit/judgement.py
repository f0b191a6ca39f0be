"""The offline verdict on a clause and a rule that governs it: does the clause break the rule?

Readings, the most specific that applies deciding:
0. a provision broken by what a clause does, in words of its own (``provision_acts``: a rule against
   further restrictions on the rights granted, against a clause that restricts what recipients may do
   with the work; a rule against network access in the build, against a build that downloads what it
   needs; …), and read by that act alone where the provision says so;
1. the characters a rule allows in a name, or forbids there, against the names a clause gives
   (``characters``); quantities of one kind in both (a limit and a figure): the figure breaks the limit, or keeps it;
   a rule that forbids limits on something ("avoid arbitrary limits on the length of file names")
   against a clause that sets one with a figure ("file names are read into buffers of 256 bytes");
2. a directory added right under an area whose top level a rule keeps closed (``top_level``); an
   area a rule keeps free of writes ("/usr … must not be written to") and a clause that writes
   into it at run time;
   paths in both, where both speak of placing things (install, put, write, store…): the clause puts
   things inside an area the rule forbids, or elsewhere than where the rule requires them;
3. an option or variable an obligation requires by name, denied by name (``identifiers``); a value
   other than the one it requires (``values``); only some of the names it lists, enumerated after
   "only" (``listed_items``); what a rule says of everyone's access ("world-readable", "not …
   unreadable") against the octal modes or umask a clause gives (``mode_bits``), after the values;
   polarity (``polarity_verdict``), only where the clause speaks of what the rule is about
   (``proposition``) and, for a rule
   with a condition after its act, of the case it governs: what the rule
   requires (must, should) against a clause that denies, omits or waives its act, does its opposite
   ("leaves the logs in place" for "should be removed", ``opposites``) or does it without several of
   the terms it requires (``omission``); what the rule
   forbids (must not, should not) against a clause that does or permits that act (``forbidden_act``
   when by the rule's own verb, one few of the target's rules use, or by a name in code form it rules
   out); a rule that allows
   only what it names against a clause that permits more; and a term the rule negates ("so that they
   don't grow indefinitely") that the clause affirms ("are left to grow").
Every verdict says which reading made it and quotes the words that decided, so a reviewer can check
it in seconds. A rule that only permits ("may") cannot be broken. A rule of statements joined by
semicolons, each with a subject of its own, is judged statement by statement.
"""

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Final

from actions.audit.characters import by_characters, character_rule
from actions.audit.key_terms import key_terms, split_compounds
from actions.audit.lexicon import Lexicon
from actions.audit.listed_items import by_listed_items
from actions.audit.message_format import by_message_format
from actions.audit.mode_bits import by_mode_bits
from actions.audit.placement import by_path, by_read_only
from actions.audit.polarity import (
    affirms,
    after_auxiliaries,
    denied_terms,
    particle_first,
    requires_exception,
    rule_act,
    rule_subject,
)
from actions.audit.polarity_verdict import by_polarity, words_for
from actions.audit.proposition import Proposition
from actions.audit.provision_acts import breach_by_act, decided_by_act_alone
from actions.audit.quantities import breaks_limit, effective_bound, quantities
from actions.audit.top_level import by_top_level
from actions.audit.values import by_forbidden_value, by_other_value, labelled_value
from actions.audit.verdict import Verdict
from policypal.contracts.audit import Modality, Severity
from policypal.rules import (
    BINDING_WORDS,
    NEGATIVE_MODALITIES,
    ModalCue,
    is_binding,
    is_instruction,
    modal_cue,
)

# Modal words that follow the act they rule on ("Sublicensing is not allowed", "The use of tabs is
# discouraged"), unless an infinitive names the act after them ("Users are not allowed to share …").
_ACT_BEFORE: Final = re.compile(
    r"^(?:is|are|be)\s+(?:strictly\s+|strongly\s+)?(?:prohibited|forbidden|discouraged|not\s+(?:permitted|"
    r"allowed|recommended))$",
    re.IGNORECASE,
)
_AGENT_ACT: Final = re.compile(r"^\s*(?:to|from)\b", re.IGNORECASE)
_EXCEPTION_AFTER: Final = re.compile(r"\s*(?:unless|without|except)\b[^;.:]*", re.IGNORECASE)
# A rule whose act is a limit ("avoid arbitrary limits on the length …", "must not impose a maximum on
# the number of …"): what follows "on" is what it keeps unbounded.
_LIMITS: Final = re.compile(
    r"^\W*(?:[\w-]+\s+){0,3}?(?:limit(?:s|ation|ations)?|caps?|maxim(?:um|a|ums)|restrictions?|bounds?)\s+"
    r"(?:on|to|of|for)\s+(?P<what>[^.;:]+)",
    re.IGNORECASE,
)


def judge(
    clause: str,
    rule: str,
    modality: Modality,
    modal_words: str,
    weights: Mapping[str, float] | None = None,
    lexicon: Lexicon | None = None,
    sections: Sequence[str] = (),
    *,
    referent: str | None = None,
) -> Verdict | None:
    """The verdict on ``clause`` under ``rule`` (its modality and modal words); None when the rule is
    not binding, or the clause does not speak of what it is about.

    ``weights`` are the key terms' rarity among the target's rules (a rare term shared says more);
    ``lexicon`` reads a clause's word as the rule's verb when they name the same act; ``sections`` are
    the headings the rule stands under, outermost first (what its part of the document is about);
    ``referent``: what the rule's subject refers back to ("This file" → "the file …/copyright").
    """
    if not is_binding(modality):
        return None
    # "the default for INSTALL_PROGRAM should be $(INSTALL); the default for INSTALL_DATA should be
    # ${INSTALL} -m 644": each statement binds its own subject, and a clause breaks the rule by
    # breaking either.
    statements = _statements(rule)
    if len(statements) > 1:
        verdicts = [
            verdict
            for index, (part, cue) in enumerate(statements)
            if (
                verdict := judge(
                    clause,
                    part,
                    cue.modality,
                    cue.words,
                    weights,
                    lexicon,
                    sections,
                    referent=referent if index == 0 else None,
                )
            )
            is not None
        ]
        return next((v for v in verdicts if v.conflict), verdicts[0] if verdicts else None)
    # "we are not shipping a logrotate file" denies that log files are rotated.
    clause = particle_first(split_compounds(clause, rule))
    before = rule_subject(rule, modal_words)
    if referent:
        # "They should have mode 4754" after "Some setuid programs need to be restricted …": what the
        # rule binds is what its subject refers back to.
        before = f"{referent} {before}"
    after = rule_act(rule, modal_words)
    if _ACT_BEFORE.match(modal_words) and not _AGENT_ACT.match(after):
        # "Sublicensing is not allowed; …": the act is what the sentence opens with, and an exception
        # after the modal words ("… is prohibited unless the customer consents") still excepts it.
        exception_after = _EXCEPTION_AFTER.match(after)
        before, after = "", f"{before} {exception_after.group(0) if exception_after else ''}"
    # "must not be transferred without consent" forbids going without consent: it requires consent.
    exception = modality in NEGATIVE_MODALITIES and requires_exception(after)
    negative = modality in NEGATIVE_MODALITIES and not exception
    said = f"The rule says “{_instruction_opening(after) if is_instruction(modal_words) else modal_words}”"
    binding = "requires what it names" if exception else BINDING_WORDS[modality]
    if decided_by_act_alone(clause, rule):
        return None
    stated = (
        breach_by_act(clause, rule, said)
        or _by_quantity(clause, rule, negative, said)
        or _by_limit_set(clause, after, negative, said)
        or by_characters(clause, before, after, negative, said, weights or {})
        or by_message_format(clause, before, after, negative, said)
        or by_top_level(clause, after, negative, said)
        or by_read_only(clause, rule, said)
        or by_path(
            clause, rule, (before, after), negative, said, (weights or {}, sections), excepting=exception
        )
        or (
            by_forbidden_value(clause, before, after, said)
            if negative
            else by_other_value(clause, before, after, said, weights or {})
        )
    )
    # "4294967294: (uid_t)(-2) == (gid_t)(-2) must not be used" forbids that value alone, and "A cron
    # job file name must not include any period" those characters: a clause giving no such value, name
    # or character does not speak of it, however many other words ("UID", "cron") it shares.
    if stated is not None or (negative and labelled_value(before)) or character_rule(after, negative):
        return stated
    return (
        by_mode_bits(clause, before, after, negative, said)
        or by_listed_items(clause, after, negative, said)
        or by_polarity(
            clause,
            Proposition.of(before, after, negative, exception),
            after,
            negative,
            (said, binding),
            weights or {},
            lexicon,
        )
    )


@lru_cache(maxsize=8192)
def _statements(rule: str) -> tuple[tuple[str, ModalCue], ...]:
    """The statements ``rule`` joins with semicolons, each with its modal form, where each stands on
    its own: a modal verb after a subject of its own words. Empty where a part leans on another ("if
    that variable is defined, use …", "don’t compute it from argv[0]", "i.e., they should …")."""
    parts = [part for part in re.split(r";\s+", rule) if part.strip()]
    if len(parts) < 2:
        return ()
    statements = []
    for part in parts:
        cue = modal_cue(part)
        if cue is None or is_instruction(cue.words):
            return ()
        subject = part[: cue.start]
        if _LEANING.search(subject) or not key_terms(subject):
            return ()
        statements.append((part, cue))
    return tuple(statements)


# A subject that leans on what came before: a pronoun, a demonstrative, a condition or an aside.
_LEANING: Final = re.compile(
    r"\b(?:it|its|they|them|their|this|that|these|those|such|i\.e|e\.g|if|when|unless|where|otherwise|"
    r"for\s+(?:instance|example))\b",
    re.IGNORECASE,
)


def _by_quantity(clause: str, rule: str, negative: bool, said: str) -> Verdict | None:
    # "Long lines are no longer cut off at 4096 characters": a figure the clause leaves behind is none of its own.
    stated = _NO_LONGER.sub(" ", clause)
    for limit in quantities(rule):
        for figure in quantities(stated):
            broken = breaks_limit(limit, negative, figure)
            if broken is None:
                continue
            if broken and not _measures_same(clause, rule, limit.words):
                continue
            short = effective_bound(limit, negative) == "lower"
            verb = ("falls short of" if short else "goes beyond") if broken else "keeps within"
            return Verdict(
                broken,
                "quantity",
                f"{said} {limit.words}; the clause says {figure.words}, which {verb} it.",
                f"Bring “{figure.words}” within the rule's limit ({limit.words}).",
            )
    return None


_NO_LONGER: Final = re.compile(r"\bno\s+longer\b[^,;.]*", re.IGNORECASE)
#: How many words before a rule's limit say what it measures.
_MEASURED_WORDS: Final = 6


def _measures_same(clause: str, rule: str, limit: str) -> bool:
    """Whether ``clause`` names something of what the rule's ``limit`` measures, as the few words before
    it say ("a written offer, valid for at least three years": offer, valid); "it usually takes about
    two weeks" measures something else."""
    at = rule.find(limit)
    measured = key_terms(" ".join(rule[: max(at, 0)].split()[-_MEASURED_WORDS:]))
    return not measured or bool(measured & key_terms(clause))


def _by_limit_set(clause: str, after: str, negative: bool, said: str) -> Verdict | None:
    """A rule forbidding limits on something, against a clause that bounds it with a figure."""
    limited = _LIMITS.match(after_auxiliaries(after)) if negative else None
    if limited is None:
        return None
    figures = [q for q in quantities(clause) if q.bound != "lower"]
    what = limited.group("what").strip()
    named = key_terms(what) & (key_terms(clause) - denied_terms(clause))
    if not figures or not named or not affirms(clause):
        return None
    return Verdict(
        True,
        "sets_limit",
        f"{said} limits on {what}; the clause sets one for {words_for(clause, named)}: {figures[0].words}.",
        f"Remove the fixed limit ({figures[0].words}), or record why the rule does not apply.",
    )


#: How many words of an instruction a verdict quotes: its verb alone ("Make") says nothing.
INSTRUCTION_WORDS: Final = 6


def _instruction_opening(act: str) -> str:
    """The first words of an instruction's act, its verb first ("Make sure that all the files …")."""
    words = act.split()
    opening = " ".join(words[:INSTRUCTION_WORDS]).rstrip(".,;:")
    return f"{opening} …" if len(words) > INSTRUCTION_WORDS else opening


def severity_of(modality: Modality) -> Severity:
    """Offline severity follows the rule's force: a breach of must/must not is High, of should Medium."""
    return "High" if modality in ("obligation", "prohibition") else "Medium"

"""The polarity reading of the offline verdict: does the clause deny, leave out, do or allow what the
rule itself names?

Read last, when no figure, path, value, name or example decides (``judgement``): what the rule
requires (must, should) against a clause that denies, omits or waives its act, does its opposite
("leaves the logs in place" for "should be removed", ``opposites``) or does it without several of the
terms it requires (``omission``); what the rule forbids (must not, should not) against a clause that
does or permits that act (``forbidden_act`` when by the rule's own verb, one few of the target's rules
use, or by a name in code form it rules out); a rule that allows only what it names against a clause
that permits more; and a term the rule negates that the clause affirms. Only where the clause speaks
of what the rule is about (``proposition``) and, for a rule with a condition after its act, of the
case it governs.
"""

import math
import re
from collections.abc import Mapping, Sequence
from typing import Final

from actions.audit.act_classes import same_act
from actions.audit.identifiers import (
    assigned_identifiers,
    denied_identifiers,
    identifier_terms,
    identifiers,
    lacked_identifiers,
    required_identifiers,
)
from actions.audit.key_terms import key_terms, words_for_terms
from actions.audit.lexicon import Lexicon
from actions.audit.opposites import opposite_acts
from actions.audit.placement import areas_named
from actions.audit.polarity import (
    Stance,
    denied_acts,
    denied_scopes,
    denied_terms,
    negated_terms,
    preferred_terms,
    restricts,
    stance,
    without_purpose,
)
from actions.audit.proposition import MIN_SHARED_TERMS, Proposition
from actions.audit.quantities import path_within, paths
from actions.audit.verdict import Reading, Verdict
from policypal.rules import modal_cue

#: The act an assignment in code form does ("DESTDIR = /srv/stage" sets DESTDIR).
_SETTING: Final = key_terms("set")
#: A verb at most this many of the target's rules use names a specific act.
RARE_RULES: Final = 3
_AGREE: Final = "Make the clause require what the rule requires, or record why the rule does not apply."
_REFRAIN: Final = (
    "Reword the clause so it no longer does or allows what the rule forbids, or record why the rule does not "
    "apply."
)


# When or how often a clause says its act is done: a case of its own.
_OWN_CASE: Final = re.compile(
    r"\b(?:hourly|daily|weekly|monthly|nightly|yearly|every\s+(?:\d+\s+)?(?:hour|day|night|week|month|year|run)s?|"
    r"(?:older|longer)\s+than|for\s+\d+\s+(?:minute|hour|day|week|month|year)s?|after\s+\d+\s+\w+)\b",
    re.IGNORECASE,
)


def _outside_denials(text: str) -> str:
    """``text`` without what its denials govern ("on purge only, never on a plain remove" → "on purge
    only, never")."""
    for scope in denied_scopes(text):
        text = text.replace(scope, " ")
    return text


def _elsewhere(clause: str, act: str) -> bool:
    """Whether every path ``clause`` names lies outside the areas a forbidden ``act`` names (False
    when either names none)."""
    areas = paths(act, affirmed_only=True)
    used = paths(clause)
    return bool(areas and used) and not any(
        path_within(path, area) or path_within(area, path) for path in used for area in areas
    )


def by_polarity(
    clause: str,
    rule: Proposition,
    after: str,
    negative: bool,
    wording: tuple[str, str],
    weights: Mapping[str, float],
    lexicon: Lexicon | None,
) -> Verdict | None:
    """Polarity of the clause against the rule's proposition: the clause must deny, leave out, do or
    permit what the rule itself names (``proposition``). ``wording``: what the rule says, and binds."""
    said, binding = wording
    # "…so that it can be piped" is why, not a permission: the stance is read without the purpose.
    practice = without_purpose(clause)
    position = stance(practice)
    terms = key_terms(practice)
    # The options and variables each names, read once: several readings below compare them.
    rule_names, clause_names = identifiers(after), identifiers(practice)
    # "added DESTDIR = /srv/stage near the top of Makefile.in": assigning a name the rule names sets it.
    if assigned_identifiers(practice) & rule_names.keys():
        terms |= _SETTING
    denied = denied_terms(clause)
    affirmed = terms - denied - negated_terms(clause)
    denied -= rule.denied_in_subject | rule.excepted_act
    # What a clause does also shows in the parts of its compounds: "gzip-compressed" is compressed,
    # "password-protected" has a password. Read only for doing what a rule forbids or rules out.
    done_to = affirmed | (key_terms(_COMPOUND.sub(" ", practice)) - denied)
    stems = frozenset().union(*(key_terms(verb) for verb in rule.verbs))
    # An option or variable the rule requires by name, denied by name ("builds without -g"): nothing
    # more specific can be shared.
    if not negative:
        required = required_identifiers(after)
        lacking = [name for key, name in lacked_identifiers(clause, stems).items() if key in required]
        if lacking:
            words = ", ".join(lacking)
            return Verdict(
                True, "lacks_identifier", f"{said} ({binding}); the clause goes without {words}.", _AGREE
            )
        # "configure rejects any --with- or --enable- option it does not recognise" for "they should
        # accept any option that starts with ‘--with-’ or ‘--enable-’": the opposite act, done to what
        # the rule names in code form, however the rest of the clause is worded.
        against = words_for_terms(practice, opposite_acts(stems, terms))
        named_both = rule_names.keys() & clause_names.keys()
        if against and named_both and _stance_up_to(practice, against[0]) in ("does", "permits"):
            words = ", ".join([*against, *sorted(clause_names[key] for key in named_both)])
            return Verdict(
                True, "opposite", f"{said} ({binding}); the clause does the opposite: {words}.", _AGREE
            )
    # A clause that does not speak of what the rule is about can neither break nor keep it: the rule
    # does not govern it (no verdict, so it neither outweighs a conflict nor counts as addressed).
    if not rule.spoken_of(terms, weights):
        # "a password-protected zip file" for "must require no special password or key for unpacking":
        # doing what the rule rules out, by a rare term heading what it rules out, speaks of it too.
        done = _rare(rule.ruled_out_heads & done_to, weights)
        # What it rules out named in code form ("don’t compute it from argv[0]" for "built from
        # `argv[0]`") speaks of it however few other words are shared.
        by_name = bool(done & identifier_terms(after))
        if (
            negative
            or not done
            or (len(terms & (rule.about | rule.ruled_out)) < MIN_SHARED_TERMS and not by_name)
        ):
            return None
        words = words_for(clause, rule.ruled_out & done_to)
        return Verdict(
            True,
            "forbidden_act" if by_name else "polarity",
            f"{said} and rules out {words}; the clause does it.",
            _REFRAIN,
        )
    if negative:
        # "must not use /usr/lib to store binaries": a clause whose paths all lie elsewhere
        # ("/usr/libexec/tidemark") does not do it there.
        if _elsewhere(clause, after):
            return None
        # "must not be deleted when the system is booted": a clause doing it in a case of its own and
        # naming nothing of the rule's ("the weekly job removes files untouched for 30 days") is not
        # in the case the rule governs.
        if rule.case and not terms & rule.case and _OWN_CASE.search(practice):
            return None
        act = rule.act_in(clause, done_to, lexicon) if rule.spoken_of(affirmed, weights) else None
        # "Please don't use “win” as an abbreviation": a rule on a word is broken by a clause that
        # uses that word as a word ("use the word illegal", "we call it its pathname"), not by one
        # whose own sentence needs it ("this policy wins").
        word = _quoted_word(after)
        if act is not None and word is not None and not _mentions(clause, word):
            act = None
        # "the boot sequence empties /var/tmp on every start, so partial downloads no longer pile up":
        # what the clause says up to its word for the act decides, not a denial after it.
        if act and position not in ("does", "permits"):
            position = _stance_up_to(practice, act.split(", ")[0]) or position
        if position in ("does", "permits") and act is not None:
            doing = "allows" if position == "permits" else "does or requires"
            words = words_for(clause, affirmed & rule.about)
            if act and act not in words and act not in rule.verbs:
                words = f"{words} (“{act}” for “{' or '.join(rule.verbs)}”)"
            # By the rule's own verb, one few rules use, or a verb of its class, to all that the act's
            # head names: as specific as a figure past a limit ("may sublicense" against "Sublicensing
            # is not allowed", "rewrites the conffile" against "must not alter a conffile").
            # So is the rule's own verb done to a name in code form its act names ("sets DESTDIR ?= …"
            # against "You should not set the value of DESTDIR in your Makefile").
            own_verb = (
                bool(act)
                and bool(
                    _rare((stems | rule.manner) & affirmed, weights)
                    or (_rare(stems, weights) and same_act(stems, affirmed))
                    or (stems & affirmed and rule_names.keys() & clause_names.keys())
                )
                and rule.head - stems <= affirmed
            )
            reading: Reading = "forbidden_act" if own_verb else "polarity"
            return Verdict(True, reading, f"{said} ({binding}); the clause {doing} it: {words}.", _REFRAIN)
        return Verdict(False, "polarity", f"{said}; the clause does not do what it forbids.")
    # "Log files should be removed when the package is purged": a clause that names nothing of the
    # case is not in it ("build logs are kept for ninety days"), so it neither breaks nor keeps it.
    if rule.case and not terms & rule.case:
        return None
    # "postrm deletes them only on purge, not on plain removal": doing the act, by its verb or one of
    # its class, in the case the rule governs keeps it, whatever the clause denies of another case.
    kept = key_terms(_outside_denials(practice))
    # ("Purging leaves the logs in place" names the case by a verb of the act's class, not the act.)
    if rule.case & kept and stems and ((stems & kept) - rule.case or same_act(stems, kept - rule.case)):
        return Verdict(False, "polarity", f"{said}; the clause does it in the case the rule governs.")
    # "never call the init scripts directly; they go through invoke-rc.d": what a denial that shares a
    # term with what the rule rules out denies is that, not the act the rule requires.
    for scope in denied_scopes(practice):
        if key_terms(scope) & rule.ruled_out:
            denied -= key_terms(scope)
    if position == "waives" and terms & rule.head:
        words = words_for(clause, terms & rule.about)
        return Verdict(
            True, "polarity", f"{said} ({binding}); the clause makes it optional: {words}.", _AGREE
        )
    # Denying the act's head denies the act.
    left_out = denied & rule.head
    # "write to the log rather than sending mail" denies sending mail, not accepting it: a denial by a
    # verb of its own that shares only the object does not deny the rule's act.
    acts = denied_acts(clause)
    # Where the rule's act has no verb of its own ("we recommend that subdirectories for mail not
    # appear …"), such a denial cannot be shown to deny it either.
    other_acts = bool(acts) and not (stems and _names_act(acts, stems, rule.verbs, lexicon))
    if left_out and not left_out & stems and other_acts:
        left_out = frozenset()
    omitted = denied & rule.about
    if left_out and position == "does_not":
        words = words_for(clause, left_out)
        by_own_verb = bool(stems & denied) and rule.head - stems <= denied
        denial: Reading = "denied_act" if by_own_verb else "polarity"
        return Verdict(True, denial, f"{said} ({binding}); the clause denies or omits {words}.", _AGREE)
    # "Purging leaves the logs in place" for "Log files should be removed when purged": the opposite act.
    # It must be done to what the rule's act names, by its rarest term, and not to one that has what
    # the rule's thing goes without ("exports with legal holds" for "exports without legal holds").
    objects = rule.head - stems - rule.lacking
    rarest = max(objects, key=lambda t: (weights.get(t, 1.0), t), default=None)
    named = affirmed & objects if rarest in affirmed and not affirmed & rule.lacking else frozenset()
    # Allowing the opposite ("partners may strip the notices" for "keep intact all notices") permits
    # what the rule requires be not done.
    # A rule that allows its act only in some form ("should only strip the copies that are installed")
    # does not require it: leaving the rest undone is no opposite.
    opposite = (
        opposite_acts(stems, affirmed)
        if position in ("does", "permits") and named and not _ONLY_ACT.match(after)
        else frozenset()
    )
    if opposite:
        words = words_for(clause, opposite | named)
        doing = "allows" if position == "permits" else "does"
        return Verdict(
            True, "opposite", f"{said} ({binding}); the clause {doing} the opposite: {words}.", _AGREE
        )
    # Denying several of the other terms of its act ("prints the option names, without saying how to
    # invoke the program") leaves out what it requires.
    # A clause naming nothing of what the rule binds ("do not expect a change this year" for "This
    # copyright notice only needs to mention the most recent year in which changes were made") leaves
    # nothing of its act out: the shared terms are a coincidence of words.
    names_subject = bool(terms & rule.subject) or not rule.subject
    if len(omitted) >= MIN_SHARED_TERMS and position == "does_not" and names_subject:
        words = words_for(clause, omitted)
        return Verdict(True, "omission", f"{said} ({binding}); the clause leaves out {words}.", _AGREE)
    if position == "permits" and restricts(after) and _grants(practice):
        return Verdict(
            True, "permits_more", f"{said} and allows only what it names; the clause permits more.", _AGREE
        )
    done = rule.ruled_out & done_to
    # "Scratch files honour TMPDIR and fall back to /tmp only when it is unset": a clause doing by name
    # what the rule requires instead does what it rules out only where the rule's condition leaves it.
    required_kept = required_identifiers(after).keys() & (
        clause_names.keys() - denied_identifiers(clause).keys()
    )
    # "the Vcs-Git field uses the https URL" for "should use a scheme that provides confidentiality
    # (https, for example, rather than http or git)": doing what the rule prefers is not doing what
    # it turns away from, whatever words the two share.
    preferred_kept = (preferred_terms(after) - stems) & affirmed
    if done & rule.ruled_out_heads and not required_kept and not preferred_kept:
        words = words_for(clause, done)
        reading = "polarity"
        # What it rules out named in code form ("don’t compute it from argv[0]"): as specific as a
        # rule's own rare verb.
        if done & rule.ruled_out_heads & identifier_terms(after):
            reading = "forbidden_act"
        # All it rules out, done to what lies in a path the act names ("calling /etc/init.d/agent restart
        # directly" for "must use invoke-rc.d to invoke the /etc/init.d/* init scripts instead of
        # calling them directly"): the clause states it of the rule's own subject.
        elif rule.ruled_out_heads <= done and _in_named_path(clause, after):
            reading = "ruled_out_in_path"
        return Verdict(True, reading, f"{said} and rules out {words}; the clause does it.", _REFRAIN)
    # Speaking of what the rule is about without doing any of its act's head ("When standard output is
    # not a terminal, our tools switch to JSON" for "The -f option should override this exception") is
    # no agreement: the clause neither does nor denies it.
    if not affirmed & rule.head:
        return Verdict(False, "unaddressed", f"{said}; the clause neither does nor denies it.")
    return Verdict(False, "polarity", f"{said}; the clause agrees.")


# An act allowed only in some form: "should only strip the copies that are installed".
_ONLY_ACT: Final = re.compile(r"^\W*(?:\w+ly\s+)?only\b", re.IGNORECASE)
# A word a rule's act quotes: "use the term “illegal”", "Don't use “win” as an abbreviation".
_QUOTED_WORD: Final = re.compile(r"[“\"‘](?P<word>[\w-]+(?:\s[\w-]+)?)[”\"’]")
# What makes a quoted word the word itself, not a quoted term for a thing ("install a pre-formatted
# “cat page”"): a verb or noun of wording just before it, or "as a …" after it.
_WORDING_BEFORE: Final = re.compile(
    r"\b(?:use|uses|using|say|says|write|writes|call|calls|spell|spells|words?|terms?|names?|abbreviations?)"
    r"\s+(?:[\w-]+\s+){0,2}$",
    re.IGNORECASE,
)
_WORDING_AFTER: Final = re.compile(r"^\s*as\s+(?:an?\s+)?(?:abbreviation|word|term|name)\b", re.IGNORECASE)


def _stance_up_to(practice: str, word: str) -> Stance | None:
    """The stance of ``practice`` up to the first ``word`` in it; None when the word is not there."""
    found = re.search(rf"\b{re.escape(word)}\b", practice, re.IGNORECASE)
    return stance(practice[: found.end()]) if found else None


def _quoted_word(act: str) -> str | None:
    """The word a rule's act rules on as a word ("use “win” as an abbreviation"), if any."""
    for match in _QUOTED_WORD.finditer(act):
        if _WORDING_BEFORE.search(act[: match.start()]) or _WORDING_AFTER.search(act[match.end() :]):
            return match.group("word")
    return None


def _mentions(clause: str, word: str) -> bool:
    """Whether ``clause`` names ``word`` as a word: quoted, or after "word", "term", "call" …"""
    quoted = rf"[“\"‘']\s*{re.escape(word)}\s*[”\"’']"
    named = (
        rf"\b(?:words?|terms?|names?|named|call|calls|called|calling|say|says|said|spell|spells|label|"
        rf"labels|labelled|labeled)\s+(?:[\w-]+\s+){{0,6}}?{re.escape(word)}"
    )
    return bool(re.search(f"{quoted}|{named}", clause, re.IGNORECASE))


_COMPOUND: Final = re.compile(r"(?<=[a-z])-(?=[a-z])", re.IGNORECASE)


def _names_act(
    words: Sequence[str], stems: frozenset[str], verbs: Sequence[str], lexicon: Lexicon | None
) -> bool:
    """Whether one of ``words`` names one of the rule's ``verbs`` (``stems``): the same stem, a verb of
    its class (``act_classes``), or alike."""
    if any(key_terms(word) & stems or same_act(stems, key_terms(word)) for word in words):
        return True
    return lexicon is not None and any(lexicon.alike(verb, words) for verb in verbs)


def _in_named_path(clause: str, act: str) -> bool:
    """Whether ``clause`` names a path inside one the rule's ``act`` names (not the root)."""
    return any(
        path_within(path, area) for path in paths(clause, affirmed_only=True) for area in areas_named(act)
    )


def _rare(terms: frozenset[str], weights: Mapping[str, float]) -> frozenset[str]:
    """The ``terms`` at most ``RARE_RULES`` of the target's rules use (rarity is log((n + 1) / (count +
    0.5)), so the rarest term a rule uses, count 1, sets the scale)."""
    if not terms or not weights:
        return frozenset()
    floor = max(weights.values()) - math.log((RARE_RULES + 0.5) / 1.5)
    return frozenset(t for t in terms if weights.get(t, 0.0) >= floor)


def _grants(clause: str) -> bool:
    """Whether the clause grants in so many words ("are allowed", "may", "are free to"): "can" says
    what is possible ("code can fail at that scale") as often as what is allowed."""
    cue = modal_cue(clause, can_permits=True)
    return cue is not None and cue.modality == "permission" and cue.words.lower() not in ("can", "could")


def words_for(clause: str, shared: frozenset[str]) -> str:
    """The clause's own words for ``shared`` terms, for the rationale."""
    return ", ".join(words_for_terms(clause, shared)) or ", ".join(sorted(shared))

"""The audit judged by a language model: only the candidate clause-rule pairs, in batches.

Retrieval decides what the model sees: each clause with the few rules of each target that may govern
it (``matching``). The model replies, per clause, with the rule it breaches (by id) or none, the
severity, the consequence and a fix. Quotes are never the model's: findings quote the clause and the
rule as they were found, so every citation is verbatim by construction. Clauses no rule governs cost
no tokens.
"""

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from pydantic import BaseModel, Field

from actions.audit.checking import RELATED, Breach, TargetCheck
from actions.audit.clauses import Clause
from actions.audit.matching import Candidate, Matched, matched_by_what_clauses_do
from actions.audit.verdict import Verdict
from actions.drafting import document_name
from actions.organisation import with_organisation
from policypal.contracts import ActionRequested, ResolvedDocument, Usage
from policypal.contracts.audit import Severity
from policypal.llm import LLM, Prompt, add_usage
from policypal.rules import is_binding

#: Clauses per model call: enough to amortise the instructions, few enough to judge each with care.
BATCH: Final = 12
#: Candidate rules shown per clause and target.
RULES_PER_TARGET: Final = 10
#: The standing a rule needs to be shown to the model. A model judges for itself whether a rule is
#: about the clause, so what bounds its recall is whether the governing rule is shown at all
#: (bench.audit_diagnostics, the bench's 52 planted violations): 3 rules per target above standing 0
#: showed it for 27, 5 above -1.5 for 41, 10 above -2.0 (out of the 20 most related, permissions
#: among them) for 46. Rules are listed once per batch, under their document, and a batch gathers
#: clauses that share rules (``shared_rule_batches``): the ~10-page policy against 3 regulations
#: then sends 201k prompt tokens (bench.audit_llm_cost), 140k with 5 rules per target in reading
#: order, 41k with 3 listed per clause.
SHOWN_TO_MODEL: Final = RELATED - 2.8
#: Model calls in flight at once.
CONCURRENCY: Final = 4

JUDGE_INSTRUCTIONS = (
    "You audit a company's text against regulations. The rules of the target documents that may govern "
    "the clauses are listed first (ids R1, R2, …) under their document's name, each with its section, page "
    "and wording; each numbered clause of the audited source then names the ids of the rules that may "
    "govern it. For every clause decide whether it breaches one of its own listed rules: it does what a "
    "rule forbids, or denies, omits or contradicts what a rule requires, or states a figure, "
    "deadline or location the rule does not allow. A rule that is not about what the clause says does "
    "not govern it. Reply in JSON with one judgement per clause: clause (its number), verdict (breach, "
    "complies, or not_governed), rule (the id of the breached rule, or of the rule it complies with; "
    "null when not_governed), also_breaches (the ids of rules of other documents the clause breaches "
    "too, usually none), severity (Critical for legal or security exposure, High for a breach of "
    "must or must not, Medium for should or should not, Low for a minor divergence), consequence (the "
    "business impact of a breach, one sentence) and suggestion (how to fix the clause, one sentence)."
)


class ClauseJudgement(BaseModel):
    """The model's verdict on one clause."""

    clause: int
    verdict: Literal["breach", "complies", "not_governed"]
    rule: str | None = None
    #: Rules of other documents the clause breaches too (a clause can break two regulations at once).
    also_breaches: list[str] = Field(default_factory=list)
    severity: Severity = "Medium"
    consequence: str = Field(default="", max_length=600)
    suggestion: str = Field(default="", max_length=600)


class ClauseJudgements(BaseModel):
    """The structured reply of one batch."""

    judgements: list[ClauseJudgement]


@dataclass(frozen=True)
class ShownClause:
    """A clause sent to the model, with its candidate rules by id (target position, candidate)."""

    number: int
    clause: Clause
    rules: dict[str, tuple[int, Candidate]]


async def draft_checks(
    event: ActionRequested, clauses: Sequence[Clause], matched: Sequence[Matched], *, llm: LLM
) -> tuple[list[TargetCheck], Usage, str]:
    """The checks of every target as the model judged the candidate pairs; usage and model name.

    Raises ``LLMError`` when the model fails or still replies off-schema after one correction.
    """
    checks = [TargetCheck(m.target, m.binding) for m in matched]
    batches = shared_rule_batches(_items(clauses, matched, checks))
    gate = asyncio.Semaphore(CONCURRENCY)

    async def judged(batch: list[ShownClause]) -> tuple[list[ShownClause], ClauseJudgements, Usage, str]:
        async with gate:
            reply = await llm.structured(
                "audit", _prompt(event, batch, [m.target for m in matched]), ClauseJudgements
            )
        return batch, reply.value, reply.usage, reply.model

    usage, models = Usage(), [llm.model_for("audit")]
    for batch, reply, spent, answered_by in await asyncio.gather(*(judged(b) for b in batches)):
        usage = add_usage(usage, spent)
        models.append(answered_by)
        _apply(batch, reply, checks)
    return checks, usage, models[-1]


def _items(
    clauses: Sequence[Clause], matched: Sequence[Matched], checks: list[TargetCheck]
) -> list[ShownClause]:
    """The clauses that some binding rule may govern, each with its candidates (ids set per batch,
    ``shared_rule_batches``); the others are ungoverned."""
    items: list[ShownClause] = []
    for position, clause in enumerate(clauses):
        rules: dict[str, tuple[int, Candidate]] = {}
        for t, target in enumerate(matched):
            kept = shown_to_model(target.candidates[position])
            if not kept:
                checks[t].ungoverned += 1
            for candidate in kept:
                rules[f"{t}:{candidate.rule.rule_id}"] = (t, candidate)
        if rules:
            items.append(ShownClause(len(items) + 1, clause, rules))
    return items


def shared_rule_batches(items: Sequence[ShownClause]) -> list[list[ShownClause]]:
    """Clauses in batches of clauses that share rules, each rule of a batch under one id (R1, R2…).

    A rule's wording is sent once per batch, and it is most of the prompt: each batch starts from the
    first clause not yet sent and takes the clauses whose rules it already lists most (reading order
    breaks ties), so clauses governed by the same rules, wherever they stand, meet in one call.
    """
    remaining = list(items)
    batches = []
    while remaining:
        chosen = [remaining.pop(0)]
        listed = set(chosen[0].rules)
        while remaining and len(chosen) < BATCH:
            best = max(range(len(remaining)), key=lambda i: (len(listed & set(remaining[i].rules)), -i))
            chosen.append(remaining.pop(best))
            listed |= set(chosen[-1].rules)
        ids: dict[str, str] = {}
        batch = []
        for item in sorted(chosen, key=lambda item: item.number):
            rules = {ids.setdefault(key, f"R{len(ids) + 1}"): pair for key, pair in item.rules.items()}
            batch.append(ShownClause(item.number, item.clause, rules))
        batches.append(batch)
    return batches


def shown_to_model(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The candidate rules of one target a model is asked to judge a clause against."""
    shown = [c for c in candidates if c.standing >= SHOWN_TO_MODEL and is_binding(c.rule.modality)]
    shown = shown[:RULES_PER_TARGET]
    # A rule against further restrictions is matched to a restricting clause by what it does, not by
    # how related it is (``restrictions``), as is one requiring the work be licensed under the licence
    # itself (``relicensing``), one of the few naming the clause's area by that area, a rule on the
    # characters of names by the name the clause gives, and one on the form of messages by the example
    # message it gives: each is shown whatever its standing.
    return shown + [
        c
        for c in candidates
        if (c.by_area or c.by_name or c.by_example or matched_by_what_clauses_do(c.rule.text))
        and is_binding(c.rule.modality)
        and c not in shown
    ]


def _prompt(
    event: ActionRequested, batch: Sequence[ShownClause], targets: Sequence[ResolvedDocument]
) -> Prompt:
    listed: dict[str, tuple[int, Candidate]] = {}
    for item in batch:
        listed.update(item.rules)
    # Rules under their document's heading, named once: two versions of one regulation share a
    # title, and their version tells them apart.
    lines = ["## Rules"]
    for t, target in enumerate(targets):
        rules = sorted(
            ((rule_id, c.rule) for rule_id, (at, c) in listed.items() if at == t),
            key=lambda entry: int(entry[0][1:]),
        )
        if rules:
            lines.append(f"### {document_name(target)}")
        for rule_id, rule in rules:
            where = ", ".join(
                part
                for part in (
                    f"§{rule.section}" if rule.section else "",
                    f"p. {rule.page}" if rule.page else "",
                )
                if part
            )
            # "This file must …" alone names nothing: the model is told what it refers back to.
            text = f"{rule.text} (its subject refers to: {rule.referent})" if rule.referent else rule.text
            lines.append(f"- {rule_id} [{where}] {text}" if where else f"- {rule_id} {text}")
    blocks = ["\n".join(lines)]
    blocks += [
        f"## Clause {item.number}\n{item.clause.text}\nRules: {', '.join(item.rules)}" for item in batch
    ]
    request = event.query.strip() or "Audit the source against the targets."
    return Prompt(
        instructions=with_organisation(JUDGE_INSTRUCTIONS, event.company),
        user="\n\n".join(blocks) + f"\n\n## Request\n{request}",
        context=event.user_context,
    )


def _apply(batch: Sequence[ShownClause], reply: ClauseJudgements, checks: list[TargetCheck]) -> None:
    """Record each clause's verdict in its targets' checks (a clause the model skipped agrees with none)."""
    by_number = {j.clause: j for j in reply.judgements}
    for item in batch:
        judgement = by_number.get(item.number)
        chosen = item.rules.get(judgement.rule or "") if judgement else None
        touched = {t for t, _ in item.rules.values()}
        if judgement is None or judgement.verdict == "not_governed" or chosen is None:
            for t in touched:
                checks[t].ungoverned += 1
            continue
        t, candidate = chosen
        if judgement.verdict == "complies":
            checks[t].consistent += 1
            checks[t].governing.append((item.clause, candidate, False))
            for other in touched - {t}:
                checks[other].ungoverned += 1
            continue
        # One breach per target: the rule the model named, then those it names in other targets.
        breached = {t: candidate}
        for rule_id in judgement.also_breaches:
            pair = item.rules.get(rule_id)
            if pair is not None and pair[0] not in breached:
                breached[pair[0]] = pair[1]
        for at, broken in breached.items():
            checks[at].breaches.append(_breach(item.clause, checks[at].target, broken, judgement))
            checks[at].governing.append((item.clause, broken, True))
        for unbroken in touched - set(breached):
            checks[unbroken].ungoverned += 1


def _breach(
    clause: Clause, target: ResolvedDocument, candidate: Candidate, judgement: ClauseJudgement
) -> Breach:
    """The breach of ``candidate``'s rule as the model judged it."""
    verdict = Verdict(
        True,
        "model",
        f"the model judged that the clause breaches this rule (“{candidate.rule.modal_words}”).",
        judgement.suggestion,
    )
    return Breach(
        clause,
        target,
        candidate,
        verdict,
        judgement.severity,
        consequence=judgement.consequence or None,
        suggestion=judgement.suggestion or None,
        assessed_by="model",
    )

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
from actions.audit.judgement import Verdict
from actions.audit.matching import Candidate, Matched
from actions.organisation import with_organisation
from policypal.contracts import ActionRequested, ResolvedDocument, Usage
from policypal.contracts.audit import Severity
from policypal.llm import LLM, Prompt, add_usage
from policypal.rules import is_binding

#: Clauses per model call: enough to amortise the instructions, few enough to judge each with care.
BATCH: Final = 12
#: Candidate rules shown per clause and target.
RULES_PER_TARGET: Final = 3
#: The standing a rule needs to be shown to the model. A model judges for itself whether a rule is
#: about the clause, so it is shown every rule that stands above the target's rules at large, not
#: only those clear enough for the offline judgement (``RELATED``). On the bench
#: (bench.audit_diagnostics) the governing rule reaches the model for 27 of 52 planted violations,
#: against 17 with ``RELATED``; the ~10-page policy sends 150 of its 195 clauses (41k prompt tokens)
#: instead of 75 (14.5k). Lower still (-1.0) sends every clause for 35 of 52 (104k tokens).
SHOWN_TO_MODEL: Final = RELATED - 0.8
#: Model calls in flight at once.
CONCURRENCY: Final = 4

JUDGE_INSTRUCTIONS = (
    "You audit a company's text against regulations. Each numbered clause of the audited source comes "
    "with the rules (ids R1, R2, …) of the target documents that may govern it, each with its document, "
    "section, page and wording. For every clause decide whether it breaches one of its listed rules: it "
    "does what a rule forbids, or denies, omits or contradicts what a rule requires, or states a figure, "
    "deadline or location the rule does not allow. A rule that is not about what the clause says does "
    "not govern it. Reply in JSON with one judgement per clause: clause (its number), verdict (breach, "
    "complies, or not_governed), rule (the id of the breached rule, or of the rule it complies with; "
    "null when not_governed), severity (Critical for legal or security exposure, High for a breach of "
    "must or must not, Medium for should or should not, Low for a minor divergence), consequence (the "
    "business impact of a breach, one sentence) and suggestion (how to fix the clause, one sentence)."
)


class ClauseJudgement(BaseModel):
    """The model's verdict on one clause."""

    clause: int
    verdict: Literal["breach", "complies", "not_governed"]
    rule: str | None = None
    severity: Severity = "Medium"
    consequence: str = Field(default="", max_length=600)
    suggestion: str = Field(default="", max_length=600)


class ClauseJudgements(BaseModel):
    """The structured reply of one batch."""

    judgements: list[ClauseJudgement]


@dataclass(frozen=True)
class _Item:
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
    items = _items(clauses, matched, checks)
    batches = [items[i : i + BATCH] for i in range(0, len(items), BATCH)]
    gate = asyncio.Semaphore(CONCURRENCY)

    async def judged(batch: list[_Item]) -> tuple[list[_Item], ClauseJudgements, Usage, str]:
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


def _items(clauses: Sequence[Clause], matched: Sequence[Matched], checks: list[TargetCheck]) -> list[_Item]:
    """The clauses that some binding rule may govern, each with its candidates; others are ungoverned."""
    items: list[_Item] = []
    for position, clause in enumerate(clauses):
        rules: dict[str, tuple[int, Candidate]] = {}
        for t, target in enumerate(matched):
            kept = shown_to_model(target.candidates[position])
            if not kept:
                checks[t].ungoverned += 1
            for candidate in kept:
                rules[f"R{len(rules) + 1}"] = (t, candidate)
        if rules:
            items.append(_Item(len(items) + 1, clause, rules))
    return items


def shown_to_model(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The candidate rules of one target a model is asked to judge a clause against."""
    binding = [c for c in candidates if c.standing >= SHOWN_TO_MODEL and is_binding(c.rule.modality)]
    return binding[:RULES_PER_TARGET]


def _prompt(event: ActionRequested, batch: Sequence[_Item], targets: Sequence[ResolvedDocument]) -> Prompt:
    blocks = []
    for item in batch:
        lines = [f"## Clause {item.number}\n{item.clause.text}"]
        for rule_id, (t, candidate) in item.rules.items():
            rule = candidate.rule
            where = ", ".join(
                part
                for part in (
                    f"§{rule.section}" if rule.section else "",
                    f"p. {rule.page}" if rule.page else "",
                )
                if part
            )
            lines.append(f"- {rule_id} [{targets[t].title}{', ' + where if where else ''}] {rule.text}")
        blocks.append("\n".join(lines))
    request = event.query.strip() or "Audit the source against the targets."
    return Prompt(
        instructions=with_organisation(JUDGE_INSTRUCTIONS, event.company),
        user="\n\n".join(blocks) + f"\n\n## Request\n{request}",
        context=event.user_context,
    )


def _apply(batch: Sequence[_Item], reply: ClauseJudgements, checks: list[TargetCheck]) -> None:
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
        for other in touched - {t}:
            checks[other].ungoverned += 1
        if judgement.verdict == "complies":
            checks[t].consistent += 1
            checks[t].governing.append((item.clause, candidate, False))
            continue
        rule = candidate.rule
        verdict = Verdict(
            True,
            "model",
            f"the model judged that the clause breaches this rule (“{rule.modal_words}”).",
            judgement.suggestion,
        )
        checks[t].breaches.append(
            Breach(
                item.clause,
                checks[t].target,
                candidate,
                verdict,
                judgement.severity,
                consequence=judgement.consequence or None,
                suggestion=judgement.suggestion or None,
                assessed_by="model",
            )
        )
        checks[t].governing.append((item.clause, candidate, True))

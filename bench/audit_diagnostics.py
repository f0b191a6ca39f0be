"""Where the offline audit loses the dev split's planted violations, stage by stage.

    .venv/bin/python -m bench.audit_diagnostics [--index DIR] [--show] [--split dev|held-out]

For each planted violation of the dev sources of ``bench.audit_quality``: is its clause extracted,
is the gold rule among the clause's candidate rules (among those the offline judgement reads, the
most related one; and among those a language model would be shown, the ceiling of the model path),
what the offline judgement says of
that pair (no verdict, or consistent or a conflict by which reading), and is a finding reported on
the gold page. Also counted: compliant clauses flagged, and findings on filler by reading.
``--index DIR`` keeps the ingested corpus between runs (re-ingesting the targets takes minutes);
``--show`` prints each violation with its candidates, and each compliant clause flagged with the
rule and reading that flagged it. ``--split held-out`` prints the counts only: its sources are never
shown.
"""

import argparse
import asyncio
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from actions.audit.checking import TargetCheck, check_target, governing_verdict
from actions.audit.clauses import Clause, policy_clauses, text_clauses
from actions.audit.drafted_audit import shown_to_model
from actions.audit.lexicon import Lexicon, act_lexicon
from actions.audit.matching import JUDGED, Candidate, Matched, TargetRules, governing_rules
from actions.audit.target_rules import target_rules
from actions.audit.verdict import Verdict
from actions.sentences import embed_texts
from bench.audit_corpus.corpus import Rule as GoldRule
from bench.audit_corpus.corpus import Source, normalise, section_of
from bench.audit_quality import TENANT, USER, Corpus, ingest, load_corpus, request
from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex, RulePoint, open_qdrant


async def diagnose(corpus: Corpus, index_dir: Path, show: bool) -> dict[str, Any]:
    """The stage counts over the dev sources of ``corpus``, ingesting what ``index_dir`` lacks."""
    embedder = MiniLMEmbedder()
    index = ChunkIndex(
        open_qdrant(None, path=index_dir), model_id=embedder.model_id, dimension=embedder.dimension
    )
    await index.ensure_collection()
    titles = {t.id: t.title for t in corpus.gold.targets.values()} | {s.id: s.title for s in corpus.sources}
    for doc_id, file in corpus.files.items():
        if await index.count(tenant_id=TENANT, document_id=doc_id) == 0:
            kind = "regulatory" if doc_id in corpus.gold.targets else "policy"
            await ingest(index, embedder, doc_id, file, titles[doc_id], kind)
    counts: Counter[str] = Counter()
    filler: Counter[str] = Counter()
    try:
        for source in corpus.sources:
            clauses = await _clauses(source, corpus, index)
            vectors = await embed_texts(embedder, [c.text for c in clauses])
            checked: dict[str, tuple[list[list[Candidate]], TargetCheck]] = {}
            weights: dict[str, dict[str, float]] = {}
            event = request(source, corpus.gold, corpus.texts[source.id])
            matched = []
            for target in (d for d in event.documents if d.document_id in source.targets):
                passages = await index.document_chunk_vectors(
                    tenant_id=TENANT, user_id=USER, document_id=target.document_id
                )
                rules = TargetRules.of(
                    await target_rules(event, target, index=index, embedder=embedder), passages
                )
                matched.append(
                    Matched(target, rules, governing_rules([c.text for c in clauses], vectors, rules))
                )
            lexicon = await act_lexicon(embedder, clauses, matched)
            for m in matched:
                check = check_target(clauses, m.candidates, m.target, 0, m.rules.rarity, lexicon)
                checked[m.target.document_id] = (m.candidates, check)
                weights[m.target.document_id] = m.rules.rarity
            _count(
                source,
                clauses,
                checked,
                counts,
                filler,
                show,
                _judged_as_audited(weights, lexicon),
                _gold_place(corpus.sections),
            )
    finally:
        await index.aclose()
    return {**counts, "filler_findings": dict(filler)}


async def _clauses(source: Source, corpus: Corpus, index: ChunkIndex) -> list[Clause]:
    if source.mode == "policy":
        return policy_clauses(
            await index.document_chunks(tenant_id=TENANT, user_id=USER, document_id=source.id)
        )
    return text_clauses(corpus.texts[source.id])


def _judged_as_audited(
    weights: dict[str, dict[str, float]], lexicon: Lexicon
) -> Callable[[str, Clause, Candidate], Verdict | None]:
    """The verdict on a clause and a candidate of a target, as ``audit`` reaches it."""

    def verdict_of(target: str, clause: Clause, candidate: Candidate) -> Verdict | None:
        return governing_verdict(clause, candidate, weights[target], lexicon)

    return verdict_of


def _gold_place(sections: dict[str, list[tuple[str, str]]]) -> Callable[[RulePoint, GoldRule], bool]:
    """Whether a rule is on the gold rule's page, or in its section for a target without pages."""

    def on_gold(found: RulePoint, gold: GoldRule) -> bool:
        if gold.target in sections:
            return section_of(found.quote, sections[gold.target]) in gold.sections
        return found.page in gold.pages

    return on_gold


def _count(
    source: Source,
    clauses: list[Clause],
    checked: dict[str, tuple[list[list[Candidate]], TargetCheck]],
    counts: Counter[str],
    filler: Counter[str],
    show: bool,
    verdict_of: Callable[[str, Clause, Candidate], Verdict | None],
    on_gold: Callable[[RulePoint, GoldRule], bool],
) -> None:
    """Count where each planted violation of ``source`` is lost; ``verdict_of`` judges as the audit
    does, ``on_gold`` says whether a rule stands where the gold rule does."""
    planted = [normalise(c.text) for c in (*source.violations, *source.compliant)]
    for _, check in checked.values():
        for breach in check.breaches:
            if not any(_same(breach.clause, p) for p in planted):
                filler[breach.verdict.reading] += 1
                if show:
                    print(f"\n[{source.id} filler, flagged] {breach.clause.text[:150]}")
                    print(f"  p{breach.rule.page} {breach.verdict.reading}: {breach.rule.text[:150]}")
    for gold in (*source.violations, *source.compliant):
        positions = [i for i, c in enumerate(clauses) if _same(c, normalise(gold.text))]
        flagged = [
            b
            for _, check in checked.values()
            for b in check.breaches
            if b.clause in (clauses[i] for i in positions)
        ]
        if gold.label != "violation":
            counts["compliant"] += 1
            counts["compliant_flagged"] += bool(flagged)
            for reading in {b.verdict.reading for b in flagged}:
                counts[f"compliant flagged by: {reading}"] += 1
            if show and flagged:
                print(f"\n[{gold.id} compliant, flagged] {gold.text[:150]}")
                for breach in flagged:
                    print(
                        f"  {breach.candidate.standing:+.1f} p{breach.rule.page} {breach.verdict.reading:16}"
                        f" [{breach.rule.modal_words}] {breach.rule.text[:300]}\n    {breach.verdict.rationale[:160]}"
                    )
            continue
        counts["violations"] += 1
        if not positions:
            continue
        counts["extracted"] += 1
        rule = gold.rules[0]
        candidates = checked[rule.target][0][positions[0]]
        hits = [k for k, c in enumerate(candidates) if on_gold(c.rule, rule)]
        judged = [k for k in hits if k < JUDGED]
        counts["gold_in_candidates"] += bool(hits)
        counts["gold_judged_offline"] += bool(judged)
        counts["gold_most_related"] += bool(hits) and hits[0] == 0
        counts["gold_shown_to_model"] += any(on_gold(c.rule, rule) for c in shown_to_model(candidates))
        verdict = verdict_of(rule.target, clauses[positions[0]], candidates[judged[0]]) if judged else None
        counts["gold_judged_conflict"] += bool(verdict and verdict.conflict)
        if judged:
            said = (
                f"{'conflict' if verdict.conflict else 'ok'}:{verdict.reading}" if verdict else "no verdict"
            )
            counts[f"gold verdict: {said}"] += 1
        found = any(b.target.document_id == rule.target and on_gold(b.rule, rule) for b in flagged)
        counts["found_on_gold_page"] += found
        if show:
            print(f"\n[{gold.id} {gold.kind}] {gold.text[:150]}")
            print(f"  gold {rule.target} p{sorted(rule.pages)}: {'found' if found else 'MISSED'}")
            for k, candidate in enumerate(candidates):
                judged = verdict_of(rule.target, clauses[positions[0]], candidate)
                mark = "*" if k in hits else " "
                said = f"{'CONFLICT' if judged.conflict else 'ok'}:{judged.reading}" if judged else "-"
                print(
                    f"  {mark}{candidate.relatedness:.2f} {candidate.standing:+.1f} p{candidate.rule.page} {said:24} {candidate.rule.text[:90]}"
                )


def _same(clause: Clause, planted: str) -> bool:
    text = normalise(clause.text)
    return text[:60] in planted or planted[:60] in text


def main() -> None:
    """Print the stage counts (and, with --show, each violation's candidates) as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--index", type=Path, default=Path("bench/.cache/audit_index"), help="kept Qdrant folder"
    )
    parser.add_argument("--show", action="store_true", help="print each violation with its candidate rules")
    parser.add_argument("--split", choices=["dev", "held-out"], default="dev", help="held-out: counts only")
    args = parser.parse_args()
    print(
        json.dumps(
            asyncio.run(diagnose(load_corpus(args.split), args.index, args.show and args.split == "dev")),
            indent=1,
        )
    )


if __name__ == "__main__":
    main()

"""The summary drafted by a language model from the same per-part material as the offline one.

Each part of each document contributes the chunks holding its best-ranked statements (see
``key_statements``): a sample stratified by the document's own structure rather than by equal
segments. No call sends more passages than the product's budget (15-20 % of the documents' chunks,
at least 10, at most 30 per document, see ``stratified_sampling``). When all the material fits in
one call, the model writes the summary from it directly (streamed). Otherwise the parts are packed,
in order, into map calls that each note their parts' key points with passage markers, and a reduce
call (streamed) writes the summary from those notes alone; the markers stay the passages'
numbers across all calls, so the answer is cited against every passage sent.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from actions.drafting import document_name, draft_cited, passage_heading
from actions.lifecycle.request import ActionAnswer, OnDelta
from actions.organisation import with_organisation
from actions.stratified_sampling import sample_size
from actions.summarize.extractive_summary import DocumentSummary, structure_coverage
from policypal.contracts import ActionRequested, ResolvedDocument, SummaryResult, Usage
from policypal.embeddings import Embedder
from policypal.llm import LLM, Prompt, add_usage
from policypal.vectorstore import ChunkPoint

#: Passages sent per part beyond its chosen points: one more, for context.
EXTRA_PASSAGES = 1

_RULES = (
    "Support every statement with the marker of the passage it comes from, e.g. [1] or [2]; use no "
    "marker that is not listed and state nothing the passages do not say."
)
SINGLE_INSTRUCTIONS = (
    "Summarize the documents below part by part. Their key passages are numbered and grouped under "
    "each document's top-level parts, in the document's order. For each document, start with a short "
    "overview (two or three sentences: its purpose and scope), then for every part its heading "
    "('#### ' and the part's title exactly as shown) and its key points, rules and requirements as "
    "bullet points. When there are several documents, head each one '### ' followed by its title and "
    "version exactly as shown, and never cite one document's passage under another. " + _RULES
)
MAP_INSTRUCTIONS = (
    "These are the key passages of some parts of a longer document, grouped under each part in order. "
    "For every part, write its heading ('#### ' and the part's title exactly as shown), then one to "
    "three bullet points with its key points, rules and requirements. " + _RULES
)
REDUCE_INSTRUCTIONS = (
    "Below are notes on every part of the documents, in order, each point followed by the marker of "
    "the passage it comes from. Write the final summary from these notes alone: for each document a "
    "short overview first (two or three sentences: its purpose and scope), then every part's heading "
    "('#### ' and its title as in the notes) with its key points as bullet points, in the same order. "
    "When there are several documents, head each one '### ' followed by its title and version exactly "
    "as shown. Keep each point's marker exactly as in the notes ([N]); use no other marker and add "
    "nothing the notes do not say."
)


@dataclass(frozen=True)
class PartMaterial:
    """The passages one part sends to the model."""

    document: ResolvedDocument
    title: str
    pages: str
    chunks: list[ChunkPoint]


def call_budget(summaries: Sequence[DocumentSummary]) -> int:
    """The most passages one call may send: each document's sample size, summed."""
    return sum(sample_size(s.digest.total_chunks) for s in summaries)


def part_materials(summaries: Sequence[DocumentSummary]) -> list[PartMaterial]:
    """Every part with candidates, in order, with the chunks of its best statements (reading order)."""
    materials = []
    for summary in summaries:
        for part in summary.digest.parts:
            wanted = len(part.chosen) + EXTRA_PASSAGES if part.chosen else 0
            chunks: dict[str, ChunkPoint] = {}
            for statement in part.ranked:
                if len(chunks) == wanted:
                    break
                chunks.setdefault(statement.extract.chunk.chunk_id, statement.extract.chunk)
            if chunks:
                ordered = sorted(chunks.values(), key=lambda c: c.chunk_index)
                materials.append(PartMaterial(summary.document, part.part.title, part.part.pages, ordered))
    return materials


def packed_calls(materials: Sequence[PartMaterial], budget: int) -> list[list[PartMaterial]]:
    """``materials`` in order, packed into calls of at most ``budget`` passages each."""
    calls: list[list[PartMaterial]] = []
    size = 0
    for material in materials:
        fits = material.chunks[: max(1, budget)]
        material = PartMaterial(material.document, material.title, material.pages, fits)
        if not calls or size + len(fits) > budget:
            calls.append([])
            size = 0
        calls[-1].append(material)
        size += len(fits)
    return calls


def material_section(materials: Sequence[PartMaterial], *, start: int) -> str:
    """The passages of ``materials`` under their document and part headings, numbered from ``start``."""
    lines: list[str] = []
    number = start
    document: ResolvedDocument | None = None
    for material in materials:
        if material.document != document:
            document = material.document
            lines.append(f"## Document: {document_name(document)}, {document.doc_type}")
        pages = f" ({material.pages})" if material.pages else ""
        lines.append(f"### Part: {material.title}{pages}")
        for chunk in material.chunks:
            lines.append(f"{passage_heading(number, chunk)}\n{chunk.text.strip()}")
            number += 1
    return "\n\n".join(lines)


async def draft_summary(
    event: ActionRequested,
    summaries: Sequence[DocumentSummary],
    *,
    llm: LLM,
    embedder: Embedder,
    on_delta: OnDelta,
) -> ActionAnswer:
    """Stream the model's summary of ``summaries`` and cite it; raises ``LLMError`` when the model fails."""
    budget = call_budget(summaries)
    calls = packed_calls(part_materials(summaries), budget)
    request = event.query.strip() or "Summarize the documents."
    sources = [chunk for call in calls for material in call for chunk in material.chunks]
    usage: Usage | None = None
    if len(calls) <= 1:
        user = f"{material_section(calls[0] if calls else [], start=1)}\n\n## Request\n{request}"
        instructions = with_organisation(SINGLE_INSTRUCTIONS, event.company)
        prompt = Prompt(instructions, user, context=event.user_context, history=event.history)
    else:
        notes, number = [], 1
        for call in calls:
            mapped = await llm.complete(
                "summarize",
                Prompt(MAP_INSTRUCTIONS, material_section(call, start=number), context=event.user_context),
            )
            usage = mapped.usage if usage is None else add_usage(usage, mapped.usage)
            number += sum(len(material.chunks) for material in call)
            notes.append(_notes_heading(call) + mapped.text.strip())
        user = "\n\n".join(notes) + f"\n\n## Request\n{request}"
        instructions = with_organisation(REDUCE_INSTRUCTIONS, event.company)
        prompt = Prompt(instructions, user, context=event.user_context, history=event.history)
    titles = ", ".join(document_name(s.document) for s in summaries)
    draft = await draft_cited(
        llm, "summarize", prompt, sources, embedder=embedder, on_delta=on_delta, topic=f"Summary of {titles}"
    )
    result = SummaryResult(
        documents=[structure_coverage(s) for s in summaries],
        passages_sent=len(sources),
        model_calls=len(calls) + (len(calls) > 1),
        passages_per_call_limit=budget,
    )
    return draft.action_answer(result, spent_before=usage)


def _notes_heading(call: Sequence[PartMaterial]) -> str:
    documents = list(dict.fromkeys(document_name(m.document) for m in call))
    return f"## Notes on {', '.join(documents)}\n"

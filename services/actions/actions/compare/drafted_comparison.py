"""The comparison drafted by a language model (docs/product.md, Compare): holistic by themes, focused on a topic, or
the prose over a redline of versions.

Holistic: one light structured call (the small model) names 3-5 themes common to the documents'
samples, then the model writes the 5-section report theme by theme. Focused: the model writes the
difference table from each document's passages nearest to the topic. Passages are numbered [1]..[N]
across documents, grouped under their document; the report is streamed, then its markers are cited
with verified quotes. Redline: the model reads the redline itself (each change with both wordings,
changed words marked, already cited) and writes the overview; the redline follows it verbatim, so the
evidence is never paraphrased and the model's markers are the redline's own.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pydantic import BaseModel, Field

from actions.citing.grounding import keep_markers
from actions.drafting import CitedDraft, documents_section, draft_cited, stream_draft
from actions.lifecycle.request import ActionAnswer, OnDelta
from actions.organisation import with_organisation
from policypal.config import LLMTask
from policypal.contracts import (
    ActionRequested,
    FocusedComparison,
    HolisticComparison,
    RedlineComparison,
    ResolvedDocument,
)
from policypal.embeddings import Embedder
from policypal.llm import LLM, Prompt
from policypal.vectorstore import ChunkPoint

THEMES_INSTRUCTIONS = (
    "Identify the 3 to 5 themes that the documents have in common, from the numbered passages sampled "
    "across each document (e.g. 'Capital requirements', 'Reporting', 'Penalties'). Group by meaning, "
    "not by section titles alone; where candidate themes are listed, keep those that fit. Name each theme "
    "in 2 to 5 words. Reply in the JSON field themes."
)
HOLISTIC_INSTRUCTIONS = (
    "Compare the documents theme by theme, from the numbered passages sampled across each document and "
    "the themes listed with them. Write exactly these five sections, each headed '## ' and its name: "
    "Overview (the purpose of each document), Key differences (per theme, how the documents differ), "
    "Key similarities (common ground), Unique aspects (what each document alone covers), Implications "
    "(what the differences mean for the user's organisation and its current policies). Name the "
    "documents by title. Where aligned passages are listed, build the differences, similarities and unique "
    "aspects from them: they pair sentences of the documents by meaning, with the words that changed. "
    "Support every statement with the marker of the passage it comes from, e.g. "
    "[1] or [2]; use no marker that is not listed and state nothing the passages do not say."
)
FOCUSED_INSTRUCTIONS = (
    "Compare what the documents say on the topic, from the numbered passages of each document nearest "
    "to it. Begin with a markdown table with the columns | Document | Requirement on this topic |, one "
    "row per document in the order given, stating its specific values and rules (e.g. '8% capital "
    "requirement'), or 'Not addressed' when its passages do not cover the topic. Then list the "
    "differences under '## Differences' in bullet points. Support every statement with the marker of "
    "the passage it comes from, e.g. [1] or [2]; use no marker that is not listed and state nothing "
    "the passages do not say."
)

REDLINE_INSTRUCTIONS = (
    "Explain what changed between the versions, from the redline below. Each change is listed with its "
    "section and page in each version and both wordings, removed words ~~struck~~ and added words in "
    "**bold**, with the markers [N] of its citations. Write a short overview (2 to 4 sentences), then "
    "'## What the changes mean' as bullet points, the most consequential first (a new or dropped "
    "obligation, a changed deadline, amount or party, a negation). Support every statement with the "
    "markers of the changes it rests on, e.g. [3] [4]; use no other marker, quote no wording the redline "
    "does not show, and state nothing it does not support."
)


@dataclass(frozen=True)
class AlignedMaterial:
    """What the offline comparison found, for the model: named themes and, per theme, the
    counterparts that differ or agree and what one document alone says, by passage number."""

    themes: list[str]
    passages: str


class ComparisonThemes(BaseModel):
    """The structured reply of the theme extraction."""

    themes: list[str] = Field(min_length=1, max_length=5)


async def draft_holistic(
    event: ActionRequested,
    passages: Sequence[tuple[ResolvedDocument, Sequence[ChunkPoint]]],
    *,
    llm: LLM,
    embedder: Embedder,
    on_delta: OnDelta,
    aligned: AlignedMaterial | None = None,
) -> ActionAnswer:
    """Themes (structured call), then the streamed, cited 5-section report; raises ``LLMError``.

    ``aligned`` (what the offline comparison found) is shown to both calls: its theme names as
    candidates, its counterparts and unique passages as the evidence to write from.
    """
    documents = documents_section(passages)
    candidates = (
        "\n\n## Candidate themes (from headings and phrases the documents share)\n"
        + "\n".join(aligned.themes)
        if aligned is not None and aligned.themes
        else ""
    )
    found = await llm.structured(
        "themes",
        Prompt(instructions=THEMES_INSTRUCTIONS, user=documents + candidates, context=event.user_context),
        ComparisonThemes,
    )
    themes = [" ".join(theme.split()) for theme in found.value.themes if theme.strip()]
    listed = "\n".join(f"{n}. {theme}" for n, theme in enumerate(themes, 1))
    request = event.query.strip() or "Compare the documents."
    evidence = (
        "\n\n## Aligned passages (sentences of the documents paired by meaning)\n" + aligned.passages
        if aligned is not None and aligned.passages
        else ""
    )
    draft = await _draft_report(
        event,
        "compare_holistic",
        HOLISTIC_INSTRUCTIONS,
        f"{documents}{evidence}\n\n## Themes\n{listed}\n\n## Request\n{request}",
        passages,
        llm=llm,
        embedder=embedder,
        on_delta=on_delta,
        topic=request,
    )
    return draft.action_answer(
        HolisticComparison(themes=themes, theme_attempts=found.attempts), spent_before=found.usage
    )


async def draft_focused(
    event: ActionRequested,
    topic: str,
    passages: Sequence[tuple[ResolvedDocument, Sequence[ChunkPoint]]],
    *,
    llm: LLM,
    embedder: Embedder,
    on_delta: OnDelta,
) -> ActionAnswer:
    """The streamed, cited difference table of the documents on ``topic``; raises ``LLMError``."""
    draft = await _draft_report(
        event,
        "compare_focused",
        FOCUSED_INSTRUCTIONS,
        f"{documents_section(passages)}\n\n## Topic\n{topic}",
        passages,
        llm=llm,
        embedder=embedder,
        on_delta=on_delta,
        topic=topic,
    )
    return draft.action_answer(FocusedComparison(topic=topic))


async def _draft_report(
    event: ActionRequested,
    task: LLMTask,
    instructions: str,
    user: str,
    passages: Sequence[tuple[ResolvedDocument, Sequence[ChunkPoint]]],
    *,
    llm: LLM,
    embedder: Embedder,
    on_delta: OnDelta,
    topic: str,
) -> CitedDraft:
    """The streamed, cited report written from ``user`` (which shows ``passages`` as
    ``documents_section`` numbers them: document by document, in order) for this organisation."""
    prompt = Prompt(
        instructions=with_organisation(instructions, event.company),
        user=user,
        context=event.user_context,
        history=event.history,
    )
    sources = [chunk for _, chunks in passages for chunk in chunks]
    return await draft_cited(llm, task, prompt, sources, embedder=embedder, on_delta=on_delta, topic=topic)


async def draft_redline(
    event: ActionRequested, redline: ActionAnswer, *, llm: LLM, on_delta: OnDelta
) -> ActionAnswer:
    """The model's streamed account of ``redline``, then the redline itself; raises ``LLMError``."""
    request = event.query.strip() or "What changed between the versions?"
    prompt = Prompt(
        instructions=with_organisation(REDLINE_INSTRUCTIONS, event.company),
        user=f"## Redline\n{redline.answer}\n\n## Request\n{request}",
        context=event.user_context,
        history=event.history,
    )
    completion = await stream_draft(llm, "compare_holistic", prompt, on_delta)
    account, _ = keep_markers(completion.text.strip(), {c.marker for c in redline.citations})
    return replace(
        redline,
        answer=f"{account}\n\n{redline.answer}",
        result=(
            redline.result.model_copy(update={"drafted": True})
            if isinstance(redline.result, RedlineComparison)
            else redline.result
        ),
        model=completion.model,
        usage=completion.usage,
    )

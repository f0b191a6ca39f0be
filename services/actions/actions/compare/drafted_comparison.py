"""The comparison drafted by a language model (seed 000): holistic by themes, or focused on a topic.

Holistic: one light structured call (the small model) names 3-5 themes common to the documents'
samples, then the model writes the 5-section report theme by theme. Focused: the model writes the
difference table from each document's passages nearest to the topic. Passages are numbered [1]..[N]
across documents, grouped under their document; the report is streamed, then its markers are cited
with verified quotes.
"""

from collections.abc import Sequence

from pydantic import BaseModel, Field

from actions.drafting import documents_section, draft_cited
from actions.request_lifecycle import ActionAnswer, OnDelta
from policypal.contracts import ActionRequested, ResolvedDocument
from policypal.embeddings import Embedder
from policypal.llm import LLM, Prompt, add_usage
from policypal.vectorstore import ChunkPoint

THEMES_INSTRUCTIONS = (
    "Identify the 3 to 5 themes that the documents have in common, from the numbered passages sampled "
    "across each document (e.g. 'Capital requirements', 'Reporting', 'Penalties'). Group by meaning, "
    "not by section titles. Name each theme in 2 to 5 words. Reply in the JSON field themes."
)
HOLISTIC_INSTRUCTIONS = (
    "Compare the documents theme by theme, from the numbered passages sampled across each document and "
    "the themes listed with them. Write exactly these five sections, each headed '## ' and its name: "
    "Overview (the purpose of each document), Key differences (per theme, how the documents differ), "
    "Key similarities (common ground), Unique aspects (what each document alone covers), Implications "
    "(what the differences mean for the user's organisation and its current policies). Name the "
    "documents by title. Support every statement with the marker of the passage it comes from, e.g. "
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
) -> ActionAnswer:
    """Themes (structured call), then the streamed, cited 5-section report; raises ``LLMError``."""
    documents = documents_section(passages)
    found = await llm.structured(
        "themes",
        Prompt(instructions=THEMES_INSTRUCTIONS, user=documents, context=event.user_context),
        ComparisonThemes,
    )
    themes = [" ".join(theme.split()) for theme in found.value.themes if theme.strip()]
    listed = "\n".join(f"{n}. {theme}" for n, theme in enumerate(themes, 1))
    request = event.query.strip() or "Compare the documents."
    prompt = Prompt(
        instructions=HOLISTIC_INSTRUCTIONS,
        user=f"{documents}\n\n## Themes\n{listed}\n\n## Request\n{request}",
        context=event.user_context,
        history=event.history,
    )
    sources = [chunk for _, chunks in passages for chunk in chunks]
    draft = await draft_cited(
        llm, "compare_holistic", prompt, sources, embedder=embedder, on_delta=on_delta, topic=request
    )
    return ActionAnswer(
        answer=draft.answer,
        citations=draft.citations,
        result={"mode": "holistic", "themes": themes, "theme_attempts": found.attempts},
        model=draft.model,
        usage=add_usage(found.usage, draft.usage),
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
    prompt = Prompt(
        instructions=FOCUSED_INSTRUCTIONS,
        user=f"{documents_section(passages)}\n\n## Topic\n{topic}",
        context=event.user_context,
        history=event.history,
    )
    sources = [chunk for _, chunks in passages for chunk in chunks]
    draft = await draft_cited(
        llm, "compare_focused", prompt, sources, embedder=embedder, on_delta=on_delta, topic=topic
    )
    return ActionAnswer(
        answer=draft.answer,
        citations=draft.citations,
        result={"mode": "focused", "topic": topic},
        model=draft.model,
        usage=draft.usage,
    )

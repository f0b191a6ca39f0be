"""Drafting an action's answer with a language model: numbered passages in, streamed text out, cited.

The model sees passages numbered [1]..[N]; the text it writes is streamed as token events, then each
``[N]`` is tied to its passage by inquire's grounding (quotes verified verbatim, markers that map to
nothing removed and counted in the trace).
"""

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from opentelemetry import trace

from actions.citing.grounding import ground_answer
from actions.lifecycle.request import ActionAnswer, OnDelta
from policypal.config import LLMTask
from policypal.contracts import ActionResult, Citation, ResolvedDocument, Usage
from policypal.embeddings import Embedder
from policypal.llm import LLM, Completion, Prompt, add_usage
from policypal.vectorstore import ChunkPoint

logger = logging.getLogger(__name__)


def llm_fallback_notice(what: str) -> str:
    """Told to the user when the model failed and the offline ``what`` ("summary") stands in for it."""
    return (
        f"The language model was unavailable, so this {what} was composed offline from the passages of "
        "your documents. Please ask again later for a drafted one."
    )


@dataclass(frozen=True)
class CitedDraft:
    """The model's text with only markers that have a citation, the citations, the model and its usage."""

    answer: str
    citations: list[Citation]
    model: str
    usage: Usage

    def action_answer(self, result: ActionResult, *, spent_before: Usage | None = None) -> ActionAnswer:
        """The action's answer: this draft with its ``result``; the usage adds the model calls made for
        it before the draft (``spent_before``: themes found, chapters noted)."""
        usage = self.usage if spent_before is None else add_usage(spent_before, self.usage)
        return ActionAnswer(self.answer, self.citations, result=result, model=self.model, usage=usage)


def document_name(document: ResolvedDocument) -> str:
    """How answers name a document: “Title” (version)."""
    return f"“{document.title}” ({document.version})"


def numbered_passages(passages: Sequence[ChunkPoint], *, start: int = 1) -> str:
    """The passages as the model sees them: ``[N] “Title” (version v), page p:`` then the text."""
    return "\n\n".join(
        f"{passage_heading(number, chunk)}\n{chunk.text.strip()}"
        for number, chunk in enumerate(passages, start)
    )


def documents_section(
    passages: Sequence[tuple[ResolvedDocument, Sequence[ChunkPoint]]],
    *,
    notes: Sequence[str] = (),
    start: int = 1,
) -> str:
    """Each document's passages under its heading (with its note, if any), numbered from ``start`` across them."""
    sections, number = [], start
    for position, (document, chunks) in enumerate(passages):
        note = f", {notes[position]}" if position < len(notes) else ""
        body = numbered_passages(chunks, start=number) or "(no indexed text)"
        number += len(chunks)
        sections.append(f"## Document: {document_name(document)}, {document.doc_type}{note}\n\n{body}")
    return "\n\n".join(sections)


def passage_heading(number: int, chunk: ChunkPoint) -> str:
    """The heading line of passage ``number``."""
    page = f", page {chunk.page}" if chunk.page is not None else ""
    return f"[{number}] “{chunk.title}” (version {chunk.version}){page}:"


async def stream_draft(llm: LLM, task: LLMTask, prompt: Prompt, on_delta: OnDelta) -> Completion:
    """The model's reply to ``prompt``, each piece handed to ``on_delta`` as it arrives."""
    stream = llm.stream(task, prompt)
    async for delta in stream:
        await on_delta(delta)
    return stream.completion


async def draft_cited(
    llm: LLM,
    task: LLMTask,
    prompt: Prompt,
    sources: Sequence[ChunkPoint],
    *,
    embedder: Embedder,
    on_delta: OnDelta,
    topic: str,
) -> CitedDraft:
    """Stream the reply to ``prompt`` (whose passages are ``sources``, numbered from 1), then cite it.

    ``topic`` stands in for the statements of a marker that cites no sentence of its own. Raises
    ``LLMError`` when the model fails after its retries.
    """
    completion = await stream_draft(llm, task, prompt, on_delta)
    grounded = await ground_answer(completion.text, sources, embedder, question=topic)
    span = trace.get_current_span()
    span.set_attribute(f"{task}.citations", len(grounded.citations))
    span.set_attribute(f"{task}.markers_removed", grounded.removed_markers)
    if grounded.removed_markers:
        logger.info("%s: removed %d citation markers that map to no passage", task, grounded.removed_markers)
    return CitedDraft(
        answer=grounded.answer, citations=grounded.citations, model=completion.model, usage=completion.usage
    )

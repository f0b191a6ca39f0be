"""The summary drafted by a language model (seed 000) from each document's stratified sample.

The passages of every sample are numbered [1]..[N] across documents, grouped under their document;
the model writes key points, rules and requirements, one section per document when there are several,
citing the passages. The draft is streamed, then its markers are cited with verified quotes.
"""

from collections.abc import Sequence

from actions.drafting import document_name, documents_section, draft_cited
from actions.request_lifecycle import ActionAnswer, OnDelta
from actions.stratified_sampling import DocumentSample
from actions.summarize.extractive_summary import sample_coverage
from policypal.contracts import ActionRequested, ResolvedDocument
from policypal.embeddings import Embedder
from policypal.llm import LLM, Prompt
from policypal.vectorstore import ChunkPoint

SINGLE_INSTRUCTIONS = (
    "Summarize the document from the numbered passages sampled from its beginning to its end. Give a "
    "consolidated summary: its purpose, then its key points, rules and requirements as bullet points, "
    "then the key takeaways. Support every statement with the marker of the passage it comes from, "
    "e.g. [1] or [2]; use no marker that is not listed and state nothing the passages do not say."
)
MULTI_INSTRUCTIONS = (
    "Summarize each document from the numbered passages sampled from its beginning to its end. Write "
    "one section per document, in the order given, headed '### ' followed by the document's title and "
    "version exactly as shown in its heading. In each section attribute the points to the document by "
    "name (e.g. 'The Records Regulation requires...') and give its key points, rules and requirements "
    "as bullet points. Support every statement with the marker of the passage it comes from, e.g. [1] "
    "or [2]; use no marker that is not listed, never cite one document's passage in another's section, "
    "and state nothing the passages do not say."
)


def summary_prompt(
    event: ActionRequested, samples: Sequence[tuple[ResolvedDocument, DocumentSample]]
) -> Prompt:
    """The request: each document's sampled passages under its heading, numbered across documents."""
    passages = [(document, sample.chunks) for document, sample in samples]
    notes = [f"{len(sample.chunks)} of {sample.total_chunks} passages" for _, sample in samples]
    sections = documents_section(passages, notes=notes)
    request = event.query.strip() or "Summarize the documents."
    return Prompt(
        instructions=SINGLE_INSTRUCTIONS if len(samples) == 1 else MULTI_INSTRUCTIONS,
        user=f"{sections}\n\n## Request\n{request}",
        context=event.user_context,
        history=event.history,
    )


async def draft_summary(
    event: ActionRequested,
    samples: Sequence[tuple[ResolvedDocument, DocumentSample]],
    *,
    llm: LLM,
    embedder: Embedder,
    on_delta: OnDelta,
) -> ActionAnswer:
    """Stream the model's summary of ``samples`` and cite it; raises ``LLMError`` when the model fails."""
    sources: list[ChunkPoint] = [chunk for _, sample in samples for chunk in sample.chunks]
    titles = ", ".join(document_name(document) for document, _ in samples)
    draft = await draft_cited(
        llm,
        "summarize",
        summary_prompt(event, samples),
        sources,
        embedder=embedder,
        on_delta=on_delta,
        topic=f"Summary of {titles}",
    )
    return ActionAnswer(
        answer=draft.answer,
        citations=draft.citations,
        result={"documents": [sample_coverage(sample) for _, sample in samples]},
        model=draft.model,
        usage=draft.usage,
    )

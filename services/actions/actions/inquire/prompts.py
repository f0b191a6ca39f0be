"""What @Inquire asks the language model: the query rewrite and the answer modes A and B (docs/product.md, Query rewrite; Answer modes).

Instructions are fixed texts, so the system prompt (static prefix, user context, instructions) stays
identical across requests of a user and providers can cache it; passages and the question go last.
"""

from collections.abc import Sequence

from pydantic import BaseModel, Field

from actions.organisation import with_organisation
from actions.web_search import WebResult
from policypal.contracts import ActionRequested
from policypal.llm import Prompt
from policypal.vectorstore import ChunkHit

REWRITE_INSTRUCTIONS = (
    "Given the user's question about the listed documents, generate a semantic search query of 15 to 25 "
    "words that will find the most relevant passages. Include the document subject and the specific "
    "question topic. Reply with the query only, in the JSON field optimized_query."
)

#: Mode A: sources were found; answer from them only, every statement cited.
SOURCED_INSTRUCTIONS = (
    "Answer the user's question using ONLY the numbered passages of the user's documents given with the "
    "question. Support every statement with the marker of the passage it comes from, e.g. [1] or [2]; "
    "use no marker that is not listed. When passages of several documents are used, attribute each "
    "statement to its document by title. If the passages do not answer the question, state that the "
    "documents do not address it: never answer from general knowledge."
)

#: Mode A with web results: the same rule, and the web kept apart from the user's documents.
SOURCED_WITH_WEB_INSTRUCTIONS = (
    "Answer the user's question using ONLY the numbered passages given with the question: passages of "
    "the user's documents and results of a web search, each marked as such. Support every statement "
    "with the marker of the passage it comes from, e.g. [1] or [2]; use no marker that is not listed. "
    "Say which statements come from the web and which from the user's documents, and prefer the "
    "documents where they disagree. If the passages do not answer the question, say so: never answer "
    "from general knowledge."
)

#: Mode B: no document was tagged; general knowledge, labelled as such.
GENERAL_INSTRUCTIONS = (
    "No documents were attached to this question. Answer from general knowledge, concisely and "
    "accurately. Begin by stating that the answer is general knowledge, not sourced from the user's "
    "documents, and recommend verification against the applicable regulation. Use no citation markers."
)


class QueryRewrite(BaseModel):
    """The structured reply of the query rewrite."""

    optimized_query: str = Field(min_length=1, max_length=400)


def rewrite_prompt(event: ActionRequested) -> Prompt:
    """The rewrite request: the question with the titles of the documents in scope.

    Without the user's organisation: its name in a search query would find passages naming it, not
    the question's topic.
    """
    titles = ", ".join(f"“{doc.title}”" for doc in event.documents)
    return Prompt(
        instructions=REWRITE_INSTRUCTIONS,
        user=f"Documents: {titles}\nQuestion: {event.query}",
        context=event.user_context,
    )


def sourced_prompt(
    event: ActionRequested, sources: Sequence[ChunkHit], web: Sequence[WebResult] = ()
) -> Prompt:
    """Mode A: the question after the passages, numbered [1]..[N] in the order of ``sources``, then
    the ``web`` results numbered on from there."""
    documents = [f"{_heading(number, hit)}\n{hit.text.strip()}" for number, hit in enumerate(sources, 1)]
    found = [
        f"[{number}] Web result “{result.title}” ({result.url}):\n{result.content}"
        for number, result in enumerate(web, len(sources) + 1)
    ]
    passages = "\n\n".join(documents + found)
    return Prompt(
        instructions=with_organisation(
            SOURCED_WITH_WEB_INSTRUCTIONS if web else SOURCED_INSTRUCTIONS, event.company
        ),
        user=f"## Passages\n\n{passages}\n\n## Question\n{event.query}",
        context=event.user_context,
        history=event.history,
    )


def general_prompt(event: ActionRequested) -> Prompt:
    """Mode B: the question alone."""
    return Prompt(
        instructions=with_organisation(GENERAL_INSTRUCTIONS, event.company),
        user=event.query,
        context=event.user_context,
        history=event.history,
    )


def _heading(number: int, hit: ChunkHit) -> str:
    page = f", page {hit.page}" if hit.page is not None else ""
    return f"[{number}] “{hit.title}” (version {hit.version}){page}:"

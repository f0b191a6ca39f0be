"""Seed 002's query rewrite: the question as a search query that names its subject and documents."""

import logging
import re
from dataclasses import dataclass, field

from actions.inquire.prompts import QueryRewrite, rewrite_prompt
from policypal.contracts import ActionRequested, ResolvedDocument, Usage
from policypal.llm import LLM, StructuredOutputError

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rewrite:
    """The search query and what producing it cost (nothing when the question is kept)."""

    query: str
    usage: Usage = field(default_factory=Usage)


async def rewrite_query(llm: LLM, event: ActionRequested) -> Rewrite:
    """The search query for ``event``; the question itself when no document is in scope.

    A reply that stays malformed keeps the question (a non-critical step must not end the request);
    an unavailable model raises, so the caller can fall back as a whole.
    """
    if not event.documents:
        return Rewrite(event.query)
    try:
        result = await llm.structured("query_rewrite", rewrite_prompt(event), QueryRewrite)
    except StructuredOutputError as exc:
        logger.warning("query rewrite kept the question: %s", exc)
        return Rewrite(event.query)
    return Rewrite(result.value.optimized_query.strip(), result.usage)


def without_titles(query: str, documents: list[ResolvedDocument]) -> str:
    """``query`` without the documents' titles, for judging relevance.

    The rewrite names the documents; a sentence that merely repeats a title (a heading) would
    otherwise look relevant to any question about that document.
    """
    for title in sorted({doc.title for doc in documents if doc.title.strip()}, key=len, reverse=True):
        query = re.sub(re.escape(title), " ", query, flags=re.IGNORECASE)
    return " ".join(query.split())

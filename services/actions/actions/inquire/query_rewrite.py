"""The query rewrite (docs/product.md, Query rewrite): the question as a search query that names its subject and documents."""

import logging
from dataclasses import dataclass, field

from actions.inquire.prompts import QueryRewrite, rewrite_prompt
from policypal.contracts import ActionRequested, Usage
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

"""Web search through Tavily (docs/product.md, Web search): results the answer can cite, and failures told as notices.

Called by an action when the user asked for the web (@web, a temporal keyword, or "search the web"
after weak retrieval) and document confidence is not already high. The query is the rewritten
retrieval query (docs/product.md, Query rewrite) or the clean query, with the user's location and industry when the query
does not name them. Quota, key and network errors never fail the request: the answer goes on from
the documents and says why the web was left out.
"""

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from opentelemetry import trace
from pydantic import BaseModel
from tavily import AsyncTavilyClient  # type: ignore[import-untyped]
from tavily.errors import (  # type: ignore[import-untyped]
    BadRequestError,
    ForbiddenError,
    InvalidAPIKeyError,
    UsageLimitExceededError,
)

from policypal.config import Settings
from policypal.contracts import UserContext

logger = logging.getLogger(__name__)
tracer = trace.get_tracer(__name__)

#: Tavily takes at most 400 characters; the query is cut at 200 (docs/product.md, Web search).
MAX_QUERY_CHARS = 200
#: Two attempts, for rate limits and passing network errors (docs/architecture.md, Retries and back-off).
ATTEMPTS = 2

QUOTA_NOTICE = "Web search limit reached, so this answer is based on your documents only."
UNAVAILABLE_NOTICE = "Web search is unavailable just now, so this answer is based on your documents only."
NOT_CONFIGURED_NOTICE = "Web search is not configured, so this answer is based on your documents only."


class WebResult(BaseModel):
    """One page found on the web: what the answer may cite."""

    url: str
    title: str
    content: str
    score: float | None = None


class WebSearchUnavailable(Exception):  # noqa: N818 - reads as the outcome the user is told
    """The web could not be searched; ``notice`` says so to the user."""

    def __init__(self, notice: str) -> None:
        super().__init__(notice)
        self.notice = notice


@dataclass(frozen=True)
class WebSearch:
    """A Tavily client with PolicyPal's limits."""

    client: AsyncTavilyClient
    max_results: int = 5
    timeout_seconds: float = 15.0

    async def search(self, query: str) -> list[WebResult]:
        """The results for ``query``; raises ``WebSearchUnavailable`` with a notice on any failure."""
        with tracer.start_as_current_span("web_search") as span:
            span.set_attribute("web_search.query_chars", len(query))
            try:
                reply = await self._reply(query[:MAX_QUERY_CHARS])
            except WebSearchUnavailable as exc:
                span.set_attribute("web_search.outcome", "unavailable")
                logger.warning("web search unavailable: %s", exc.__cause__.__class__.__name__)
                raise
            results = [_result(item) for item in reply.get("results", []) if _usable(item)]
            span.set_attribute("web_search.results", len(results))
            span.set_attribute("web_search.outcome", "ok")
            return results

    async def _reply(self, query: str) -> dict[str, Any]:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                reply: dict[str, Any] = await self.client.search(
                    query, search_depth="basic", max_results=self.max_results, timeout=self.timeout_seconds
                )
                return reply
            except (ForbiddenError, InvalidAPIKeyError, BadRequestError) as exc:
                # Plan limits (432/433) arrive as ForbiddenError; none of these gets better by retrying.
                notice = QUOTA_NOTICE if isinstance(exc, ForbiddenError) else UNAVAILABLE_NOTICE
                raise WebSearchUnavailable(notice) from exc
            except Exception as exc:  # 429, timeouts, 5xx, network: worth a second attempt
                if attempt == ATTEMPTS:
                    limited = isinstance(exc, UsageLimitExceededError)
                    raise WebSearchUnavailable(QUOTA_NOTICE if limited else UNAVAILABLE_NOTICE) from exc
                await asyncio.sleep(0.5 * attempt)
        raise AssertionError("unreachable: the last attempt returns or raises")


def web_query(query: str, context: UserContext) -> str:
    """The web query: ``query`` with the user's location and industry when it does not name them."""
    extra = [
        term for term in (context.location, context.industry) if term and term.lower() not in query.lower()
    ]
    return " ".join([query, *extra])[:MAX_QUERY_CHARS]


def web_search_from_settings(settings: Settings) -> WebSearch | None:
    """The configured web search, or None when no Tavily key (nor another endpoint) is set."""
    if settings.tavily_api_key is None:
        return None
    client = AsyncTavilyClient(
        api_key=settings.tavily_api_key.get_secret_value(), api_base_url=settings.tavily_base_url
    )
    return WebSearch(
        client,
        max_results=settings.web_search_max_results,
        timeout_seconds=settings.web_search_timeout_seconds,
    )


def _usable(item: object) -> bool:
    return isinstance(item, dict) and bool(item.get("url")) and bool(str(item.get("content") or "").strip())


def _result(item: dict[str, object]) -> WebResult:
    score = item.get("score")
    return WebResult(
        url=str(item["url"]),
        title=str(item.get("title") or item["url"]),
        content=str(item["content"]).strip(),
        score=float(score) if isinstance(score, int | float) else None,
    )

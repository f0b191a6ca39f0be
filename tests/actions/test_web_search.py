"""Web search against a Tavily-compatible server the test starts: results, retries, and notices."""

from collections.abc import AsyncIterator

import pytest

from actions.web_search import (
    MAX_QUERY_CHARS,
    QUOTA_NOTICE,
    UNAVAILABLE_NOTICE,
    WebSearch,
    WebSearchUnavailable,
    web_query,
    web_search_from_settings,
)
from policypal.config import Settings
from policypal.contracts import UserContext
from tests.support.tavily_server import ScriptedTavily, SearchReply

KEY = "tvly-test-0123456789"
BNM = {
    "url": "https://www.bnm.gov.my/aml",
    "title": "AML/CFT policy document",
    "content": "Reporting institutions must submit suspicious transaction reports promptly.",
    "score": 0.91,
}


@pytest.fixture
async def tavily() -> AsyncIterator[ScriptedTavily]:
    async with ScriptedTavily() as server:
        yield server


def _search(server: ScriptedTavily) -> WebSearch:
    settings = Settings(
        _env_file=None, tavily_api_key=KEY, tavily_base_url=server.base_url, web_search_max_results=3
    )
    search = web_search_from_settings(settings)
    assert search is not None
    return search


async def test_results_come_back_typed_and_the_request_is_a_basic_search(tavily: ScriptedTavily) -> None:
    tavily.enqueue(SearchReply([BNM, {"url": "https://x.example", "title": "empty", "content": "  "}]))
    results = await _search(tavily).search("latest AML reporting rules")

    assert [(r.url, r.title, r.score) for r in results] == [(BNM["url"], BNM["title"], 0.91)]
    [body] = tavily.requests
    assert (body["query"], body["search_depth"], body["max_results"]) == (
        "latest AML reporting rules",
        "basic",
        3,
    )
    assert tavily.authorizations == [f"Bearer {KEY}"]


async def test_a_rate_limit_is_retried_once(tavily: ScriptedTavily) -> None:
    tavily.enqueue(SearchReply.failure(429), SearchReply([BNM]))
    assert len(await _search(tavily).search("aml")) == 1
    assert len(tavily.requests) == 2


@pytest.mark.parametrize(
    ("failures", "notice", "requests"),
    [
        pytest.param([432], QUOTA_NOTICE, 1, id="plan-limit-not-retried"),
        pytest.param([429, 429], QUOTA_NOTICE, 2, id="rate-limited-twice"),
        pytest.param([500, 503], UNAVAILABLE_NOTICE, 2, id="server-errors"),
        pytest.param([401], UNAVAILABLE_NOTICE, 1, id="bad-key"),
    ],
)
async def test_failures_become_a_notice(
    tavily: ScriptedTavily, failures: list[int], notice: str, requests: int
) -> None:
    tavily.enqueue(*(SearchReply.failure(status) for status in failures))
    with pytest.raises(WebSearchUnavailable) as caught:
        await _search(tavily).search("aml")
    assert caught.value.notice == notice
    assert len(tavily.requests) == requests


def test_the_query_adds_the_users_place_and_industry_once_and_stays_short() -> None:
    context = UserContext(industry="Banking", location="Malaysia")
    assert web_query("AML reporting deadlines", context) == "AML reporting deadlines Malaysia Banking"
    assert web_query("Malaysia banking AML rules", context) == "Malaysia banking AML rules"
    assert len(web_query("word " * 100, context)) == MAX_QUERY_CHARS


def test_no_key_means_no_web_search() -> None:
    assert web_search_from_settings(Settings(_env_file=None)) is None

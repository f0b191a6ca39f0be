"""The web console in a real browser puts no credential in any URL: its streams open with tickets.

Same set-up as ``test_console_browser`` (Debian's Chromium, the whole system as `policypal up`).
"""

import re
from typing import TYPE_CHECKING

import pytest

from tests.e2e.console_page import (
    ANSWER_TIMEOUT_MS,
    BROWSER_MARKS,
    ask,
    later_onboarding,
    new_chat,
    sign_in,
    upload,
)
from tests.e2e.system import RunningSystem
from tests.e2e.test_console_browser import PAGES, QUESTION, system  # noqa: F401 - system is a fixture
from tests.pdf_factory import make_pdf

pytestmark = BROWSER_MARKS
if TYPE_CHECKING:
    from playwright import sync_api
else:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in requirements/dev.txt")


def test_streams_open_with_single_use_tickets_and_no_url_carries_the_token(
    page: "sync_api.Page",
    system: RunningSystem,  # noqa: F811 - the imported fixture
) -> None:
    expect = sync_api.expect
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    token = system.token("acme", "console-tickets")
    sign_in(page, system, token)
    expect(page.locator("#whoami")).to_contain_text("console-tickets")
    later_onboarding(page)

    status = upload(page, make_pdf(PAGES, title="Capital Rulebook"), "Capital Rulebook")
    expect(status).to_have_text(re.compile(r"^Ready · 3 pages"), timeout=ANSWER_TIMEOUT_MS)
    new_chat(page)
    ask(page, QUESTION)
    expect(page.get_by_test_id("answer").last).to_contain_text("8 percent", timeout=ANSWER_TIMEOUT_MS)

    assert not [url for url in urls if token in url]
    streams = [url for url in urls if re.search(r"/v1/(documents|conversations)/[^/]+/events\?", url)]
    assert {kind for url in streams for kind in re.findall(r"/v1/(documents|conversations)/", url)} == {
        "documents",
        "conversations",
    }
    tickets = [re.search(r"[?&]ticket=([^&]+)", url) for url in streams]
    assert all(tickets), streams
    # A new ticket for every stream opened.
    assert len({match.group(1) for match in tickets if match}) == len(streams)

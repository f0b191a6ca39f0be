"""The console as a workspace in a real browser against the real system: the three panels fixed to the
viewport at desktop and phone sizes, onboarding, one Idempotency-Key per message, a PalAssist question
answered with "Ask a reviewer" and the reviewer's answer arriving live, and axe-core's verdict.

Chromium and playwright as ``tests/e2e/console_page.py`` says; the whole system as `make up` starts it.
Screenshots go to /tmp/policypal-console-*.png, to look at by hand.
"""

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import httpx
import pytest

from gateway.web_console import CONSOLE_DIR
from policypal.auth import issue_token
from tests.e2e.console_page import (
    ANSWER_TIMEOUT_MS,
    BROWSER_MARKS,
    PHONE,
    WIDE,
    ask,
    card,
    enter,
    new_chat,
    pick_mention,
    serious_accessibility_violations,
    sign_in,
    tab,
    upload,
)
from tests.e2e.system import RunningSystem, policypal_up
from tests.pdf_factory import make_pdf

pytestmark = BROWSER_MARKS
if TYPE_CHECKING:
    from playwright import sync_api
else:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in requirements/dev.txt")

FACILITIES = b"""Facilities Guide

Staff travel must be booked through the travel desk and approved by a line manager.

The cafeteria opens at eight and serves breakfast until ten.

Office equipment is replaced every four years.

Customer files are archived in the basement store room after the account closes.
"""
#: Only weak matches in the Facilities Guide: @Inquire asks what to do (retrieval_low).
WEAK_QUESTION = "What is the retention period for customer data?"
REVIEWER_ANSWER = "Customer data is kept for six years after the account closes (Records Policy 4.2)."
RULES_2024 = [
    "Part One. Records.\nFirms shall keep records of every transaction for five years after it is made. "
    "The records shall be kept in a form that a supervisor can read without special tools.\n",
    "Part Two. Reports.\nFirms shall report every breach of these rules to the supervisor within 72 hours. "
    "A report shall name the rule breached and the steps taken to end the breach.\n",
]
RULES_2025 = [RULES_2024[0].replace("five years", "six years"), RULES_2024[1].replace("72 hours", "24 hours")]
#: The composer's box and the viewport, read in the page.
COMPOSER_IN_VIEW = """() => {
  const box = document.getElementById('composer-text').getBoundingClientRect();
  const page = document.scrollingElement;
  return { top: box.top, bottom: box.bottom, height: innerHeight,
           pageScrolls: page.scrollHeight > page.clientHeight + 1 };
}"""
SCROLLS_ALONE = """(selector) => {
  const node = document.querySelector(selector);
  return node.scrollHeight > node.clientHeight && getComputedStyle(node).overflowY === 'auto';
}"""


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSystem]:
    """The whole system, as `make up` starts it, once for this module."""
    with policypal_up(tmp_path_factory.mktemp("console-workspace") / "data") as running:
        yield running


def _api(system: RunningSystem, token: str) -> httpx.Client:
    return httpx.Client(base_url=system.api_url, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def _composer_in_view(page: "sync_api.Page") -> None:
    seen = page.evaluate(COMPOSER_IN_VIEW)
    assert 0 <= seen["top"] < seen["bottom"] <= seen["height"], seen
    assert not seen["pageScrolls"], seen  # the page itself never scrolls: its panels do


def test_sixty_conversations_leave_the_composer_in_view_on_desktop_and_phone(
    page: "sync_api.Page", system: RunningSystem
) -> None:
    expect = sync_api.expect
    token = system.token("acme", "busy-dana")
    with _api(system, token) as api:
        for n in range(60):
            assert api.post("/v1/conversations", json={"title": f"Review {n + 1}"}).status_code == 201
    sign_in(page, system, token)
    page.get_by_role("dialog").get_by_role("button", name="Later").click()
    expect(page.locator("#conversation-list .conversation")).to_have_count(60)
    expect(page.locator("#composer-text")).to_be_enabled()  # the newest conversation is open
    _composer_in_view(page)
    assert page.evaluate(SCROLLS_ALONE, "#chats-panel")  # the list scrolls within its panel
    page.locator("#conversation-list .conversation").nth(59).click()
    expect(page.locator("#chat-title")).to_have_text("Review 1")
    _composer_in_view(page)
    page.screenshot(path="/tmp/policypal-console-workspace.png")

    # A phone: the chat fills the screen; the library is a drawer that a choice closes.
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    library = page.get_by_role("navigation", name="Library")
    expect(library).to_be_hidden()
    _composer_in_view(page)
    page.screenshot(path="/tmp/policypal-console-phone.png")
    page.get_by_role("button", name="Open the library").click()
    expect(library).to_be_visible()
    expect(page.get_by_role("tab", name="Chats")).to_be_focused()
    page.screenshot(path="/tmp/policypal-console-phone-library.png")
    library.locator(".conversation", has_text="Review 60").click()
    expect(library).to_be_hidden()
    expect(page.locator("#chat-title")).to_have_text("Review 60")
    _composer_in_view(page)
    page.set_viewport_size(WIDE)  # type: ignore[arg-type]


def test_onboarding_stores_the_company_profile_and_it_can_be_edited_later(
    page: "sync_api.Page", system: RunningSystem
) -> None:
    expect = sync_api.expect
    token = system.token("acme", "new-erin")
    sign_in(page, system, token)
    welcome = page.get_by_role("dialog", name=re.compile("^Welcome to PolicyPal"))
    expect(welcome.get_by_label("Company name")).to_be_focused()
    welcome.get_by_label("Company name").fill("Acme Bank Berhad")
    welcome.get_by_label("Country").fill("Malaysia")
    welcome.get_by_label("Industry").fill("Banking")
    welcome.get_by_label("Description").fill("A retail bank with 40 branches.")
    welcome.get_by_role("button", name="Save").click()
    expect(welcome).to_be_hidden()
    expect(page.locator("#company")).to_have_text("Acme Bank Berhad · Banking · Malaysia")

    page.reload()  # a completed profile is not asked for again
    expect(page.locator("#company")).to_have_text("Acme Bank Berhad · Banking · Malaysia")
    expect(page.get_by_role("dialog")).to_have_count(0)
    page.get_by_role("button", name="Profile").click()
    editor = page.get_by_role("dialog", name="Your company")
    expect(editor.get_by_label("Industry")).to_have_value("Banking")
    editor.get_by_label("Industry").fill("Islamic banking")
    editor.get_by_role("button", name="Save").click()
    expect(page.locator("#company")).to_have_text("Acme Bank Berhad · Islamic banking · Malaysia")
    with _api(system, token) as api:
        stored = api.get("/v1/profile").json()
    assert (stored["industry"], stored["description"]) == (
        "Islamic banking",
        "A retail bank with 40 branches.",
    )


def test_a_retry_after_a_lost_response_reuses_the_key_and_posts_once(
    page: "sync_api.Page", system: RunningSystem
) -> None:
    expect = sync_api.expect
    token = enter(page, system, "retry-fay")
    keys: list[str] = []
    page.on(
        "request",
        lambda request: (
            keys.append(request.headers.get("idempotency-key", ""))
            if request.method == "POST" and request.url.endswith("/messages")
            else None
        ),
    )
    dropped: list[str] = []

    def lose_the_first_response(route: "sync_api.Route") -> None:
        if dropped:
            route.continue_()
            return
        route.fetch()  # the server accepts the message ...
        dropped.append(route.request.url)
        route.abort("connectionreset")  # ... and its answer never reaches the browser

    page.route("**/v1/conversations/*/messages", lose_the_first_response)
    new_chat(page)
    ask(page, "Hello, what can you do?")
    expect(page.locator("#composer-error")).to_contain_text("it will not be sent twice")
    expect(page.locator("#composer-text")).to_have_value("Hello, what can you do?")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#composer-text")).to_be_enabled(timeout=ANSWER_TIMEOUT_MS)
    expect(page.locator(".message.user")).to_have_count(1)
    assert len(keys) == 2, keys
    assert keys[0] == keys[1] != "", keys

    ask(page, "What about record keeping?")  # a new message: a new key
    expect(page.locator(".message.user")).to_have_count(2)
    expect(page.locator("#composer-text")).to_be_enabled(timeout=ANSWER_TIMEOUT_MS)
    assert len(keys) == 3, keys
    assert keys[2] != keys[0], keys
    conversation = page.locator(".conversation.current").get_attribute("data-conversation-id")
    with _api(system, token) as api:
        stored = api.get(f"/v1/conversations/{conversation}").json()["messages"]
    assert [m["content"] for m in stored if m["role"] == "user"] == [
        "Hello, what can you do?",
        "What about record keeping?",
    ]


def test_ask_a_reviewer_then_the_answer_arrives_live_and_after_a_reload(
    page: "sync_api.Page", system: RunningSystem
) -> None:
    expect = sync_api.expect
    enter(page, system, "asker-gus", tenant="reviewed")
    status = upload(
        page,
        FACILITIES,
        "Facilities Guide",
        version="1",
        doc_type="policy",
        filename="facilities.txt",
        mime="text/plain",
    )
    expect(status).to_contain_text("Ready", timeout=ANSWER_TIMEOUT_MS)
    admin = issue_token(system.settings, "reviewed", "boss", role="admin")

    def resolve_the_open_ticket(answer: str) -> None:
        with _api(system, admin) as api:
            [ticket] = api.get("/v1/admin/escalations", params={"status": "pending_human"}).json()[
                "escalations"
            ]
            assert ticket["question"] == WEAK_QUESTION
            resolved = api.post(
                f"/v1/admin/escalations/{ticket['escalation_id']}/resolve", json={"answer": answer}
            )
            assert resolved.status_code == 200, resolved.text

    new_chat(page)
    ask(page, WEAK_QUESTION)
    question = page.get_by_role("region", name="PalAssist").get_by_test_id("interrupt")
    expect(question).to_contain_text("couldn't find strong matches", timeout=ANSWER_TIMEOUT_MS)
    question.get_by_role("button", name="Ask a reviewer").click()
    expect(page.locator(".message.escalation")).to_contain_text("Ticket esc-", timeout=ANSWER_TIMEOUT_MS)
    resolve_the_open_ticket(REVIEWER_ANSWER)
    live = page.get_by_test_id("answer").filter(has_text=REVIEWER_ANSWER)
    expect(live).to_be_visible(timeout=ANSWER_TIMEOUT_MS)  # no reload
    expect(live.locator(".badge.reviewer")).to_have_text("Answered by a reviewer")
    expect(live).to_be_focused()

    # The same again, with the page reloaded while the ticket waits: the history says it waits.
    ask(page, WEAK_QUESTION)
    expect(question).to_contain_text("couldn't find strong matches", timeout=ANSWER_TIMEOUT_MS)
    question.get_by_role("button", name="Ask a reviewer").click()
    expect(page.locator(".message.escalation")).to_have_count(2, timeout=ANSWER_TIMEOUT_MS)
    page.reload()
    expect(page.locator(".message.escalation")).to_have_count(2)
    resolve_the_open_ticket("Six years, as the Records Policy says.")
    expect(
        page.get_by_test_id("answer").filter(has_text="Six years, as the Records Policy says.")
    ).to_be_visible(timeout=ANSWER_TIMEOUT_MS)
    expect(page.get_by_test_id("answer").filter(has_text=REVIEWER_ANSWER)).to_have_count(1)  # shown once
    page.screenshot(path="/tmp/policypal-console-reviewer.png")


def test_the_inbox_tab_is_for_administrators_and_only_with_its_module(
    page: "sync_api.Page", system: RunningSystem
) -> None:
    expect = sync_api.expect
    enter(page, system, "plain-hal")
    expect(page.get_by_role("tab", name="Inbox")).to_be_hidden()
    page.get_by_role("button", name="Sign out").click()
    sign_in(page, system, issue_token(system.settings, "acme", "admin-ida", role="admin"))
    page.get_by_role("dialog").get_by_role("button", name="Later").click()
    inbox = page.get_by_role("tab", name="Inbox")
    if not (CONSOLE_DIR / "inbox.js").exists():
        expect(page.get_by_role("tab", name="Documents")).to_be_visible()
        expect(inbox).to_be_hidden()
        return
    expect(inbox).to_be_visible()
    inbox.click()
    expect(page.get_by_role("tabpanel", name="Inbox")).to_be_visible()

    # A reviewer has no library of their own: their console is the Inbox.
    page.get_by_role("button", name="Sign out").click()
    sign_in(page, system, issue_token(system.settings, "acme", "reviewer-kim", role="reviewer"))
    expect(page.get_by_role("tab", name="Inbox")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tabpanel", name="Inbox")).to_be_visible()
    expect(page.get_by_role("tab", name="Chats")).to_be_hidden()
    expect(page.get_by_role("dialog")).to_have_count(0)  # no onboarding either


def test_no_serious_accessibility_violations_on_desktop_and_phone(
    page: "sync_api.Page", system: RunningSystem
) -> None:
    expect = sync_api.expect
    enter(page, system, "axe-jo")
    status = upload(page, make_pdf(RULES_2024), "Records Rulebook", set_name="Records")
    expect(status).to_contain_text("Ready", timeout=ANSWER_TIMEOUT_MS)
    new_chat(page)
    ask(page, "How long must firms keep records of transactions?")
    answer = page.get_by_test_id("answer").last
    expect(answer).to_contain_text("five years", timeout=ANSWER_TIMEOUT_MS)
    answer.locator("button.marker").first.click()
    expect(page.locator(".source-card.selected")).to_be_visible()
    assert serious_accessibility_violations(page) == []

    # A redline of two versions reads as one: removed words struck, added words marked.
    tab(page, "Documents")
    page.get_by_role("button", name="New version of Records Rulebook (2024)").click()
    dialog = page.get_by_role("dialog", name="New version of Records Rulebook (2024)")
    dialog.get_by_label("File").set_input_files(
        {"name": "records-2025.pdf", "mimeType": "application/pdf", "buffer": make_pdf(RULES_2025)}
    )
    dialog.get_by_label("Version", exact=True).fill("2025")
    dialog.get_by_role("button", name="Upload", exact=True).click()
    expect(card(page, "Records Rulebook (2025)")).to_contain_text("Ready", timeout=ANSWER_TIMEOUT_MS)
    assert serious_accessibility_violations(page) == []
    new_chat(page)
    pick_mention(page, "@comp", "compare")
    pick_mention(page, "@Records Rul", "Records Rulebook (2024)")
    pick_mention(page, "@Records Rul", "Records Rulebook (2025)")
    page.locator("#composer-text").press("Enter")
    redline = page.get_by_test_id("answer").last
    expect(redline.locator(".message-role")).to_have_text("PolicyPal · @compare", timeout=ANSWER_TIMEOUT_MS)
    expect(redline.locator(".wording-before del").first).to_be_visible()
    expect(redline.locator(".wording-before del")).to_contain_text(["five"])
    expect(redline.locator(".wording-after strong")).to_contain_text(["six"])
    expect(redline.locator("h4").first).to_have_text(
        re.compile(r"Records Rulebook\W* \(2024\) → \W*Records Rulebook\W* \(2025\)")
    )
    page.screenshot(path="/tmp/policypal-console-redline.png")
    assert serious_accessibility_violations(page) == []
    tab(page, "Documents")
    page.screenshot(path="/tmp/policypal-console-documents.png")
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    expect(page.get_by_role("complementary", name="Sources")).to_be_hidden()  # drawers close on a resize
    assert serious_accessibility_violations(page) == []
    answer.locator("button.marker").first.click()  # the sources as a drawer over the chat
    expect(page.locator(".source-card.selected")).to_be_visible()
    assert serious_accessibility_violations(page) == []
    page.screenshot(path="/tmp/policypal-console-phone-sources.png")
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Open the library").click()
    page.get_by_role("button", name="Profile").click()
    expect(page.get_by_role("dialog", name="Your company")).to_be_visible()
    assert serious_accessibility_violations(page) == []
    # The check does see a violation: a field with no label is one.
    page.evaluate("document.getElementById('profile-form').append(document.createElement('input'))")
    assert "label" in {v["id"] for v in serious_accessibility_violations(page)}

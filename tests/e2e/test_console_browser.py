"""The web console in a real browser against the real system (`policypal up`): sign in, upload, ask.

Needs Debian's Chromium at /usr/bin/chromium (``scripts/ensure-chromium.sh`` installs it; `make test`
runs that first) and the ``playwright`` package, which drives it without downloading a browser.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.system import RunningSystem, policypal_up
from tests.pdf_factory import drawing_only_pdf, make_pdf

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Chromium is not installed: run scripts/ensure-chromium.sh as root"
    ),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in requirements/dev.txt")

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Where the screenshot of a cited answer goes (outside the repository), to look at by hand.
SCREENSHOT = Path("/tmp/policypal-console-chat.png")
AUDIT_SCREENSHOT = Path("/tmp/policypal-console-audit.png")
FILLER = (
    "This section sets out general provisions on governance, reporting lines and the duties of the board. "
    "Institutions shall keep records of their decisions and make them available to supervisors on request. "
)
PAGES = [
    "Part One. Scope and definitions.\n" + FILLER * 6,
    "Part Two. Capital requirements.\n"
    + FILLER * 2
    + "\nInstitutions shall at all times maintain a total capital ratio of at least 8 percent of their "
    "risk-weighted exposure amounts.\n" + FILLER * 2,
    "Part Three. Liquidity.\n"
    "Institutions shall hold liquid assets that cover their net outflows over a thirty day stress period.\n"
    + FILLER
    * 4,
]
QUESTION = "What total capital ratio must institutions maintain?"
ANSWER_TIMEOUT_MS = 120_000
#: Records every text the document's status line shows, to see the live progress afterwards.
WATCH_STATUSES = """() => {
  window.statusesSeen = [];
  new MutationObserver(() => {
    for (const node of document.querySelectorAll('[data-testid="doc-status"]')) {
      if (window.statusesSeen.at(-1) !== node.textContent) window.statusesSeen.push(node.textContent);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSystem]:
    """The whole system, as `make up` starts it."""
    with policypal_up(tmp_path_factory.mktemp("console") / "data") as running:
        yield running


@pytest.fixture
def page(system: RunningSystem) -> Iterator["sync_api.Page"]:
    """A fresh browser tab; fails the test on any page error or console error (e.g. a CSP violation)."""
    problems: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": 1440, "height": 900})
        tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        tab.on("console", lambda msg: problems.append(msg.text) if _unexpected(msg) else None)
        try:
            yield tab
        finally:
            browser.close()
    assert problems == []


def _unexpected(message: "sync_api.ConsoleMessage") -> bool:
    # The browser logs every refused request; a 401 is what the sign-in tests provoke on purpose.
    return message.type == "error" and "status of 401" not in message.text


def sign_in(page: "sync_api.Page", system: RunningSystem, token: str) -> None:
    page.goto(system.api_url + "/")
    assert page.url == system.api_url + "/console/"
    page.get_by_label("Access token").fill(token)
    page.get_by_role("button", name="Sign in").click()


def pick_mention(page: "sync_api.Page", typed: str, label: str) -> None:
    """Type ``@prefix`` in the message box and choose ``label`` from the suggestions by keyboard."""
    box = page.locator("#composer-text")
    box.press_sequentially(typed)
    option = page.get_by_role("option").filter(has_text=label).first
    sync_api.expect(option).to_be_visible()
    while option.get_attribute("aria-selected") != "true":
        box.press("ArrowDown")
    box.press("Enter")


def upload(page: "sync_api.Page", pdf: bytes, title: str) -> "sync_api.Locator":
    """Upload ``pdf`` through the form; the document's status line."""
    page.get_by_label("File", exact=True).set_input_files(
        {"name": f"{title}.pdf", "mimeType": "application/pdf", "buffer": pdf}
    )
    page.get_by_label("Title", exact=True).fill(title)
    page.get_by_label("Version", exact=True).fill("2024")
    page.get_by_role("button", name="Upload").click()
    return page.locator("li.document").filter(has_text=title).get_by_test_id("doc-status")


def test_sign_in_upload_ask_and_read_a_cited_answer(page: "sync_api.Page", system: RunningSystem) -> None:
    expect = sync_api.expect
    sign_in(page, system, system.token("acme", "console-alice"))
    expect(page.locator("#whoami")).to_contain_text("console-alice")

    page.evaluate(WATCH_STATUSES)
    pdf = make_pdf(PAGES, title="Prudential Rulebook")
    page.get_by_label("File", exact=True).set_input_files(
        {"name": "rulebook.pdf", "mimeType": "application/pdf", "buffer": pdf}
    )
    page.get_by_label("Title", exact=True).fill("Prudential Rulebook")
    page.get_by_label("Version", exact=True).fill("2024")
    page.get_by_label("Type", exact=True).select_option("regulatory")
    page.locator("#upload-set").fill("Banking")
    page.get_by_role("button", name="Upload").click()
    document = page.locator("li.document").filter(has_text="Prudential Rulebook")
    expect(document.get_by_test_id("doc-status")).to_have_text(
        re.compile(r"^Ready · 3 pages · \d+ chunks$"), timeout=ANSWER_TIMEOUT_MS
    )
    expect(page.locator(".document-group h3")).to_have_text(["Banking"])
    seen = page.evaluate("window.statusesSeen")
    assert any(re.search(r"\d+/\d+…$", text) for text in seen), seen  # stages with n/N were shown

    page.get_by_role("button", name="New").click()
    expect(page.locator("#composer-text")).to_be_focused()
    pick_mention(page, "@inq", "inquire")
    pick_mention(page, "@Pru", "Prudential Rulebook")
    page.locator("#composer-text").press_sequentially(QUESTION)
    page.locator("#composer-text").press("Enter")

    answer = page.get_by_test_id("answer").last
    expect(answer).to_contain_text("8 percent", timeout=ANSWER_TIMEOUT_MS)
    expect(answer).to_be_focused()
    # The quote that answers is cited with its title, version and page.
    cited = answer.locator(".citation").filter(has_text="8 percent").first
    expect(cited).to_contain_text(re.compile(r"Prudential Rulebook · version 2024 · page 2"))
    expect(answer.locator(".answer-meta")).to_contain_text("Model offline-extractive")
    marker = cited.get_attribute("data-marker")
    answer.locator("a.marker", has_text=f"[{marker}]").first.click()
    expect(cited).to_have_css("background-color", "rgb(254, 249, 195)")  # the linked source, :target
    page.screenshot(path=str(SCREENSHOT), full_page=True)

    # The conversation list shows the exchange; a reload keeps the session and the cited history.
    expect(page.locator(".conversation.current .conversation-preview")).to_contain_text("Prudential Rulebook")
    page.reload()
    stored = page.get_by_test_id("answer").last
    expect(stored).to_contain_text("8 percent")
    expect(stored.locator(".citation").filter(has_text="page 2").first).to_be_visible()

    page.get_by_role("button", name="Sign out").click()
    expect(page.locator("#sign-in-error")).to_have_text("You are signed out.")
    expect(page.get_by_label("Access token")).to_be_focused()


def test_a_refused_or_expired_token_says_so(page: "sync_api.Page", system: RunningSystem) -> None:
    expect = sync_api.expect
    sign_in(page, system, system.token("acme", "console-bob") + "tampered")
    expect(page.locator("#sign-in-error")).to_have_text("The access token is not valid; sign in again.")
    sign_in(page, system, system.token("acme", "console-bob", ttl_seconds=-60))
    expect(page.locator("#sign-in-error")).to_contain_text("has expired")

    # A token that runs out while the console is open: the next call says so and signs out.
    sign_in(page, system, system.token("acme", "console-bob", ttl_seconds=3))
    expect(page.locator("#whoami")).to_contain_text("console-bob")
    page.wait_for_timeout(4_500)
    page.get_by_role("button", name="New").click()
    expect(page.locator("#sign-in-error")).to_have_text("The access token has expired; sign in again.")
    expect(page.locator("#console-view")).to_be_hidden()


def test_a_palassist_question_rename_delete_and_a_failed_upload(
    page: "sync_api.Page", system: RunningSystem
) -> None:
    expect = sync_api.expect
    sign_in(page, system, system.token("acme", "console-carol"))
    failed = upload(page, drawing_only_pdf(), "Scanned Policy")
    expect(failed).to_have_text(re.compile(r"^Failed: \S.+"), timeout=ANSWER_TIMEOUT_MS)
    expect(upload(page, make_pdf(PAGES), "Capital Rulebook")).to_contain_text(
        "Ready", timeout=ANSWER_TIMEOUT_MS
    )

    page.get_by_role("button", name="New").click()
    box = page.locator("#composer-text")
    expect(box).to_be_focused()
    box.press_sequentially("Summarize and audit ")
    pick_mention(page, "@Cap", "Capital Rulebook")
    box.press("Enter")
    # Two actions at once: PalAssist asks which (action_choice, buttons) ...
    choice = page.get_by_test_id("interrupt").first
    expect(choice).to_contain_text("one action at a time", timeout=ANSWER_TIMEOUT_MS)
    expect(choice).to_be_focused()
    expect(box).to_be_disabled()
    choice.get_by_role("button", name="Audit").click()
    # ... then, with no text to audit, asks for it (text_input); the typed text is audited.
    question = page.get_by_test_id("interrupt").nth(1)
    expect(question).to_contain_text("text you would like to audit", timeout=ANSWER_TIMEOUT_MS)
    expect(choice).to_contain_text("Answered: Audit")
    question.get_by_label("Your answer").fill(
        "Institutions must keep a total capital ratio of at least 6 percent at all times."
    )
    question.get_by_role("button", name="Send answer").click()
    answer = page.get_by_test_id("answer").last
    expect(answer.locator(".message-role")).to_have_text("PolicyPal · @audit", timeout=ANSWER_TIMEOUT_MS)
    audit = answer.get_by_role("region", name="Audit findings")
    expect(audit.locator("h5")).to_have_text(["Capital Rulebook"])  # grouped by target
    expect(audit.locator(".severity h6").first).to_have_text(
        re.compile(r"^(Critical|High|Medium|Low) \(\d+\)$")
    )
    expect(question).to_contain_text("Answered: Institutions must keep")
    expect(page.locator(".message.user").last).to_have_text(
        re.compile("Summarize and audit @Capital Rulebook$")
    )
    finding_link = audit.locator(".finding a.marker").first
    finding_link.click()
    expect(answer.locator(".citation:target")).to_contain_text("Capital Rulebook · version 2024 · page 2")
    page.screenshot(path=str(AUDIT_SCREENSHOT), full_page=True)

    # Cancelling a question ends its request with a notice, and the message box is usable again.
    box.press_sequentially("Summarize and audit it")
    box.press("Enter")
    again = page.get_by_test_id("interrupt").nth(2)
    expect(again).to_contain_text("one action at a time", timeout=ANSWER_TIMEOUT_MS)
    again.get_by_role("button", name="Cancel").click()
    expect(page.locator(".message.system").last).to_be_focused(timeout=ANSWER_TIMEOUT_MS)
    expect(box).to_be_enabled()

    page.once("dialog", lambda dialog: dialog.accept("Capital review"))
    page.get_by_role("button", name="Rename").click()
    expect(page.locator("#chat-title")).to_have_text("Capital review")
    expect(page.locator(".conversation.current .conversation-title")).to_have_text("Capital review")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete", exact=True).click()
    expect(page.locator("#conversation-list")).to_have_text("No conversations yet: start one with New.")

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete Scanned Policy version 2024").click()
    expect(page.locator("li.document")).to_have_count(1)

"""The web console in a real browser against the real system (`policypal up`): sign in, upload, ask.

Needs Debian's Chromium at /usr/bin/chromium (``scripts/ensure-chromium.sh`` installs it; `make test`
runs that first) and the ``playwright`` package, which drives it without downloading a browser.
"""

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.e2e.system import RunningSystem, policypal_up, scripted_llm_in_background
from tests.pdf_factory import drawing_only_pdf, make_pdf
from tests.support.openai_server import RecordedRequest, Reply

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Chromium is not installed: run scripts/ensure-chromium.sh as root"
    ),
]
if TYPE_CHECKING:
    from playwright import sync_api
else:
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
STREAMING_SCREENSHOT = Path("/tmp/policypal-console-streaming.png")
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
def page() -> Iterator["sync_api.Page"]:
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

    # Rename and delete ask in the page's own dialog: labelled, Escape closes it, the focus comes back.
    title, rename = page.locator("#chat-title").inner_text(), page.get_by_role("button", name="Rename")
    rename.click()
    dialog = page.get_by_role("dialog", name="Rename the conversation")
    new_title = dialog.get_by_label("New title")
    expect(new_title).to_be_focused()
    new_title.fill("Not this one")
    new_title.press("Escape")
    expect(dialog).to_be_hidden()
    expect(rename).to_be_focused()
    expect(page.locator("#chat-title")).to_have_text(title)
    rename.click()
    expect(new_title).to_have_value(title)  # starts from the current title
    new_title.fill("Capital review")
    new_title.press("Enter")
    expect(page.locator("#chat-title")).to_have_text("Capital review")
    expect(page.locator(".conversation.current .conversation-title")).to_have_text("Capital review")
    expect(rename).to_be_focused()
    delete = page.get_by_role("button", name="Delete", exact=True)
    delete.click()
    confirm = page.get_by_role("dialog", name="Delete the conversation?")
    expect(confirm).to_contain_text("“Capital review” and all its messages will be deleted.")
    expect(confirm.get_by_role("button", name="Cancel")).to_be_focused()  # never destructive by default
    confirm.get_by_role("button", name="Cancel").click()
    expect(delete).to_be_focused()
    delete.click()
    confirm.get_by_role("button", name="Delete conversation").click()
    expect(page.locator("#conversation-list")).to_have_text("No conversations yet: start one with New.")
    expect(page.get_by_role("button", name="New")).to_be_focused()

    page.get_by_role("button", name="Delete Scanned Policy version 2024").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete document").click()
    expect(page.locator("li.document")).to_have_count(1)


# The console with a language model: the scripted OpenAI-compatible server streams a cited answer
# slowly (a pause before each word), so the browser can be watched while the answer is written.
STREAMED_ANSWER = (
    "Institutions must maintain a total capital ratio of at least 8 percent of their risk-weighted "
    "exposure amounts [1]. The ratio applies at all times, not only at the end of a reporting period [1]."
)
LIQUIDITY_QUESTION = "Which liquid assets must institutions hold?"
LIQUIDITY_ANSWER = (
    "Institutions must hold liquid assets that cover their net outflows over a thirty day stress period "
    "[1]. The buffer is sized on the outflows of that period and is kept in assets that stay liquid "
    "under stress, so that the institution can meet its obligations without outside help [1]."
)
#: Records every text of the answer being streamed, on every page load (set before the page's scripts).
WATCH_STREAMED_ANSWER = """window.answerStates = [];
new MutationObserver(() => {
  const text = document.querySelector(".message.streaming .answer-text")?.textContent;
  if (text && window.answerStates.at(-1) !== text) window.answerStates.push(text);
}).observe(document, { subtree: true, childList: true, characterData: true });"""


def scripted_reply(request: RecordedRequest) -> Reply | None:
    """The query rewrite and the streamed draft of the question asked; anything else is refused (400)."""
    prompt = json.dumps(request.messages)
    liquidity = LIQUIDITY_QUESTION in prompt
    if request.body.get("stream"):
        answer, delay = (LIQUIDITY_ANSWER, 0.3) if liquidity else (STREAMED_ANSWER, 0.2)
        return Reply(content=answer, chunk_delay_seconds=delay)
    schema = (request.body.get("response_format") or {}).get("json_schema") or {}
    if schema.get("name") == "QueryRewrite":
        topic = "liquid assets covering net outflows" if liquidity else "minimum total capital ratio"
        return Reply.json({"optimized_query": f"{topic} institutions must meet in the Prudential Rulebook"})
    return None


@pytest.fixture(scope="module")
def llm_system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSystem]:
    """The whole system with the scripted server as its language model."""
    with scripted_llm_in_background(scripted_reply) as llm:
        data = tmp_path_factory.mktemp("console-llm") / "data"
        with policypal_up(data, extra_env={"OPENAI_BASE_URL": llm.base_url}) as running:
            yield running


def ask_the_rulebook(page: "sync_api.Page", system: RunningSystem, user: str, question: str) -> None:
    """Sign in as ``user``, upload the rulebook, and ask ``question`` about it with @inquire."""
    page.add_init_script(WATCH_STREAMED_ANSWER)
    sign_in(page, system, system.token("acme", user))
    ready = upload(page, make_pdf(PAGES, title="Prudential Rulebook"), "Prudential Rulebook")
    sync_api.expect(ready).to_contain_text("Ready", timeout=ANSWER_TIMEOUT_MS)
    page.get_by_role("button", name="New").click()
    sync_api.expect(page.locator("#composer-text")).to_be_focused()  # the conversation is open
    pick_mention(page, "@inq", "inquire")
    pick_mention(page, "@Pru", "Prudential Rulebook")
    page.locator("#composer-text").press_sequentially(question)
    page.locator("#composer-text").press("Enter")


def test_a_streamed_answer_grows_token_by_token_then_shows_its_sources_model_and_cost(
    page: "sync_api.Page", llm_system: RunningSystem
) -> None:
    expect = sync_api.expect
    ask_the_rulebook(page, llm_system, "stream-dave", QUESTION)
    streaming = page.locator(".message.streaming .answer-text")
    expect(streaming).to_contain_text("total capital ratio", timeout=ANSWER_TIMEOUT_MS)
    expect(page.locator(".message.streaming")).to_have_attribute("aria-busy", "true")
    page.screenshot(path=str(STREAMING_SCREENSHOT), full_page=True)

    answer = page.get_by_test_id("answer").last
    expect(answer).to_contain_text("not only at the end of a reporting period", timeout=ANSWER_TIMEOUT_MS)
    states: list[str] = page.evaluate("window.answerStates")
    partial = [text for text in states if len(text) < len(STREAMED_ANSWER)]
    assert len(partial) >= 2, states
    assert all(STREAMED_ANSWER.startswith(text) for text in states), states
    assert [len(text) for text in states] == sorted({len(text) for text in states})  # only ever grew

    expect(page.locator(".message.assistant")).to_have_count(1)  # the streamed one became the answer
    expect(answer).to_be_focused()
    source = answer.get_by_role("region", name="Sources").locator(".citation").first
    expect(source).to_contain_text("[1] Prudential Rulebook · version 2024 · page")
    expect(answer.locator("a.marker", has_text="[1]").first).to_have_attribute("href", re.compile(r"^#cite-"))
    expect(answer.locator(".answer-meta")).to_have_text(
        re.compile(r"^Model gpt-4o-mini · \d+ \+ \d+ tokens · \$0\.\d{5}$")
    )
    expect(page.locator("#composer-text")).to_be_enabled()


def test_a_reload_mid_answer_picks_the_answer_up_without_sending_again(
    page: "sync_api.Page", llm_system: RunningSystem
) -> None:
    expect = sync_api.expect
    ask_the_rulebook(page, llm_system, "stream-erin", LIQUIDITY_QUESTION)
    streaming = page.locator(".message.streaming .answer-text")
    expect(streaming).to_contain_text("net outflows", timeout=ANSWER_TIMEOUT_MS)
    before_reload = streaming.inner_text()
    assert LIQUIDITY_ANSWER.startswith(before_reload)
    assert len(before_reload) < len(LIQUIDITY_ANSWER)

    page.reload()
    # The history ends with the question: the console follows its request again and the rest arrives.
    answer = page.get_by_test_id("answer")
    expect(answer).to_contain_text("without outside help", timeout=ANSWER_TIMEOUT_MS)
    resumed: list[str] = page.evaluate("window.answerStates")
    assert any(len(text) < len(LIQUIDITY_ANSWER) for text in resumed), resumed  # still streaming then
    expect(page.locator(".message.assistant")).to_have_count(1)
    expect(page.locator(".message.user")).to_have_text([re.compile(re.escape(LIQUIDITY_QUESTION) + "$")])
    expect(answer.locator(".citation").first).to_contain_text("Prudential Rulebook · version 2024")
    expect(page.locator("#composer-text")).to_be_enabled()

    # Stored once: a reload shows the same two turns, and nothing is followed any more.
    page.reload()
    expect(page.get_by_test_id("answer")).to_contain_text("without outside help")
    expect(page.locator(".message")).to_have_count(2)
    expect(page.locator("#chat-status")).to_have_text("")

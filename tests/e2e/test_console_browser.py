"""The web console in a real browser against the real system (`policypal up`): sign in, upload, ask.

Chromium and playwright as ``tests/e2e/console_page.py`` says; the whole system as `make up` starts it.
"""

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.e2e.console_page import (
    ANSWER_TIMEOUT_MS,
    BROWSER_MARKS,
    ask,
    card,
    enter,
    new_chat,
    pick_mention,
    sign_in,
    tab,
    upload,
)
from tests.e2e.system import RunningSystem, policypal_up, scripted_llm_in_background
from tests.pdf_factory import drawing_only_pdf, make_pdf
from tests.support.openai_server import RecordedRequest, Reply

pytestmark = BROWSER_MARKS
if TYPE_CHECKING:
    from playwright import sync_api
else:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in requirements/dev.txt")

#: Screenshots (outside the repository), to look at by hand.
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


def test_sign_in_upload_ask_and_read_a_cited_answer(page: "sync_api.Page", system: RunningSystem) -> None:
    expect = sync_api.expect
    enter(page, system, "console-alice")

    page.evaluate(WATCH_STATUSES)
    status = upload(
        page, make_pdf(PAGES, title="Prudential Rulebook"), "Prudential Rulebook", set_name="Banking"
    )
    expect(status).to_have_text(re.compile(r"^Ready · 3 pages · \d+ chunks$"), timeout=ANSWER_TIMEOUT_MS)
    expect(page.locator(".document-group h3")).to_have_text(["Banking"])
    rulebook = card(page, "Prudential Rulebook (2024)")
    expect(rulebook).to_contain_text("Regulatory")
    expect(rulebook).to_have_css("border-left-color", "rgb(183, 121, 31)")  # the regulatory gold
    seen = page.evaluate("window.statusesSeen")
    assert any(re.search(r"\d+/\d+…$", text) for text in seen), seen  # stages with n/N were shown

    new_chat(page)
    pick_mention(page, "@inq", "inquire")
    pick_mention(page, "@Pru", "Prudential Rulebook")
    ask(page, QUESTION)

    answer = page.get_by_test_id("answer").last
    expect(answer).to_contain_text("8 percent", timeout=ANSWER_TIMEOUT_MS)
    expect(answer).to_be_focused()
    # PalReasoning: the steps taken, the document found as a pill.
    reasoning = answer.get_by_test_id("reasoning")
    expect(reasoning.locator("summary")).to_have_text(re.compile(r"^PalReasoning · \d+ steps$"))
    expect(reasoning.locator(".pill")).to_have_text(["Prudential Rulebook (2024)"])
    expect(answer.locator(".answer-meta")).to_contain_text("Model offline-extractive")

    # The marker after the sentence that answers opens the Sources panel on that very passage.
    sources = page.get_by_role("complementary", name="Sources")
    expect(sources).to_be_hidden()
    marker = (
        answer.locator(".answer-text p").filter(has_text="8 percent").first.locator("button.marker").first
    )
    number = marker.get_attribute("data-marker")
    marker.click()
    expect(sources).to_be_visible()
    selected = sources.locator(".source-card.selected")
    expect(selected).to_have_attribute("data-marker", str(number))
    expect(selected).to_be_focused()
    expect(selected.locator(".excerpt")).to_contain_text("8 percent")
    expect(selected.locator(".source-where")).to_have_text(
        re.compile(r"DocumentPrudential RulebookVersion2024Page2")
    )
    page.screenshot(path=str(SCREENSHOT))

    # The Chats tab shows the exchange; a reload keeps the session and the cited history.
    expect(page.locator(".conversation.current .conversation-preview")).to_contain_text("Prudential Rulebook")
    page.reload()
    stored = page.get_by_test_id("answer").last
    expect(stored).to_contain_text("8 percent")
    stored.locator(".source-chip").filter(has_text="· p. 2").first.click()
    expect(sources.locator(".source-card.selected")).to_contain_text("Prudential Rulebook")
    page.get_by_role("button", name="Close the sources").click()
    expect(sources).to_be_hidden()

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
    page.get_by_role("dialog").get_by_role("button", name="Later").click()
    page.wait_for_timeout(4_500)
    page.get_by_role("button", name="New chat").click()
    expect(page.locator("#sign-in-error")).to_have_text("The access token has expired; sign in again.")
    expect(page.locator("#console-view")).to_be_hidden()


def test_a_palassist_question_rename_delete_retry_and_a_new_version(
    page: "sync_api.Page", system: RunningSystem
) -> None:
    expect = sync_api.expect
    token = enter(page, system, "console-carol")
    failed = upload(page, drawing_only_pdf(), "Scanned Policy", doc_type="policy")
    expect(failed).to_have_text(re.compile(r"^Failed: \S.+"), timeout=ANSWER_TIMEOUT_MS)
    expect(card(page, "Scanned Policy (2024)")).to_have_css("border-left-color", "rgb(21, 128, 61)")  # green
    # Retry: ingested again from the stored bytes, as a new request (the same bytes fail the same way).
    with page.expect_response(re.compile(r"/v1/documents/[^/]+/retry$")) as retried:
        page.get_by_role("button", name="Retry Scanned Policy (2024)").click()
    assert retried.value.status == 202
    second_attempt = retried.value.json()["request_id"]
    # The card may still show the first attempt's failure: the listing says when the retry is done.
    listed = _documents_once_settled(page, system.api_url + "/v1/documents", token)
    assert [(d["request_id"], d["status"]) for d in listed] == [(second_attempt, "failed")]
    expect(failed).to_have_text(re.compile(r"^Failed: \S.+"), timeout=ANSWER_TIMEOUT_MS)
    expect(page.get_by_role("button", name="Retry Scanned Policy (2024)")).to_be_visible()
    expect(upload(page, make_pdf(PAGES), "Capital Rulebook")).to_contain_text(
        "Ready", timeout=ANSWER_TIMEOUT_MS
    )

    # A new version keeps title, type and set under a new label; the old version stays.
    page.get_by_role("button", name="New version of Capital Rulebook (2024)").click()
    dialog = page.get_by_role("dialog", name="New version of Capital Rulebook (2024)")
    expect(dialog.get_by_label("Title", exact=True)).to_be_hidden()
    dialog.get_by_label("File").set_input_files(
        {"name": "capital-2025.pdf", "mimeType": "application/pdf", "buffer": make_pdf(PAGES[1:])}
    )
    dialog.get_by_label("Version", exact=True).fill("2025")
    dialog.get_by_role("button", name="Upload", exact=True).click()
    expect(card(page, "Capital Rulebook (2025)").get_by_test_id("doc-status")).to_have_text(
        re.compile(r"^Ready · 2 pages"), timeout=ANSWER_TIMEOUT_MS
    )
    expect(card(page, "Capital Rulebook (2024)")).to_contain_text("Ready · 3 pages")

    box = new_chat(page)
    box.press_sequentially("Summarize and audit ")
    pick_mention(page, "@Capital Rule", "Capital Rulebook (2024)")  # a prefix of two words
    box.press("Enter")
    # Two actions at once: PalAssist asks which, above the message box (action_choice, buttons) ...
    palassist = page.get_by_role("region", name="PalAssist")
    choice = palassist.get_by_test_id("interrupt")
    expect(choice).to_contain_text("one action at a time", timeout=ANSWER_TIMEOUT_MS)
    expect(choice).to_be_focused()
    expect(box).to_be_disabled()
    choice.get_by_role("button", name="Audit").click()
    # ... then, with no text to audit, asks for it (text_input); the typed text is audited.
    question = palassist.get_by_test_id("interrupt")
    expect(question).to_contain_text("text you would like to audit", timeout=ANSWER_TIMEOUT_MS)
    answered = page.get_by_test_id("interrupt-answered")
    expect(answered.first).to_contain_text("Answered: Audit")
    question.get_by_label("Your answer").fill(
        "Institutions must keep a total capital ratio of at least 6 percent at all times."
    )
    question.get_by_role("button", name="Send answer").click()
    answer = page.get_by_test_id("answer").last
    expect(answer.locator(".message-role")).to_have_text("PolicyPal · @audit", timeout=ANSWER_TIMEOUT_MS)
    expect(palassist).to_be_hidden()
    audit = answer.get_by_role("region", name="Audit findings")
    expect(audit.locator("h5").first).to_contain_text("Capital Rulebook")  # grouped by target
    expect(audit.locator(".severity h6").first).to_have_text(
        re.compile(r"^(Critical|High|Medium|Low) \(\d+\)$")
    )
    expect(answered.nth(1)).to_contain_text("Answered: Institutions must keep")
    expect(page.locator(".message.user").last).to_have_text(
        re.compile(r"Summarize and audit @Capital Rulebook \(2024\)$")
    )
    audit.locator(".finding button.marker").first.click()
    expect(page.locator(".source-card.selected")).to_contain_text("Capital Rulebook (2024)")
    page.screenshot(path=str(AUDIT_SCREENSHOT))
    page.get_by_role("button", name="Close the sources").click()

    # Cancelling a question ends its request with a notice, and the message box is usable again.
    ask(page, "Summarize and audit it")
    again_asked = palassist.get_by_test_id("interrupt")
    expect(again_asked).to_contain_text("one action at a time", timeout=ANSWER_TIMEOUT_MS)
    again_asked.get_by_role("button", name="Cancel").click()
    expect(page.locator(".message.system").last).to_be_focused(timeout=ANSWER_TIMEOUT_MS)
    expect(box).to_be_enabled()

    # Rename and delete ask in the page's own dialog: labelled, Escape closes it, the focus comes back.
    title, rename = page.locator("#chat-title").inner_text(), page.get_by_role("button", name="Rename")
    rename.click()
    rename_dialog = page.get_by_role("dialog", name="Rename the conversation")
    new_title = rename_dialog.get_by_label("New title")
    expect(new_title).to_be_focused()
    new_title.fill("Not this one")
    new_title.press("Escape")
    expect(rename_dialog).to_be_hidden()
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
    expect(page.locator("#conversation-list")).to_have_text("No conversations yet: start one with +.")
    expect(page.get_by_role("button", name="New chat")).to_be_focused()

    tab(page, "Documents")
    page.get_by_role("button", name="Delete Scanned Policy (2024)").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete document").click()
    expect(page.locator("li.document")).to_have_count(2)


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
    enter(page, system, user)
    ready = upload(page, make_pdf(PAGES, title="Prudential Rulebook"), "Prudential Rulebook")
    sync_api.expect(ready).to_contain_text("Ready", timeout=ANSWER_TIMEOUT_MS)
    new_chat(page)
    pick_mention(page, "@inq", "inquire")
    pick_mention(page, "@Pru", "Prudential Rulebook")
    ask(page, question)


def test_a_streamed_answer_grows_token_by_token_then_shows_its_sources_model_and_cost(
    page: "sync_api.Page", llm_system: RunningSystem
) -> None:
    expect = sync_api.expect
    ask_the_rulebook(page, llm_system, "stream-dave", QUESTION)
    streaming = page.locator(".message.streaming .answer-text")
    expect(streaming).to_contain_text("total capital ratio", timeout=ANSWER_TIMEOUT_MS)
    expect(page.locator(".message.streaming")).to_have_attribute("aria-busy", "true")
    page.screenshot(path=str(STREAMING_SCREENSHOT))

    answer = page.get_by_test_id("answer").last
    expect(answer).to_contain_text("not only at the end of a reporting period", timeout=ANSWER_TIMEOUT_MS)
    states: list[str] = page.evaluate("window.answerStates")
    partial = [text for text in states if len(text) < len(STREAMED_ANSWER)]
    assert len(partial) >= 2, states
    assert all(STREAMED_ANSWER.startswith(text) for text in states), states
    assert [len(text) for text in states] == sorted({len(text) for text in states})  # only ever grew

    expect(page.locator(".message.assistant")).to_have_count(1)  # the streamed one became the answer
    expect(answer).to_be_focused()
    source = answer.get_by_role("group", name="Sources").locator(".source-chip").first
    expect(source).to_have_text(re.compile(r"^\[1\] Prudential Rulebook \(2024\) · p\. \d+$"))
    answer.locator("button.marker", has_text="[1]").first.click()
    expect(page.locator(".source-card.selected .source-where")).to_contain_text("Prudential Rulebook")
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
    expect(answer.locator(".source-chip").first).to_contain_text("Prudential Rulebook (2024)")
    expect(page.locator("#composer-text")).to_be_enabled()

    # Stored once: a reload shows the same two turns, and nothing is followed any more.
    page.reload()
    expect(page.get_by_test_id("answer")).to_contain_text("without outside help")
    expect(page.locator(".message")).to_have_count(2)
    expect(page.locator("#chat-status")).to_have_text("")


def _documents_once_settled(page: "sync_api.Page", url: str, token: str) -> list[dict[str, object]]:
    """The document listing once no document in it is still queued or processing (within the answer
    timeout; the last listing if it never settles, for the assertion to show)."""
    deadline = time.monotonic() + ANSWER_TIMEOUT_MS / 1000
    while True:
        listed: list[dict[str, object]] = page.request.get(
            url, headers={"Authorization": f"Bearer {token}"}
        ).json()["documents"]
        if all(d["status"] not in ("queued", "processing") for d in listed) or time.monotonic() > deadline:
            return listed
        page.wait_for_timeout(200)

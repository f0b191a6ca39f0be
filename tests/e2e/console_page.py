"""Driving the web console in Debian's Chromium: the browser fixture and the steps a user takes.

Needs Chromium at /usr/bin/chromium (``scripts/ensure-chromium.sh`` installs it; `make test` runs that
first) and the ``playwright`` package, which drives it without downloading a browser.
"""

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.e2e.system import RunningSystem

CHROMIUM = Path("/usr/bin/chromium")
BROWSER_MARKS = [
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
WIDE = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
ANSWER_TIMEOUT_MS = 120_000
#: Errors the browser logs for what a test provokes on purpose: a refused token, a dropped response.
EXPECTED_ERRORS = re.compile(r"status of 401|net::ERR_CONNECTION_RESET")


@pytest.fixture
def page() -> Iterator["sync_api.Page"]:
    """A fresh browser tab at 1400×900; fails the test on any page error or console error (e.g. a CSP
    violation)."""
    problems: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport=WIDE)  # type: ignore[arg-type]
        tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        tab.on("console", lambda msg: problems.append(msg.text) if _unexpected(msg) else None)
        try:
            yield tab
        finally:
            browser.close()
    assert problems == []


def _unexpected(message: "sync_api.ConsoleMessage") -> bool:
    if message.type != "error" or EXPECTED_ERRORS.search(message.text):
        return False
    # The Inbox module is optional: an administrator's console asks for it and goes on without it.
    return not str(message.location.get("url", "")).endswith("/inbox.js")


def sign_in(page: "sync_api.Page", system: RunningSystem, token: str) -> None:
    """Open the gateway's root (it leads to the console) and sign in with ``token``."""
    page.goto(system.api_url + "/")
    assert page.url == system.api_url + "/console/"
    page.get_by_label("Access token").fill(token)
    page.get_by_role("button", name="Sign in").click()


def enter(page: "sync_api.Page", system: RunningSystem, user: str, *, tenant: str = "acme") -> str:
    """Sign in as a new ``user`` and put onboarding off ("Later"); the token."""
    token = system.token(tenant, user)
    sign_in(page, system, token)
    sync_api.expect(page.locator("#whoami")).to_contain_text(user)
    later_onboarding(page)
    return token


def later_onboarding(page: "sync_api.Page") -> None:
    """Close the onboarding dialog a user without a profile is greeted with."""
    welcome = page.get_by_role("dialog", name=re.compile("^Welcome to PolicyPal"))
    sync_api.expect(welcome).to_be_visible()
    welcome.get_by_role("button", name="Later").click()
    sync_api.expect(welcome).to_be_hidden()


def tab(page: "sync_api.Page", name: str) -> None:
    """Show a tab of the left panel (Chats, Documents, Inbox)."""
    page.get_by_role("tab", name=name).click()


def new_chat(page: "sync_api.Page") -> "sync_api.Locator":
    """Start a conversation from the Chats tab's plus button; the message box, focused."""
    tab(page, "Chats")
    page.get_by_role("button", name="New chat").click()
    box = page.locator("#composer-text")
    # The box takes the focus once the conversation is open: typing before that would be lost.
    sync_api.expect(box).to_be_focused()
    return box


def pick_mention(page: "sync_api.Page", typed: str, label: str) -> None:
    """Type ``@prefix`` in the message box and choose ``label`` from the suggestions by keyboard."""
    box = page.locator("#composer-text")
    box.press_sequentially(typed)
    option = page.get_by_role("option").filter(has_text=label).first
    sync_api.expect(option).to_be_visible()
    while option.get_attribute("aria-selected") != "true":
        box.press("ArrowDown")
    box.press("Enter")


def card(page: "sync_api.Page", name: str) -> "sync_api.Locator":
    """The document card titled ``name`` ("Title (Version)")."""
    return page.locator("li.document").filter(has=page.locator(".doc-title", has_text=name))


def upload(
    page: "sync_api.Page",
    data: bytes,
    title: str,
    *,
    version: str = "2024",
    doc_type: str = "regulatory",
    set_name: str | None = None,
    filename: str | None = None,
    mime: str = "application/pdf",
) -> "sync_api.Locator":
    """Upload through the Documents tab's dialog; the document card's status line."""
    tab(page, "Documents")
    page.get_by_role("button", name="Upload a document").click()
    dialog = page.get_by_role("dialog", name="Upload a document")
    dialog.get_by_label("File").set_input_files(
        {"name": filename or f"{title}.pdf", "mimeType": mime, "buffer": data}
    )
    dialog.get_by_label("Title", exact=True).fill(title)
    dialog.get_by_label("Version", exact=True).fill(version)
    dialog.get_by_label("Type", exact=True).select_option(doc_type)
    if set_name is not None:
        dialog.get_by_label(re.compile("^Set")).fill(set_name)
    dialog.get_by_role("button", name="Upload", exact=True).click()
    sync_api.expect(dialog).to_be_hidden()
    return card(page, f"{title} ({version})").get_by_test_id("doc-status")


def ask(page: "sync_api.Page", text: str) -> None:
    """Type ``text`` after whatever the message box holds and send it with Enter."""
    box = page.locator("#composer-text")
    box.press_sequentially(text)
    box.press("Enter")


def serious_accessibility_violations(page: "sync_api.Page") -> list[dict[str, Any]]:
    """What axe-core (shipped in the axe-playwright-python wheel) finds serious or critical on the page.

    The script is evaluated through the debugging protocol, which the page's CSP does not govern, so
    the page keeps its real policy while it is checked.
    """
    page.evaluate(_axe_source())
    results = page.evaluate("axe.run(document, { resultTypes: ['violations'] })")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def _axe_source() -> str:
    axe = pytest.importorskip(
        "axe_playwright_python", reason="axe-playwright-python is in requirements/dev.txt"
    )
    return (Path(axe.__file__).parent / "axe.min.js").read_text()

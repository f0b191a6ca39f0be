"""The widget's side of the console in Chromium: an administrator's widget settings, and a reviewer's
inbox kept live by its event stream (docs/product.md, Website widget)."""

import re
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import httpx
import pytest

from policypal.auth import issue_token
from tests.e2e.console_page import BROWSER_MARKS, sign_in, tab
from tests.e2e.system import RunningSystem, policypal_up

pytestmark = BROWSER_MARKS
if TYPE_CHECKING:
    from playwright import sync_api
else:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in requirements/dev.txt")

TENANT = "widgetco"


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSystem]:
    """The whole system, as `make up` starts it."""
    with policypal_up(tmp_path_factory.mktemp("widget-console") / "data") as running:
        yield running


def _admin(system: RunningSystem) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(system.settings, TENANT, 'admin-ada', role='admin')}"}


def test_an_administrator_sets_the_widget_up_from_the_console(
    page: "sync_api.Page", system: RunningSystem
) -> None:
    expect = sync_api.expect
    with httpx.Client(base_url=system.api_url, timeout=30) as http:
        # What the dialog does not show must survive its save (PUT replaces the whole profile).
        http.put("/v1/admin/tenant", headers=_admin(system), json={"industry": "Retail"}).raise_for_status()
        sign_in(page, system, issue_token(system.settings, TENANT, "admin-ada", role="admin"))
        page.get_by_role("dialog").get_by_role("button", name="Later").click()

        page.get_by_role("button", name="Widget").click()
        dialog = page.get_by_role("dialog", name="Website widget")
        expect(dialog).to_be_visible()
        expect(dialog.get_by_label("Title")).to_have_value("Questions? Ask us")
        dialog.get_by_label(re.compile("^Sites the widget may run on")).fill(
            "shop.example.com\n*.example.org"
        )
        dialog.get_by_label("Title").fill("Ask Widgetco")
        dialog.get_by_label("Greeting").fill("Hi! Ask about returns and delivery.")
        dialog.get_by_label(re.compile("^Hand over to a person below")).fill("0.55")
        dialog.get_by_label("Accent colour").fill("#aa3300")
        dialog.get_by_role("button", name="Save").click()
        expect(dialog).to_be_hidden()

        profile = http.get("/v1/admin/tenant", headers=_admin(system)).json()
        assert profile["allowed_domains"] == ["shop.example.com", "*.example.org"]
        assert profile["industry"] == "Retail"
        assert profile["widget"]["title"] == "Ask Widgetco"
        assert profile["widget"]["greeting"] == "Hi! Ask about returns and delivery."
        assert (profile["widget"]["confidence_threshold"], profile["widget"]["accent_colour"]) == (
            0.55,
            "#aa3300",
        )
        # The widget on an allowed site greets as set.
        session = http.post(
            "/v1/widget/sessions", json={"tenant_id": TENANT}, headers={"Origin": "https://shop.example.com"}
        )
        assert session.status_code == 201, session.text
        assert session.json()["appearance"]["greeting"] == "Hi! Ask about returns and delivery."

        # A refused value is said in the dialog, which stays open.
        page.get_by_role("button", name="Widget").click()
        expect(dialog.get_by_label("Title")).to_have_value("Ask Widgetco")
        dialog.get_by_label(re.compile("^Sites the widget may run on")).fill("not a domain!")
        dialog.get_by_role("button", name="Save").click()
        expect(dialog.get_by_role("alert")).to_contain_text('"domain!" is not a site')
        dialog.get_by_role("button", name="Cancel").click()
        expect(dialog).to_be_hidden()
        profile = http.get("/v1/admin/tenant", headers=_admin(system)).json()
        assert profile["allowed_domains"] == ["shop.example.com", "*.example.org"]
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("button", name="Widget")).to_have_count(0)


def test_a_new_ticket_reaches_an_open_inbox_live_without_polling(
    page: "sync_api.Page", system: RunningSystem
) -> None:
    expect = sync_api.expect
    polls: list[float] = []
    page.on("request", lambda r: polls.append(time.monotonic()) if "/v1/inbox/tickets?" in r.url else None)
    with httpx.Client(base_url=system.api_url, timeout=30) as http:
        http.put(
            "/v1/admin/tenant", headers=_admin(system), json={"allowed_domains": ["live.example.com"]}
        ).raise_for_status()
        with page.expect_response(lambda r: r.url.endswith("/v1/inbox/stream")) as opened:
            sign_in(page, system, issue_token(system.settings, TENANT, "reviewer-rex", role="reviewer"))
            tab(page, "Inbox")
        assert opened.value.status == 200
        expect(page.get_by_role("status").filter(has_text="No customer is waiting.")).to_be_visible()
        # Live: the list is no longer polled (every 3 s otherwise).
        time.sleep(0.5)
        quiet_from = time.monotonic()
        time.sleep(4)
        assert [at for at in polls if at > quiet_from] == []

        session = http.post(
            "/v1/widget/sessions", json={"tenant_id": TENANT}, headers={"Origin": "https://live.example.com"}
        ).json()
        customer = {"Authorization": f"Bearer {session['token']}"}
        asked = time.monotonic()
        http.post(session["messages_url"], headers=customer, json={"text": "I need to talk to a human"})
        # Without polling only the stream can bring it; 5 s leaves room for the resolver on a busy machine.
        expect(page.locator(".inbox-ticket")).to_have_count(1, timeout=5000)
        print(f"customer's request -> ticket shown in the inbox: {time.monotonic() - asked:.2f} s")
        expect(page.get_by_role("status").filter(has_text="1 waiting")).to_be_visible()


def test_the_inbox_polls_while_its_stream_is_down(page: "sync_api.Page", system: RunningSystem) -> None:
    expect = sync_api.expect
    tenant = "pollco"
    page.route("**/v1/inbox/stream", lambda route: route.abort("connectionreset"))
    polls: list[float] = []
    page.on("request", lambda r: polls.append(time.monotonic()) if "/v1/inbox/tickets?" in r.url else None)
    admin = {"Authorization": f"Bearer {issue_token(system.settings, tenant, 'admin-pat', role='admin')}"}
    with httpx.Client(base_url=system.api_url, timeout=30) as http:
        http.put(
            "/v1/admin/tenant", headers=admin, json={"allowed_domains": ["poll.example.com"]}
        ).raise_for_status()
        sign_in(page, system, issue_token(system.settings, tenant, "reviewer-pia", role="reviewer"))
        expect(page.get_by_role("status").filter(has_text="No customer is waiting.")).to_be_visible()
        started = time.monotonic()
        session = http.post(
            "/v1/widget/sessions", json={"tenant_id": tenant}, headers={"Origin": "https://poll.example.com"}
        ).json()
        http.post(
            session["messages_url"],
            headers={"Authorization": f"Bearer {session['token']}"},
            json={"text": "I need to talk to a human"},
        )
        expect(page.locator(".inbox-ticket")).to_have_count(1, timeout=10_000)
        assert [at for at in polls if at > started]  # brought by a poll

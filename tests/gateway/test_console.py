"""The web console: served by the real gateway with a strict CSP, calling only routes that exist."""

import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from gateway.app import create_app
from gateway.web_console import CONSOLE_DIR, content_security_policy
from notifier.app import create_app as create_notifier
from policypal.config import Settings

pytestmark = pytest.mark.integration

JS_FILES = sorted(CONSOLE_DIR.glob("*.js"))
#: A string or template literal that starts with an API path.
API_PATH = re.compile(r"""["'`](/v1/[^"'`?]*)""")
NODE = shutil.which("node")


async def test_root_redirects_to_the_console(client: httpx.AsyncClient) -> None:
    response = await client.get("/")
    assert response.status_code == 307
    assert response.headers["location"] == "/console/"
    without_slash = await client.get("/console")
    assert without_slash.status_code == 307
    assert without_slash.headers["location"].endswith("/console/")


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/console/", "text/html"),
        ("/console/index.html", "text/html"),
        ("/console/app.js", "text/javascript"),
        ("/console/chat.js", "text/javascript"),
        ("/console/app.css", "text/css"),
        ("/console/favicon.svg", "image/svg+xml"),
    ],
)
async def test_pages_are_served_with_their_type_and_a_strict_csp(
    client: httpx.AsyncClient, settings: Settings, path: str, content_type: str
) -> None:
    response = await client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(content_type)
    assert response.headers["x-content-type-options"] == "nosniff"
    csp = response.headers["content-security-policy"]
    assert csp == content_security_policy(settings)
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == f"'self' http://127.0.0.1:{settings.notifier_port}"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in csp


async def test_a_missing_file_is_404_and_the_api_still_answers(client: httpx.AsyncClient) -> None:
    assert (await client.get("/console/nothing-here.js")).status_code == 404
    assert (await client.get("/v1/documents")).status_code == 401


def test_the_console_is_not_part_of_the_api_schema(settings: Settings) -> None:
    paths = create_app(settings).openapi()["paths"]
    assert not [p for p in paths if p == "/" or p.startswith("/console")]


def _as_pattern(path: str) -> re.Pattern[str]:
    """An OpenAPI path template as a regex: each ``{param}`` one path segment."""
    return re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path.rstrip("/"))) + "$")


def _called_paths() -> set[str]:
    """Every /v1 path in the JS, template ``${...}`` parts made one segment each."""
    found: set[str] = set()
    for js in JS_FILES:
        for raw in API_PATH.findall(js.read_text()):
            found.add(re.sub(r"\$\{[^}]*\}", "x", raw).rstrip("/"))
    return found


def test_every_api_path_the_console_calls_exists(settings: Settings) -> None:
    routes = [*create_app(settings).openapi()["paths"], *create_notifier(settings).openapi()["paths"]]
    patterns = [_as_pattern(route) for route in routes]
    called = _called_paths()
    # The console uses each part of the API it offers.
    assert {
        "/v1/documents",
        "/v1/documents/x",
        "/v1/conversations",
        "/v1/conversations/x",
        "/v1/conversations/x/messages",
        "/v1/conversations/x/resume",
        "/v1/conversations/x/cancel",
        "/v1/mentions",
    } <= called
    unknown = sorted(p for p in called if not any(pattern.match(p) for pattern in patterns))
    assert unknown == []


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("js", JS_FILES, ids=lambda p: p.name)
def test_each_module_parses(js: Path) -> None:
    # Read as a module from stdin: `node --check file.js` skips modules silently on Node 20.
    checked = subprocess.run(
        [str(NODE), "--input-type=module", "--check"],
        input=js.read_bytes(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr.decode()


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_module_check_catches_a_syntax_error() -> None:
    broken = b'import { el } from "./dom.js";\nexport function f( {\n'
    checked = subprocess.run(
        [str(NODE), "--input-type=module", "--check"],
        input=broken,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode != 0


@pytest.mark.parametrize("js", JS_FILES, ids=lambda p: p.name)
def test_modules_never_parse_server_text_as_html(js: Path) -> None:
    source = js.read_text()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        assert sink not in source, f"{js.name} uses {sink}"
    assert len(source.splitlines()) < 400


def test_nothing_is_loaded_from_another_origin() -> None:
    for path in CONSOLE_DIR.iterdir():
        text = path.read_text()
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", text), path.name
        assert "@import" not in text, path.name
        assert "url(" not in text, path.name
        assert not re.search(r"""from\s+["'](?!\./)""", text), f"{path.name} imports a non-local module"


def test_no_module_uses_the_browsers_blocking_dialogs() -> None:
    # prompt(), confirm() and alert() block the page and cannot be styled or labelled: the page's own
    # <dialog> asks instead.
    for js in JS_FILES:
        code = re.sub(r"//.*|/\*.*?\*/", "", js.read_text(), flags=re.S)
        for call in ("prompt(", "confirm(", "alert("):
            assert not re.search(rf"(?<![\w.]){re.escape(call)}", code), f"{js.name} calls {call}"


def test_the_page_dialog_is_labelled_and_handles_its_form_itself() -> None:
    html = (CONSOLE_DIR / "index.html").read_text()
    dialog = re.search(r"<dialog\b[^>]*>.*?</dialog>", html, re.S)
    assert dialog is not None
    opening = dialog.group(0).split(">", 1)[0]
    assert 'aria-labelledby="ask-dialog-title"' in opening
    assert 'id="ask-dialog-title"' in dialog.group(0)
    assert '<label id="ask-dialog-label" for="ask-dialog-input">' in dialog.group(0)
    # The CSP says form-action 'none': the form is submitted by script, never by the browser.
    assert "method=" not in dialog.group(0)
    assert "event.preventDefault()" in (CONSOLE_DIR / "dialog.js").read_text()

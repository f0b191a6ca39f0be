"""The web console: static pages under ``/console/`` (and ``/`` redirecting there), with a strict CSP.

The console is plain HTML and JavaScript modules shipped inside the gateway package (``console/``), so
an installed gateway serves it with no build step and no network access. It calls the REST API on its
own origin and opens the notifier's event streams, whose origin the Content-Security-Policy admits.
"""

from pathlib import Path
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI
from fastapi.responses import RedirectResponse
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from policypal.config import Settings

CONSOLE_DIR = Path(__file__).parent / "console"
CONSOLE_PATH = "/console"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def console_home() -> RedirectResponse:
    """Send a browser opening the gateway's root to the console."""
    return RedirectResponse(f"{CONSOLE_PATH}/", status_code=307)


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, as a CSP source and a CORS origin are written."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def content_security_policy(settings: Settings) -> str:
    """Own origin only, plus the notifier's origin for the event streams."""
    events_origin = origin_of(settings.events_base_url)
    return "; ".join(
        (
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            f"connect-src 'self' {events_origin}",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        )
    )


class ConsoleFiles(StaticFiles):
    """The console's files, each with the CSP and headers that keep the page isolated."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(directory=CONSOLE_DIR, html=True)
        self._headers = {
            "Content-Security-Policy": content_security_policy(settings),
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            # Revalidated on each load: an upgraded gateway serves its new console at once.
            "Cache-Control": "no-cache",
        }

    async def get_response(self, path: str, scope: Scope) -> Response:
        """The file at ``path``, with the console's security headers."""
        response = await super().get_response(path, scope)
        response.headers.update(self._headers)
        if path.endswith(".js"):
            # The registry of the host may map .js to a legacy type; modules want this one.
            response.headers["Content-Type"] = "text/javascript; charset=utf-8"
        return response


def mount_console(app: FastAPI, settings: Settings) -> None:
    """Serve the console at ``/console/`` and redirect ``/`` there."""
    app.include_router(router)
    app.mount(CONSOLE_PATH, ConsoleFiles(settings), name="console")

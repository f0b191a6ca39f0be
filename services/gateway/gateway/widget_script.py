"""The embeddable widget: ``GET /widget.js``, one plain script a tenant puts on its own site.

Shipped inside the gateway package (``widget_assets/``) and served as it is: no build step, and it
asks nothing of any other origin. The host page loads it cross-origin as a classic script, so it is
marked for cross-origin embedding and revalidated on each load (an upgraded gateway serves the new
widget at once).
"""

from pathlib import Path

from fastapi import APIRouter
from starlette.responses import Response

WIDGET_SCRIPT = Path(__file__).parent / "widget_assets" / "widget.js"

router = APIRouter(include_in_schema=False)


@router.get("/widget.js")
async def widget_script() -> Response:
    """The widget's JavaScript, for ``<script src=".../widget.js" data-tenant="...">``."""
    return Response(
        WIDGET_SCRIPT.read_bytes(),
        media_type="text/javascript; charset=utf-8",
        headers={
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
            "Cross-Origin-Resource-Policy": "cross-origin",
        },
    )

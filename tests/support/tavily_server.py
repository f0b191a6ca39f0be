"""A real Tavily-compatible HTTP server for tests: scripted ``POST /search`` replies, recorded requests.

Each request takes the next scripted reply: a list of results, or an HTTP failure (429 rate limit,
432 plan limit, 500...). With nothing scripted it answers 500, so an unexpected search fails loudly.
"""

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from tests.support.local_http import ScriptedServer


@dataclass(frozen=True)
class SearchReply:
    """One scripted answer: ``results`` (url, title, content, score) or a ``status`` failure."""

    results: list[dict[str, Any]] = field(default_factory=list)
    status: int = 200

    @classmethod
    def failure(cls, status: int) -> "SearchReply":
        """An HTTP failure with Tavily's error body."""
        return cls(status=status)


class ScriptedTavily(ScriptedServer):
    """``async with ScriptedTavily() as server:`` then ``server.base_url``; ``server.requests`` holds bodies."""

    def __init__(self) -> None:
        super().__init__("scripted Tavily server")
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.requests: list[dict[str, Any]] = []
        self.authorizations: list[str] = []
        self._script: deque[SearchReply] = deque()

    def enqueue(self, *replies: SearchReply) -> None:
        """Add replies, taken one per search in order."""
        self._script.extend(replies)

    def _app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/search")
        async def search(request: Request) -> JSONResponse:
            body: dict[str, Any] = await request.json()
            self.requests.append(body)
            self.authorizations.append(request.headers.get("authorization", ""))
            reply = self._script.popleft() if self._script else SearchReply.failure(500)
            if reply.status != 200:
                return JSONResponse({"detail": {"error": f"scripted failure {reply.status}"}}, reply.status)
            return JSONResponse({"query": body.get("query"), "results": reply.results, "response_time": 0.01})

        return app

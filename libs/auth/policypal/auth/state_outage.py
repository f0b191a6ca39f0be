"""Redis unreachable while answering a request: 503 with a sentence, not a 500 (gateway and notifier).

The request itself was fine; the state store is down or overloaded (its connection pool exhausted).
Clients and load balancers treat 503 with ``Retry-After`` as "try again shortly", as ``/readyz``
already says. Routes' errors are answered by ``answer_state_outage`` (inside CORS, so browsers can
read the answer); ``StateOutageGuard`` answers those of the middlewares that read Redis themselves
(tenant CORS origins).
"""

import logging

from fastapi import FastAPI, Request, Response, status
from fastapi.responses import JSONResponse
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The Redis errors that mean "not reachable now", as opposed to a bug in a command.
STATE_OUTAGES = (RedisConnectionError, RedisTimeoutError)
RETRY_AFTER_SECONDS = 5
SENTENCE = (
    "PolicyPal's state store (Redis) cannot be reached right now, so this request was not carried out. "
    "Please try again in a few seconds."
)

_log = logging.getLogger(__name__)


def _outage_response(method: str, path: str, exc: Exception) -> Response:
    _log.error("Redis unreachable during %s %s: %s", method, path, exc)
    return JSONResponse(
        {"detail": SENTENCE},  # the shape of every error answer of the API
        status_code=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


async def answer_state_outage(request: Request, exc: Exception) -> Response:
    """503 with ``SENTENCE`` and ``Retry-After``; the error is logged once, without the request body."""
    return _outage_response(request.method, request.url.path, exc)


class StateOutageGuard:
    """Outermost middleware: a Redis outage raised before any response started becomes the same 503."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; answer 503 if Redis fails before the response has begun."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def noting_start(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, noting_start)
        except STATE_OUTAGES as exc:
            if started:
                raise
            await _outage_response(scope["method"], scope["path"], exc)(scope, receive, send)


def answer_state_outages(app: FastAPI) -> None:
    """Make ``app`` answer a Redis outage with the 503, from its routes and its middlewares alike."""
    for outage in STATE_OUTAGES:
        app.exception_handler(outage)(answer_state_outage)
    app.add_middleware(StateOutageGuard)

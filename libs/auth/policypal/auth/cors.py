"""CORS for the tenants' allowed origins only, for every service a browser calls (gateway, notifier).

The rule: a browser Origin gets CORS headers when it is one of the allowed domains of ANY tenant; every
other Origin gets none. A preflight carries no credential, so the tenant cannot be known there; the
actual request is still authorized by its own token (bearer tokens, never cookies, so no
``Allow-Credentials``), and a token of tenant A used from tenant B's site is refused or scoped to A as
it would be without CORS. The allowed domains are indexed in Redis, one set of tenants per domain
pattern, updated whenever a tenant's profile is saved; a check costs one round trip however many
tenants there are. A service may also admit fixed origins of its own deployment: the notifier admits
the gateway's, whose web console opens event streams from there.
"""

import logging
from collections.abc import Callable, Collection, Sequence
from urllib.parse import urlsplit

from redis.asyncio import Redis
from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from policypal.auth.tenants import MalformedOrigin, parse_origin

logger = logging.getLogger(__name__)

#: Headers a browser may read from any answer: the wait after a 429, how to authenticate after a 401.
EXPOSED_HEADERS = ("Retry-After", "WWW-Authenticate")
PREFLIGHT_MAX_AGE_SECONDS = 600
FORBIDDEN_ORIGIN = "This origin is not allowed to call the PolicyPal API."


_LOOPBACK_HOSTS = ("127.0.0.1", "localhost")


def deployment_origins(base_url: str) -> frozenset[str]:
    """The origin of ``base_url``, and for a loopback host its twin (127.0.0.1 and localhost).

    A browser sends whichever spelling the user typed; on one machine both name the same server.
    """
    parts = urlsplit(base_url.strip().lower())
    origin = f"{parts.scheme}://{parts.netloc}"
    if parts.hostname not in _LOOPBACK_HOSTS:
        return frozenset({origin})
    port = f":{parts.port}" if parts.port else ""
    return frozenset(f"{parts.scheme}://{host}{port}" for host in _LOOPBACK_HOSTS)


def _pattern_key(pattern: str) -> str:
    # Across tenants, like the deadline index: "system" is never a tenant id the API hands out.
    return f"pp:system:cors:{pattern}"


def origin_patterns(origin: str) -> list[str]:
    """Every allowed-domain pattern that would admit ``origin`` (scheme://host[:port]); [] if malformed.

    Mirrors ``policypal.auth.origin_allowed``: a pattern without a port admits any port of the host,
    one with a port only that port, and ``*.example.com`` every subdomain (not example.com itself).
    """
    try:
        _, host, port = parse_origin(origin)
    except MalformedOrigin:
        return []
    labels = host.split(".")
    hosts = [host] + ["*." + ".".join(labels[i:]) for i in range(1, len(labels))]
    return hosts + [f"{h}:{port}" for h in hosts] if port else hosts


class AllowedOrigins:
    """The index of every tenant's allowed domains in Redis."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def replace(self, tenant_id: str, old: list[str], new: list[str]) -> None:
        """Move ``tenant_id`` from the patterns of its old allowed domains to those of its new ones."""
        async with self._redis.pipeline(transaction=True) as pipe:
            for pattern in set(old) - set(new):
                pipe.srem(_pattern_key(pattern), tenant_id)
            for pattern in set(new):
                pipe.sadd(_pattern_key(pattern), tenant_id)
            await pipe.execute()

    async def allows(self, origin: str) -> bool:
        """True when some tenant allows ``origin``."""
        patterns = origin_patterns(origin)
        if not patterns:
            return False
        return bool(await self._redis.exists(*(_pattern_key(p) for p in patterns)))


class TenantCors:
    """ASGI middleware: CORS headers for indexed origins, answers preflights, leaves other requests be.

    ``redis_of`` finds the app's Redis from the request scope (it is opened by the app's lifespan,
    after the middleware is built); ``allow_methods`` and ``allow_headers`` are what a preflight may ask;
    ``fixed_origins`` are admitted whatever the tenants allow (exact, lower-case origins).
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        redis_of: Callable[[Scope], Redis],
        allow_methods: Sequence[str],
        allow_headers: Sequence[str],
        fixed_origins: Collection[str] = (),
    ) -> None:
        self.app = app
        self._fixed_origins = frozenset(fixed_origins)
        self._redis_of = redis_of
        self._allow_methods = ", ".join(allow_methods)
        self._allow_headers = ", ".join(allow_headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is None:
            await self.app(scope, receive, send)
            return
        allowed = await self._allowed(scope, origin)
        if scope["method"] == "OPTIONS" and "access-control-request-method" in headers:
            await self._preflight(origin, allowed)(scope, receive, send)
            return
        if not allowed:
            await self.app(scope, receive, send)
            return

        async def send_with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                response_headers = MutableHeaders(scope=message)
                response_headers["Access-Control-Allow-Origin"] = origin
                response_headers["Access-Control-Expose-Headers"] = ", ".join(EXPOSED_HEADERS)
                response_headers.add_vary_header("Origin")
            await send(message)

        await self.app(scope, receive, send_with_cors)

    async def _allowed(self, scope: Scope, origin: str) -> bool:
        if origin.strip().lower() in self._fixed_origins:
            return True
        try:
            return await AllowedOrigins(self._redis_of(scope)).allows(origin)
        except Exception:  # Redis down or the app not started: no CORS, the request itself still runs
            logger.warning("CORS origin check failed; answering without CORS headers", exc_info=True)
            return False

    def _preflight(self, origin: str, allowed: bool) -> Response:
        if not allowed:
            return PlainTextResponse(FORBIDDEN_ORIGIN, status_code=403, headers={"Vary": "Origin"})
        return Response(
            status_code=204,
            headers={
                "Access-Control-Allow-Origin": origin,
                "Access-Control-Allow-Methods": self._allow_methods,
                "Access-Control-Allow-Headers": self._allow_headers,
                "Access-Control-Max-Age": str(PREFLIGHT_MAX_AGE_SECONDS),
                "Vary": "Origin",
            },
        )

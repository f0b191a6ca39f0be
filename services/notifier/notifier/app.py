"""The notifier application: SSE routes plus a lifespan that opens NATS and Redis."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import nats
from fastapi import FastAPI, Request, Response, status
from opentelemetry.trace import TracerProvider
from redis.asyncio import Redis
from starlette.types import Scope

from notifier import routes
from notifier.fanout import FanOut
from notifier.resources import Resources
from notifier.routes import StreamAlreadyEnded
from policypal.auth import Authenticator, EventTicketStore
from policypal.auth.cors import TenantCors, deployment_origins
from policypal.auth.state_outage import answer_state_outages
from policypal.bus import declare_streams
from policypal.bus.broker import DEFAULT_NATS_URL, credentials, nats_servers
from policypal.config import Settings
from policypal.contracts.streams import EVENTS
from policypal.state import ConversationStore, DocumentCatalog, connect_redis

#: Browsers only GET streams; EventSource cannot set headers, but fetch-based readers can.
CORS_METHODS = ("GET",)
CORS_HEADERS = ("Authorization", "X-API-Key", "Last-Event-ID")


def _redis(scope: Scope) -> Redis:
    redis: Redis = scope["app"].state.resources.redis
    return redis


def create_app(settings: Settings, *, tracer_provider: TracerProvider | None = None) -> FastAPI:
    """A notifier for ``settings``; connections open when the app starts and close when it stops.

    ``tracer_provider``: the process's provider for the HTTP spans (default: the global one).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # A plain nats-py client: the notifier only reads through ephemeral ordered consumers (one
        # live feed per thread, one short replay per connection), which FastStream's subscriber
        # model (declared at start-up) does not express.
        nc = await nats.connect(
            servers=nats_servers(settings.nats_url or DEFAULT_NATS_URL),
            max_reconnect_attempts=-1,
            **credentials(settings),
        )
        redis = connect_redis(settings.redis_url)
        fanout: FanOut | None = None
        try:
            js = nc.jetstream()
            # So a stream can be opened before any publisher has run.
            await declare_streams(js, (EVENTS,), settings=settings)
            fanout = FanOut(js)
            app.state.resources = Resources(
                settings=settings,
                nats=nc,
                js=js,
                redis=redis,
                catalog=DocumentCatalog(redis),
                conversations=ConversationStore(redis),
                fanout=fanout,
            )
            # API keys of other systems are accepted on streams too.
            app.state.authenticator = Authenticator(settings, redis)
            # Browsers' EventSource comes with a ticket the gateway issued, never a token in the URL.
            app.state.event_tickets = EventTicketStore(redis, settings.event_ticket_ttl_seconds)
            yield
        finally:
            if fanout is not None:
                await fanout.close()
            await nc.close()
            await redis.aclose()

    app = FastAPI(
        title="PolicyPal notifier",
        version="0.1.0",
        description="Server-Sent Events of conversations and documents, with replay by Last-Event-ID.",
        lifespan=lifespan,
        telemetry={"tracer_provider": tracer_provider} if tracer_provider is not None else None,
    )
    app.state.settings = settings
    # The widget opens its EventSource from a tenant's site: the same origins as the gateway answer;
    # the gateway's web console opens its streams from the gateway's own origin.
    app.add_middleware(
        TenantCors,
        redis_of=_redis,
        allow_methods=CORS_METHODS,
        allow_headers=CORS_HEADERS,
        fixed_origins=deployment_origins(settings.api_base_url),
    )
    # Outside CORS, whose tenant origins are read from Redis too: a Redis outage is a 503, not a 500.
    answer_state_outages(app)

    @app.exception_handler(StreamAlreadyEnded)
    async def _ended(request: Request, exc: StreamAlreadyEnded) -> Response:
        # 204 is how SSE tells an EventSource to stop reconnecting.
        return Response(status_code=status.HTTP_204_NO_CONTENT)

    app.include_router(routes.router)
    return app

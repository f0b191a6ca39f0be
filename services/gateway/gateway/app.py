"""The gateway application: routes plus a lifespan that opens NATS, the object store and Redis."""

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI
from opentelemetry.trace import TracerProvider
from starlette.exceptions import HTTPException as StarletteHTTPException

from gateway import (
    api_keys,
    asyncapi,
    audits,
    conversations,
    documents,
    escalations,
    event_tickets,
    health,
    inbox,
    mentions,
    profile,
    sets,
    tenants,
    widget,
    widget_publishing,
    widget_script,
)
from gateway.cors import add_tenant_cors
from gateway.health import open_qdrant_probe
from gateway.rate_limits import enforce_rate_limit
from gateway.resources import Resources
from gateway.uploads import UploadSizeGuard, explain_multipart_errors
from gateway.web_console import mount_console
from policypal.auth import Authenticator
from policypal.auth.http import require_scope
from policypal.auth.state_outage import answer_state_outages
from policypal.bus import build_broker, declare_streams, document_store
from policypal.config import Settings
from policypal.state import ConversationStore, DocumentCatalog, connect_redis


def create_app(
    settings: Settings,
    *,
    tracer_provider: TracerProvider | None = None,
    on_stop: Sequence[Callable[[], object]] = (),
) -> FastAPI:
    """A gateway for ``settings``; connections open when the app starts and close when it stops.

    ``on_stop`` runs last when the app stops (e.g. exporting the telemetry still buffered).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        broker = build_broker(settings, tracer_provider=tracer_provider)
        # No subscribers: start() only connects, and the broker is used for publishing.
        await broker.start()
        redis = connect_redis(settings.redis_url)
        qdrant_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        qdrant = open_qdrant_probe(settings.qdrant_url, qdrant_key) if settings.qdrant_url else None
        try:
            js = broker.connection.jetstream()
            # Declared here too, so the gateway can start before any worker (ADR 0001).
            await declare_streams(js, settings=settings)
            app.state.resources = Resources(
                settings=settings,
                broker=broker,
                object_store=await document_store(js, settings=settings),
                redis=redis,
                catalog=DocumentCatalog(redis),
                conversations=ConversationStore(redis),
                qdrant=qdrant,
            )
            app.state.authenticator = Authenticator(settings, redis)
            yield
        finally:
            await broker.stop()
            await redis.aclose()
            if qdrant is not None:
                await qdrant.close()
            for stop in on_stop:
                await asyncio.to_thread(stop)

    app = FastAPI(
        title="PolicyPal gateway",
        version="0.1.0",
        description="Documents, conversations and chat for compliance teams.",
        lifespan=lifespan,
        # The process's provider (when given) also redacts query strings from the HTTP spans.
        telemetry={"tracer_provider": tracer_provider} if tracer_provider is not None else None,
    )
    app.state.settings = settings
    app.exception_handler(StarletteHTTPException)(explain_multipart_errors)
    app.add_middleware(UploadSizeGuard, max_upload_bytes=settings.max_upload_bytes)
    # Outside the layers above: their errors (413, 429...) carry CORS headers too.
    add_tenant_cors(app)
    # Outside CORS, whose tenant origins are read from Redis too.
    answer_state_outages(app)
    app.include_router(health.router)
    limited = Depends(enforce_rate_limit)
    # Before the router that needs "ingest": the listing checks its own scopes (documents.listed_owner).
    app.include_router(documents.listing_router, dependencies=[limited])
    app.include_router(documents.router, dependencies=[Depends(require_scope("ingest")), limited])
    app.include_router(conversations.router, dependencies=[Depends(require_scope("chat")), limited])
    app.include_router(api_keys.router, dependencies=[limited])
    app.include_router(tenants.router, dependencies=[limited])
    app.include_router(widget.router)
    app.include_router(audits.router, dependencies=[limited])
    app.include_router(escalations.router, dependencies=[limited])
    app.include_router(asyncapi.router)
    app.include_router(sets.router, dependencies=[Depends(require_scope("ingest")), limited])
    app.include_router(mentions.router, dependencies=[Depends(require_scope("chat")), limited])
    app.include_router(profile.router, dependencies=[Depends(require_scope("ingest")), limited])
    app.include_router(event_tickets.router, dependencies=[limited])
    app.include_router(widget_publishing.router, dependencies=[limited])
    app.include_router(inbox.router, dependencies=[limited])
    app.include_router(widget_script.router)
    mount_console(app, settings)
    return app

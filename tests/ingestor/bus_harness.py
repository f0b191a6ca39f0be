"""The ingestor's router on a real broker, and reading the events it publishes for a document."""

import json
from dataclasses import dataclass
from typing import Any

from faststream.nats import NatsBroker
from nats.aio.client import Client
from nats.aio.subscription import Subscription
from nats.js import JetStreamContext

from policypal.contracts import DocumentUploaded
from policypal.contracts.subjects import thread_events_filter
from policypal.state import DocumentCatalog
from policypal.vectorstore import ChunkIndex
from tests.support.document_uploads import make_upload, store_upload

TIMEOUT = 20.0


@dataclass
class Running:
    """A started broker with the ingestor's router, and a tenant of its own."""

    broker: NatsBroker
    nc: Client
    js: JetStreamContext
    catalog: DocumentCatalog
    index: ChunkIndex
    tenant: str

    async def upload(self, data: bytes, document_id: str) -> DocumentUploaded:
        """Store the bytes and the record as the gateway does; the caller publishes the event."""
        upload = make_upload(document_id, tenant=self.tenant)
        await store_upload(self.js, self.catalog, upload, data)
        return upload

    async def events(self, document_id: str) -> Subscription:
        """A subscription to every event of one document's thread."""
        return await self.nc.subscribe(thread_events_filter(self.tenant, document_id))


async def until_terminal(sub: Subscription) -> list[dict[str, Any]]:
    """The events on ``sub`` up to and including ``document.ready`` or ``document.failed``."""
    events: list[dict[str, Any]] = []
    while True:
        msg = await sub.next_msg(timeout=TIMEOUT)
        event: dict[str, Any] = json.loads(msg.data)
        events.append(event)
        if event["type"] in ("document.ready", "document.failed"):
            return events

"""What a gateway request needs from the process: the broker, the object store and Redis stores."""

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from faststream.nats import NatsBroker
from nats.js.object_store import ObjectStore
from qdrant_client import AsyncQdrantClient
from redis.asyncio import Redis

from policypal.config import Settings
from policypal.state import ConversationStore, DocumentCatalog


@dataclass(frozen=True)
class Resources:
    """Connections opened once by the lifespan and shared by every request."""

    settings: Settings
    broker: NatsBroker
    object_store: ObjectStore
    redis: Redis
    catalog: DocumentCatalog
    conversations: ConversationStore
    #: A client of the Qdrant server (QDRANT_URL) for readiness; None when Qdrant is embedded.
    qdrant: AsyncQdrantClient | None = None


def get_resources(request: Request) -> Resources:
    """The process's resources, as the lifespan stored them on ``app.state``."""
    resources: Resources = request.app.state.resources
    return resources


ResourcesDep = Annotated[Resources, Depends(get_resources)]

"""What a notifier request needs from the process: JetStream and the Redis ownership records."""

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from nats.aio.client import Client
from nats.js import JetStreamContext
from redis.asyncio import Redis

from notifier.fanout import FanOut
from policypal.config import Settings
from policypal.state import ConversationStore, DocumentCatalog


@dataclass(frozen=True)
class Resources:
    """Connections opened once by the lifespan and shared by every stream."""

    settings: Settings
    nats: Client
    js: JetStreamContext
    redis: Redis
    catalog: DocumentCatalog
    conversations: ConversationStore
    #: The live feeds shared by every connection of a thread.
    fanout: FanOut


def get_resources(request: Request) -> Resources:
    """The process's resources, as the lifespan stored them on ``app.state``."""
    resources: Resources = request.app.state.resources
    return resources


ResourcesDep = Annotated[Resources, Depends(get_resources)]

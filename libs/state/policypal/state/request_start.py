"""What a worker must know before it starts a request, read in one Redis round trip.

A worker needs the conversation the request belongs to (checked against its owner), the terminal event
if the request ended already, and the API's record of it if it was made through the API (audits). The
three are plain keys of the same tenant, so one ``MGET`` reads them instead of three ``GET``s.
"""

from dataclasses import dataclass

from redis.asyncio import Redis

from policypal.contracts import parse_event
from policypal.contracts.envelope import Envelope
from policypal.state import keys
from policypal.state.conversations import ConversationRecord, owned_conversation
from policypal.state.request_status import RequestRecord


@dataclass(frozen=True)
class RequestStart:
    """The state of one request as a worker picks it up."""

    #: The conversation, when it exists and belongs to the request's tenant and user.
    conversation: ConversationRecord | None
    #: The request's terminal event when it has ended already (a redelivery), else None.
    terminal: Envelope | None
    #: The API's record of the request (``RequestTracker``) when it was made through the API.
    tracked: RequestRecord | None


async def read_request_start(
    redis: Redis, *, tenant_id: str, user_id: str, conversation_id: str, request_id: str
) -> RequestStart:
    """The conversation, terminal event and API record of ``request_id``, read together."""
    raw_conversation, raw_terminal, raw_tracked = await redis.mget(
        [
            keys.conversation(tenant_id, conversation_id),
            keys.request_terminal(tenant_id, request_id),
            keys.request_status(tenant_id, request_id),
        ]
    )
    return RequestStart(
        conversation=owned_conversation(raw_conversation, tenant_id, user_id),
        terminal=parse_event(raw_terminal) if raw_terminal is not None else None,
        tracked=RequestRecord.model_validate_json(raw_tracked) if raw_tracked is not None else None,
    )

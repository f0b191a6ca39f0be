"""Publishing from a request handler: a bus that refuses the event becomes a 503 with a sentence."""

import logging

from fastapi import HTTPException, status

from gateway.resources import Resources
from policypal.bus import publish_event
from policypal.contracts.envelope import Envelope

logger = logging.getLogger(__name__)


async def publish_or_503(resources: Resources, event: Envelope, *, msg_id: str, refusal: str) -> None:
    """Publish ``event`` with ``msg_id``; if that fails, log it and answer 503 with ``refusal``.

    ``refusal`` tells the caller what was kept and what to do next.
    """
    try:
        await publish_event(resources.broker, event, msg_id=msg_id)
    except Exception as exc:
        logger.exception("publishing %s failed for %s", event.type, msg_id)
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, refusal) from exc

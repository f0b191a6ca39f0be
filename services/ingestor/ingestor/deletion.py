"""Removing what a deleted document left behind: its chunks in Qdrant and its bytes in the Object Store.

The gateway has already removed the catalog entry (so nothing can mention the document any more)
and published ``docs.deleted``; this runs on that message, idempotently, retried by JetStream.
"""

import logging
from typing import Protocol

from nats.js.errors import NotFoundError

from policypal.bus import Unprocessable
from policypal.contracts import DocumentDeleted

logger = logging.getLogger(__name__)


class ChunkRemover(Protocol):
    """The part of ``policypal.vectorstore.ChunkIndex`` deletion needs."""

    async def delete_document(self, *, tenant_id: str, document_id: str) -> None:
        """Remove every chunk of a document."""
        ...


class ObjectRemover(Protocol):
    """The part of a NATS ``ObjectStore`` deletion needs."""

    async def delete(self, name: str) -> object:
        """Remove one object."""
        ...


async def remove_document_data(event: DocumentDeleted, *, index: ChunkRemover, store: ObjectRemover) -> None:
    """Delete the document's chunks and bytes; already-gone bytes are fine (a repeated message)."""
    if not event.object_name.startswith(f"{event.tenant_id}/"):
        # Never let one tenant's message delete another tenant's bytes.
        raise Unprocessable(f"object {event.object_name!r} is not in tenant {event.tenant_id}'s space")
    await index.delete_document(tenant_id=event.tenant_id, document_id=event.document_id)
    try:
        await store.delete(event.object_name)
    except NotFoundError:  # includes the object store's not-found and already-deleted errors
        logger.info("bytes of %s were already gone", event.document_id)

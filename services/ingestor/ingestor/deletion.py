"""Removing what a deleted document left behind: its chunks in Qdrant and its bytes in the Object Store.

The gateway has already removed the catalog entry (so nothing can mention the document any more)
and published ``docs.deleted``; this runs on that message, idempotently, retried by JetStream. The
catalog is the authority: a message about a document the catalog still holds (forged, or replayed
after a re-upload) deletes nothing and goes to the dead letters with the reason.
"""

import logging
from typing import Protocol

from nats.js.errors import NotFoundError

from policypal.bus import Unprocessable
from policypal.contracts import DocumentDeleted
from policypal.state import DocumentRecord

logger = logging.getLogger(__name__)


class CatalogLookup(Protocol):
    """The part of ``policypal.state.DocumentCatalog`` deletion needs."""

    async def get_in_tenant(self, tenant_id: str, document_id: str) -> DocumentRecord | None:
        """The record of a document in the tenant, whoever owns it."""
        ...


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


async def remove_document_data(
    event: DocumentDeleted, *, catalog: CatalogLookup, index: ChunkRemover, store: ObjectRemover
) -> None:
    """Delete the document's chunks and bytes; already-gone bytes are fine (a repeated message).

    Raises ``Unprocessable`` (nothing deleted) when the catalog still holds the document.
    """
    if event.object_name != f"{event.tenant_id}/{event.document_id}":
        # The gateway keeps a document's bytes under <tenant>/<document>: never let a message delete
        # another document's bytes, let alone another tenant's.
        raise Unprocessable(
            f"object {event.object_name!r} is not the bytes of document {event.document_id} of tenant {event.tenant_id}"
        )
    record = await catalog.get_in_tenant(event.tenant_id, event.document_id)
    if record is not None:
        logger.warning(
            "refusing docs.deleted for document %s of tenant %s: the catalog still has it (%s)",
            event.document_id,
            event.tenant_id,
            record.status,
        )
        raise Unprocessable(
            f"document {event.document_id} of tenant {event.tenant_id} is still in the catalog "
            f"({record.status}); only a document the catalog has deleted is removed"
        )
    await index.delete_document(tenant_id=event.tenant_id, document_id=event.document_id)
    try:
        await store.delete(event.object_name)
    except NotFoundError:  # includes the object store's not-found and already-deleted errors
        logger.info("bytes of %s were already gone", event.document_id)

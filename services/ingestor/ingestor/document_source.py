"""Reading an uploaded file's bytes from the NATS Object Store."""

import io

from nats.js.errors import ObjectDeletedError, ObjectNotFoundError
from nats.js.object_store import ObjectStore

from ingestor import rejections


class ObjectStoreSource:
    """Fetches objects from the documents bucket; a missing object is a rejection, other errors retry."""

    def __init__(self, store: ObjectStore) -> None:
        self._store = store

    async def fetch(self, object_name: str) -> bytes:
        """The object's bytes; raises ``DocumentRejected`` (missing_object) if it is not there."""
        # Writing into a buffer avoids nats-py's `bytes +=` per chunk, quadratic on large files.
        buffer = io.BytesIO()
        try:
            await self._store.get(object_name, writeinto=buffer)
        except (ObjectNotFoundError, ObjectDeletedError) as exc:
            raise rejections.missing_object() from exc
        return buffer.getvalue()

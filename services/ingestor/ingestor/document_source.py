"""Reading an uploaded file's bytes from the NATS Object Store."""

import asyncio
import io

from nats.js.errors import ObjectDeletedError, ObjectNotFoundError
from nats.js.object_store import ObjectStore

from ingestor import rejections

# Seconds to read one object from a local or in-cluster NATS; 50 MB takes well under one.
FETCH_TIMEOUT = 60.0


class ObjectStoreSource:
    """Fetches objects from the documents bucket; a missing object is a rejection, other errors retry."""

    def __init__(self, store: ObjectStore, *, timeout: float = FETCH_TIMEOUT) -> None:
        self._store = store
        self._timeout = timeout

    async def fetch(self, object_name: str) -> bytes:
        """The object's bytes; raises ``DocumentRejected`` (missing_object) if it is not there."""
        # Writing into a buffer avoids nats-py's `bytes +=` per chunk, quadratic on large files.
        buffer = io.BytesIO()
        try:
            # nats-py reads the chunks without a deadline: an object deleted between its metadata
            # read and its chunk read (the owner deleting it mid-ingest) would wait forever.
            await asyncio.wait_for(self._store.get(object_name, writeinto=buffer), self._timeout)
        except (ObjectNotFoundError, ObjectDeletedError) as exc:
            raise rejections.missing_object() from exc
        except TimeoutError:
            if not await self._exists(object_name):
                raise rejections.missing_object() from None
            raise
        return buffer.getvalue()

    async def _exists(self, object_name: str) -> bool:
        try:
            await self._store.get_info(object_name)
        except (ObjectNotFoundError, ObjectDeletedError):
            return False
        return True

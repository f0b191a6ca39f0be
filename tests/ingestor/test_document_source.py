"""Reading uploads from a real Object Store, including an object deleted while it is being read."""

import asyncio
import uuid
from collections.abc import AsyncIterator

import nats
import pytest
from nats.js import JetStreamContext
from nats.js.object_store import ObjectStore

from ingestor import rejections
from ingestor.document_source import ObjectStoreSource
from policypal.bus import document_store
from policypal.devstack import ManagedProcess

pytestmark = pytest.mark.integration


@pytest.fixture
async def store(nats_server: ManagedProcess) -> AsyncIterator[tuple[JetStreamContext, ObjectStore]]:
    assert nats_server.url is not None
    nc = await nats.connect(nats_server.url)
    js = nc.jetstream()
    yield js, await document_store(js)
    await nc.close()


async def _half_deleted_object(store: tuple[JetStreamContext, ObjectStore]) -> tuple[ObjectStore, str]:
    """A new object left half-deleted: chunks gone, metadata still saying it is there."""
    js, objects = store
    name = f"t1/{uuid.uuid4().hex}"
    await objects.put(name, b"policy text " * 1000)
    info = await objects.get_info(name)
    await js.purge_stream(f"OBJ_{objects._name}", subject=f"$O.{objects._name}.C.{info.nuid}")
    return objects, name


async def test_fetch_returns_the_bytes(store: tuple[JetStreamContext, ObjectStore]) -> None:
    _, objects = store
    name = f"t1/{uuid.uuid4().hex}"
    await objects.put(name, b"x" * 300_000)
    assert await ObjectStoreSource(objects).fetch(name) == b"x" * 300_000


async def test_a_missing_object_is_a_rejection(store: tuple[JetStreamContext, ObjectStore]) -> None:
    _, objects = store
    with pytest.raises(rejections.DocumentRejected) as caught:
        await ObjectStoreSource(objects).fetch(f"t1/{uuid.uuid4().hex}")
    assert caught.value.reason_code == rejections.MISSING_OBJECT


async def test_an_object_deleted_while_read_is_a_rejection_not_a_hang(
    store: tuple[JetStreamContext, ObjectStore],
) -> None:
    objects, name = await _half_deleted_object(store)

    async def finish_the_delete() -> None:
        await asyncio.sleep(0.2)
        await objects.delete(name)

    deleting = asyncio.create_task(finish_the_delete())
    with pytest.raises(rejections.DocumentRejected) as caught:
        await ObjectStoreSource(objects, timeout=1.0).fetch(name)
    await deleting
    assert caught.value.reason_code == rejections.MISSING_OBJECT


async def test_an_unreadable_object_that_still_exists_is_retried(
    store: tuple[JetStreamContext, ObjectStore],
) -> None:
    objects, name = await _half_deleted_object(store)
    with pytest.raises(TimeoutError):
        await ObjectStoreSource(objects, timeout=0.5).fetch(name)

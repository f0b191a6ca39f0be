"""Declaring streams and the document bucket, so services can start in any order."""

from nats.js import JetStreamContext
from nats.js.errors import BadRequestError
from nats.js.object_store import ObjectStore

from policypal.bus.broker import jstream
from policypal.contracts.streams import ALL_STREAMS, OBJECT_BUCKET, StreamSpec


async def declare_streams(js: JetStreamContext, specs: tuple[StreamSpec, ...] = ALL_STREAMS) -> None:
    """Create each stream, or bring an existing one to the spec."""
    for spec in specs:
        # JStream.config leaves subjects to FastStream's builder; set them for a direct declaration.
        config = jstream(spec).config
        config.subjects = list(spec.subjects)
        try:
            await js.add_stream(config=config)
        except BadRequestError:
            await js.update_stream(config=config)


async def document_store(js: JetStreamContext) -> ObjectStore:
    """The object-store bucket that keeps uploaded files (file storage), created on first use."""
    from nats.js.api import ObjectStoreConfig, StorageType

    try:
        return await js.object_store(OBJECT_BUCKET)
    except Exception:  # nats-py raises BucketNotFoundError or NotFoundError by version
        return await js.create_object_store(
            OBJECT_BUCKET,
            config=ObjectStoreConfig(storage=StorageType.FILE, description="Uploaded documents"),
        )

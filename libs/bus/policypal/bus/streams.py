"""Declaring streams and the document bucket with their replicas and limits, so services can start in
any order and an operator's change of the limits reaches the existing streams on the next start.

Replicas, size caps and ages come from the settings (``stream_replicas``, ``stream_limits``,
``document_ttl_seconds``, ``document_store_max_bytes``) over the defaults below; see
docs/adr/0017-stream-replicas-and-limits.md.
"""

from dataclasses import dataclass, replace

from faststream.nats import JStream, RetentionPolicy, StorageType
from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy, ObjectStoreConfig, StreamConfig
from nats.js.api import StorageType as JsStorageType
from nats.js.errors import NotFoundError
from nats.js.object_store import ObjectStore

from policypal.config import Settings
from policypal.contracts.streams import ALL_STREAMS, DLQ, EVENTS, OBJECT_BUCKET, StreamSpec

MIB = 1024 * 1024
#: Size caps when the settings name none. Messages are small (file bytes live in the bucket), so these
#: hold months of traffic; they keep a runaway publisher from filling the disk the other streams need.
DEFAULT_MAX_BYTES: dict[str, int] = {
    "DOCS": 256 * MIB,
    "CHAT": 256 * MIB,
    "ACTIONS": 256 * MIB,
    "EVENTS": 1024 * MIB,
    "DLQ": 256 * MIB,
}
#: History streams drop their oldest messages when full; work streams refuse new ones instead, so a
#: request is never discarded unseen: its publisher gets the error.
DISCARD_OLD = frozenset({EVENTS.name, DLQ.name})
#: The stream nats-py keeps the document bucket in.
OBJECT_STREAM = f"OBJ_{OBJECT_BUCKET}"


@dataclass(frozen=True)
class StreamPolicy:
    """Replicas and limits of one stream as it is declared."""

    replicas: int
    max_bytes: int
    max_age_seconds: int


def stream_policy(spec: StreamSpec, settings: Settings | None = None) -> StreamPolicy:
    """The replicas and limits ``settings`` give ``spec`` (the defaults when ``settings`` is None)."""
    policy = StreamPolicy(
        replicas=1,
        max_bytes=DEFAULT_MAX_BYTES.get(spec.name, 256 * MIB),
        max_age_seconds=spec.max_age_seconds,
    )
    if settings is None:
        return policy
    policy = replace(policy, replicas=settings.stream_replicas)
    limits = settings.stream_limits.get(spec.name)  # type: ignore[call-overload]  # a str key of a Literal dict
    if limits is None:
        return policy
    return StreamPolicy(
        replicas=limits.replicas or policy.replicas,
        max_bytes=limits.max_bytes or policy.max_bytes,
        max_age_seconds=policy.max_age_seconds if limits.max_age_seconds is None else limits.max_age_seconds,
    )


def jstream(spec: StreamSpec) -> JStream:
    """The FastStream declaration of a stream spec, naming the stream only.

    FastStream must not declare it: on a difference it would update the stream with its own config
    and undo the replicas and limits. ``declare_streams`` declares it (``build_broker``'s start).
    """
    return JStream(
        spec.name,
        subjects=list(spec.subjects),
        retention=RetentionPolicy.WORK_QUEUE if spec.retention == "workqueue" else RetentionPolicy.LIMITS,
        max_age=float(spec.max_age_seconds) or None,
        storage=StorageType.FILE,
        duplicate_window=float(spec.duplicate_window_seconds),
        declare=False,
    )


def stream_config(spec: StreamSpec, policy: StreamPolicy) -> StreamConfig:
    """The JetStream configuration of ``spec`` under ``policy``."""
    return StreamConfig(
        name=spec.name,
        subjects=list(spec.subjects),
        retention=RetentionPolicy.WORK_QUEUE if spec.retention == "workqueue" else RetentionPolicy.LIMITS,
        storage=JsStorageType.FILE,
        num_replicas=policy.replicas,
        max_bytes=policy.max_bytes,
        max_age=float(policy.max_age_seconds),
        discard=DiscardPolicy.OLD if spec.name in DISCARD_OLD else DiscardPolicy.NEW,
        duplicate_window=float(spec.duplicate_window_seconds),
    )


async def declare_streams(
    js: JetStreamContext, specs: tuple[StreamSpec, ...] = ALL_STREAMS, *, settings: Settings | None = None
) -> None:
    """Create each stream, or bring an existing one to the spec.

    With ``settings``, replicas and limits are set to theirs (also on an existing stream: a changed
    setting is applied on the next start). Without, a new stream gets the defaults and an existing
    one keeps its replicas and limits, so a caller that does not know them never undoes them.
    """
    for spec in specs:
        wanted = stream_config(spec, stream_policy(spec, settings))
        try:
            current = (await js.stream_info(spec.name)).config
        except NotFoundError:
            await js.add_stream(config=wanted)
            continue
        if settings is None:
            wanted.num_replicas = current.num_replicas
            wanted.max_bytes = current.max_bytes
            wanted.max_age = current.max_age
            wanted.discard = current.discard
        if _differs(current, wanted):
            await js.update_stream(config=wanted)


def _differs(current: StreamConfig, wanted: StreamConfig) -> bool:
    fields = ("subjects", "num_replicas", "max_bytes", "max_age", "discard", "duplicate_window")
    return any(getattr(current, name) != getattr(wanted, name) for name in fields)


async def document_store(js: JetStreamContext, *, settings: Settings | None = None) -> ObjectStore:
    """The object-store bucket that keeps uploaded files (file storage), created on first use.

    With ``settings``, its replicas, TTL and size cap are set to theirs (also on an existing bucket).
    """
    try:
        store = await js.object_store(OBJECT_BUCKET)
    except NotFoundError:  # nats-py's BucketNotFoundError is a NotFoundError
        return await js.create_object_store(OBJECT_BUCKET, config=document_store_config(settings))
    if settings is not None:
        wanted = document_store_config(settings)
        current = (await js.stream_info(OBJECT_STREAM)).config
        updated = replace(
            current,
            num_replicas=wanted.replicas,
            max_age=wanted.ttl or 0.0,
            max_bytes=wanted.max_bytes or -1,
        )
        if _differs(current, updated):
            await js.update_stream(config=updated)
    return store


def document_store_config(settings: Settings | None) -> ObjectStoreConfig:
    """The bucket's configuration under ``settings`` (one replica, no TTL and no cap without)."""
    return ObjectStoreConfig(
        bucket=OBJECT_BUCKET,
        storage=JsStorageType.FILE,
        description="Uploaded documents",
        replicas=settings.stream_replicas if settings else 1,
        ttl=float(settings.document_ttl_seconds) if settings and settings.document_ttl_seconds else None,
        max_bytes=settings.document_store_max_bytes if settings else None,
    )

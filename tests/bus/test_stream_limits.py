"""Replicas and limits of the streams and the document bucket come from the settings, on start and on change."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import nats
import pytest
from nats.js import JetStreamContext
from nats.js.api import DiscardPolicy

from policypal.bus import build_broker, declare_streams, document_store, jstream
from policypal.bus.streams import DEFAULT_MAX_BYTES, OBJECT_STREAM
from policypal.config import Settings
from policypal.config.settings import StreamLimits
from policypal.contracts.streams import ACTIONS, ALL_STREAMS, EVENTS
from policypal.devstack import ManagedProcess, start_nats_server

pytestmark = pytest.mark.integration

GIB = 1024**3


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ManagedProcess]:
    """A nats-server of this test alone (limits are changed on its streams)."""
    server = start_nats_server(tmp_path / "store", log_path=tmp_path / "nats.log")
    yield server
    server.stop()


@pytest.fixture
async def js(own_server: ManagedProcess) -> AsyncIterator[JetStreamContext]:
    """JetStream of ``own_server``."""
    nc = await nats.connect(own_server.url)
    try:
        yield nc.jetstream()
    finally:
        await nc.close()


def _settings(**values: object) -> Settings:
    return Settings(_env_file=None, environment="test", **values)  # type: ignore[arg-type]


async def test_new_streams_get_the_default_caps_and_work_streams_refuse_rather_than_drop(
    js: JetStreamContext,
) -> None:
    await declare_streams(js, settings=_settings())
    for spec in ALL_STREAMS:
        config = (await js.stream_info(spec.name)).config
        assert config.num_replicas == 1
        assert config.max_bytes == DEFAULT_MAX_BYTES[spec.name]
        assert config.max_age == spec.max_age_seconds
    assert (await js.stream_info("ACTIONS")).config.discard == DiscardPolicy.NEW
    assert (await js.stream_info("EVENTS")).config.discard == DiscardPolicy.OLD


async def test_a_changed_limit_reaches_the_existing_stream_and_a_caller_without_settings_keeps_it(
    js: JetStreamContext,
) -> None:
    await declare_streams(js, settings=_settings())
    changed = _settings(stream_limits={"EVENTS": {"max_bytes": 2 * GIB, "max_age_seconds": 3600}})
    await declare_streams(js, settings=changed)
    events = (await js.stream_info("EVENTS")).config
    assert (events.max_bytes, events.max_age) == (2 * GIB, 3600)

    await declare_streams(js)  # e.g. a process that only makes sure the streams exist
    events = (await js.stream_info("EVENTS")).config
    assert (events.max_bytes, events.max_age) == (2 * GIB, 3600)
    assert (await js.stream_info("DOCS")).config.max_bytes == DEFAULT_MAX_BYTES["DOCS"]


async def test_a_message_beyond_a_full_work_stream_is_refused_to_its_publisher(js: JetStreamContext) -> None:
    small = _settings(stream_limits={"ACTIONS": {"max_bytes": 4096}})
    await declare_streams(js, (ACTIONS,), settings=small)
    accepted = 0
    with pytest.raises(nats.js.errors.APIError, match="maximum bytes"):  # noqa: PT012 - the one that overflows
        for number in range(100):
            await js.publish("actions.audit.requested", b"x" * 512, headers={"Nats-Msg-Id": f"m{number}"})
            accepted += 1
    assert 0 < accepted < 100
    assert (await js.stream_info("ACTIONS")).state.messages == accepted, "none was dropped to make room"


async def test_a_service_broker_declares_its_streams_with_the_settings(
    own_server: ManagedProcess, js: JetStreamContext
) -> None:
    settings = _settings(nats_url=own_server.url, stream_limits={"EVENTS": StreamLimits(max_age_seconds=600)})
    broker = build_broker(settings)
    broker.publisher("events.*.*.*", stream=jstream(EVENTS))
    await broker.start()
    try:
        assert (await js.stream_info("EVENTS")).config.max_age == 600
        with pytest.raises(nats.js.errors.NotFoundError):
            await js.stream_info("DOCS")  # not used by this broker: not declared
    finally:
        await broker.stop()


async def test_the_document_bucket_gets_its_ttl_and_cap_and_they_follow_a_change(
    js: JetStreamContext,
) -> None:
    store = await document_store(js, settings=_settings(document_ttl_seconds=3600))
    await store.put("acme/doc", b"%PDF-1.7 bytes")
    assert (await js.stream_info(OBJECT_STREAM)).config.max_age == 3600

    await document_store(js, settings=_settings(document_ttl_seconds=7200, document_store_max_bytes=GIB))
    config = (await js.stream_info(OBJECT_STREAM)).config
    assert (config.max_age, config.max_bytes) == (7200, GIB)
    kept = await document_store(js)
    assert (await kept.get("acme/doc")).data == b"%PDF-1.7 bytes"
    assert (await js.stream_info(OBJECT_STREAM)).config.max_age == 7200


def test_stream_limits_name_known_streams_and_travel_to_child_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = _settings(stream_replicas=3, stream_limits={"DLQ": {"max_bytes": GIB}})
    env = settings.as_environment()
    assert env["POLICYPAL_STREAM_LIMITS"] == '{"DLQ":{"max_bytes":1073741824}}'
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    child = Settings(_env_file=None)
    assert child.stream_replicas == 3
    assert child.stream_limits == {"DLQ": StreamLimits(max_bytes=GIB)}
    with pytest.raises(ValueError, match="DOCS"):
        _settings(stream_limits={"STREAMS": {"max_bytes": 1}})

"""The bus admits no anonymous client, and an external credential reaches only its tenant's audits and events.

Against a real nats-server configured by ``policypal.cli.bus_credentials`` exactly as ``policypal up`` does.
"""

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import nats
import pytest
from faststream.nats import NatsRouter
from nats.aio.client import Client
from nats.aio.msg import Msg

from policypal.bus import (
    CurrentBroker,
    DeliveredMessage,
    build_broker,
    declare_streams,
    durable_pull_subscriber,
)
from policypal.bus.delivery import process_delivery
from policypal.bus.permissions import external_inbox_prefix
from policypal.config import Settings
from policypal.contracts import ActionRequested, ResolvedDocument
from policypal.contracts.limits import MAX_SOURCE_TEXT
from policypal.contracts.streams import ACTIONS, CHAT, DOCS, EVENTS
from policypal.contracts.subjects import tenant_action_requested
from tests.support.secured_bus import SecuredBus, secured_bus

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def bus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SecuredBus]:
    with secured_bus(tmp_path_factory.mktemp("secured-nats")) as started:
        yield started


@pytest.fixture(scope="module")
def acme_credential(bus: SecuredBus) -> tuple[str, str]:
    created = bus.credentials.create_external("acme", "billing-bot")
    assert created.password is not None
    return created.user, created.password


@pytest.fixture
async def acme(bus: SecuredBus, acme_credential: tuple[str, str]) -> AsyncIterator[Client]:
    await _declared(bus)
    bus.errors.clear()
    client = await _connect_when_live(bus, *acme_credential, inbox_prefix=external_inbox_prefix("acme"))
    yield client
    await client.close()


async def _declared(bus: SecuredBus) -> None:
    gateway = await bus.service("gateway")
    await declare_streams(gateway.jetstream())
    await gateway.close()


def _audit(tenant: str = "acme", **changes: Any) -> dict[str, Any]:
    event = ActionRequested(
        tenant_id=tenant,
        user_id="alice",
        request_id=f"r-{uuid.uuid4().hex[:8]}",
        thread_id="conv1",
        action="audit",
        query="Audit this clause.",
        documents=[ResolvedDocument(document_id="gdpr", title="GDPR", version="1", doc_type="regulatory")],
        source_text="Customer records are kept for ten years.",
        target_document_ids=["gdpr"],
    )
    return json.loads(event.model_dump_json()) | changes


def _violated(violations: list[str], subject: str) -> bool:
    # nats-py reports the server's -ERR in lower case.
    return any(f'"{subject.lower()}"' in v.lower() for v in violations)


async def _stream_messages(bus: SecuredBus, stream: str) -> int:
    gateway = await bus.service("gateway")
    try:
        info = await gateway.jetstream().stream_info(stream)
        return int(info.state.messages)
    finally:
        await gateway.close()


async def test_an_anonymous_client_is_refused(bus: SecuredBus) -> None:
    with pytest.raises(nats.errors.Error, match="Authorization Violation"):
        await bus.connect()


#: How a refused login surfaces: the server's -ERR, or, on a loaded machine, the close that follows it
#: read first.
REFUSED = (nats.errors.Error, ConnectionResetError)


async def test_a_wrong_password_is_refused(bus: SecuredBus, acme_credential: tuple[str, str]) -> None:
    for user in (acme_credential[0], "gateway"):
        with pytest.raises(REFUSED) as refused:
            await bus.connect(user, "not-the-password")
        if isinstance(refused.value, nats.errors.Error):
            assert "Authorization Violation" in str(refused.value)


async def test_an_external_system_publishes_its_tenants_audit_and_reads_its_tenants_events(
    bus: SecuredBus, acme: Client
) -> None:
    events: asyncio.Queue[Msg] = asyncio.Queue()
    await acme.subscribe("events.acme.>", cb=events.put)
    ack = await acme.jetstream().publish(
        tenant_action_requested("audit", "acme"), json.dumps(_audit()).encode(), stream=ACTIONS.name
    )
    assert ack.stream == ACTIONS.name
    worker = await bus.service("actions")
    await worker.publish("events.acme.conv1.response", b'{"answer": "yes"}')
    await worker.flush()
    received = await asyncio.wait_for(events.get(), timeout=5)
    assert received.subject == "events.acme.conv1.response"
    await worker.close()
    assert await bus.violations() == []


@pytest.mark.parametrize(
    ("subject", "stream"),
    [
        ("chat.requested", CHAT.name),
        ("chat.resumed", CHAT.name),
        ("docs.deleted", DOCS.name),
        ("docs.uploaded", DOCS.name),
        ("actions.audit.requested", ACTIONS.name),
        ("actions.inquire.requested", ACTIONS.name),
        ("actions.inquire.requested.acme", ACTIONS.name),
        ("events.acme.conv1.response", EVENTS.name),
        ("actions.audit.requested.globex", ACTIONS.name),
    ],
)
async def test_an_external_system_cannot_publish_internal_subjects_or_another_tenants_audit(
    bus: SecuredBus, acme: Client, subject: str, stream: str
) -> None:
    before = await _stream_messages(bus, stream)
    await acme.publish(subject, json.dumps(_audit()).encode())
    await acme.flush()
    assert _violated(await bus.violations(), subject)
    assert await _stream_messages(bus, stream) == before


async def test_an_external_system_cannot_touch_jetstream_itself(bus: SecuredBus, acme: Client) -> None:
    with pytest.raises(nats.errors.Error):
        await acme.jetstream().purge_stream(EVENTS.name)
    assert _violated(await bus.violations(), "$JS.API.STREAM.PURGE.EVENTS")


@pytest.mark.parametrize("pattern", ["events.globex.>", "events.>", "events.*.conv1.response", "_INBOX.>"])
async def test_an_external_system_cannot_read_another_tenants_events(
    bus: SecuredBus, acme: Client, pattern: str
) -> None:
    seen: list[Msg] = []

    async def keep(msg: Msg) -> None:
        seen.append(msg)

    await acme.subscribe(pattern, cb=keep)
    await acme.flush()
    worker = await bus.service("actions")
    await worker.publish("events.globex.conv1.response", b'{"answer": "globex secret"}')
    await worker.flush()
    await worker.close()
    violations = await bus.violations()
    assert seen == []
    assert _violated(violations, pattern)


async def test_a_service_may_do_only_what_it_needs(bus: SecuredBus) -> None:
    notifier = await bus.service("notifier")
    await notifier.publish("events.acme.conv1.response", b"{}")
    await notifier.publish("chat.requested", b"{}")
    ingestor = await bus.service("ingestor")
    await ingestor.publish("docs.deleted", b"{}")
    await notifier.flush()
    await ingestor.flush()
    violations = await bus.violations()
    for subject in ("events.acme.conv1.response", "chat.requested", "docs.deleted"):
        assert _violated(violations, subject), subject
    await notifier.close()
    await ingestor.close()


async def test_a_revoked_credential_is_refused_at_once(bus: SecuredBus) -> None:
    created = bus.credentials.create_external("acme", f"temp-{uuid.uuid4().hex[:6]}")
    assert created.password is not None
    client = await _connect_when_live(bus, created.user, created.password)
    await client.close()
    assert bus.credentials.revoke_external(created.user)
    for _ in range(50):
        try:
            probe = await bus.connect(created.user, created.password)
        except REFUSED:
            return
        await probe.close()
        await asyncio.sleep(0.1)
    pytest.fail("a revoked credential was still admitted after 5 s")


async def _connect_when_live(bus: SecuredBus, user: str, password: str, **options: Any) -> Client:
    """Connect once the server has reloaded the configuration that holds ``user``."""
    for _ in range(50):
        try:
            return await bus.connect(user, password, **options)
        except REFUSED:
            await asyncio.sleep(0.1)
    return await bus.connect(user, password, **options)


# --- admission: what every consumer checks before handling ----------------------------------------


@pytest.fixture
async def audit_consumer(bus: SecuredBus) -> AsyncIterator[list[ActionRequested]]:
    """An audit consumer logged in as the actions service, handling what admission lets through."""
    await _declared(bus)
    settings = Settings(
        _env_file=None, nats_url=bus.url, nats_user="actions", nats_password=bus.passwords["actions"]
    )
    handled: list[ActionRequested] = []
    router = NatsRouter()

    async def handle(event: ActionRequested) -> None:
        handled.append(event)

    @durable_pull_subscriber(
        router,
        tenant_action_requested("audit", "*"),
        stream=ACTIONS,
        durable="audit-admission",
        settings=settings,
    )
    async def on_request(msg: DeliveredMessage, broker: CurrentBroker) -> None:
        await process_delivery(msg, ActionRequested, handle, broker=broker, max_deliver=3)

    broker = build_broker(settings)
    broker.include_router(router)
    async with broker:
        await broker.start()
        yield handled


async def _dead_letter_of(bus: SecuredBus, request_id: str) -> Msg:
    reader = await bus.service("actions")
    try:
        sub = await reader.jetstream().subscribe("dlq.actions.audit.requested.acme", ordered_consumer=True)
        for _ in range(100):
            try:
                msg = await sub.next_msg(timeout=10)
            except nats.errors.TimeoutError:
                break
            if request_id.encode() in msg.data:
                return msg
        raise AssertionError(f"no dead letter for {request_id}; server errors: {bus.errors}")
    finally:
        await reader.close()


async def _publish_as_acme(acme: Client, payload: dict[str, Any]) -> str:
    await acme.jetstream().publish(
        tenant_action_requested("audit", "acme"), json.dumps(payload).encode(), stream=ACTIONS.name
    )
    return str(payload["request_id"])


@pytest.mark.parametrize(
    ("changes", "code", "words"),
    [
        ({"tenant_id": "globex"}, "tenant_mismatch", "payload names 'globex'"),
        ({"schema_version": 99}, "unsupported_schema_version", "schema_version 99"),
        ({"source_text": "x" * 900_000}, "too_large", "bytes"),
        ({"source_text": "x" * (MAX_SOURCE_TEXT + 1)}, "invalid", "source_text"),
    ],
    ids=["forged-tenant", "schema-99", "900-kB", "over-50000-chars"],
)
async def test_a_refused_request_is_dead_lettered_with_its_reason(
    bus: SecuredBus,
    acme: Client,
    audit_consumer: list[ActionRequested],
    changes: dict[str, Any],
    code: str,
    words: str,
) -> None:
    refused = await _publish_as_acme(acme, _audit(**changes))
    accepted = await _publish_as_acme(acme, _audit())
    letter = await _dead_letter_of(bus, refused)
    assert letter.headers is not None
    assert letter.headers["Policypal-Error-Code"] == code
    assert words in letter.headers["Policypal-Error"]
    for _ in range(100):
        if any(e.request_id == accepted for e in audit_consumer):
            break
        await asyncio.sleep(0.1)
    handled = {e.request_id for e in audit_consumer}
    assert accepted in handled
    assert refused not in handled
    assert await bus.violations(wait=0) == []

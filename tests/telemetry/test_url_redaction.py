"""Query strings are redacted in the HTTP spans and access logs of the gateway and the notifier.

Real apps served by uvicorn on real NATS and Valkey, with the tracer provider and the logging the
services install (``build_tracer_provider``, ``configure_json_logging``).
"""

import asyncio
import io
import logging
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from gateway.app import create_app as create_gateway
from notifier.app import create_app as create_notifier
from policypal.auth import issue_token
from policypal.config import Settings
from policypal.devstack import ManagedProcess
from policypal.telemetry import build_tracer_provider, configure_json_logging, redact_query, redact_url
from tests.gateway.conftest import stack_settings
from tests.support.serving import serve

SECRET = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXBheWxvYWQ.c2lnbmF0dXJl"


@pytest.fixture
def settings(nats_server: ManagedProcess, valkey_server: ManagedProcess) -> Settings:
    return stack_settings(nats_server, valkey_server)


def test_query_values_are_redacted_except_known_ids() -> None:
    assert redact_query(f"token={SECRET}&request_id=r1") == "token=REDACTED&request_id=r1"
    assert redact_query("ticket=ppt.acme.x&last_event_id=7&group_by=set") == (
        "ticket=REDACTED&last_event_id=7&group_by=set"
    )
    assert redact_query("prefix=Data+Prot&x=") == "prefix=REDACTED&x=REDACTED"
    assert redact_query(SECRET) == f"{SECRET}=REDACTED"  # a bare value is a name: kept as a name
    assert redact_query("") == ""
    assert redact_url(f"/v1/x/events?access_token={SECRET}#frag") == "/v1/x/events?access_token=REDACTED"
    assert redact_url(f"https://h:1/p?api_key={SECRET}") == "https://h:1/p?api_key=REDACTED"
    assert redact_url("/v1/documents") == "/v1/documents"


async def test_the_gateways_spans_carry_no_query_values(settings: Settings) -> None:
    exporter = InMemorySpanExporter()
    provider = build_tracer_provider("gateway", exporter=exporter)
    app = create_gateway(settings, tracer_provider=provider)
    auth = f"Bearer {issue_token(settings, 't1', 'u1')}"
    async with serve(app, settings.port) as url, httpx.AsyncClient(base_url=url, timeout=10) as http:
        response = await http.get(
            f"/v1/documents?group_by=set&token={SECRET}", headers={"Authorization": auth}
        )
        assert response.status_code == 200
    provider.force_flush()
    spans = exporter.get_finished_spans()
    queries = [
        span.attributes.get("url.query")
        for span in spans
        if span.attributes and "url.query" in span.attributes
    ]
    assert queries == ["group_by=set&token=REDACTED"]
    assert not any(SECRET in str(v) for span in spans for v in (span.attributes or {}).values())
    provider.shutdown()


async def test_the_notifiers_spans_carry_no_query_values(settings: Settings) -> None:
    exporter = InMemorySpanExporter()
    provider = build_tracer_provider("notifier", exporter=exporter)
    app = create_notifier(settings, tracer_provider=provider)
    async with serve(app, settings.notifier_port) as url, httpx.AsyncClient(base_url=url, timeout=10) as http:
        for query in (f"ticket=ppt.t1.{SECRET}&request_id=r1", f"token={SECRET}&request_id=r1"):
            assert (await http.get(f"/v1/conversations/c1/events?{query}")).status_code == 401
    provider.force_flush()
    spans = exporter.get_finished_spans()
    queries = sorted(
        str(s.attributes.get("url.query")) for s in spans if s.attributes and "url.query" in s.attributes
    )
    assert queries == ["ticket=REDACTED&request_id=r1", "token=REDACTED&request_id=r1"]
    assert not any(SECRET in str(v) for span in spans for v in (span.attributes or {}).values())
    provider.shutdown()


@pytest.fixture
def json_log_output() -> Iterator[io.StringIO]:
    """What the services' JSON logging writes, captured; the root logger is restored afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    configure_json_logging("notifier", "INFO")
    output = io.StringIO()
    handler = root.handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(output)
    try:
        yield output
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


async def test_the_access_log_carries_no_query_values(
    settings: Settings, json_log_output: io.StringIO
) -> None:
    # As the services run uvicorn: its loggers propagate to the JSON handler (log_config=None).
    config = uvicorn.Config(
        create_notifier(settings),
        host="127.0.0.1",
        port=settings.notifier_port,
        log_config=None,
        log_level="info",
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()  # raises the start-up error
        await asyncio.sleep(0.01)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{settings.notifier_port}") as http:
            await http.get(f"/v1/conversations/c1/events?token={SECRET}&request_id=r1")
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, timeout=10)
    lines = json_log_output.getvalue()
    assert "/v1/conversations/c1/events?token=REDACTED&request_id=r1" in lines
    # The test's own client logged its request through the same handler: redacted as well.
    assert '"logger": "httpx"' in lines
    assert SECRET not in lines

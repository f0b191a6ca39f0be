"""Log lines are JSON and carry the trace of the request they belong to."""

import json
import logging
import subprocess
import sys

import pytest
from opentelemetry.sdk.trace import TracerProvider

from policypal.devstack import ManagedProcess
from policypal.telemetry import JsonFormatter, request_scope

#: A FastStream worker on the project's broker: it starts, logs FastStream's own lines, and stops.
WORKER = """
import asyncio
from faststream import FastStream
from policypal.bus import build_broker
from policypal.config import Settings
from policypal.telemetry import configure_json_logging

configure_json_logging("probe", "DEBUG")
broker = build_broker(Settings(NATS_URL={url!r}))

@broker.subscriber("probe.subject")
async def handle(body: str) -> None:
    raise ValueError("probe handler failed")  # FastStream logs it on its broker logger

async def publish_then_stop() -> None:
    await broker.publish("ping", "probe.subject")
    await asyncio.sleep(0.5)  # the handler logs its message at DEBUG meanwhile
    app.exit()

app = FastStream(broker, after_startup=[publish_then_stop])

async def main() -> None:
    await app.run()

asyncio.run(main())
"""


def _record(message: str, exc_info: object = None) -> logging.LogRecord:
    return logging.LogRecord("policypal.test", logging.WARNING, __file__, 1, message, (), exc_info)  # type: ignore[arg-type]


def test_a_line_outside_a_span_has_no_trace() -> None:
    line = json.loads(JsonFormatter("resolver").format(_record("dead-lettering chat.requested")))
    assert line["service"] == "resolver"
    assert line["level"] == "WARNING"
    assert line["message"] == "dead-lettering chat.requested"
    assert "trace_id" not in line


def test_a_line_inside_a_span_carries_its_trace_and_span() -> None:
    tracer = TracerProvider().get_tracer("test")
    with tracer.start_as_current_span("consume") as span:
        line = json.loads(JsonFormatter("ingestor").format(_record("parsed 3 pages")))
        context = span.get_span_context()
    assert line["trace_id"] == format(context.trace_id, "032x")
    assert line["span_id"] == format(context.span_id, "016x")


def test_exceptions_are_kept_in_one_line() -> None:
    try:
        raise RuntimeError("vector store down")
    except RuntimeError:
        formatted = JsonFormatter("actions").format(_record("handler failed", sys.exc_info()))
    assert "\n" not in formatted
    assert "RuntimeError: vector store down" in json.loads(formatted)["exception"]


def test_a_line_inside_a_request_scope_names_the_request_tenant_and_action() -> None:
    with request_scope("acme", "r123", "inquire"):
        line = json.loads(JsonFormatter("actions").format(_record("retrieved 8 passages")))
    assert (line["request_id"], line["tenant_id"], line["action"]) == ("r123", "acme", "inquire")
    outside = json.loads(JsonFormatter("actions").format(_record("idle")))
    assert "request_id" not in outside
    assert "tenant_id" not in outside


def test_terminal_colours_never_reach_the_json() -> None:
    coloured = "\x1b[32mINFO\x1b[0m     - FastStream app \x1b[1mstarted\x1b[0m"
    line = json.loads(JsonFormatter("resolver").format(_record(coloured)))
    assert line["message"] == "INFO     - FastStream app started"


@pytest.mark.integration
def test_faststream_lines_go_to_the_json_handler_without_colours(nats_server: ManagedProcess) -> None:
    """A real worker process: every line it writes, FastStream's own included, is JSON without ANSI."""
    done = subprocess.run(
        [sys.executable, "-c", WORKER.format(url=nats_server.url)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert "\x1b" not in done.stdout + done.stderr
    entries = [json.loads(line) for line in lines]
    messages = [entry["message"] for entry in entries]
    assert any("FastStream app started" in message for message in messages), messages
    failures = [entry for entry in entries if "probe handler failed" in entry.get("exception", "")]
    assert failures, messages
    assert failures[0]["logger"] == "faststream.access.nats"
    assert failures[0]["level"] == "ERROR"

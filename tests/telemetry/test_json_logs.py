"""Log lines are JSON and carry the trace of the request they belong to."""

import json
import logging
import sys

from opentelemetry.sdk.trace import TracerProvider

from policypal.telemetry import JsonFormatter


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

"""Logs as one JSON object per line, with the trace and span of the current request.

Ops can then jump from a log line to its trace. Messages are our own sentences; document text and
secrets are never logged by PolicyPal code, and the query strings of access-log lines are redacted.
"""

import json
import logging
from datetime import UTC, datetime

from opentelemetry import trace

from policypal.telemetry.url_redaction import AccessLogRedaction


class JsonFormatter(logging.Formatter):
    """Formats a record as JSON with ``trace_id`` and ``span_id`` when a span is active."""

    def __init__(self, service: str) -> None:
        super().__init__()
        self._service = service

    def format(self, record: logging.LogRecord) -> str:
        """One line of JSON."""
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "service": self._service,
            "logger": record.name,
            "message": record.getMessage(),
        }
        context = trace.get_current_span().get_span_context()
        if context.is_valid:
            entry["trace_id"] = format(context.trace_id, "032x")
            entry["span_id"] = format(context.span_id, "016x")
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_json_logging(service: str, level: str) -> None:
    """Send every log record of this process to stderr as JSON."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter(service))
    # uvicorn's access log writes each request's URL: its query may hold a ticket or a token.
    handler.addFilter(AccessLogRedaction())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)

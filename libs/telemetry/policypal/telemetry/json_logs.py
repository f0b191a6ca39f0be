"""Logs as one JSON object per line, with the request, tenant, trace and span of the current work.

Ops can then jump from a log line to its trace, or gather a request's or a tenant's lines. Messages
are our own sentences; document text and secrets are never logged by PolicyPal code, and the query
strings of access-log lines are redacted. Libraries' own lines (FastStream's, uvicorn's) go through
the same formatter, without the terminal colour codes some of them add.
"""

import json
import logging
import re
from datetime import UTC, datetime

from opentelemetry import trace

from policypal.telemetry.request_scope import current_scope
from policypal.telemetry.url_redaction import AccessLogRedaction

#: ANSI escape sequences (colours, cursor moves): meaningless in a JSON log file.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
#: Libraries that give their loggers a coloured handler of their own and stop propagation; their
#: lines are taken back to the process's JSON handler.
ADOPTED_LOGGERS = ("faststream", "faststream.access", "faststream.access.nats")


def without_ansi(text: str) -> str:
    """``text`` without terminal escape sequences."""
    return _ANSI.sub("", text)


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
            "message": without_ansi(record.getMessage()),
        }
        scope = current_scope()
        if scope is not None:
            entry["request_id"] = scope.request_id
            entry["tenant_id"] = scope.tenant_id
            if scope.action:
                entry["action"] = scope.action
        context = trace.get_current_span().get_span_context()
        if context.is_valid:
            entry["trace_id"] = format(context.trace_id, "032x")
            entry["span_id"] = format(context.span_id, "016x")
        if record.exc_info:
            entry["exception"] = without_ansi(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False)


def configure_json_logging(service: str, level: str) -> None:
    """Send every log record of this process, libraries' included, to stderr as JSON."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter(service))
    # uvicorn's access log writes each request's URL: its query may hold a ticket or a token.
    handler.addFilter(AccessLogRedaction())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ADOPTED_LOGGERS:
        adopted = logging.getLogger(name)
        adopted.handlers.clear()
        adopted.propagate = True

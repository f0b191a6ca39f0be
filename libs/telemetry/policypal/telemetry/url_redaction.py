"""Query strings out of traces and access logs: a URL carries whatever a client put in it.

Browsers' event streams carry a ticket in the URL, older clients an access token; a mistyped client
may send anything. So every query value is replaced by ``REDACTED`` before a span or an access-log
line leaves the process, except the few parameters known to hold ids that help read a trace.
"""

import logging
from urllib.parse import parse_qsl, urlencode

from opentelemetry.context import Context
from opentelemetry.sdk.trace import Span, SpanProcessor

REDACTED = "REDACTED"
#: Parameters whose values are ids or switches, never secrets: kept for whoever reads the trace.
KEPT_PARAMETERS = frozenset({"request_id", "last_event_id", "group_by"})
#: Span attributes that hold a query string alone (``url.query``) or a URL with one.
QUERY_ATTRIBUTES = ("url.query",)
URL_ATTRIBUTES = ("http.target", "http.url", "url.full")


def redact_query(query: str) -> str:
    """``query`` with every value but those of ``KEPT_PARAMETERS`` replaced by ``REDACTED``."""
    if not query:
        return query
    pairs = parse_qsl(query, keep_blank_values=True)
    if not pairs:  # not key=value pairs at all: nothing in it can be told safe
        return REDACTED
    return urlencode([(key, value if key in KEPT_PARAMETERS else REDACTED) for key, value in pairs])


def redact_url(url: str) -> str:
    """``url`` (absolute, or a path) with its query redacted; the fragment dropped."""
    base, question, rest = url.partition("?")
    if not question:
        return url
    query = rest.partition("#")[0]
    return f"{base}?{redact_query(query)}"


class QueryRedaction(SpanProcessor):
    """Redacts the query of URL attributes as each span starts, before any exporter can see them.

    HTTP server spans (FastAPI's, Starlette's) set their URL attributes when they start; exporters
    read the attributes when the span ends, so redacting at the start is enough.
    """

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        """Rewrite the URL attributes of ``span`` in place."""
        attributes = span.attributes or {}
        for name in QUERY_ATTRIBUTES:
            value = attributes.get(name)
            if isinstance(value, str):
                span.set_attribute(name, redact_query(value))
        for name in URL_ATTRIBUTES:
            value = attributes.get(name)
            if isinstance(value, str):
                span.set_attribute(name, redact_url(value))


#: Loggers that write a request's URL, and the position of the URL among their record's arguments:
#: uvicorn's access log ('%s - "%s %s HTTP/%s" %d': client, method, path, ...) and httpx's request
#: log ('HTTP Request: %s %s "%s %d %s"': method, URL, ...) of outgoing calls.
_URL_ARGUMENT = {"uvicorn.access": 2, "httpx": 1}


class AccessLogRedaction(logging.Filter):
    """Redacts the query of the URL in uvicorn's access-log and httpx's request-log records."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record; rewrite the URL argument of the records that carry one."""
        position = _URL_ARGUMENT.get(record.name)
        args = record.args
        if position is not None and isinstance(args, tuple) and len(args) > position:
            url = redact_url(str(args[position]))
            record.args = (*args[:position], url, *args[position + 1 :])
        return True

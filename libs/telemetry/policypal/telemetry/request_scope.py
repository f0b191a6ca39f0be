"""Which tenant, request and action the running code works for, stamped on the spans it opens.

``process_delivery`` enters the scope of every event it handles, so the spans of parsing, embedding,
searching and LLM calls made under it carry ``policypal.tenant_id``, ``policypal.request_id`` and
``policypal.action`` without each function being handed those ids. Only ids go on spans, never text.
"""

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

from opentelemetry import trace
from opentelemetry.util.types import AttributeValue

TENANT_ID = "policypal.tenant_id"
REQUEST_ID = "policypal.request_id"
ACTION = "policypal.action"


@dataclass(frozen=True)
class RequestScope:
    """The ids of the request being worked on; ``action`` is unknown until the resolver decides it."""

    tenant_id: str
    request_id: str
    action: str | None = None

    def attributes(self) -> dict[str, AttributeValue]:
        """The scope as span attributes."""
        attributes: dict[str, AttributeValue] = {TENANT_ID: self.tenant_id, REQUEST_ID: self.request_id}
        if self.action:
            attributes[ACTION] = self.action
        return attributes


_current: ContextVar[RequestScope | None] = ContextVar("policypal_request_scope", default=None)


def current_scope() -> RequestScope | None:
    """The scope of the running task, if one was entered."""
    return _current.get()


@contextmanager
def request_scope(tenant_id: str, request_id: str, action: str | None = None) -> Iterator[RequestScope]:
    """Work done inside the block belongs to this request (async tasks started inside inherit it)."""
    scope = RequestScope(tenant_id=tenant_id, request_id=request_id, action=action)
    token = _current.set(scope)
    try:
        yield scope
    finally:
        _current.reset(token)


def stamp_action(action: str) -> None:
    """The running request's action is now known: the current span and every span opened after carry it.

    For the resolver, which learns the action only after its handling span was opened: that span, and
    the document matcher's LLM and search spans that follow, then carry ``policypal.action`` too. The
    scope's change ends with the enclosing ``request_scope`` block (or the task it was made in).
    """
    scope = _current.get()
    if scope is not None and scope.action != action:
        _current.set(replace(scope, action=action))
    trace.get_current_span().set_attribute(ACTION, action)


def scope_attributes() -> dict[str, AttributeValue]:
    """The current scope's span attributes; empty outside any scope."""
    scope = _current.get()
    return scope.attributes() if scope else {}


@contextmanager
def service_span(
    name: str, attributes: Mapping[str, AttributeValue] | None = None, *, tracer_name: str = "policypal"
) -> Iterator[trace.Span]:
    """A span of one step of a service (parse, embed, search), with the request scope's ids.

    ``attributes`` must be ids, counts or names: never document text, prompts or secrets.
    """
    tracer = trace.get_tracer(tracer_name)
    with tracer.start_as_current_span(name, attributes={**scope_attributes(), **(attributes or {})}) as span:
        yield span

"""Spans opened while a request is handled carry its tenant, request and action ids."""

import asyncio

from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from policypal.telemetry import current_scope, request_scope, scope_attributes, service_span, stamp_action


def test_outside_a_request_spans_carry_no_request_ids(finished_spans: InMemorySpanExporter) -> None:
    with service_span("embed", {"policypal.chunks": 3}):
        pass
    [span] = finished_spans.get_finished_spans()
    assert dict(span.attributes or {}) == {"policypal.chunks": 3}


async def test_spans_in_a_request_and_in_tasks_it_starts_carry_its_ids(
    finished_spans: InMemorySpanExporter,
) -> None:
    async def search() -> None:
        with service_span("search"):
            await asyncio.sleep(0)

    with request_scope("acme", "req-1", "compare"):
        with service_span("parse"):
            pass
        await asyncio.create_task(search())
    assert current_scope() is None
    assert scope_attributes() == {}

    ids = {"policypal.tenant_id": "acme", "policypal.request_id": "req-1", "policypal.action": "compare"}
    spans = {span.name: dict(span.attributes or {}) for span in finished_spans.get_finished_spans()}
    assert spans == {"parse": ids, "search": ids}


def test_a_request_without_an_action_yet_has_no_action_attribute() -> None:
    with request_scope("acme", "req-2"):
        assert scope_attributes() == {"policypal.tenant_id": "acme", "policypal.request_id": "req-2"}


def test_an_action_decided_inside_the_request_goes_on_its_span_and_the_spans_after(
    finished_spans: InMemorySpanExporter,
) -> None:
    with request_scope("acme", "req-3"), service_span("handle resolver"):
        with service_span("intent"):
            pass
        stamp_action("audit")
        with service_span("documents"):
            pass
    assert current_scope() is None

    ids = {"policypal.tenant_id": "acme", "policypal.request_id": "req-3"}
    spans = {span.name: dict(span.attributes or {}) for span in finished_spans.get_finished_spans()}
    assert spans == {
        "intent": ids,
        "documents": {**ids, "policypal.action": "audit"},
        "handle resolver": {**ids, "policypal.action": "audit"},
    }

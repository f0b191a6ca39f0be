"""A request that cannot be run ends with an ``error`` event its publisher hears, not only a dead letter.

The publishing guide's audit request (docs/publishing-audits.md) published by another system on its
tenant's subject, naming a conversation that does not exist, through the real @Audit worker.
"""

import json
import uuid
from pathlib import Path

import pytest
from redis.asyncio import Redis

from actions.audit.service import DURABLE, SUBJECT, build_router
from policypal.contracts import ActionRequested, ErrorEvent, ResolvedDocument
from policypal.contracts.codes import ErrorCode
from policypal.devstack import ManagedProcess
from policypal.embeddings import MiniLMEmbedder
from tests.actions.worker_harness import USER, local_index, worker_harness
from tests.support.jetstream import payload, stream_messages, wait_for_messages

pytestmark = pytest.mark.integration


async def test_an_audit_request_on_an_unknown_thread_ends_with_an_error_event_to_its_publisher(
    nats_server: ManagedProcess, redis_client: Redis, embedder: MiniLMEmbedder, tmp_path: Path
) -> None:
    tenant = f"t{uuid.uuid4().hex[:10]}"
    thread = "conv-that-was-never-created"
    async with (
        local_index(tmp_path / "q", embedder) as index,
        worker_harness(
            nats_server.url, redis_client, tenant, durable=DURABLE, subject=SUBJECT, build_router=build_router
        ) as harness,
    ):
        await harness.start(index, embedder)
        await harness.js.purge_stream("DLQ", subject=f"dlq.{SUBJECT}.{tenant}")
        request = ActionRequested(
            tenant_id=tenant,
            user_id=USER,
            request_id=f"billing-bot-{uuid.uuid4().hex[:8]}",
            thread_id=thread,
            action="audit",
            query="Audit our retention clause against the GDPR.",
            documents=[
                ResolvedDocument(
                    document_id="gdpr2016", title="GDPR", version="2016/679", doc_type="regulatory"
                )
            ],
            source_text="Customer records are kept for 10 years and may be shared without consent.",
            target_document_ids=["gdpr2016"],
        )
        await harness.js.publish(
            f"{SUBJECT}.{tenant}",
            request.model_dump_json().encode(),
            stream="ACTIONS",
            headers={"Nats-Msg-Id": request.event_id, "content-type": "application/json"},
        )

        [message] = await wait_for_messages(
            harness.js, "EVENTS", f"events.{tenant}.{thread}.error", within=30
        )
        error = ErrorEvent.model_validate(payload(message))
        [dead_letter] = await wait_for_messages(harness.js, "DLQ", f"dlq.{SUBJECT}.{tenant}", within=10)
        others = await stream_messages(harness.js, "EVENTS", f"events.{tenant}.>")

    assert error.request_id == request.request_id
    assert error.code == ErrorCode.REQUEST_FAILED
    assert error.retryable is False
    assert thread in error.message
    assert error.message.startswith("The request was not run: ")
    assert json.loads(dead_letter.data)["request_id"] == request.request_id, "operators still see it"
    assert dead_letter.headers is not None
    assert dead_letter.headers["Policypal-Error-Code"] == "unprocessable"
    assert len(others) == 1, "one terminal event and nothing else"

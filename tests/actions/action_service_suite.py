"""The behaviour every action worker shares, tested once: each action's service tests subclass
``ActionServiceSuite`` with its specifics (the pattern of FastStream's tests/brokers/base).

A subclass names its action, tenant, what its fallback notice calls the answer, a request the worker
answers by reading documents from the index, and requests it must refuse; it supplies its module's
``library`` fixture and tells the suite where the index and the documents are in it. The ``harness``
fixture (``action_harness``) is module-level, so the module's own tests use it too.
"""

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest
from redis.asyncio import Redis

from actions.action_workers import router_builder
from actions.drafting import llm_fallback_notice
from policypal.contracts import ActionName, ErrorNotice
from policypal.contracts.action_registry import action_spec
from policypal.devstack import ManagedProcess
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from policypal.state import ConversationStore
from policypal.vectorstore import ChunkIndex, ChunkPoint
from tests.actions.worker_harness import (
    THREAD,
    IndexedDocument,
    WorkerHarness,
    assert_citations_verbatim,
    request,
    worker_harness,
)
from tests.support.jetstream import payload, wait_for_messages
from tests.support.openai_server import Reply, ScriptedOpenAI


def action_harness(tenant: str, action: ActionName) -> Any:
    """The module's ``harness`` fixture: ``action``'s worker (found in the registry) on the test bus."""

    @pytest.fixture
    async def harness(nats_server: ManagedProcess, redis_client: Redis) -> AsyncIterator[WorkerHarness]:
        spec = action_spec(action)
        async with worker_harness(
            str(nats_server.url),
            redis_client,
            tenant,
            durable=spec.durable,
            subject=spec.subject,
            build_router=router_builder(spec),
        ) as worker:
            yield worker

    return harness


@dataclass(frozen=True)
class Ask:
    """A request of the suite's action: its query, the documents it names (ids), and other fields."""

    query: str
    documents: tuple[str, ...]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Refused:
    """A request the worker refuses: the error code, and words its message must contain ("" for any)."""

    ask: Ask
    code: str
    said: str = ""
    #: The test's id (else the code).
    name: str = ""


class UnreachableIndex(ChunkIndex):
    """Qdrant is down."""

    async def document_chunks(self, *, tenant_id: str, user_id: str, document_id: str) -> list[ChunkPoint]:
        raise ConnectionError("qdrant unreachable")


class ActionServiceSuite:
    """Tests every action worker passes; a subclass fills in the class attributes and the two hooks."""

    TENANT: ClassVar[str]
    ACTION: ClassVar[ActionName]
    #: What ``llm_fallback_notice`` calls this action's answer ("summary", "comparison"…).
    FALLBACK_WHAT: ClassVar[str]
    #: A request the worker answers offline with citations; it reads document chunks from the index.
    ANSWERABLE: ClassVar[Ask]
    REFUSALS: ClassVar[tuple[Refused, ...]]

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        """Each of the subclass's refusals is a test of its own."""
        if "refused" in metafunc.fixturenames:
            metafunc.parametrize("refused", self.REFUSALS, ids=lambda r: r.name or r.code)

    def index_of(self, library: Any) -> ChunkIndex:
        """The index of the module's ``library``."""
        raise NotImplementedError

    def documents_of(self, library: Any) -> list[IndexedDocument]:
        """The documents of the module's ``library``."""
        raise NotImplementedError

    def assert_fallback(self, body: dict[str, Any], openai_server: ScriptedOpenAI) -> None:
        """What this action's offline answer to ``ANSWERABLE`` says after the model failed (if anything)."""

    def _request(self, library: Any, ask: Ask) -> Any:
        by_id = {d.resolved.document_id: d for d in self.documents_of(library)}
        return request(self.TENANT, self.ACTION, ask.query, [by_id[i] for i in ask.documents], **ask.extra)

    def _cited(self, library: Any, ask: Ask) -> list[IndexedDocument]:
        return [d for d in self.documents_of(library) if d.resolved.document_id in ask.documents]

    async def test_a_request_it_cannot_carry_out_is_refused_with_a_reason(
        self, harness: WorkerHarness, library: Any, embedder: MiniLMEmbedder, refused: Refused
    ) -> None:
        broker = await harness.start(self.index_of(library), embedder)
        await harness.ask(broker, self._request(library, refused.ask))
        body = await harness.terminal(self.TENANT, "error")
        assert (body["code"], body["retryable"]) == (refused.code, False)
        assert refused.said in body["message"]

    async def test_last_failed_delivery_tells_the_user_before_dead_lettering(
        self, harness: WorkerHarness, library: Any, embedder: MiniLMEmbedder, redis_client: Redis
    ) -> None:
        index = self.index_of(library)
        broken = UnreachableIndex(index._client, model_id=embedder.model_id, dimension=embedder.dimension)
        broker = await harness.start(broken, embedder, max_deliver=1)
        event = self._request(library, self.ANSWERABLE)
        await harness.ask(broker, event)

        body = await harness.terminal(self.TENANT, "error")
        assert (body["code"], body["retryable"]) == ("action_failed", True)
        letters = await wait_for_messages(harness.js, "DLQ", f"dlq.{harness.subject}")
        assert event.request_id in {payload(m)["request_id"] for m in letters}
        [turn] = await ConversationStore(redis_client).messages(self.TENANT, THREAD)
        assert turn.metadata == ErrorNotice(error_code="action_failed")

    async def test_llm_server_errors_fall_back_to_the_offline_answer_with_a_notice(
        self,
        harness: WorkerHarness,
        library: Any,
        embedder: MiniLMEmbedder,
        openai_server: ScriptedOpenAI,
        llm: LLM,
    ) -> None:
        openai_server.enqueue(Reply.failure(500), Reply.failure(500))
        broker = await harness.start(self.index_of(library), embedder, llm=llm)
        await harness.ask(broker, self._request(library, self.ANSWERABLE))
        body = await harness.terminal(self.TENANT)

        # The first call and its one retry, then the offline answer.
        assert len(openai_server.requests) == 2
        assert openai_server.pending == 0
        assert body["model"] == "offline-extractive"
        assert body["notices"] == [llm_fallback_notice(self.FALLBACK_WHAT)]
        assert_citations_verbatim(body, self._cited(library, self.ANSWERABLE))
        assert await harness.tokens(self.TENANT) == []
        self.assert_fallback(body, openai_server)

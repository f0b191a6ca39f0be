"""LLM calls as spans (gen_ai semantic conventions) and metrics, measured by the SDK's in-memory readers.

The calls go over HTTP to the scripted OpenAI-compatible server; spans must carry ids, model names,
token counts and cost, and never the prompt, the document text, the answer or the key.
"""

import pytest
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode
from pydantic import BaseModel

from policypal.contracts import UserContext
from policypal.llm import LLMUnavailableError, Prompt, price_of
from policypal.telemetry import request_scope
from tests.llm.conftest import API_KEY, LLMFactory
from tests.support.openai_server import Reply, ScriptedOpenAI
from tests.support.telemetry import attribute_values, metric_sum

DOCUMENT_TEXT = "Clause 9.4: the vault code is 7741 and records are shredded after ninety days."
QUESTION = "Which confidential retention clause applies to the Zephyr merger?"
ANSWER = "Records are shredded after ninety days [1]."
PROMPT = Prompt(
    instructions=f"Answer from these passages only.\n[1] {DOCUMENT_TEXT}",
    user=QUESTION,
    context=UserContext(industry="Quokka banking", location="Atlantis"),
)


class Finding(BaseModel):
    clause: str


def _llm_spans(exporter: InMemorySpanExporter) -> tuple[ReadableSpan, ...]:
    # The scripted server is a FastAPI app in this process: its own server spans are not under test.
    return tuple(
        s
        for s in exporter.get_finished_spans()
        if s.instrumentation_scope is not None and s.instrumentation_scope.name == "policypal.llm.client"
    )


async def test_a_streamed_call_is_one_client_span_with_gen_ai_and_request_attributes(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory, finished_spans: InMemorySpanExporter
) -> None:
    openai_server.enqueue(
        Reply(content=ANSWER, prompt_tokens=1500, completion_tokens=11, model="gpt-4o-mini-2024-07-18")
    )
    llm = make_llm()

    with request_scope("acme", "req-42", "inquire"):
        stream = llm.stream("inquire", PROMPT)
        _ = [delta async for delta in stream]

    [span] = _llm_spans(finished_spans)
    assert span.name == "chat gpt-4o-mini"
    assert span.kind is SpanKind.CLIENT
    attributes = dict(span.attributes or {})
    price = price_of("gpt-4o-mini")
    assert price is not None
    assert attributes == {
        "gen_ai.operation.name": "chat",
        "gen_ai.system": "openai",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
        "gen_ai.usage.input_tokens": 1500,
        "gen_ai.usage.output_tokens": 11,
        "policypal.cost_usd": pytest.approx(stream.completion.usage.cost_usd),
        "policypal.llm.task": "inquire",
        "policypal.tenant_id": "acme",
        "policypal.request_id": "req-42",
        "policypal.action": "inquire",
    }
    assert stream.completion.usage.cost_usd == pytest.approx(
        (1500 * price.prompt_per_million + 11 * price.completion_per_million) / 1e6
    )


async def test_traced_calls_carry_no_prompt_document_answer_or_key(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory, finished_spans: InMemorySpanExporter
) -> None:
    # A stream, a completion, and a structured reply corrected once: every path that opens a span.
    openai_server.enqueue(
        Reply.text(ANSWER),
        Reply.text(ANSWER),
        Reply.json({"wrong": DOCUMENT_TEXT}),
        Reply.json({"clause": "9.4"}),
    )
    llm = make_llm()

    with request_scope("acme", "req-43", "audit"):
        _ = [delta async for delta in llm.stream("inquire", PROMPT)]
        await llm.complete("summarize", PROMPT)
        await llm.structured("audit", PROMPT, Finding)

    spans = _llm_spans(finished_spans)
    assert [s.name for s in spans] == ["chat gpt-4o-mini", "chat gpt-4o-mini", "chat gpt-4o", "chat gpt-4o"]
    values = attribute_values(spans)
    for secret in (API_KEY, "vault code", "7741", "Zephyr", "Quokka", "Atlantis", "shredded", "9.4"):
        assert not any(secret in value for value in values), secret
    assert all(dict(s.attributes or {})["policypal.request_id"] == "req-43" for s in spans)


async def test_a_failed_call_is_an_error_span_without_usage(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory, finished_spans: InMemorySpanExporter
) -> None:
    openai_server.enqueue(Reply.failure(500))
    llm = make_llm(max_retries=0)

    with pytest.raises(LLMUnavailableError):
        await llm.complete("inquire", PROMPT)

    [span] = _llm_spans(finished_spans)
    assert span.status.status_code is StatusCode.ERROR
    assert dict(span.attributes or {})["http.response.status_code"] == 500
    assert "gen_ai.usage.input_tokens" not in (span.attributes or {})


async def test_tokens_and_cost_are_counted_by_model_and_direction(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory, metric_reader: InMemoryMetricReader
) -> None:
    before = metric_reader.get_metrics_data()
    openai_server.enqueue(
        Reply.text(ANSWER, prompt_tokens=1000, completion_tokens=10),
        Reply.json({"clause": "9.4"}),
    )
    llm = make_llm()

    stream = llm.stream("inquire", PROMPT)
    _ = [delta async for delta in stream]
    structured = await llm.structured("audit", PROMPT, Finding)

    after = metric_reader.get_metrics_data()

    def grew(name: str, **attributes: str) -> float:
        return metric_sum(after, name, **attributes) - metric_sum(before, name, **attributes)

    small, large = {"gen_ai.request.model": "gpt-4o-mini"}, {"gen_ai.request.model": "gpt-4o"}
    assert grew("policypal.llm.tokens", **small, **{"gen_ai.token.type": "input"}) == 1000
    assert grew("policypal.llm.tokens", **small, **{"gen_ai.token.type": "output"}) == 10
    assert grew("policypal.llm.tokens", **large, **{"gen_ai.token.type": "input"}) == (
        structured.usage.prompt_tokens
    )
    assert grew("policypal.llm.cost", **small) == pytest.approx(stream.completion.usage.cost_usd)
    assert grew("policypal.llm.cost", **large) == pytest.approx(structured.usage.cost_usd)
    assert structured.usage.cost_usd > 0


async def test_a_span_says_when_its_usage_is_an_estimate(
    llama_like_server: ScriptedOpenAI, make_llm: LLMFactory, finished_spans: InMemorySpanExporter
) -> None:
    llama_like_server.enqueue(Reply.text(ANSWER))
    llm = make_llm(server=llama_like_server)

    stream = llm.stream("inquire", PROMPT)
    _ = [delta async for delta in stream]

    [span] = _llm_spans(finished_spans)
    attributes = dict(span.attributes or {})
    assert attributes["policypal.usage.estimated"] is True
    assert attributes["gen_ai.usage.output_tokens"] == stream.completion.usage.completion_tokens > 0

"""The adapter against a real HTTP server speaking the OpenAI protocol, scripted per test."""

import json
import time

import pytest
from pydantic import BaseModel, Field

from policypal.contracts import UserContext
from policypal.llm import (
    SYSTEM_PREFIX,
    LLMUnavailableError,
    Prompt,
    StructuredOutputError,
    estimate_tokens,
    price_of,
)
from tests.llm.conftest import API_KEY, LLMFactory
from tests.support.openai_server import Reply, ScriptedOpenAI

PROMPT = Prompt(
    instructions="Answer from the numbered passages only.",
    user="How long must records be kept?",
    context=UserContext(industry="Banking", location="Malaysia"),
)


class Verdict(BaseModel):
    compliant: bool
    reasons: list[str] = Field(min_length=1)


async def test_stream_yields_deltas_in_order_then_usage_and_cost(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory
) -> None:
    openai_server.enqueue(
        Reply.text("Records are kept seven years [1].", prompt_tokens=1200, completion_tokens=9)
    )
    llm = make_llm()

    stream = llm.stream("inquire", PROMPT)
    deltas = [delta async for delta in stream]

    assert deltas == ["Records", " are", " kept", " seven", " years", " [1]."]
    completion = stream.completion
    assert completion.text == "Records are kept seven years [1]."
    assert completion.model == "gpt-4o-mini"
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (1200, 9)
    price = price_of("gpt-4o-mini")
    assert price is not None
    expected = (1200 * price.prompt_per_million + 9 * price.completion_per_million) / 1e6
    assert completion.usage.cost_usd == pytest.approx(expected)
    assert completion.usage.estimated is False

    [request] = openai_server.requests
    assert request.body["stream"] is True
    assert request.body["stream_options"] == {"include_usage": True}
    assert request.body["model"] == "gpt-4o-mini"
    assert request.body["temperature"] == pytest.approx(0.1)
    system, user = request.messages
    # The static prefix opens the prompt (provider prompt caching), the user's context follows it.
    assert system["role"] == "system"
    assert system["content"].startswith(SYSTEM_PREFIX)
    assert "Industry: Banking" in system["content"]
    assert "Location: Malaysia" in system["content"]
    assert user == {"role": "user", "content": PROMPT.user}
    # The key travels only in the Authorization header.
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    assert API_KEY not in json.dumps(request.body)


async def test_a_stream_without_usage_gets_estimated_usage_marked_as_such(
    llama_like_server: ScriptedOpenAI, make_llm: LLMFactory
) -> None:
    answer = "Records are kept seven years [1]."
    llama_like_server.enqueue(Reply.text(answer))
    llm = make_llm(server=llama_like_server)

    stream = llm.stream("inquire", PROMPT)
    _ = [delta async for delta in stream]

    [request] = llama_like_server.requests
    # Asked for, not sent: the server ignores stream_options, like llama-cpp-python 0.3.
    assert request.body["stream_options"] == {"include_usage": True}
    usage = stream.completion.usage
    assert usage.estimated is True
    prompt_text = "\n".join(m["content"] for m in request.messages)
    assert (usage.prompt_tokens, usage.completion_tokens) == (
        estimate_tokens(prompt_text),
        estimate_tokens(answer),
    )
    assert usage.completion_tokens == 9
    price = price_of("gpt-4o-mini")
    assert price is not None
    assert usage.cost_usd == pytest.approx(
        (usage.prompt_tokens * price.prompt_per_million + 9 * price.completion_per_million) / 1e6
    )


async def test_completion_is_unavailable_before_the_stream_ends(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory
) -> None:
    llm = make_llm()
    with pytest.raises(RuntimeError, match="read to its end"):
        _ = llm.stream("inquire", PROMPT).completion


async def test_structured_output_valid_the_first_time(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory
) -> None:
    openai_server.enqueue(Reply.json({"compliant": False, "reasons": ["no retention period"]}))
    llm = make_llm()

    result = await llm.structured("audit", PROMPT, Verdict)

    assert result.value == Verdict(compliant=False, reasons=["no retention period"])
    assert (result.attempts, result.model) == (1, "gpt-4o")
    [request] = openai_server.requests
    response_format = request.body["response_format"]
    assert response_format["type"] == "json_schema"
    schema = response_format["json_schema"]
    assert (schema["name"], schema["strict"]) == ("Verdict", True)
    assert schema["schema"]["additionalProperties"] is False
    assert set(schema["schema"]["required"]) == {"compliant", "reasons"}


async def test_malformed_structured_output_is_corrected_once(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory
) -> None:
    openai_server.enqueue(
        Reply(content='{"compliant": "perhaps"', prompt_tokens=100, completion_tokens=5),
        Reply(
            content='{"compliant": true, "reasons": ["meets 7.2"]}', prompt_tokens=130, completion_tokens=12
        ),
    )
    llm = make_llm()

    result = await llm.structured("audit", PROMPT, Verdict)

    assert result.value.compliant is True
    assert result.attempts == 2
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (230, 17)
    first, second = openai_server.requests
    assert second.messages[: len(first.messages)] == first.messages
    bad, correction = second.messages[len(first.messages) :]
    assert bad == {"role": "assistant", "content": '{"compliant": "perhaps"'}
    assert correction["role"] == "user"
    assert "did not match the required JSON schema" in correction["content"]
    assert "Invalid JSON" in correction["content"]


async def test_structured_output_still_invalid_after_correction_is_a_clear_error(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory
) -> None:
    openai_server.enqueue(Reply.json({"compliant": True}), Reply.json({"compliant": True, "reasons": []}))
    llm = make_llm()

    with pytest.raises(StructuredOutputError, match=r"gpt-4o did not return a valid Verdict.*reasons"):
        await llm.structured("audit", PROMPT, Verdict)
    assert len(openai_server.requests) == 2


async def test_rate_limit_is_retried_after_the_servers_delay(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory
) -> None:
    openai_server.enqueue(Reply.failure(429, retry_after=0.2), Reply.text("Done."))
    llm = make_llm(max_retries=2)

    started = time.monotonic()
    completion = await llm.complete("summarize", PROMPT)

    assert completion.text == "Done."
    assert len(openai_server.requests) == 2
    assert time.monotonic() - started >= 0.2


async def test_server_errors_are_retried_with_back_off_then_fail(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory
) -> None:
    openai_server.enqueue(*[Reply.failure(500)] * 3)
    llm = make_llm(max_retries=2)

    started = time.monotonic()
    with pytest.raises(LLMUnavailableError, match=r"gpt-4o-mini unavailable after retries \(HTTP 500\)"):
        async for _ in llm.stream("inquire", PROMPT):
            pass

    assert len(openai_server.requests) == 3
    assert openai_server.pending == 0
    # Exponential back-off: 0.5 s then 1 s, each shortened by at most 25 % of jitter.
    assert time.monotonic() - started >= 0.75 * (0.5 + 1.0)


async def test_a_reply_slower_than_the_timeout_fails_after_the_retries(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory
) -> None:
    openai_server.enqueue(Reply.slow(1.0), Reply.slow(1.0))
    llm = make_llm(timeout_seconds=0.3, max_retries=1)

    with pytest.raises(LLMUnavailableError, match="APITimeoutError"):
        await llm.complete("inquire", PROMPT)
    assert len(openai_server.requests) == 2

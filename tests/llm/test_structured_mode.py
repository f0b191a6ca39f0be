"""Structured calls against servers that reject json_schema (llama.cpp), over HTTP to the scripted server."""

import json
import logging

import pytest
from pydantic import BaseModel, Field

from policypal.llm import LLMUnavailableError, Prompt, StructuredOutputError, strict_json_schema
from policypal.llm.structured_mode import SCHEMA_INSTRUCTIONS
from tests.llm.conftest import LLMFactory
from tests.support.openai_server import RecordedRequest, Reply, ScriptedOpenAI

PROMPT = Prompt(instructions="Judge the policy against the regulation.", user="Is clause 4 compliant?")
DOWNGRADE_LOG = "rejected the json_schema response format"


class Verdict(BaseModel):
    compliant: bool
    reasons: list[str] = Field(min_length=1)


class Theme(BaseModel):
    name: str


def _formats(requests: list[RecordedRequest]) -> list[str]:
    return [r.body["response_format"]["type"] for r in requests]


def _states_schema(request: RecordedRequest, schema: type[BaseModel]) -> bool:
    system = request.messages[0]["content"]
    stated = SCHEMA_INSTRUCTIONS.format(schema=json.dumps(strict_json_schema(schema)))
    return bool(system.endswith(stated))


def _downgrade_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == logging.WARNING and DOWNGRADE_LOG in r.getMessage()]


async def test_a_llama_cpp_rejection_downgrades_once_and_is_remembered_per_model(
    llama_like_server: ScriptedOpenAI, make_llm: LLMFactory, caplog: pytest.LogCaptureFixture
) -> None:
    llama_like_server.enqueue(
        Reply.json({"compliant": True, "reasons": ["meets 4.1"]}),
        Reply.json({"name": "retention"}),
        Reply.json({"name": "access"}),
    )
    llm = make_llm(server=llama_like_server, max_retries=1)
    caplog.set_level(logging.WARNING)

    first = await llm.structured("compare_focused", PROMPT, Verdict)
    # The SDK retries the 500 once, then the call is asked again in json_object mode.
    first_requests = list(llama_like_server.requests)
    second = await llm.structured("query_rewrite", PROMPT, Theme)
    # audit runs on the large model: a model of its own, not yet known to need the downgrade.
    third = await llm.structured("audit", PROMPT, Theme)

    assert first.value == Verdict(compliant=True, reasons=["meets 4.1"])
    assert (first.attempts, second.value.name, third.value.name) == (1, "retention", "access")
    assert _formats(first_requests) == ["json_schema", "json_schema", "json_object"]
    assert _formats(llama_like_server.requests) == [
        *_formats(first_requests),
        "json_object",
        "json_schema",
        "json_schema",
        "json_object",
    ]
    downgraded = first_requests[-1]
    assert downgraded.body["model"] == first_requests[0].body["model"] == "gpt-4o-mini"
    assert _states_schema(downgraded, Verdict)
    assert downgraded.messages[1:] == first_requests[0].messages[1:]
    assert _states_schema(llama_like_server.requests[3], Theme)
    assert llama_like_server.requests[-1].body["model"] == "gpt-4o"
    # One warning per server and model, naming the host but no prompt text.
    warnings = _downgrade_warnings(caplog)
    assert len(warnings) == 2
    assert all(f"127.0.0.1:{llama_like_server.port}" in w.getMessage() for w in warnings)
    assert not any("clause 4" in w.getMessage() for w in warnings)


async def test_a_400_naming_the_response_format_downgrades_without_retries(
    make_llm: LLMFactory,
) -> None:
    async with ScriptedOpenAI(json_schema_rejection=400) as server:
        server.enqueue(Reply.json({"name": "retention"}))
        llm = make_llm(server=server)

        result = await llm.structured("themes", PROMPT, Theme)

        assert result.value.name == "retention"
        assert _formats(server.requests) == ["json_schema", "json_object"]


async def test_a_downgraded_reply_is_still_validated_and_corrected_once(
    llama_like_server: ScriptedOpenAI, make_llm: LLMFactory
) -> None:
    llama_like_server.enqueue(Reply.json({"compliant": "perhaps"}), Reply.json({"compliant": True}))
    llm = make_llm(server=llama_like_server, max_retries=0)

    with pytest.raises(StructuredOutputError, match="did not return a valid Verdict"):
        await llm.structured("audit", PROMPT, Verdict)

    rejected, invalid, corrected = llama_like_server.requests
    assert _formats([rejected, invalid, corrected]) == ["json_schema", "json_object", "json_object"]
    assert corrected.messages[: len(invalid.messages)] == invalid.messages
    assert _states_schema(corrected, Verdict)
    assert "did not match the required JSON schema" in corrected.messages[-1]["content"]


async def test_an_outage_500_is_not_taken_for_a_format_rejection(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory, caplog: pytest.LogCaptureFixture
) -> None:
    openai_server.enqueue(Reply.failure(500), Reply.failure(500), Reply.json({"name": "retention"}))
    llm = make_llm(max_retries=1)
    caplog.set_level(logging.WARNING)

    with pytest.raises(LLMUnavailableError, match=r"HTTP 500"):
        await llm.structured("themes", PROMPT, Theme)
    result = await llm.structured("themes", PROMPT, Theme)

    assert result.value.name == "retention"
    assert _formats(openai_server.requests) == ["json_schema"] * 3
    assert not _downgrade_warnings(caplog)


async def test_forced_json_object_mode_never_sends_json_schema(
    openai_server: ScriptedOpenAI, make_llm: LLMFactory, caplog: pytest.LogCaptureFixture
) -> None:
    openai_server.enqueue(Reply.json({"compliant": False, "reasons": ["no retention period"]}))
    llm = make_llm(structured_mode="json_object")
    caplog.set_level(logging.WARNING)

    result = await llm.structured("audit", PROMPT, Verdict)

    assert result.value.reasons == ["no retention period"]
    [request] = openai_server.requests
    assert request.body["response_format"] == {"type": "json_object"}
    assert _states_schema(request, Verdict)
    assert not _downgrade_warnings(caplog)


async def test_forced_json_schema_mode_never_downgrades(
    llama_like_server: ScriptedOpenAI, make_llm: LLMFactory
) -> None:
    llm = make_llm(server=llama_like_server, structured_mode="json_schema", max_retries=0)

    for _ in range(2):
        with pytest.raises(LLMUnavailableError, match=r"HTTP 500"):
            await llm.structured("themes", PROMPT, Theme)

    assert _formats(llama_like_server.requests) == ["json_schema", "json_schema"]

"""LLM settings (docs/product.md, Model map; offline by default), prompt order and strict schemas."""

import pytest
from pydantic import BaseModel, ValidationError

from policypal.config import LLMTask, Settings
from policypal.contracts import HistoryTurn
from policypal.llm import SYSTEM_PREFIX, Prompt, strict_json_schema


def test_offline_unless_a_key_or_base_url_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert not Settings(_env_file=None).llm_configured
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1")
    assert Settings(_env_file=None).llm_configured
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-abc")
    settings = Settings(_env_file=None)
    assert settings.llm_configured
    assert settings.openai_api_key is not None
    assert "sk-abc" not in repr(settings)


def test_high_stakes_tasks_use_the_large_model(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(_env_file=None)
    assert [settings.model_for(t) for t in ("audit", "compare_holistic")] == ["gpt-4o", "gpt-4o"]
    routine: tuple[LLMTask, ...] = ("summarize", "inquire", "compare_focused", "query_rewrite", "themes")
    assert {settings.model_for(t) for t in routine} == {"gpt-4o-mini"}
    monkeypatch.setenv("POLICYPAL_LLM_LARGE_MODEL", "gpt-4.1")
    monkeypatch.setenv("POLICYPAL_LLM_SMALL_MODEL", "gpt-4.1-mini")
    overridden = Settings(_env_file=None)
    assert (overridden.model_for("audit"), overridden.model_for("inquire")) == ("gpt-4.1", "gpt-4.1-mini")


def test_structured_mode_is_auto_unless_set_and_only_a_known_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(_env_file=None).llm_structured_mode == "auto"
    monkeypatch.setenv("POLICYPAL_LLM_STRUCTURED_MODE", "json_object")
    assert Settings(_env_file=None).llm_structured_mode == "json_object"
    monkeypatch.setenv("POLICYPAL_LLM_STRUCTURED_MODE", "grammar")
    with pytest.raises(ValidationError, match="llm_structured_mode"):
        Settings(_env_file=None)


def test_system_prompt_is_static_first_then_context_task_history_question() -> None:
    history = [HistoryTurn(role="user", content=f"q{i}") for i in range(10)]
    prompt = Prompt(instructions="Do the task.", user="Now?", history=history)
    messages = prompt.messages()
    system = messages[0]["content"]
    assert isinstance(system, str)
    assert system.startswith(SYSTEM_PREFIX)
    assert system.index("## User Context") < system.index("## Task\nDo the task.")
    assert "Industry: not specified" in system
    # Only the latest turns are kept, in order, and the question comes last.
    assert [m["content"] for m in messages[1:]] == ["q4", "q5", "q6", "q7", "q8", "q9", "Now?"]


class Inner(BaseModel):
    name: str
    note: str | None = None


class Outer(BaseModel):
    items: list[Inner]
    count: int = 0


def test_strict_schema_closes_objects_and_requires_every_property() -> None:
    schema = strict_json_schema(Outer)
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["items", "count"]
    inner = schema["$defs"]["Inner"]
    assert inner["additionalProperties"] is False
    assert inner["required"] == ["name", "note"]
    assert "default" not in schema["properties"]["count"]

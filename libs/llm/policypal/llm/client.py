"""A small typed adapter over the ``openai`` SDK: streamed text, structured outputs, usage and cost.

Retries on 429, 5xx, timeouts and lost connections are the SDK's own (``max_retries``): exponential
back-off from 0.5 s with jitter, capped at 8 s, honouring ``Retry-After``. Spans and logs carry the
task, model, token counts, cost and attempt numbers only: never prompt or document text, never keys.

A server that reports no token counts (llama-cpp-python ignores ``stream_options.include_usage``) gets
its usage estimated from the text, marked ``Usage.estimated`` and the span's ``policypal.usage.estimated``:
a cost per message that reads 0 would say "free" where the truth is "not reported".
"""

import logging
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar

import openai
from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionMessageParam
from openai.types.shared_params import ResponseFormatJSONObject, ResponseFormatJSONSchema
from opentelemetry import trace
from opentelemetry.util.types import AttributeValue
from pydantic import BaseModel, ValidationError

from policypal.config import LLMTask, Settings, StructuredMode
from policypal.contracts import Usage
from policypal.llm.errors import LLMUnavailableError, StructuredOutputError
from policypal.llm.pricing import PRICES, Price, add_usage, estimate_tokens, usage_with_cost
from policypal.llm.prompts import Prompt
from policypal.llm.structured_mode import StructuredModes, StructuredRequest
from policypal.telemetry import record_llm_usage, scope_attributes

logger = logging.getLogger(__name__)
_tracer = trace.get_tracer(__name__)

SchemaT = TypeVar("SchemaT", bound=BaseModel)

#: Sent back once when a structured reply does not validate; the error names fields, not values.
CORRECTION = (
    "Your reply did not match the required JSON schema: {error}. "
    "Reply again with only a JSON object that matches the schema."
)
#: Compatible servers without authentication (llama.cpp, vLLM) still need a non-empty key in the SDK.
NO_KEY = "not-needed"


@dataclass(frozen=True)
class Completion:
    """The whole text of a reply, the model that wrote it, and what it cost."""

    text: str
    model: str
    usage: Usage


@dataclass(frozen=True)
class Structured(Generic[SchemaT]):
    """A validated structured reply and the usage of every call it took (one, or two with a correction)."""

    value: SchemaT
    model: str
    usage: Usage
    attempts: int


class TextStream:
    """The text deltas of one streamed reply; :attr:`completion` is set once they are exhausted.

    Iterate it once: ``async for delta in stream: ...`` then read ``stream.completion``.
    """

    def __init__(self, llm: "LLM", task: LLMTask, prompt: Prompt) -> None:
        self._llm = llm
        self._task = task
        self._prompt = prompt
        self._completion: Completion | None = None

    @property
    def completion(self) -> Completion:
        """The finished reply; raises if the stream has not been read to its end."""
        if self._completion is None:
            raise RuntimeError("the stream has not been read to its end")
        return self._completion

    def __aiter__(self) -> AsyncIterator[str]:
        return self._deltas()

    async def _deltas(self) -> AsyncIterator[str]:
        model = self._llm.model_for(self._task)
        span = _tracer.start_span(
            _span_name(model), kind=trace.SpanKind.CLIENT, attributes=_attributes(self._task, model)
        )
        parts: list[str] = []
        reported: tuple[int, int] | None = None
        response_model = model
        try:
            stream = await self._llm.client.chat.completions.create(
                model=model,
                messages=self._prompt.messages(),
                temperature=self._llm.temperature,
                stream=True,
                stream_options={"include_usage": True},
            )
            async with stream:
                async for chunk in stream:
                    response_model = chunk.model or response_model
                    if chunk.usage is not None:
                        reported = (chunk.usage.prompt_tokens, chunk.usage.completion_tokens)
                    for choice in chunk.choices[:1]:
                        if choice.delta.content:
                            parts.append(choice.delta.content)
                            yield choice.delta.content
            text = "".join(parts)
            usage = self._llm.reported_or_estimated_usage(model, reported, self._prompt.messages(), text)
            _record_usage(span, model, response_model, usage)
            self._completion = Completion(text=text, model=model, usage=usage)
        except openai.APIError as exc:
            _record_failure(span, exc)
            raise LLMUnavailableError(_describe(exc, model)) from exc
        finally:
            # Ended by hand: a span made current would leak its context across the generator's yields.
            span.end()


class LLM:
    """Chat models chosen per task (``models``, e.g. ``Settings.model_for``), at one temperature, priced per call."""

    def __init__(
        self,
        client: AsyncOpenAI,
        *,
        models: Callable[[LLMTask], str],
        temperature: float = 0.1,
        prices: Mapping[str, Price] = PRICES,
        structured_mode: StructuredMode = "auto",
    ) -> None:
        self.client = client
        self.temperature = temperature
        self._models = models
        self._prices = prices
        self.structured_modes = StructuredModes(structured_mode, str(client.base_url))

    @classmethod
    def from_settings(cls, settings: Settings) -> Self:
        """The client of ``OPENAI_BASE_URL`` (default: OpenAI) with the settings' models and retries."""
        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else NO_KEY
        client = AsyncOpenAI(
            api_key=key,
            base_url=settings.openai_base_url,
            timeout=settings.llm_timeout_seconds,
            max_retries=settings.llm_max_retries,
        )
        return cls(
            client,
            models=settings.model_for,
            temperature=settings.llm_temperature,
            structured_mode=settings.llm_structured_mode,
        )

    def model_for(self, task: LLMTask) -> str:
        """The model that performs ``task``."""
        return self._models(task)

    def usage(self, model: str, prompt_tokens: int, completion_tokens: int) -> Usage:
        """Tokens and USD cost of one call to ``model``."""
        return usage_with_cost(model, prompt_tokens, completion_tokens, self._prices)

    def reported_or_estimated_usage(
        self,
        model: str,
        reported: tuple[int, int] | None,
        messages: list[ChatCompletionMessageParam],
        reply: str,
    ) -> Usage:
        """The server's (prompt, completion) token counts priced, or, if it sent none, estimates marked so."""
        if reported is not None:
            return self.usage(model, *reported)
        prompt_text = "\n".join(str(m.get("content") or "") for m in messages)
        return usage_with_cost(
            model, estimate_tokens(prompt_text), estimate_tokens(reply), self._prices, estimated=True
        )

    def stream(self, task: LLMTask, prompt: Prompt) -> TextStream:
        """The reply to ``prompt`` as it is generated; raises :class:`LLMUnavailableError` while iterating."""
        return TextStream(self, task, prompt)

    async def complete(self, task: LLMTask, prompt: Prompt) -> Completion:
        """The whole reply to ``prompt`` in one response."""
        return await self._complete(task, prompt.messages(), response_format=None)

    async def structured(self, task: LLMTask, prompt: Prompt, schema: type[SchemaT]) -> Structured[SchemaT]:
        """A reply that validates against ``schema`` (JSON-schema structured output).

        An invalid reply is sent back once with the validation error for the model to correct; a second
        invalid reply raises :class:`StructuredOutputError`. A server that rejects the ``json_schema``
        format is asked again in ``json_object`` mode (see :mod:`policypal.llm.structured_mode`).
        """
        model = self.model_for(task)
        request = StructuredRequest.start(schema, prompt.messages(), self.structured_modes.mode_for(model))
        usage = Usage()
        for attempt in (1, 2):
            completion, request = await self._complete_structured(task, model, request)
            usage = add_usage(usage, completion.usage)
            try:
                value = schema.model_validate_json(completion.text)
            except ValidationError as exc:
                error = _validation_summary(exc)
                logger.warning(
                    "%s reply from %s invalid (attempt %d): %s",
                    schema.__name__,
                    completion.model,
                    attempt,
                    error,
                )
                request = request.corrected(completion.text, CORRECTION.format(error=error))
                continue
            return Structured(value=value, model=completion.model, usage=usage, attempts=attempt)
        raise StructuredOutputError(
            f"{self.model_for(task)} did not return a valid {schema.__name__} after one correction: {error}"
        )

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self.client.close()

    async def _complete_structured(
        self, task: LLMTask, model: str, request: StructuredRequest
    ) -> tuple[Completion, StructuredRequest]:
        """The reply to ``request``, asked again in json_object mode if the server rejects json_schema."""
        try:
            completion = await self._complete(
                task, request.messages, response_format=request.response_format()
            )
        except LLMUnavailableError as exc:
            if request.mode != "json_schema" or not self.structured_modes.downgrade(model, exc.__cause__):
                raise
        else:
            return completion, request
        downgraded = request.as_json_object()
        completion = await self._complete(
            task, downgraded.messages, response_format=downgraded.response_format()
        )
        return completion, downgraded

    async def _complete(
        self,
        task: LLMTask,
        messages: list[ChatCompletionMessageParam],
        *,
        response_format: ResponseFormatJSONSchema | ResponseFormatJSONObject | None,
    ) -> Completion:
        model = self.model_for(task)
        options: dict[str, Any] = {"response_format": response_format} if response_format else {}
        with _tracer.start_as_current_span(
            _span_name(model), kind=trace.SpanKind.CLIENT, attributes=_attributes(task, model)
        ) as span:
            try:
                response = await self.client.chat.completions.create(
                    model=model, messages=messages, temperature=self.temperature, **options
                )
            except openai.APIError as exc:
                _record_failure(span, exc)
                raise LLMUnavailableError(_describe(exc, model)) from exc
            text = (response.choices[0].message.content or "") if response.choices else ""
            counts = response.usage
            reported = (counts.prompt_tokens, counts.completion_tokens) if counts else None
            usage = self.reported_or_estimated_usage(model, reported, messages, text)
            _record_usage(span, model, response.model or model, usage)
            return Completion(text=text, model=model, usage=usage)


def _span_name(model: str) -> str:
    # The gen_ai semantic conventions name a span "{gen_ai.operation.name} {gen_ai.request.model}".
    return f"chat {model}"


def _attributes(task: LLMTask, model: str) -> dict[str, AttributeValue]:
    """gen_ai semantic-convention attributes and the request scope's ids: never prompt text."""
    return {
        **scope_attributes(),
        "gen_ai.operation.name": "chat",
        # gen_ai.system was renamed gen_ai.provider.name; both are set for viewers of either version.
        "gen_ai.system": "openai",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": model,
        "policypal.llm.task": task,
    }


def _record_usage(span: trace.Span, model: str, response_model: str, usage: Usage) -> None:
    span.set_attribute("gen_ai.response.model", response_model)
    span.set_attribute("gen_ai.usage.input_tokens", usage.prompt_tokens)
    span.set_attribute("gen_ai.usage.output_tokens", usage.completion_tokens)
    span.set_attribute("policypal.cost_usd", usage.cost_usd)
    if usage.estimated:
        span.set_attribute("policypal.usage.estimated", True)
    record_llm_usage(model, usage.prompt_tokens, usage.completion_tokens, usage.cost_usd)


def _record_failure(span: trace.Span, exc: openai.APIError) -> None:
    span.set_status(trace.Status(trace.StatusCode.ERROR, type(exc).__name__))
    status = getattr(exc, "status_code", None)
    if status is not None:
        span.set_attribute("http.response.status_code", status)


def _describe(exc: openai.APIError, model: str) -> str:
    status = getattr(exc, "status_code", None)
    cause = f"HTTP {status}" if status is not None else type(exc).__name__
    return f"{model} unavailable after retries ({cause})"


def _validation_summary(exc: ValidationError) -> str:
    # Field locations and messages only: the input values may quote documents.
    problems = exc.errors(include_input=False, include_url=False, include_context=False)
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['msg']}" for e in problems[:5])

"""Language models through the ``openai`` SDK (OpenAI or any compatible server at OPENAI_BASE_URL).

Usage::

    llm = LLM.from_settings(settings)            # only when settings.llm_configured
    stream = llm.stream("inquire", Prompt(instructions=..., user=..., context=event.user_context))
    async for delta in stream: ...               # text as it is generated
    stream.completion.usage                      # tokens and USD cost
    result = await llm.structured("audit", prompt, AuditReport)   # validated, one corrective retry

Structured calls ask for OpenAI's ``json_schema`` format; a server that rejects it (llama.cpp) is asked
in ``json_object`` mode instead, from then on (``POLICYPAL_LLM_STRUCTURED_MODE`` can force either).
Usage a server does not report is estimated and marked ``Usage.estimated``.

Every failure is an :class:`LLMError`: :class:`LLMUnavailableError` once the retries are spent,
:class:`StructuredOutputError` when the reply still does not match the schema.
"""

from policypal.llm.client import LLM, Completion, Structured, TextStream
from policypal.llm.errors import LLMError, LLMUnavailableError, StructuredOutputError
from policypal.llm.pricing import PRICES, Price, add_usage, estimate_tokens, price_of, usage_with_cost
from policypal.llm.prompts import SYSTEM_PREFIX, Prompt
from policypal.llm.schema import strict_json_schema
from policypal.llm.structured_mode import StructuredModes, rejects_json_schema

__all__ = [
    "LLM",
    "PRICES",
    "SYSTEM_PREFIX",
    "Completion",
    "LLMError",
    "LLMUnavailableError",
    "Price",
    "Prompt",
    "Structured",
    "StructuredModes",
    "StructuredOutputError",
    "TextStream",
    "add_usage",
    "estimate_tokens",
    "price_of",
    "rejects_json_schema",
    "strict_json_schema",
    "usage_with_cost",
]

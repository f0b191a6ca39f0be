"""How a structured reply is asked for, and what is learnt from a server that rejects ``json_schema``.

OpenAI's ``response_format={"type": "json_schema", ...}`` makes the server constrain the reply to the
schema. Some OpenAI-compatible servers do not know it: llama-cpp-python's server (0.3.x) accepts only
``text`` and ``json_object``, and answers ``json_schema`` with HTTP 500 whose error message is its
request validation error, naming ``response_format``. Such a call is asked again, once, with
``{"type": "json_object"}`` and the schema stated in the system prompt; pydantic still validates the
reply either way.

The downgrade rule (``auto`` mode): a ``json_schema`` request that failed with an HTTP error other
than 401, 403, 408, 409 and 429 (authentication and rate limits say nothing about formats), whose
error body names ``response_format`` or ``json_schema``. A bare 500 is not enough: an outage or an
overloaded server answers 500 too, and downgrading on it would weaken a healthy server's replies for
the rest of the process. The downgrade is remembered per base URL and model, and logged once.
"""

import json
import logging
import re
from dataclasses import dataclass, replace
from typing import Literal
from urllib.parse import urlsplit

import openai
from openai.types.chat import ChatCompletionMessageParam
from openai.types.shared_params import ResponseFormatJSONObject, ResponseFormatJSONSchema
from pydantic import BaseModel

from policypal.config import StructuredMode
from policypal.llm.schema import strict_json_schema

logger = logging.getLogger(__name__)

#: The response format a request is sent with (``auto`` resolves to one of them per server and model).
ResponseMode = Literal["json_schema", "json_object"]

#: Statuses that are about the caller or the load, never about the request's format.
UNRELATED_STATUSES = frozenset({401, 403, 408, 409, 429})
#: What an error body says when the server does not support the requested response format.
FORMAT_NAMED = re.compile(r"response_format|json_schema", re.IGNORECASE)

#: Appended to the system prompt in ``json_object`` mode, where the server does not see the schema.
#: JSON mode needs the reply format asked for in the messages (OpenAI rejects a json_object request
#: whose messages never say "JSON"; other models may emit whitespace until their token limit).
SCHEMA_INSTRUCTIONS = (
    "## Reply Format\n"
    "Reply with only one JSON object, without any other text, that matches this JSON Schema:\n"
    "{schema}"
)


def rejects_json_schema(error: BaseException | None) -> bool:
    """True when ``error`` is a server's refusal of the ``json_schema`` response format (module rule)."""
    if not isinstance(error, openai.APIStatusError) or error.status_code in UNRELATED_STATUSES:
        return False
    return bool(FORMAT_NAMED.search(f"{error.message} {json.dumps(error.body, default=str)}"))


@dataclass(frozen=True)
class StructuredRequest:
    """The messages and response format of one structured call, in one mode."""

    schema: type[BaseModel]
    messages: list[ChatCompletionMessageParam]
    mode: ResponseMode

    @classmethod
    def start(
        cls, schema: type[BaseModel], messages: list[ChatCompletionMessageParam], mode: ResponseMode
    ) -> "StructuredRequest":
        """The first request of a call; in ``json_object`` mode the system prompt states the schema."""
        request = cls(schema=schema, messages=messages, mode="json_schema")
        return request.as_json_object() if mode == "json_object" else request

    def response_format(self) -> ResponseFormatJSONSchema | ResponseFormatJSONObject:
        """The ``response_format`` parameter of this request."""
        if self.mode == "json_object":
            return {"type": "json_object"}
        return {
            "type": "json_schema",
            "json_schema": {
                "name": self.schema.__name__,
                "schema": strict_json_schema(self.schema),
                "strict": True,
            },
        }

    def as_json_object(self) -> "StructuredRequest":
        """This request in ``json_object`` mode: the schema appended to the system prompt."""
        if self.mode == "json_object":
            return self
        section = SCHEMA_INSTRUCTIONS.format(schema=json.dumps(strict_json_schema(self.schema)))
        first, *rest = self.messages
        if first["role"] == "system" and isinstance(first["content"], str):
            system: ChatCompletionMessageParam = {
                "role": "system",
                "content": f"{first['content']}\n\n{section}",
            }
            messages = [system, *rest]
        else:
            messages = [{"role": "system", "content": section}, *self.messages]
        return replace(self, messages=messages, mode="json_object")

    def corrected(self, reply: str, correction: str) -> "StructuredRequest":
        """This request followed by the invalid ``reply`` and the ``correction`` asked for."""
        messages: list[ChatCompletionMessageParam] = [
            *self.messages,
            {"role": "assistant", "content": reply},
            {"role": "user", "content": correction},
        ]
        return replace(self, messages=messages)


class StructuredModes:
    """The response mode of each model of one server: the setting, or what ``auto`` learnt."""

    def __init__(self, setting: StructuredMode, base_url: str) -> None:
        self.setting = setting
        self.base_url = base_url
        self._downgraded: set[tuple[str, str]] = set()

    def mode_for(self, model: str) -> ResponseMode:
        """The mode to ask ``model`` in: forced by the setting, or json_object once it was downgraded."""
        if self.setting != "auto":
            return self.setting
        return "json_object" if (self.base_url, model) in self._downgraded else "json_schema"

    def downgrade(self, model: str, error: BaseException | None) -> bool:
        """Remember ``model`` as json_object-only if ``error`` rejected json_schema in ``auto`` mode.

        True when the call should be asked again in ``json_object`` mode.
        """
        if self.setting != "auto" or not rejects_json_schema(error):
            return False
        key = (self.base_url, model)
        if key not in self._downgraded:
            self._downgraded.add(key)
            status = error.status_code if isinstance(error, openai.APIStatusError) else None
            # The host only: a base URL may carry credentials.
            logger.warning(
                "%s at %s rejected the json_schema response format (HTTP %s): structured calls to it "
                "use json_object with the schema in the prompt from now on "
                "(set POLICYPAL_LLM_STRUCTURED_MODE to choose)",
                model,
                urlsplit(self.base_url).netloc.rpartition("@")[2],
                status,
            )
        return True

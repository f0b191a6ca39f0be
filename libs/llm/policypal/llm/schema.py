"""JSON Schemas for structured outputs, in the strict form OpenAI's ``json_schema`` mode accepts."""

from typing import Any

from pydantic import BaseModel


def strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model``'s JSON Schema with every object closed and every property required.

    Strict mode rejects open objects, optional properties and defaults; the pydantic model still
    validates the reply, so its own defaults and constraints are not lost.
    """
    schema: dict[str, Any] = _strict(model.model_json_schema())
    return schema


def _strict(node: Any) -> Any:
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    strict = {key: _strict(value) for key, value in node.items() if key != "default"}
    if strict.get("type") == "object" or "properties" in strict:
        properties = strict.get("properties", {})
        strict["additionalProperties"] = False
        strict["required"] = list(properties)
    return strict

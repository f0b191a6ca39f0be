"""The AsyncAPI document the gateway serves: every public event, on its subject, with a schema that resolves."""

import json
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

from policypal.contracts import EVENT_TYPES, EscalationEvent
from policypal.contracts.subjects import EVENT_KINDS

pytestmark = pytest.mark.integration

SCHEMA_DIR = Path(__file__).parents[2] / "libs" / "contracts" / "schemas"


def _resolve(document: dict[str, Any], ref: str) -> dict[str, Any]:
    node: Any = document
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    assert isinstance(node, dict)
    return node


async def test_every_event_is_documented_on_its_subject(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/asyncapi.json")
    assert response.status_code == 200
    document = response.json()
    assert document["asyncapi"] == "3.0.0"
    addresses = {channel["address"] for channel in document["channels"].values()}
    assert "actions.{action}.requested" in addresses
    assert {f"events.{{tenant_id}}.{{thread_id}}.{kind}" for kind in EVENT_KINDS.values()} <= addresses
    assert {m["name"] for m in document["components"]["messages"].values()} == set(EVENT_TYPES)
    assert "AuditResult" in document["components"]["schemas"]
    for operation in document["operations"].values():
        channel = _resolve(document, operation["channel"]["$ref"])
        for message in channel["messages"].values():
            _resolve(document, message["$ref"])


async def test_payload_schemas_validate_real_events(client: httpx.AsyncClient) -> None:
    document = (await client.get("/v1/asyncapi.json")).json()
    message = document["components"]["messages"]["escalation"]
    assert message["headers"]["required"] == ["Nats-Msg-Id"]
    # Validate with the components as the resolution root, as an AsyncAPI tool would.
    schema = {**message["payload"], "components": document["components"]}
    event = EscalationEvent(
        tenant_id="acme",
        user_id="alice",
        request_id="r1",
        thread_id="c1",
        escalation_id="esc-1",
        message="Ticket esc-1 has been created.",
        question="How long?",
    )
    jsonschema.validate(event.model_dump(mode="json"), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**event.model_dump(mode="json"), "escalation_id": 5}, schema)


async def test_each_public_event_schema_is_served_as_in_the_repository(client: httpx.AsyncClient) -> None:
    names = (await client.get("/v1/schemas")).json()
    stored = sorted(path.name for path in SCHEMA_DIR.glob("*.json"))
    assert names == stored
    for name in names:
        response = await client.get(f"/v1/schemas/{name}")
        assert response.status_code == 200
        assert response.json() == json.loads((SCHEMA_DIR / name).read_text())
    missing = await client.get("/v1/schemas/nothing.v1.json")
    assert missing.status_code == 404
    assert "GET /v1/schemas" in missing.json()["detail"]

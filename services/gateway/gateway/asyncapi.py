"""The AsyncAPI 3.0 document of PolicyPal's public events (``GET /v1/asyncapi.json``) and their JSON Schemas.

Built from the contract models and subject names, not from FastStream's generator: the services'
subscribers take raw ``NatsMessage``s (to settle each delivery themselves), so FastStream would
document untyped payloads, and it would need every service's router inside the gateway.
"""

from functools import cache
from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel

from policypal.contracts import EVENT_TYPES, SCHEMA_VERSION, ActionRequested
from policypal.contracts.action_registry import ACTION_REGISTRY
from policypal.contracts.audit import AuditResult
from policypal.contracts.schemas import event_schemas
from policypal.contracts.subjects import (
    CHAT_REQUESTED,
    CHAT_RESUMED,
    DOCS_DELETED,
    DOCS_UPLOADED,
    EVENT_KINDS,
)

router = APIRouter(tags=["documentation"])

_REF = "#/components/schemas/{model}"
_ID_PATTERN = "^[A-Za-z0-9_-]{1,64}$"
#: Subjects PolicyPal consumes, by event type (the actions subject has an ``{action}`` parameter).
_INBOUND = {
    "document.uploaded": DOCS_UPLOADED,
    "document.deleted": DOCS_DELETED,
    "chat.requested": CHAT_REQUESTED,
    "chat.resumed": CHAT_RESUMED,
    "action.requested": "actions.{action}.requested",
}
#: Where the bus is reached, as deploy/ and `policypal up` run it; every server admits only its users.
_SERVERS: dict[str, Any] = {
    "kubernetes": {
        "host": "nats.nats.svc.cluster.local:4222",
        "protocol": "nats",
        "description": "The NATS cluster of deploy/k8s (Helm release nats in namespace nats).",
    },
    "compose": {
        "host": "nats:4222",
        "protocol": "nats",
        "description": "The nats service of docker-compose.yml.",
    },
    "embedded": {
        "host": "127.0.0.1:4222",
        "protocol": "nats",
        "description": "`policypal up` on one machine: it prints the NATS URL it serves (the port may differ).",
    },
}
_SECURITY_SCHEME = "natsUser"
#: Headers a dead letter carries beside the original message's own.
_DEAD_LETTER_HEADERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "Policypal-Error-Code": {
            "type": "string",
            "description": "tenant_mismatch, unsupported_schema_version, too_large, invalid, unprocessable or failed.",
        },
        "Policypal-Error": {
            "type": "string",
            "description": "Why the message was not (or could not be) run.",
        },
        "Policypal-Original-Subject": {"type": "string", "description": "The subject it was published on."},
        "Policypal-Deliveries": {"type": "string", "description": "How often it was delivered."},
    },
    "required": ["Policypal-Error-Code", "Policypal-Error", "Policypal-Original-Subject"],
}
_HEADERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "Nats-Msg-Id": {
            "type": "string",
            "description": "The event_id: JetStream drops a re-sent duplicate.",
        },
        "traceparent": {"type": "string", "description": "W3C trace context, to join the request's trace."},
        "content-type": {"type": "string", "const": "application/json"},
    },
    "required": ["Nats-Msg-Id"],
}


def _schema(model: type[BaseModel], schemas: dict[str, Any]) -> dict[str, str]:
    """Add ``model`` (and the models it uses) to ``schemas``; return a reference to it."""
    schema = _asyncapi_schema(model.model_json_schema(mode="serialization", ref_template=_REF))
    schemas.update(schema.pop("$defs", {}))
    schemas[model.__name__] = schema
    return {"$ref": _REF.format(model=model.__name__)}


def _asyncapi_schema(node: Any) -> Any:
    """``node`` with pydantic's OpenAPI-style discriminators (``{"propertyName": ...}``) written as
    AsyncAPI's Schema Object has them: the property's name alone."""
    if isinstance(node, list):
        return [_asyncapi_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _asyncapi_schema(value) for key, value in node.items()}
    discriminator = converted.get("discriminator")
    if isinstance(discriminator, dict) and "propertyName" in discriminator:
        converted["discriminator"] = discriminator["propertyName"]
    return converted


def _parameters(address: str) -> dict[str, Any]:
    names = [part[1:-1] for part in address.split(".") if part.startswith("{")]
    descriptions = {
        "action": {"enum": [spec.name for spec in ACTION_REGISTRY], "description": "The action worker."},
        "tenant_id": {"description": f"The tenant's id ({_ID_PATTERN})."},
        "thread_id": {"description": "The conversation id, or the document id for ingestion events."},
    }
    return {name: descriptions[name] for name in names}


@cache
def asyncapi_document() -> dict[str, Any]:
    """AsyncAPI 3.0: one channel per subject, payloads from the pydantic contract models."""
    schemas: dict[str, Any] = {}
    channels: dict[str, Any] = {}
    operations: dict[str, Any] = {}
    messages: dict[str, Any] = {}
    for event_type, model in sorted(EVENT_TYPES.items()):
        inbound = event_type in _INBOUND
        address = _INBOUND.get(event_type) or f"events.{{tenant_id}}.{{thread_id}}.{EVENT_KINDS[event_type]}"
        name = event_type.replace(".", "_")
        messages[name] = {
            "name": event_type,
            "title": model.__name__,
            "summary": (model.__doc__ or "").strip().splitlines()[0],
            "contentType": "application/json",
            "headers": _HEADERS,
            "payload": _schema(model, schemas),
        }
        channels[name] = {
            "address": address,
            "messages": {name: {"$ref": f"#/components/messages/{name}"}},
            "parameters": _parameters(address),
        }
        operations[f"{'receive' if inbound else 'send'}_{name}"] = {
            "action": "receive" if inbound else "send",
            "channel": {"$ref": f"#/channels/{name}"},
            "messages": [{"$ref": f"#/channels/{name}/messages/{name}"}],
        }
    _dead_letter_channels(channels, operations, messages)
    _schema(AuditResult, schemas)
    audit = operations["receive_action_requested"]
    audit["summary"] = "Request an action; other systems publish audits here (actions.audit.requested)."
    audit["description"] = ActionRequested.__doc__
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "PolicyPal events",
            "version": f"{SCHEMA_VERSION}.0.0",
            "description": (
                "Events on NATS JetStream. Every event is a flat JSON object: the envelope (event_id, "
                "type, schema_version, tenant_id, user_id, request_id, thread_id, occurred_at) beside its "
                "own fields. The audit result is carried in response.result (schema AuditResult). "
                "See docs/publishing-audits.md."
            ),
        },
        "defaultContentType": "application/json",
        "servers": {
            name: server | {"security": [{"$ref": f"#/components/securitySchemes/{_SECURITY_SCHEME}"}]}
            for name, server in _SERVERS.items()
        },
        "channels": channels,
        "operations": operations,
        "components": {
            "schemas": schemas,
            "messages": messages,
            "securitySchemes": {
                _SECURITY_SCHEME: {
                    "type": "userPassword",
                    "description": "A NATS user and password: a service's own, or another system's credential "
                    "scoped to one tenant (policypal bus-credential create, docs/adr/0007).",
                }
            },
        },
    }


def _dead_letter_channels(
    channels: dict[str, Any], operations: dict[str, Any], messages: dict[str, Any]
) -> None:
    """One DLQ channel per inbound subject (``dlq.`` + the subject): the message as published, refused or
    failed, with the reason in its headers. Another system's audit requests land on the tenant one."""
    inbound = {**_INBOUND, "action.requested.tenant": "actions.{action}.requested.{tenant_id}"}
    for key, subject in sorted(inbound.items()):
        event_type = key.removesuffix(".tenant")
        source = messages[event_type.replace(".", "_")]
        name = f"dead_letter_{key.replace('.', '_')}"
        messages[name] = source | {
            "title": f"Dead-lettered {source['title']}",
            "summary": f"A {event_type} message that was refused or failed for good.",
            "headers": _DEAD_LETTER_HEADERS,
        }
        address = f"dlq.{subject}"
        channels[name] = {
            "address": address,
            "description": "Stream DLQ (30 days): inspect, fix and republish on the original subject.",
            "messages": {name: {"$ref": f"#/components/messages/{name}"}},
            "parameters": _parameters(address),
        }
        operations[f"send_{name}"] = {
            "action": "send",
            "channel": {"$ref": f"#/channels/{name}"},
            "messages": [{"$ref": f"#/channels/{name}/messages/{name}"}],
        }


@router.get("/v1/asyncapi.json", summary="AsyncAPI document of the public events")
async def get_asyncapi() -> dict[str, Any]:
    """The AsyncAPI 3.0 document: subjects, headers and JSON Schemas of every public event."""
    return asyncapi_document()


@router.get("/v1/schemas", summary="JSON Schema file names of the public events")
async def list_event_schemas() -> list[str]:
    """The names of the JSON Schemas served below (``<type>.v<version>.json``)."""
    return sorted(event_schemas())


@router.get(
    "/v1/schemas/{name}",
    summary="JSON Schema of one public event",
    responses={404: {"description": "No public event has this schema name."}},
)
async def get_event_schema(name: str) -> dict[str, object]:
    """The JSON Schema of one event or structured result, as in ``libs/contracts/schemas``."""
    schema = event_schemas().get(name)
    if schema is None:
        raise HTTPException(404, f"No schema named {name!r}; GET /v1/schemas lists them.")
    return schema

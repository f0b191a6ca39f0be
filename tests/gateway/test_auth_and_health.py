"""Authentication, health probes and the OpenAPI document of the gateway."""

import httpx
import pytest

from policypal.auth import issue_token
from policypal.config import Settings
from tests.support.gateway_client import bearer, new_id

pytestmark = pytest.mark.integration

PROTECTED = [("GET", "/v1/documents"), ("POST", "/v1/conversations"), ("GET", "/v1/conversations/abc")]


@pytest.mark.parametrize(("method", "path"), PROTECTED)
async def test_missing_token_is_401(client: httpx.AsyncClient, method: str, path: str) -> None:
    response = await client.request(method, path)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.json()["detail"].startswith("Missing bearer token")


async def test_expired_and_garbage_tokens_are_401(client: httpx.AsyncClient, settings: Settings) -> None:
    expired = bearer(settings, new_id("t"), new_id("u"), ttl_seconds=-60)
    response = await client.get("/v1/documents", headers=expired)
    assert response.status_code == 401
    assert response.json()["detail"] == "The access token has expired; sign in again."

    foreign = Settings(jwt_secret="another-secret-of-at-least-32-characters!!")
    for token in ("garbage", issue_token(foreign, "t1", "u1")):
        response = await client.get("/v1/documents", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.json()["detail"] == "The access token is not valid; sign in again."


async def test_health_and_readiness(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok", "checks": {}}
    ready = await client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ok", "checks": {"nats": "ok", "redis": "ok", "qdrant": "embedded"}}


async def test_openapi_describes_every_route(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    assert set(spec["paths"]) == {
        "/healthz",
        "/readyz",
        "/v1/documents",
        "/v1/documents/{document_id}",
        "/v1/documents/{document_id}/retry",
        "/v1/documents/{document_id}/versions",
        "/v1/conversations",
        "/v1/conversations/{conversation_id}",
        "/v1/conversations/{conversation_id}/messages",
        "/v1/conversations/{conversation_id}/resume",
        "/v1/conversations/{conversation_id}/cancel",
        "/v1/conversations/{conversation_id}/event-tickets",
        "/v1/documents/{document_id}/event-tickets",
        "/v1/admin/api-keys",
        "/v1/admin/api-keys/{key_id}",
        "/v1/admin/tenant",
        "/v1/widget/sessions",
        "/v1/sets",
        "/v1/mentions",
        "/v1/audits",
        "/v1/requests/{request_id}",
        "/v1/admin/escalations",
        "/v1/admin/escalations/{escalation_id}/resolve",
        "/v1/admin/widget/publications",
        "/v1/admin/widget/publications/{publication_key}",
        "/v1/inbox/tickets",
        "/v1/inbox/tickets/{ticket_id}",
        "/v1/inbox/tickets/{ticket_id}/reply",
        "/v1/inbox/tickets/{ticket_id}/close",
        "/v1/inbox/stream",
        "/v1/profile",
        "/v1/asyncapi.json",
        "/v1/schemas",
        "/v1/schemas/{name}",
    }
    upload = spec["paths"]["/v1/documents"]["post"]
    assert upload["responses"]["202"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "UploadResult"
    )
    assert "HTTPBearer" in spec["components"]["securitySchemes"]

"""Calling a real gateway from tests: unique ids, credentials, and the requests many tests make."""

import uuid

import httpx

from policypal.auth import issue_token
from policypal.config import Settings
from tests.pdf_factory import one_page_pdf


def new_id(prefix: str) -> str:
    """A SafeId unique to this test run."""
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def bearer(
    settings: Settings, tenant_id: str, user_id: str, ttl_seconds: int | None = None
) -> dict[str, str]:
    """Authorization header for one user of one tenant."""
    return {"Authorization": f"Bearer {issue_token(settings, tenant_id, user_id, ttl_seconds)}"}


def admin(settings: Settings, tenant_id: str) -> dict[str, str]:
    """Authorization header of an administrator of ``tenant_id``."""
    return {"Authorization": f"Bearer {issue_token(settings, tenant_id, new_id('a'), role='admin')}"}


async def make_key(client: httpx.AsyncClient, headers: dict[str, str], scopes: list[str]) -> dict[str, str]:
    """Create an API key named ``bot`` with ``scopes``; the body holds ``api_key`` and ``key_id``."""
    response = await client.post(
        "/v1/admin/api-keys", headers=headers, json={"name": "bot", "scopes": scopes}
    )
    assert response.status_code == 201, response.text
    body: dict[str, str] = response.json()
    return body


async def upload(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    data: bytes,
    *,
    filename: str = "policy.pdf",
    content_type: str = "application/pdf",
    **fields: str,
) -> httpx.Response:
    """POST ``data`` to /v1/documents as a policy; ``fields`` add to or replace the form fields."""
    form = {"title": "Data Protection Policy", "version": "2.1", "doc_type": "policy", **fields}
    return await client.post(
        "/v1/documents", headers=headers, data=form, files={"file": (filename, data, content_type)}
    )


async def upload_titled(
    client: httpx.AsyncClient, headers: dict[str, str], title: str, set_name: str | None = None
) -> str:
    """Upload a one-page PDF named ``title`` (in ``set_name`` if given); returns its document id."""
    fields = {"title": title, "version": "1"}
    if set_name is not None:
        fields["set_name"] = set_name
    response = await upload(client, headers, one_page_pdf(title), filename="d.pdf", **fields)
    assert response.status_code == 202, response.text
    document_id: str = response.json()["document_id"]
    return document_id


async def new_conversation(
    client: httpx.AsyncClient, headers: dict[str, str], title: str | None = None
) -> str:
    """Create a conversation (titled if ``title``) and return its id."""
    body = {"title": title} if title else None
    response = await client.post("/v1/conversations", headers=headers, json=body)
    assert response.status_code == 201, response.text
    conversation_id: str = response.json()["conversation_id"]
    return conversation_id

"""A small typed client of the PolicyPal HTTP API, for the CLI, the end-to-end tests and benchmarks."""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from httpx_sse import aconnect_sse

from policypal.contracts import Envelope, parse_event


@dataclass(frozen=True)
class StreamedEvent:
    """One server-sent event: its ``id:`` and the PolicyPal event it carries."""

    id: int
    event: Envelope


class PolicyPalClient:
    """Gateway and notifier calls made with one bearer token."""

    def __init__(self, api_url: str, events_url: str, token: str, *, timeout: float = 30.0) -> None:
        headers = {"Authorization": f"Bearer {token}"}
        self._api = httpx.AsyncClient(base_url=api_url, headers=headers, timeout=timeout)
        self._events = httpx.AsyncClient(base_url=events_url, headers=headers, timeout=timeout)

    async def aclose(self) -> None:
        """Close both connections pools."""
        await self._api.aclose()
        await self._events.aclose()

    async def upload(
        self,
        path: Path,
        *,
        title: str,
        version: str,
        doc_type: str,
        set_name: str | None = None,
        content_type: str = "application/pdf",
    ) -> httpx.Response:
        """``POST /v1/documents``; the response is returned as is (202, 200 duplicate, or an error)."""
        data = {"title": title, "version": version, "doc_type": doc_type}
        if set_name:
            data["set_name"] = set_name
        with path.open("rb") as fh:
            return await self._api.post(
                "/v1/documents", data=data, files={"file": (path.name, fh, content_type)}
            )

    async def get(self, url: str) -> httpx.Response:
        """A GET on the gateway."""
        return await self._api.get(url)

    async def create_conversation(self, title: str | None = None) -> str:
        """``POST /v1/conversations``; returns the conversation id."""
        response = await self._api.post("/v1/conversations", json={"title": title} if title else {})
        response.raise_for_status()
        conversation_id: str = response.json()["conversation_id"]
        return conversation_id

    async def post_message(
        self,
        conversation_id: str,
        text: str,
        *,
        action: str | None = None,
        documents: list[str] | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/conversations/{id}/messages``; returns the 202 body (request id, events url)."""
        mentions: dict[str, Any] = {"documents": documents or []}
        if action:
            mentions["action"] = action
        response = await self._api.post(
            f"/v1/conversations/{conversation_id}/messages", json={"text": text, "mentions": mentions}
        )
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        return body

    async def resume(
        self, conversation_id: str, interrupt_id: str, kind: str, value: str | None
    ) -> dict[str, Any]:
        """``POST /v1/conversations/{id}/resume``: answer the pending PalAssist question."""
        response = await self._api.post(
            f"/v1/conversations/{conversation_id}/resume",
            json={"interrupt_id": interrupt_id, "resume_value": {"type": kind, "value": value}},
        )
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        return body

    async def cancel(self, conversation_id: str, interrupt_id: str) -> dict[str, Any]:
        """``POST /v1/conversations/{id}/cancel``: drop the pending PalAssist question."""
        response = await self._api.post(
            f"/v1/conversations/{conversation_id}/cancel", json={"interrupt_id": interrupt_id}
        )
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        return body

    async def stream(
        self, path: str, *, request_id: str | None = None, last_event_id: int | None = None
    ) -> AsyncIterator[StreamedEvent]:
        """Events of a thread from the notifier (``/v1/.../events``), ending after ``request_id``'s terminal."""
        params = {"request_id": request_id} if request_id else {}
        headers = {"Last-Event-ID": str(last_event_id)} if last_event_id is not None else {}
        async with aconnect_sse(self._events, "GET", path, params=params, headers=headers) as source:
            source.response.raise_for_status()
            async for sse in source.aiter_sse():
                if not sse.data:
                    continue
                yield StreamedEvent(id=int(sse.id), event=parse_event(sse.data))

"""Server-Sent Events on the wire: messages rendered to bytes once, and the response that writes them.

A thread event goes to every connection of the thread, so it is rendered once (``SseFrame``) and each
connection only writes the same bytes. The response is a plain ``StreamingResponse`` whose body reads
the connection's frames directly: no producer task, keep-alive task or memory streams per connection
(FastAPI's SSE pipeline); keep-alive pings come from the stream of frames itself (``PING``).
"""

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass

from fastapi.sse import format_sse_event
from starlette.responses import StreamingResponse

#: What proxies need to pass an event stream through unbuffered and uncached.
_STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@dataclass(frozen=True)
class SseFrame:
    """One SSE message and its bytes on the wire (``event``/``id``/``comment`` say what it is)."""

    wire: bytes
    event: str | None = None
    id: str | None = None
    comment: str | None = None


def event_frame(event_id: str, event: str, data: str) -> SseFrame:
    """An event message: ``event:``, ``data:`` (one line per line of ``data``) and ``id:``."""
    return SseFrame(wire=format_sse_event(data_str=data, event=event, id=event_id), event=event, id=event_id)


def comment_frame(text: str) -> SseFrame:
    """A comment line, which EventSource clients ignore."""
    return SseFrame(wire=format_sse_event(comment=text), comment=text)


#: Sent when a stream has been idle for a while, so proxies and clients keep the connection.
PING = comment_frame("ping")


#: The OpenAPI description of one message of an event stream (as FastAPI documents its own SSE).
SSE_OPENAPI_CONTENT: dict[str, object] = {
    "text/event-stream": {
        "itemSchema": {
            "type": "object",
            "properties": {
                "data": {"type": "string"},
                "event": {"type": "string"},
                "id": {"type": "string"},
                "retry": {"type": "integer", "minimum": 0},
            },
        }
    }
}


class EventStreamResponse(StreamingResponse):
    """A ``text/event-stream`` response (the route's ``response_class``, for OpenAPI)."""

    media_type = "text/event-stream"


def event_stream_response(frames: AsyncGenerator[SseFrame]) -> EventStreamResponse:
    """A response writing ``frames``; when the client goes, the frames are closed."""

    async def body() -> AsyncIterator[bytes]:
        async with aclosing(frames):
            async for frame in frames:
                yield frame.wire

    return EventStreamResponse(body(), headers=_STREAM_HEADERS)

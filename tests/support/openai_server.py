"""A real OpenAI-compatible HTTP server for tests: scripted replies, recorded requests.

It serves ``POST /v1/chat/completions`` (JSON, or SSE when ``stream`` is true, ending ``data: [DONE]``
and sending a usage chunk when ``stream_options.include_usage`` is asked) on a free port, from FastAPI
under uvicorn in the test's own event loop. Each request takes the next scripted reply: text, JSON,
a malformed body, an HTTP failure (429 with Retry-After, 500...) or a delay longer than the client's
timeout. Every request is recorded, so tests can assert on the prompts the client really sent.

Two switches make it behave like llama-cpp-python's server (0.3.x): ``json_schema_rejection=500``
answers every ``response_format={"type": "json_schema"}`` request with that status and the validation
error it sends (naming ``response_format``), without taking a scripted reply; ``stream_usage=False``
ignores ``stream_options.include_usage``, so streams end without a usage chunk.

A server shared by several processes (a whole system under test) cannot rely on the order of their
requests: ``reply_for`` picks each request's reply from the request itself (None: the next scripted one).
"""

import asyncio
import json
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse

from tests.support.local_http import ScriptedServer

#: llama-cpp-python 0.3.36's answer to a json_schema response format (seen from the real server, the
#: source path shortened): FastAPI's request validation error as text, which its route wrapper turns
#: into a 500 of type internal_server_error.
LLAMA_CPP_FORMAT_ERROR = (
    "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
    "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', "
    "'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n"
    '  File "llama_cpp/server/app.py", line 376, in create_chat_completion\n'
    "    POST /v1/chat/completions"
)


@dataclass(frozen=True)
class Reply:
    """One scripted answer to one request."""

    content: str = ""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay_seconds: float = 0.0
    chunks: tuple[str, ...] | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    #: The model the server says answered (e.g. a dated snapshot); default: the one asked for.
    model: str | None = None
    #: Pause before each streamed piece, so a client can be watched receiving the answer piece by piece.
    chunk_delay_seconds: float = 0.0

    @classmethod
    def text(
        cls, content: str, *, prompt_tokens: int | None = None, completion_tokens: int | None = None
    ) -> "Reply":
        """A normal answer; streamed word by word (with their leading spaces) when streaming is asked."""
        return cls(content=content, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)

    @classmethod
    def json(cls, value: Any) -> "Reply":
        """A structured answer: ``value`` serialised as the message content."""
        return cls(content=json.dumps(value))

    @classmethod
    def failure(cls, status: int, *, retry_after: float | None = None) -> "Reply":
        """An HTTP error with OpenAI's error body (and ``Retry-After`` in seconds when given)."""
        headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
        return cls(status=status, headers=headers)

    @classmethod
    def slow(cls, seconds: float, content: str = "too late") -> "Reply":
        """An answer that starts only after ``seconds`` (longer than the client's timeout)."""
        return cls(content=content, delay_seconds=seconds)

    def deltas(self) -> tuple[str, ...]:
        """The pieces of a streamed answer."""
        return self.chunks if self.chunks is not None else tuple(re.findall(r"\s*\S+", self.content))


@dataclass(frozen=True)
class RecordedRequest:
    """A request as the server received it."""

    body: dict[str, Any]
    headers: dict[str, str]

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages of the request."""
        messages: list[dict[str, Any]] = self.body["messages"]
        return messages


#: Picks the reply to a request from the request itself; None takes the next scripted reply.
ReplyChooser = Callable[[RecordedRequest], Reply | None]


class ScriptedOpenAI(ScriptedServer):
    """The server; ``async with ScriptedOpenAI() as server:`` then ``server.base_url``."""

    def __init__(
        self,
        *,
        json_schema_rejection: int | None = None,
        stream_usage: bool = True,
        reply_for: ReplyChooser | None = None,
    ) -> None:
        super().__init__("scripted OpenAI server")
        self.json_schema_rejection = json_schema_rejection
        self.stream_usage = stream_usage
        self.reply_for = reply_for
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.requests: list[RecordedRequest] = []
        self.embedding_requests: list[RecordedRequest] = []
        self._script: deque[Reply] = deque()
        self._embedding_failures: deque[Reply] = deque()

    def enqueue(self, *replies: Reply) -> None:
        """Add replies, taken one per request in order."""
        self._script.extend(replies)

    def fail_embeddings(self, *failures: Reply) -> None:
        """Answer the next embedding requests with these failures (then normally again)."""
        self._embedding_failures.extend(failures)

    @property
    def pending(self) -> int:
        """Scripted replies not yet used."""
        return len(self._script)

    def _app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def chat_completions(request: Request) -> Response:
            body = await request.json()
            recorded = RecordedRequest(body=body, headers=dict(request.headers))
            self.requests.append(recorded)
            response_format = body.get("response_format") or {}
            if self.json_schema_rejection and response_format.get("type") == "json_schema":
                return _llama_cpp_format_error(self.json_schema_rejection)
            chosen = self.reply_for(recorded) if self.reply_for is not None else None
            if chosen is None and not self._script:
                # Not retried by the SDK (400): a test that forgot a reply fails at once.
                return _error(400, "no scripted reply left", {})
            reply = chosen if chosen is not None else self._script.popleft()
            if reply.delay_seconds:
                await asyncio.sleep(reply.delay_seconds)
            if reply.status != 200:
                return _error(reply.status, f"scripted failure {reply.status}", reply.headers)
            if body.get("stream"):
                asked = bool((body.get("stream_options") or {}).get("include_usage"))
                include_usage = asked and self.stream_usage
                return StreamingResponse(_sse(body, reply, include_usage), media_type="text/event-stream")
            return JSONResponse(_completion(body, reply))

        @app.post("/v1/embeddings")
        async def embeddings(request: Request) -> Response:
            body = await request.json()
            self.embedding_requests.append(RecordedRequest(body=body, headers=dict(request.headers)))
            if self._embedding_failures:
                failure = self._embedding_failures.popleft()
                return _error(failure.status, f"scripted failure {failure.status}", failure.headers)
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            size = int(body.get("dimensions") or 64)
            data = [
                {"object": "embedding", "index": i, "embedding": _hashed_words(text, size)}
                for i, text in enumerate(texts)
            ]
            tokens = sum(len(text) // 4 + 1 for text in texts)
            return JSONResponse(
                {
                    "object": "list",
                    "data": data,
                    "model": body["model"],
                    "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
                }
            )

        return app


def _hashed_words(text: str, size: int) -> list[float]:
    """A deterministic bag-of-words vector: texts sharing words are near, others far (not normalised)."""
    vector = [0.0] * size
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        vector[sum(map(ord, word)) * 2654435761 % size] += 1.0
    return vector


def _usage(body: dict[str, Any], reply: Reply, pieces: int) -> dict[str, int]:
    # Deterministic stand-ins for a tokenizer: about four characters of prompt per token.
    prompt = (
        reply.prompt_tokens if reply.prompt_tokens is not None else len(json.dumps(body["messages"])) // 4
    )
    completion = reply.completion_tokens if reply.completion_tokens is not None else pieces
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": reply.model or body["model"],
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content},
                "finish_reason": "stop",
            }
        ],
        "usage": _usage(body, reply, len(reply.deltas())),
    }


async def _sse(body: dict[str, Any], reply: Reply, include_usage: bool) -> AsyncIterator[bytes]:
    def chunk(choices: list[dict[str, Any]], usage: dict[str, int] | None = None) -> bytes:
        data: dict[str, Any] = {
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": reply.model or body["model"],
            "choices": choices,
        }
        if usage is not None:
            data["usage"] = usage
        return f"data: {json.dumps(data)}\n\n".encode()

    pieces = reply.deltas()
    yield chunk([{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}])
    for piece in pieces:
        if reply.chunk_delay_seconds:
            await asyncio.sleep(reply.chunk_delay_seconds)
        yield chunk([{"index": 0, "delta": {"content": piece}, "finish_reason": None}])
    yield chunk([{"index": 0, "delta": {}, "finish_reason": "stop"}])
    if include_usage:
        yield chunk([], _usage(body, reply, len(pieces)))
    yield b"data: [DONE]\n\n"


def _error(status: int, message: str, headers: dict[str, str]) -> JSONResponse:
    body = {"error": {"message": message, "type": "scripted", "param": None, "code": str(status)}}
    return JSONResponse(body, status_code=status, headers=headers)


def _llama_cpp_format_error(status: int) -> JSONResponse:
    """llama-cpp-python's error body, as its route wrapper writes it for an unexpected exception."""
    error = {"message": LLAMA_CPP_FORMAT_ERROR, "type": "internal_server_error", "param": None, "code": None}
    return JSONResponse({"error": error}, status_code=status)

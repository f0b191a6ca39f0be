"""Serving a FastAPI app on a free local port inside the test's own event loop (uvicorn)."""

import asyncio
import contextlib
import time
from abc import ABC, abstractmethod
from typing import Self

import uvicorn
from fastapi import FastAPI

from policypal.devstack import free_port


class LocalHTTPServer:
    """``await server.start()`` serves ``app`` on ``port``; ``await server.stop()`` ends it."""

    def __init__(self, app: FastAPI, port: int, name: str) -> None:
        config = uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
        )
        self._server = uvicorn.Server(config)
        self._name = name
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Serve, returning once the port accepts connections."""
        self._task = asyncio.create_task(self._server.serve())
        deadline = time.monotonic() + 10
        while not self._server.started:
            if self._task.done() or time.monotonic() > deadline:
                raise RuntimeError(f"the {self._name} did not start")
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        """Stop serving and wait for the server to end."""
        if self._task is not None:
            self._server.should_exit = True
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class ScriptedServer(ABC):
    """A scripted stand-in for an outside HTTP API, served on a free port while ``async with`` lasts."""

    def __init__(self, name: str) -> None:
        self.port = free_port()
        self._server = LocalHTTPServer(self._app(), self.port, name)

    @abstractmethod
    def _app(self) -> FastAPI:
        """The routes the stand-in answers."""

    async def __aenter__(self) -> Self:
        await self._server.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._server.stop()

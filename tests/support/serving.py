"""Run an ASGI app in-process with uvicorn on a free port, for tests that need real HTTP."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import uvicorn
from starlette.types import ASGIApp

from policypal.devstack import free_port


@asynccontextmanager
async def serve(app: ASGIApp, port: int | None = None) -> AsyncIterator[str]:
    """Serve ``app`` on 127.0.0.1 until the block exits; yields its base URL."""
    port = port or free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()  # raises the start-up error
            raise RuntimeError("uvicorn exited before it started")
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        # Graceful, so the lifespan closes its connections; forced only if a stream is left open.
        server.should_exit = True
        done, _ = await asyncio.wait({task}, timeout=5)
        if not done:
            server.force_exit = True
            await asyncio.wait_for(task, timeout=5)

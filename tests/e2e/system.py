"""Runs `policypal up` as a child process on free ports, as a user would."""

import asyncio
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from policypal.auth import issue_token
from policypal.cli.embedded_system import INFRASTRUCTURE, STOP_MARGIN_SECONDS
from policypal.config import Settings
from policypal.devstack import free_port, wait_for_port
from tests.support.openai_server import ReplyChooser, ScriptedOpenAI

_INHERITED_URLS = ("NATS_URL", "REDIS_URL", "QDRANT_URL", "POLICYPAL_NATS_URL", "POLICYPAL_REDIS_URL")


def stop_budget(settings: Settings) -> float:
    """How long ``up`` may take to stop after Ctrl-C: its services' drain time and margin, then its
    infrastructure processes, 10 s each."""
    return settings.graceful_timeout_seconds + STOP_MARGIN_SECONDS + 10.0 * len(INFRASTRUCTURE)


@dataclass(frozen=True)
class RunningSystem:
    """Where the started system listens, and how to sign tokens for it."""

    api_url: str
    events_url: str
    settings: Settings
    process: "subprocess.Popen[bytes]"

    @property
    def stop_budget(self) -> float:
        """How long ``up`` may take to stop after Ctrl-C (``stop_budget``)."""
        return stop_budget(self.settings)

    def token(self, tenant: str, user: str, ttl_seconds: int | None = None) -> str:
        """A bearer token the system accepts."""
        return issue_token(self.settings, tenant, user, ttl_seconds=ttl_seconds)


@contextmanager
def policypal_up(
    data_dir: Path, *, startup_timeout: float = 120.0, extra_env: dict[str, str] | None = None
) -> Iterator[RunningSystem]:
    """Start the whole system on embedded defaults under ``data_dir``; stop it with SIGINT (Ctrl-C)."""
    port, notifier_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if k not in _INHERITED_URLS}
    env |= {
        "PORT": str(port),
        "POLICYPAL_NOTIFIER_PORT": str(notifier_port),
        "POLICYPAL_DATA_DIR": str(data_dir),
        "POLICYPAL_ENVIRONMENT": "test",
    } | (extra_env or {})
    settings = Settings(_env_file=None, environment="test", data_dir=data_dir)
    log = (data_dir.parent / f"{data_dir.name}-up.log").open("ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "policypal.cli.main", "up"], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        wait_for_port(port, timeout=startup_timeout, process=process)
        wait_for_port(notifier_port, timeout=startup_timeout, process=process)
        yield RunningSystem(
            api_url=f"http://127.0.0.1:{port}",
            events_url=f"http://127.0.0.1:{notifier_port}",
            settings=settings,
            process=process,
        )
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=stop_budget(settings))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()


@contextmanager
def scripted_llm_in_background(reply_for: ReplyChooser) -> Iterator[ScriptedOpenAI]:
    """A scripted OpenAI server on its own thread and event loop, for synchronous tests (a browser).

    ``policypal up`` is a child process, so its requests reach the server whatever the test's thread does.
    """
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="scripted-llm", daemon=True)
    thread.start()
    server = ScriptedOpenAI(reply_for=reply_for)
    try:
        asyncio.run_coroutine_threadsafe(server.__aenter__(), loop).result(timeout=30)
        try:
            yield server
        finally:
            asyncio.run_coroutine_threadsafe(server.__aexit__(None, None, None), loop).result(timeout=30)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()

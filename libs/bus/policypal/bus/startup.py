"""Starting a service: reach NATS, Redis and Qdrant within a deadline, or say why and exit.

A process whose NATS, Redis or Qdrant URL is wrong (a typo, a host that does not answer) must not
hang silently: it logs one sentence naming the URL (without its password) and exits with code 1
within ``Settings.startup_seconds`` (7 s by default), so the launcher or Kubernetes shows the reason and restarts it with
back-off. SIGTERM and SIGINT stop it at once while it is still connecting (exit code 0); once it
serves, FastStream or uvicorn take the signals over and drain
(docs/adr/0016-fail-fast-start-and-supervised-embedded-stack.md).
"""

import asyncio
import logging
import os
import signal
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import nats
from nats.errors import NoServersError

from policypal.bus.broker import DEFAULT_NATS_URL, credentials, nats_servers
from policypal.config import Settings
from policypal.telemetry import configure_json_logging

#: Time a service has by default (``Settings.startup_seconds``, whose default this is), counted from
#: the start of its process (imports take 2-4 s on a busy machine, up to 8 s on a slow one), to reach
#: everything it needs: the verdict comes within the ~10 s an operator waits for one (12 s on a slow
#: machine).
STARTUP_SECONDS: float = Settings.model_fields["startup_seconds"].default
#: Each dependency gets at least one attempt this long, even when local work (loading the embedding
#: model) used up the deadline.
LAST_ATTEMPT_SECONDS = 1.0
#: Pause between two attempts at a dependency that refused (it may be starting next to us).
RETRY_PAUSE_SECONDS = 0.5
NATS_SCHEMES = frozenset({"nats", "tls", "ws", "wss"})
REDIS_SCHEMES = frozenset({"redis", "rediss", "unix"})
QDRANT_SCHEMES = frozenset({"http", "https"})

T = TypeVar("T")
_deadline: ContextVar[float | None] = ContextVar("policypal_startup_deadline", default=None)
_allowed: ContextVar[float] = ContextVar("policypal_startup_seconds", default=STARTUP_SECONDS)
_log = logging.getLogger(__name__)


class StartupError(Exception):
    """A dependency cannot be used; the message is the sentence logged before the process exits."""


def shown_url(url: str) -> str:
    """``url`` without its password, fit for a log line."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return parts._replace(netloc=f"{user}:***@{host}").geturl()


def require_url(what: str, variable: str, url: str, schemes: frozenset[str]) -> None:
    """Raise ``StartupError`` unless ``url`` is a URL of one of ``schemes`` with a host (or a path for unix)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError on a port that is not a number)
    except ValueError as exc:
        raise StartupError(f"{variable} {shown_url(url)!r} is not a valid {what} URL: {exc}.") from None
    if parts.scheme not in schemes:
        expected = ", ".join(f"{scheme}://" for scheme in sorted(schemes))
        raise StartupError(
            f"{variable} {shown_url(url)!r} is not a valid {what} URL: it must start with one of {expected}."
        )
    if not (parts.hostname or (parts.scheme == "unix" and parts.path)):
        raise StartupError(f"{variable} {shown_url(url)!r} is not a valid {what} URL: it names no host.")


def require_urls(settings: Settings) -> None:
    """Check the syntax of every configured NATS, Redis and Qdrant URL before anything connects."""
    if settings.nats_url is not None:
        servers = nats_servers(settings.nats_url)
        if not servers:
            raise StartupError("NATS_URL is set but empty.")
        for server in servers:
            require_url("NATS", "NATS_URL", server, NATS_SCHEMES)
    if settings.redis_url is not None:
        require_url("Redis", "REDIS_URL", settings.redis_url, REDIS_SCHEMES)
    if settings.qdrant_url:
        require_url("Qdrant", "QDRANT_URL", settings.qdrant_url, QDRANT_SCHEMES)


def process_age() -> float:
    """Seconds since this process started (Linux ``/proc``; 0 where that cannot be read)."""
    try:
        stat = Path("/proc/self/stat").read_text()
        # Field 22, after the parenthesised command name (which may hold spaces): start in clock ticks.
        started_ticks = int(stat.rpartition(")")[2].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    return max(uptime - started_ticks / os.sysconf("SC_CLK_TCK"), 0.0)


def seconds_left() -> float:
    """Time left before this process's start-up deadline (``startup_seconds`` after it began)."""
    deadline = _deadline.get()
    if deadline is None:
        deadline = time.monotonic() - process_age() + _allowed.get()
        _deadline.set(deadline)
    return max(deadline - time.monotonic(), 0.0)


async def reach(
    what: str,
    url: str,
    attempt: Callable[[], Awaitable[T]],
    *,
    fatal: tuple[type[Exception], ...] = (),
) -> T:
    """The result of ``attempt``, retried until the start-up deadline; else ``StartupError``.

    An exception of a ``fatal`` type is a configuration error no retry mends: it fails at once.
    """
    last_error: Exception | None = None
    left = max(seconds_left(), LAST_ATTEMPT_SECONDS)
    while left > 0:
        started = time.monotonic()
        try:
            return await asyncio.wait_for(attempt(), timeout=left)
        except TimeoutError:
            break
        except fatal as exc:
            raise StartupError(f"cannot use {what} at {shown_url(url)}: {exc}") from None
        except Exception as exc:
            if last_error is None:
                _log.warning(
                    "%s at %s does not answer yet (%s); retrying for %.0f s",
                    what,
                    shown_url(url),
                    _described(exc),
                    seconds_left(),
                )
            last_error = exc
        await asyncio.sleep(min(RETRY_PAUSE_SECONDS, seconds_left()))
        left = min(seconds_left(), left - (time.monotonic() - started))
    reason = f" (last error: {_described(last_error)})" if last_error is not None else ""
    raise StartupError(f"could not reach {what} at {shown_url(url)} within {_allowed.get():g} s{reason}.")


async def reach_or_open(
    what: str,
    url: str | None,
    local: str,
    attempt: Callable[[], Awaitable[T]],
    *,
    fatal: tuple[type[Exception], ...] = (),
) -> T:
    """A dependency that is remote (``url`` set) or local (``local``, a directory of an embedded engine).

    The remote one is reached within the start-up deadline (``reach``); the local one is opened
    without it: no misconfigured host can hang it, and opening a large index on a busy machine is
    local work that takes what it takes, like loading the embedding model. A ``fatal`` error still
    fails at once either way.
    """
    if url:
        return await reach(what, url, attempt, fatal=fatal)
    try:
        return await attempt()
    except fatal as exc:
        raise StartupError(f"cannot use {what} at {local}: {exc}") from None


def _described(error: Exception) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


async def reach_nats(settings: Settings) -> None:
    """Connect to NATS once as this service's user (no reconnect loop), then disconnect."""
    url = settings.nats_url or DEFAULT_NATS_URL

    async def connect_once() -> None:
        seen: list[Exception] = []

        async def note(error: Exception) -> None:
            seen.append(error)  # nats-py would log each failed attempt with a traceback

        try:
            connection = await nats.connect(
                nats_servers(url),
                allow_reconnect=False,
                connect_timeout=min(2.0, max(seconds_left(), LAST_ATTEMPT_SECONDS)),
                # nats-py's smallest bound: two attempts per server, then NoServersError.
                max_reconnect_attempts=1,
                reconnect_time_wait=0,
                error_cb=note,
                **credentials(settings),
            )
        except NoServersError:
            raise seen[-1] if seen else NoServersError() from None
        await connection.close()

    await reach("NATS", url, connect_once)


def run_service(service_name: str, settings: Settings, main: Callable[[], Awaitable[None]]) -> None:
    """Run ``main`` in a new event loop with JSON logs; exit with a sentence when start-up fails.

    ``StartupError``: the sentence is logged and the process exits with code 1. SIGTERM or SIGINT
    before ``main`` hands the signals to FastStream or uvicorn cancels it and exits with code 0.
    """
    configure_json_logging(service_name, settings.log_level)
    # Set before the loop starts, so every task of ``main`` reads it (asyncio.run copies the context).
    _allowed.set(settings.startup_seconds)
    stopped: list[signal.Signals] = []
    try:
        asyncio.run(_stoppable(settings, main, stopped))
    except StartupError as failure:
        logging.getLogger(service_name).error("%s exits: %s", service_name, failure)
        raise SystemExit(1) from None
    if stopped:
        logging.getLogger(service_name).info("%s stopped by %s while starting", service_name, stopped[0].name)
        raise SystemExit(0)


async def _stoppable(
    settings: Settings, main: Callable[[], Awaitable[None]], stopped: list[signal.Signals]
) -> None:
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None

    def stop(received: signal.Signals) -> None:
        stopped.append(received)
        task.cancel()

    # FastStream's and uvicorn's own handlers replace these once the service serves.
    for received in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(received, stop, received)
    seconds_left()  # the deadline counts from here
    try:
        require_urls(settings)
        await main()
    except asyncio.CancelledError:
        if not stopped:
            raise

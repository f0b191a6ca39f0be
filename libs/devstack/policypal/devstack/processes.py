"""Child processes that listen on a TCP port: start, wait until ready, stop cleanly."""

import os
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(
    port: int,
    host: str = "127.0.0.1",
    timeout: float = 20.0,
    process: "subprocess.Popen[bytes] | None" = None,
) -> None:
    """Block until ``host:port`` accepts connections; raise if it does not in time or the process dies."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"process exited with code {process.returncode} before listening on {port}")
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listened on {host}:{port} within {timeout} s")


@dataclass
class ManagedProcess:
    """A started child process and where it listens."""

    name: str
    popen: "subprocess.Popen[bytes]"
    port: int | None
    url: str | None
    log_path: Path | None = None
    _log: IO[bytes] | None = field(default=None, repr=False)
    #: How it was started, so a supervisor can start it again the same way.
    argv: list[str] = field(default_factory=list)
    env: dict[str, str] | None = None
    started_at: float = field(default_factory=time.monotonic)

    @classmethod
    def start(
        cls,
        name: str,
        argv: list[str],
        port: int | None = None,
        url: str | None = None,
        *,
        log_path: Path | None = None,
        env: dict[str, str] | None = None,
        ready_timeout: float = 20.0,
    ) -> "ManagedProcess":
        """Start ``argv`` and, when it has a ``port``, wait until it listens there."""
        popen, log = _spawn(argv, env, log_path)
        proc = cls(
            name=name, popen=popen, port=port, url=url, log_path=log_path, _log=log, argv=argv, env=env
        )
        if port is None:
            return proc
        try:
            wait_for_port(port, timeout=ready_timeout, process=popen)
        except BaseException:
            proc.stop()
            raise
        return proc

    def respawn(self) -> None:
        """Start the exited process again with the same command, environment and log (appended)."""
        if self.running:
            raise RuntimeError(f"{self.name} is still running")
        if self._log is not None:
            self._log.close()
        self.popen, self._log = _spawn(self.argv, self.env, self.log_path)
        self.started_at = time.monotonic()

    def terminate(self) -> None:
        """Send SIGTERM (a graceful stop) without waiting."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)

    def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM, then SIGKILL after ``timeout``; returns the exit code."""
        self.terminate()
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
        if self._log is not None:
            self._log.close()
            self._log = None
        return self.popen.returncode

    @property
    def running(self) -> bool:
        """Whether the process has not exited."""
        return self.popen.poll() is None

    def kill(self) -> None:
        """SIGKILL at once, as a crash would."""
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()


def stop_together(processes: Sequence[ManagedProcess], timeout: float) -> None:
    """SIGTERM every process at once, then give all of them ``timeout`` in total to finish.

    Workers drain in parallel instead of one after another; those still running then are killed.
    """
    for proc in processes:
        proc.terminate()
    deadline = time.monotonic() + timeout
    for proc in processes:
        proc.stop(timeout=max(deadline - time.monotonic(), 0.0))


def _spawn(
    argv: list[str], env: dict[str, str] | None, log_path: Path | None
) -> "tuple[subprocess.Popen[bytes], IO[bytes] | None]":
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
    log = log_path.open("ab") if log_path else None
    popen = subprocess.Popen(
        argv,
        stdout=log or subprocess.DEVNULL,
        stderr=subprocess.STDOUT if log else subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
        start_new_session=True,  # Ctrl-C in a terminal reaches the launcher only; it stops us in order.
    )
    return popen, log

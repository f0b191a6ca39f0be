"""Every service started with an unreachable or invalid NATS, Redis or Qdrant URL says why and exits
non-zero within 12 s; SIGTERM while it is still connecting stops it at once (real processes)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from policypal.devstack import ManagedProcess, free_port

pytestmark = [pytest.mark.faults, pytest.mark.integration]

#: Every process the system runs: the HTTP services, the workers, and the colocated embedded worker.
SERVICES = (
    ["gateway"],
    ["notifier"],
    ["resolver"],
    ["ingestor"],
    ["actions.inquire"],
    ["actions.audit"],
    ["policypal.cli.colocated", "ingestor", "actions.summarize"],
)
#: Services that open Qdrant (the others never touch it).
QDRANT_SERVICES = (["ingestor"], ["actions.compare"], ["policypal.cli.colocated", "ingestor"])
#: The 7 s start-up deadline counts from the process's start; on a slow 2-core machine a worker's
#: imports and model take up to 8 s of it, and each dependency still gets one last 1 s attempt.
VERDICT_SECONDS = 12.0


def _env(tmp_path: Path, nats: ManagedProcess, valkey: ManagedProcess, **overrides: str) -> dict[str, str]:
    qdrant = str(tmp_path / "qdrant")
    env = {
        **os.environ,
        "NATS_URL": str(nats.url),
        "REDIS_URL": str(valkey.url),
        "POLICYPAL_ENVIRONMENT": "test",
        "POLICYPAL_DATA_DIR": str(tmp_path / "data"),
        "POLICYPAL_QDRANT_PATH": qdrant,
        "POLICYPAL_QDRANT_LOCAL_OWNER": qdrant,
        "POLICYPAL_PORT": str(free_port()),
        "POLICYPAL_NOTIFIER_PORT": str(free_port()),
    }
    return env | overrides


def _run(argv: list[str], env: dict[str, str]) -> tuple[int, str, float]:
    """Run ``python -m argv`` to its end (killed after 30 s); its exit code, output and duration."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        start_new_session=True,
    )
    return done.returncode, done.stdout + done.stderr, time.monotonic() - started


def _assert_verdict(argv: list[str], env: dict[str, str], sentence: str) -> None:
    code, output, seconds = _run(argv, env)
    assert code == 1, f"{argv[0]} exited with {code}:\n{output[-3000:]}"
    assert sentence in output, f"{argv[0]} did not say {sentence!r}:\n{output[-3000:]}"
    assert "Traceback" not in output, output[-3000:]
    assert seconds < VERDICT_SECONDS, f"{argv[0]} took {seconds:.1f} s to give up"


@pytest.mark.parametrize("argv", SERVICES, ids=lambda argv: argv[0])
def test_unreachable_nats(
    argv: list[str], tmp_path: Path, nats_server: ManagedProcess, valkey_server: ManagedProcess
) -> None:
    url = f"nats://127.0.0.1:{free_port()}"
    env = _env(tmp_path, nats_server, valkey_server, NATS_URL=url)
    _assert_verdict(
        argv, env, f"could not reach NATS at {url} within 7 s (last error: ConnectionRefusedError"
    )


def test_the_start_up_deadline_is_a_setting(
    tmp_path: Path, nats_server: ManagedProcess, valkey_server: ManagedProcess
) -> None:
    url = f"nats://127.0.0.1:{free_port()}"
    env = _env(tmp_path, nats_server, valkey_server, NATS_URL=url, POLICYPAL_STARTUP_SECONDS="15")
    code, output, seconds = _run(["resolver"], env)
    assert code == 1, output[-3000:]
    assert f"could not reach NATS at {url} within 15 s" in output, output[-3000:]
    assert seconds >= 14.0


@pytest.mark.parametrize("argv", SERVICES[:5], ids=lambda argv: argv[0])
def test_unreachable_redis_hides_its_password(
    argv: list[str], tmp_path: Path, nats_server: ManagedProcess, valkey_server: ManagedProcess
) -> None:
    url = f"redis://:hunter2-secret@127.0.0.1:{free_port()}/0"
    env = _env(tmp_path, nats_server, valkey_server, REDIS_URL=url)
    code, output, seconds = _run(argv, env)
    assert code == 1, output[-3000:]
    assert "could not reach Redis at redis://:***@127.0.0.1:" in output, output[-3000:]
    assert "hunter2-secret" not in output
    assert seconds < VERDICT_SECONDS


@pytest.mark.parametrize("argv", QDRANT_SERVICES, ids=lambda argv: argv[0])
def test_unreachable_qdrant(
    argv: list[str], tmp_path: Path, nats_server: ManagedProcess, valkey_server: ManagedProcess
) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    env = _env(tmp_path, nats_server, valkey_server, QDRANT_URL=url)
    _assert_verdict(argv, env, f"could not reach Qdrant at {url} within 7 s")


@pytest.mark.parametrize(
    ("variable", "value", "sentence"),
    [
        ("NATS_URL", "http://127.0.0.1:4222", "is not a valid NATS URL: it must start with one of nats://"),
        ("NATS_URL", "nats://localhost:port", "is not a valid NATS URL: Port could not be cast"),
        ("NATS_URL", " , ", "NATS_URL is set but empty."),
        ("REDIS_URL", "localhost:6379", "is not a valid Redis URL: it must start with one of redis://"),
        ("QDRANT_URL", "qdrant:6333", "is not a valid Qdrant URL: it must start with one of http://"),
        ("QDRANT_URL", "http://", "is not a valid Qdrant URL: it names no host."),
    ],
)
@pytest.mark.parametrize("argv", [["gateway"], ["resolver"], ["ingestor"]], ids=lambda argv: argv[0])
def test_invalid_url(
    argv: list[str],
    variable: str,
    value: str,
    sentence: str,
    tmp_path: Path,
    nats_server: ManagedProcess,
    valkey_server: ManagedProcess,
) -> None:
    env = _env(tmp_path, nats_server, valkey_server, **{variable: value})
    _assert_verdict(argv, env, sentence)


def test_unresolvable_nats_host(
    tmp_path: Path, nats_server: ManagedProcess, valkey_server: ManagedProcess
) -> None:
    env = _env(tmp_path, nats_server, valkey_server, NATS_URL="nats://no-such-host.invalid:4222")
    _assert_verdict(["resolver"], env, "could not reach NATS at nats://no-such-host.invalid:4222")


def test_starts_when_the_dependency_comes_up_within_the_deadline(
    tmp_path: Path, nats_server: ManagedProcess, valkey_server: ManagedProcess
) -> None:
    """A NATS that starts a moment after the worker (compose, a rolling restart) is waited for."""
    from policypal.devstack import start_nats_server

    port = free_port()
    env = _env(tmp_path, nats_server, valkey_server, NATS_URL=f"nats://127.0.0.1:{port}")
    proc = ManagedProcess.start(
        "resolver", [sys.executable, "-m", "resolver"], env=env, log_path=tmp_path / "resolver.log"
    )
    late_nats: ManagedProcess | None = None
    try:
        _wait_for_line(proc, "does not answer yet", within=20)
        late_nats = start_nats_server(tmp_path / "nats", port=port)
        _wait_for_line(proc, "FastStream app started successfully", within=20)
        assert proc.running
    finally:
        proc.stop(timeout=20)
        if late_nats is not None:
            late_nats.stop()
    assert proc.popen.returncode == 0


@pytest.mark.parametrize("argv", [["gateway"], ["notifier"], ["resolver"], ["actions.inquire"]], ids=str)
@pytest.mark.parametrize("received", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_signal_while_connecting_stops_at_once(
    argv: list[str],
    received: signal.Signals,
    tmp_path: Path,
    nats_server: ManagedProcess,
    valkey_server: ManagedProcess,
) -> None:
    # A deadline far off, so the signal surely comes while the service is still connecting.
    env = _env(
        tmp_path,
        nats_server,
        valkey_server,
        NATS_URL=f"nats://127.0.0.1:{free_port()}",
        POLICYPAL_STARTUP_SECONDS="60",
    )
    proc = ManagedProcess.start(
        argv[0], [sys.executable, "-m", *argv], env=env, log_path=tmp_path / "service.log"
    )
    try:
        _wait_for_line(proc, "NATS at nats://127.0.0.1", within=20)
        sent = time.monotonic()
        proc.popen.send_signal(received)
        code = proc.popen.wait(timeout=10)
        seconds = time.monotonic() - sent
    finally:
        proc.stop(timeout=5)
    log = (tmp_path / "service.log").read_text()
    assert code == 0, f"exit code {code}:\n{log[-3000:]}"
    assert seconds < 2.0, f"took {seconds:.1f} s to stop"
    assert f"stopped by {received.name} while starting" in log


def _wait_for_line(proc: ManagedProcess, text: str, *, within: float) -> None:
    assert proc.log_path is not None
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if text in proc.log_path.read_text():
            return
        if not proc.running:
            break
        time.sleep(0.05)
    raise AssertionError(f"{proc.name} never logged {text!r}:\n{proc.log_path.read_text()[-3000:]}")

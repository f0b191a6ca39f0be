"""The launcher's supervision with real child processes: a crashed one comes back after a back-off
that grows while it keeps failing; a stop lets every child drain in parallel before killing any."""

import signal
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from policypal.devstack import ManagedProcess, Supervisor, stop_together

# Real child processes: the integration lane, not the fast one.
pytestmark = pytest.mark.integration

#: A child that runs until stopped.
SLEEPER = "import time; time.sleep(600)"
#: A child that fails at once, as a worker that cannot reach its dependencies.
FAILING = "raise SystemExit(3)"
#: A child that drains for ``sys.argv[1]`` seconds after SIGTERM, then exits 0 (a worker finishing requests).
DRAINING = (
    "import signal, sys, time\n"
    "signal.signal(signal.SIGTERM, lambda *_: (time.sleep(float(sys.argv[1])), sys.exit(0)))\n"
    "print('ready', flush=True)\n"
    "time.sleep(600)\n"
)


def _child(name: str, code: str, tmp_path: Path, *args: str) -> ManagedProcess:
    return ManagedProcess.start(name, [sys.executable, "-c", code, *args], log_path=tmp_path / f"{name}.log")


def _logged(log: Path, text: str) -> bool:
    return text in log.read_text()


def _wait_until(condition: Callable[[], bool], within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def test_a_killed_child_is_restarted_and_the_others_run_on(tmp_path: Path) -> None:
    crashing, steady = _child("worker", SLEEPER, tmp_path), _child("other", SLEEPER, tmp_path)
    lines: list[str] = []
    supervisor = Supervisor([crashing, steady], first_delay=0.2, report=lines.append)
    try:
        first_pid, steady_pid = crashing.popen.pid, steady.popen.pid
        crashing.popen.send_signal(signal.SIGKILL)
        crashing.popen.wait()

        def restarted() -> bool:
            supervisor.check()
            return crashing.running and crashing.popen.pid != first_pid

        _wait_until(restarted, within=5)
        assert steady.running
        assert steady.popen.pid == steady_pid
        assert lines[0].startswith("worker exited with code -9; restarting it in 0.2 s")
        assert lines[1].startswith("worker restarted (pid ")
    finally:
        stop_together([crashing, steady], timeout=5)


def test_back_off_doubles_while_a_child_keeps_failing_and_resets_when_healthy(tmp_path: Path) -> None:
    failing = _child("worker", FAILING, tmp_path)
    lines: list[str] = []
    supervisor = Supervisor(
        [failing], first_delay=1.0, max_delay=4.0, healthy_after=30.0, report=lines.append
    )
    failing.popen.wait()
    now = time.monotonic()
    delays = []
    for _ in range(4):
        supervisor.check(now)  # notices the exit and schedules the restart
        delay = float(lines[-1].split("restarting it in ")[1].split(" s")[0])
        delays.append(delay)
        supervisor.check(now + delay - 0.01)
        assert not failing.running, "restarted before its back-off passed"
        now += delay
        supervisor.check(now)
        failing.popen.wait()
    assert delays == [1.0, 2.0, 4.0, 4.0]

    failing.argv = [sys.executable, "-c", SLEEPER]  # the cause is mended: it now stays up
    supervisor.check(now)
    supervisor.check(now + 4.0)
    assert failing.running
    supervisor.check(failing.started_at + 30.0)
    assert supervisor.restarts_of("worker") == 0
    failing.stop()


def test_stop_waits_for_every_drain_in_parallel_then_kills_the_stuck(tmp_path: Path) -> None:
    drains = [_child(f"worker{i}", DRAINING, tmp_path, "2") for i in range(3)]
    stuck = _child("stuck", DRAINING, tmp_path, "600")
    for proc in [*drains, stuck]:
        _wait_until(partial(_logged, tmp_path / f"{proc.name}.log", "ready"), within=10)
    started = time.monotonic()
    stop_together([*drains, stuck], timeout=5)
    took = time.monotonic() - started
    # Three 2 s drains side by side, not 6 s one after another; the stuck one killed at the timeout.
    assert [proc.popen.returncode for proc in drains] == [0, 0, 0]
    assert stuck.popen.returncode == -signal.SIGKILL
    assert 4.5 < took < 8.0, took

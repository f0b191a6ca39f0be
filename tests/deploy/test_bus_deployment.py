"""The deployed bus: docker-compose.yml and deploy/k8s give every service its own NATS user and carry no
secret, and ``policypal bus-deployment`` renders a configuration that a real nats-server enforces
(each service's password admitted, anonymous and stale passwords refused), laid out as compose and the
NATS Helm chart (deploy/k8s/nats/values.yaml) mount it."""

import asyncio
import json
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import nats
import pytest
import yaml
from nats.aio.client import Client

from policypal.bus import declare_streams
from policypal.cli.bus_credentials import BusCredentials
from policypal.cli.bus_deployment import (
    AUTH_DIR_VARIABLE,
    DEPLOYED_SERVICES,
    SERVER_CONFIG_KEY,
    SERVER_SECRET,
    password_variable,
    service_secret_name,
)
from policypal.cli.main import main
from policypal.devstack import ManagedProcess, start_nats_server
from tests.deploy.kustomize import Manifest, render
from tests.deploy.test_kubernetes import KUBERNETES_VERSION, VARIANTS

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
HELM_VALUES = ROOT / "deploy" / "k8s" / "nats" / "values.yaml"
#: Where the NATS Helm chart mounts its generated configuration (includes are relative to it).
HELM_CONFIG_DIR = "/etc/nats-config"
BCRYPT_HASH = re.compile(r"\$2[aby]\$\d\d\$")


def _compose_services() -> dict[str, Any]:
    services: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())["services"]
    return services


def _required(variable: str) -> re.Pattern[str]:
    """Compose interpolation of ``variable`` that fails when unset and has no default."""
    return re.compile(rf"^\$\{{{variable}:\?[^}}]+\}}$")


def test_every_compose_service_logs_in_as_its_own_user_with_no_default_password() -> None:
    services = _compose_services()
    policypal = {name: s for name, s in services.items() if s.get("image") == "policypal:latest"}
    users = {name: s["environment"]["NATS_USER"] for name, s in policypal.items()}
    assert users == {name: name for name in DEPLOYED_SERVICES}
    for user, service in policypal.items():
        assert _required(password_variable(user)).match(service["environment"]["NATS_PASSWORD"]), user


def test_compose_nats_reads_the_rendered_config_from_the_mounted_credential_directory(tmp_path: Path) -> None:
    nats_service = _compose_services()["nats"]
    command = nats_service["command"]
    config = command[command.index("-c") + 1]
    mounts = [v for v in nats_service["volumes"] if v.startswith("${" + AUTH_DIR_VARIABLE)]
    [mount] = mounts
    source, target, mode = mount.rsplit(":", 2)
    assert _required(AUTH_DIR_VARIABLE).match(source)
    assert mode == "ro"
    # The directory is mounted, so an atomically replaced file is seen on reload.
    assert config == posixpath.join(target, BusCredentials(tmp_path).config_path.name)


def _deployments(manifests: list[Manifest]) -> dict[str, Manifest]:
    return {m["metadata"]["name"]: m for m in manifests if m["kind"] == "Deployment"}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_deployment_logs_in_as_its_own_user_from_its_own_secret(variant: str) -> None:
    manifests = render(VARIANTS[variant])
    deployments = _deployments(manifests)
    assert set(deployments) == set(DEPLOYED_SERVICES)
    for name, deployment in deployments.items():
        [container] = deployment["spec"]["template"]["spec"]["containers"]
        env = {v["name"]: v for v in container["env"]}
        assert env["NATS_USER"]["value"] == name
        assert env["NATS_PASSWORD"]["valueFrom"]["secretKeyRef"] == {
            "name": service_secret_name(name),
            "key": "password",
        }
    # Those Secrets and nats-server's come from policypal bus-deployment, never from Git.
    secrets = {m["metadata"]["name"] for m in manifests if m["kind"] == "Secret"}
    assert not {service_secret_name(n) for n in DEPLOYED_SERVICES} & secrets
    assert SERVER_SECRET not in secrets


def test_helm_values_include_the_auth_secret_where_it_is_mounted() -> None:
    values = yaml.safe_load(HELM_VALUES.read_text())
    included = posixpath.normpath(posixpath.join(HELM_CONFIG_DIR, values["config"]["merge"]["00$include"]))
    [mount] = [p["value"] for p in values["container"]["patch"] if p["path"] == "/volumeMounts/-"]
    [volume] = [p["value"] for p in values["podTemplate"]["patch"] if p["path"] == "/spec/volumes/-"]
    assert included == posixpath.join(mount["mountPath"], SERVER_CONFIG_KEY)
    assert mount["name"] == volume["name"]
    assert volume["secret"]["secretName"] == SERVER_SECRET
    assert values["config"]["jetstream"]["enabled"]
    assert values["config"]["monitor"]["enabled"]
    assert values["natsBox"]["enabled"] is False  # it would connect anonymously


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) of every mapping in ``node``; a Kubernetes env entry counts as name: value."""
    if isinstance(node, dict):
        if set(node) >= {"name", "value"}:
            yield str(node["name"]), node["value"]
        for key, value in node.items():
            yield str(key), value
            yield from _walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item)


def test_no_default_secret_is_committed() -> None:
    files = [COMPOSE, *(p for p in (ROOT / "deploy").rglob("*.yaml"))]
    for path in files:
        assert not BCRYPT_HASH.search(path.read_text()), path
        for document in yaml.safe_load_all(path.read_text()):
            for key, value in _walk(document):
                if "PASSWORD" in key.upper() and isinstance(value, str):
                    # Only a compose reference that fails when the operator has not set it.
                    assert re.match(r"^\$\{[A-Z0-9_]+:\?[^}]+\}$", value), (path, key)
                if key == "literals":  # a kustomize generator's key=value pairs
                    assert not [v for v in value if "password" in v.split("=", 1)[0].lower()], path
    assert ".env" in (ROOT / ".gitignore").read_text().split()


# --- against a real nats-server -------------------------------------------------------------------


def _issue_for_compose(bus_dir: Path, env_file: Path, *services: str) -> dict[str, str]:
    argv = ["bus-deployment", "--bus-dir", str(bus_dir), "issue", "--env-file", str(env_file)]
    for service in services:
        argv += ["--service", service]
    assert main(argv) == 0
    return _read_env(env_file)


async def _connect(server: ManagedProcess, user: str | None = None, password: str | None = None) -> Client:
    return await nats.connect(
        str(server.url), user=user, password=password, allow_reconnect=False, max_reconnect_attempts=0
    )


async def _admitted(server: ManagedProcess, user: str, password: str, *, within: float = 5.0) -> None:
    # A reload is a signal the server acts on shortly after: a new password may need a moment.
    deadline = asyncio.get_running_loop().time() + within
    while True:
        try:
            client = await _connect(server, user, password)
        except (nats.errors.Error, ConnectionResetError):
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.1)
            continue
        await client.close()
        return


def _read_env(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if line)


async def _refused(server: ManagedProcess, user: str | None = None, password: str | None = None) -> None:
    # The server answers a failed login with -ERR and closes; on a loaded machine the client may read
    # the close first (ConnectionResetError). Either way no connection is made.
    with pytest.raises((nats.errors.Error, ConnectionResetError)) as refused:
        await _connect(server, user, password)
    if isinstance(refused.value, nats.errors.Error):
        assert "Authorization Violation" in str(refused.value)


@pytest.fixture
def compose_layout(tmp_path: Path) -> Iterator[tuple[BusCredentials, Path, ManagedProcess]]:
    """A credential directory issued for compose, and nats-server started on its rendered config."""
    credentials = BusCredentials(tmp_path / "bus")
    env_file = tmp_path / ".env"
    env_file.write_text("POLICYPAL_JWT_SECRET=kept-as-is\n")
    _issue_for_compose(credentials.directory, env_file)
    server = start_nats_server(
        tmp_path / "store",
        log_path=tmp_path / "nats.log",
        config=credentials.config_path,
        pid_file=credentials.pid_file,
    )
    try:
        yield credentials, env_file, server
    finally:
        server.stop()


@pytest.mark.integration
async def test_the_compose_env_admits_each_service_and_nobody_else(
    compose_layout: tuple[BusCredentials, Path, ManagedProcess],
) -> None:
    credentials, env_file, server = compose_layout
    env = _read_env(env_file)
    assert env["POLICYPAL_JWT_SECRET"] == "kept-as-is"
    assert Path(env[AUTH_DIR_VARIABLE]) == credentials.directory.resolve()
    assert env_file.stat().st_mode & 0o077 == 0
    config = credentials.config_path.read_text()
    assert "no_auth_user" not in config
    for user in DEPLOYED_SERVICES:
        assert env[password_variable(user)] not in config  # only hashes reach the server
        await _admitted(server, user, env[password_variable(user)])
    gateway = await _connect(server, "gateway", env[password_variable("gateway")])
    await declare_streams(gateway.jetstream())  # its rights cover the streams it declares
    await gateway.close()
    await _refused(server)
    await _refused(server, "gateway", env[password_variable("resolver")])


@pytest.mark.integration
async def test_rotating_one_service_keeps_the_others_and_external_credentials(
    compose_layout: tuple[BusCredentials, Path, ManagedProcess],
) -> None:
    credentials, env_file, server = compose_layout
    before = _read_env(env_file)
    assert (
        main(
            [
                "bus-credential",
                "--bus-dir",
                str(credentials.directory),
                "create",
                "--tenant",
                "acme",
                "--name",
                "bot",
            ]
        )
        == 0
    )
    after = _issue_for_compose(credentials.directory, env_file, "gateway")
    changed = {name for name in after if after[name] != before[name]}
    assert changed == {password_variable("gateway")}
    assert credentials.reload_server()
    await _admitted(server, "gateway", after[password_variable("gateway")])
    await _refused(server, "gateway", before[password_variable("gateway")])
    await _admitted(server, "resolver", after[password_variable("resolver")])
    assert [c.user for c in credentials.external()] == ["ext-acme-bot"]
    assert "ext-acme-bot" in credentials.config_path.read_text()


@pytest.mark.integration
async def test_kubernetes_secrets_and_the_helm_layout_admit_the_services(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bus_dir = str(tmp_path / "bus")
    assert main(["bus-deployment", "--bus-dir", bus_dir, "issue", "--kubernetes-namespace", "policypal"]) == 0
    listing = json.loads(capsys.readouterr().out)
    secrets = {s["metadata"]["name"]: s for s in listing["items"]}
    assert set(secrets) == {service_secret_name(n) for n in DEPLOYED_SERVICES}
    assert (
        main(["bus-deployment", "--bus-dir", bus_dir, "server-config", "--kubernetes-namespace", "nats"]) == 0
    )
    server_secret = json.loads(capsys.readouterr().out)
    for manifest in [*secrets.values(), server_secret]:
        kubernetes_validate.validate(manifest, KUBERNETES_VERSION, strict=True)
    assert server_secret["metadata"] == server_secret["metadata"] | {
        "name": SERVER_SECRET,
        "namespace": "nats",
    }

    # The files as the chart's pods see them: its nats.conf includes the mounted Secret's key.
    values = yaml.safe_load(HELM_VALUES.read_text())
    [mount] = [p["value"] for p in values["container"]["patch"] if p["path"] == "/volumeMounts/-"]
    etc = tmp_path / "etc"
    auth = etc / Path(mount["mountPath"]).relative_to("/etc") / SERVER_CONFIG_KEY
    auth.parent.mkdir(parents=True)
    auth.write_text(server_secret["stringData"][SERVER_CONFIG_KEY])
    chart_config = etc / Path(HELM_CONFIG_DIR).relative_to("/etc") / "nats.conf"
    chart_config.parent.mkdir(parents=True)
    chart_config.write_text(f"include {values['config']['merge']['00$include']};\n")
    server = start_nats_server(tmp_path / "store", log_path=tmp_path / "nats.log", config=chart_config)
    try:
        for name, secret in secrets.items():
            data = secret["stringData"]
            assert name == service_secret_name(data["user"])
            await _admitted(server, data["user"], data["password"])
        await _refused(server)
    finally:
        server.stop()

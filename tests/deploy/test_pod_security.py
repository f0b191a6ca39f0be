"""Every rendered pod (base, dev, prod) passes Pod Security "restricted", gets its credentials only from
Secrets, and has the probes and shutdown behaviour its kind needs.

The "restricted" rules are those of the Pod Security Standards (baseline and restricted, Kubernetes
1.37), checked on the pod specs kustomize renders.
"""

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from policypal.config import Settings
from policypal.config.settings import SECRET_FILE_FIELDS
from policypal.contracts.action_registry import ACTION_REGISTRY
from tests.deploy.kustomize import Manifest, find, render

K8S = Path(__file__).resolve().parents[2] / "deploy" / "k8s"
VARIANTS = {"base": K8S / "base", "dev": K8S / "overlays" / "dev", "prod": K8S / "overlays" / "prod"}
WORKERS = {"resolver", "ingestor", *(spec.durable for spec in ACTION_REGISTRY)}
SSE_SERVICES = {"gateway", "notifier"}
#: Volume types the restricted profile allows.
RESTRICTED_VOLUMES = {
    "configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret",
}  # fmt: skip
#: Sysctls the baseline profile allows.
SAFE_SYSCTLS = {
    "kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.ip_unprivileged_port_start",
    "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_local_reserved_ports",
    "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
}  # fmt: skip


def _variables(field: str) -> set[str]:
    alias = Settings.model_fields[field].validation_alias
    choices = getattr(alias, "choices", None)
    return {str(c) for c in choices} if choices else {f"POLICYPAL_{field.upper()}"}


#: Environment variables that carry a credential.
CREDENTIALS = set().union(*(_variables(field) for field in SECRET_FILE_FIELDS))


@pytest.fixture(params=sorted(VARIANTS), scope="module")
def rendered(request: pytest.FixtureRequest) -> list[Manifest]:
    return render(VARIANTS[request.param])


def _pods(manifests: list[Manifest]) -> dict[str, Manifest]:
    return {
        m["metadata"]["name"]: m["spec"]["template"]["spec"] for m in manifests if m["kind"] == "Deployment"
    }


def restricted_violations(pod: Manifest) -> list[str]:
    """What in ``pod`` (a pod spec) breaks the Pod Security Standards' restricted profile."""
    found: list[str] = []
    pod_context: Manifest = pod.get("securityContext", {})
    for host in ("hostNetwork", "hostPID", "hostIPC"):
        if pod.get(host):
            found.append(f"{host} is set")
    if pod_context.get("runAsUser") == 0:
        found.append("pod runs as user 0")
    for sysctl in pod_context.get("sysctls", []):
        if sysctl["name"] not in SAFE_SYSCTLS:
            found.append(f"unsafe sysctl {sysctl['name']}")
    for volume in pod.get("volumes", []):
        kinds = set(volume) - {"name"}
        if not kinds <= RESTRICTED_VOLUMES:
            found.append(f"volume {volume['name']} is of type {sorted(kinds)}")
    containers = [*pod.get("initContainers", []), *pod["containers"], *pod.get("ephemeralContainers", [])]
    for container in containers:
        found.extend(f"{container['name']}: {v}" for v in _container_violations(container, pod_context))
    return found


def _container_violations(container: Manifest, pod_context: Manifest) -> list[str]:
    found: list[str] = []
    context: Manifest = container.get("securityContext", {})

    def effective(key: str) -> Any:
        return context.get(key, pod_context.get(key))

    if context.get("privileged"):
        found.append("privileged")
    if context.get("allowPrivilegeEscalation") is not False:
        found.append("allowPrivilegeEscalation is not false")
    capabilities = context.get("capabilities", {})
    if "ALL" not in capabilities.get("drop", []):
        found.append("capabilities do not drop ALL")
    if set(capabilities.get("add", [])) - {"NET_BIND_SERVICE"}:
        found.append(f"adds capabilities {capabilities['add']}")
    if effective("runAsNonRoot") is not True:
        found.append("runAsNonRoot is not true")
    if effective("runAsUser") == 0:
        found.append("runs as user 0")
    seccomp = effective("seccompProfile") or {}
    if seccomp.get("type") not in ("RuntimeDefault", "Localhost"):
        found.append("seccompProfile is not RuntimeDefault or Localhost")
    if context.get("procMount", "Default") != "Default":
        found.append("procMount is not Default")
    if any(port.get("hostPort") for port in container.get("ports", [])):
        found.append("uses a hostPort")
    return found


def test_every_pod_passes_pod_security_restricted(rendered: list[Manifest]) -> None:
    pods = _pods(rendered)
    assert len(pods) == 8
    assert {name: restricted_violations(pod) for name, pod in pods.items()} == {name: [] for name in pods}


def test_the_restricted_check_catches_what_it_must() -> None:
    pod = _pods(render(VARIANTS["prod"]))["gateway"]
    pod["hostNetwork"] = True
    pod["volumes"].append({"name": "host", "hostPath": {"path": "/"}})
    container = pod["containers"][0]
    container["securityContext"]["allowPrivilegeEscalation"] = True
    container["securityContext"]["capabilities"] = {"add": ["SYS_ADMIN"]}
    del pod["securityContext"]["seccompProfile"]
    assert len(restricted_violations(pod)) == 6


def test_root_file_system_is_read_only_with_a_scratch_tmp(rendered: list[Manifest]) -> None:
    for name, pod in _pods(rendered).items():
        [container] = pod["containers"]
        assert container["securityContext"]["readOnlyRootFilesystem"] is True, name
        volumes = {v["name"]: v for v in pod["volumes"]}
        [mount] = container["volumeMounts"]
        assert mount["mountPath"] == "/tmp", name
        assert "emptyDir" in volumes[mount["name"]], name
    config = find(rendered, "ConfigMap", "policypal-config")["data"]
    assert config["POLICYPAL_DATA_DIR"].startswith("/tmp/")
    assert config["POLICYPAL_LIVENESS_FILE"].startswith("/tmp/")


def test_every_worker_has_a_liveness_probe_on_the_file_it_touches(rendered: list[Manifest]) -> None:
    liveness_file = find(rendered, "ConfigMap", "policypal-config")["data"]["POLICYPAL_LIVENESS_FILE"]
    for name, pod in _pods(rendered).items():
        [container] = pod["containers"]
        probe = container["livenessProbe"]
        if name in WORKERS:
            assert liveness_file in probe["exec"]["command"][-1], name
        else:
            assert probe["httpGet"]["path"] == "/healthz", name


def _probe_exit(command: list[str], liveness_file: str, file: Path) -> int:
    argv = [
        sys.executable if part == "python" else part.replace(liveness_file, str(file)) for part in command
    ]
    return subprocess.run(argv, capture_output=True, timeout=30, check=False).returncode


def test_the_worker_liveness_command_tells_a_fresh_file_from_a_stale_or_missing_one(tmp_path: Path) -> None:
    rendered = render(VARIANTS["prod"])
    liveness_file = find(rendered, "ConfigMap", "policypal-config")["data"]["POLICYPAL_LIVENESS_FILE"]
    command = _pods(rendered)["actions-audit"]["containers"][0]["livenessProbe"]["exec"]["command"]
    beat = tmp_path / "alive"
    assert _probe_exit(command, liveness_file, beat) != 0, "no file yet: not alive"
    beat.touch()
    assert _probe_exit(command, liveness_file, beat) == 0
    stale = time.time() - 60
    os.utime(beat, (stale, stale))
    assert _probe_exit(command, liveness_file, beat) != 0


def test_sse_pods_leave_the_endpoints_before_they_stop(rendered: list[Manifest]) -> None:
    for name in SSE_SERVICES:
        pod = _pods(rendered)[name]
        [container] = pod["containers"]
        sleep = container["lifecycle"]["preStop"]["sleep"]["seconds"]
        assert 0 < sleep < pod["terminationGracePeriodSeconds"] - 30, name


def test_every_credential_comes_from_a_secret(rendered: list[Manifest]) -> None:
    config = find(rendered, "ConfigMap", "policypal-config")["data"]
    assert not CREDENTIALS & set(config), "no credential in the ConfigMap"
    for name, pod in _pods(rendered).items():
        [container] = pod["containers"]
        for variable in container["env"]:
            if variable["name"] in CREDENTIALS:
                assert "secretKeyRef" in variable["valueFrom"], (name, variable["name"])
        env = {v["name"] for v in container["env"]}
        assert {"POLICYPAL_JWT_SECRET", "NATS_PASSWORD", "REDIS_URL"} <= env, name
    for name in WORKERS:
        env = {v["name"] for v in _pods(rendered)[name]["containers"][0]["env"]}
        assert "OPENAI_API_KEY" in env, name


@pytest.mark.parametrize("variant", ["dev", "prod"])
def test_overlays_set_the_public_urls(variant: str) -> None:
    config = find(render(VARIANTS[variant]), "ConfigMap", "policypal-config")["data"]
    for variable in ("POLICYPAL_PUBLIC_API_URL", "POLICYPAL_PUBLIC_EVENTS_URL"):
        assert config[variable].startswith(("http://", "https://")), variable
        assert "0.0.0.0" not in config[variable]
    if variant == "prod":
        assert config["POLICYPAL_PUBLIC_API_URL"].startswith("https://")
        assert config["POLICYPAL_STREAM_REPLICAS"] == "3"
        limits = TypeAdapter(Settings.model_fields["stream_limits"].annotation).validate_json(
            config["POLICYPAL_STREAM_LIMITS"]
        )
        assert set(limits) == {"EVENTS", "DLQ"}

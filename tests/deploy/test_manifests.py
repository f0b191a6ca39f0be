"""docker-compose.yml and the Kubernetes base are checked statically (no Docker engine or cluster here):
they parse, every service runs an entry point that exists, and the settings they pass are real ones.
Full schema validation comes with the deployment issue."""

import importlib.util
from pathlib import Path
from typing import Any

import yaml
from pydantic import AliasChoices

from policypal.config import Settings

ROOT = Path(__file__).resolve().parents[2]
SERVICES = {"gateway", "notifier", "resolver", "ingestor", "actions.inquire"}
SERVICES |= {"actions.summarize", "actions.compare", "actions.audit"}


def _module_of(command: list[str]) -> str:
    assert command[:2] == ["python", "-m"], command
    return command[2]


def _has_main(module: str) -> bool:
    return importlib.util.find_spec(f"{module}.__main__") is not None


def _unknown_env(names: set[str]) -> set[str]:
    """Names among ``names`` that Settings does not read (typos would be silently ignored)."""
    known = {"OTEL_EXPORTER_OTLP_ENDPOINT"}
    for name, field in Settings.model_fields.items():
        known.add(f"POLICYPAL_{name.upper()}")
        if isinstance(field.validation_alias, AliasChoices):
            known |= {c for c in field.validation_alias.choices if isinstance(c, str)}
    return names - known


def test_compose_runs_every_service_with_real_entry_points() -> None:
    compose: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    modules = {_module_of(s["command"]) for s in services.values() if s.get("image") == "policypal:latest"}
    assert modules == SERVICES
    assert all(_has_main(m) for m in modules)
    assert {"nats", "redis", "qdrant", "jaeger"} <= set(services)
    assert "-js" in services["nats"]["command"]
    assert "--appendonly" in services["redis"]["command"]
    for service in services.values():
        if service.get("image") == "policypal:latest":
            assert not _unknown_env(set(service["environment"])), service["command"]


def _k8s_documents() -> list[dict[str, Any]]:
    base = ROOT / "deploy" / "k8s" / "base"
    kustomization = yaml.safe_load((base / "kustomization.yaml").read_text())
    docs: list[dict[str, Any]] = []
    for resource in kustomization["resources"]:
        docs.extend(d for d in yaml.safe_load_all((base / resource).read_text()) if d)
    return docs


def test_k8s_base_has_a_deployment_per_service() -> None:
    deployments = [d for d in _k8s_documents() if d["kind"] == "Deployment"]
    modules = {_module_of(d["spec"]["template"]["spec"]["containers"][0]["command"]) for d in deployments}
    assert modules == SERVICES
    assert all(_has_main(m) for m in modules)
    for deployment in deployments:
        spec = deployment["spec"]
        assert spec["selector"]["matchLabels"] == spec["template"]["metadata"]["labels"]
        container = spec["template"]["spec"]["containers"][0]
        assert "resources" in container
        assert container["env"][0]["name"] == "POLICYPAL_JWT_SECRET"
        assert not _unknown_env({variable["name"] for variable in container["env"]})


def test_http_services_are_exposed() -> None:
    names = {d["metadata"]["name"] for d in _k8s_documents() if d["kind"] == "Service"}
    assert names == {"gateway", "notifier"}


def test_k8s_config_map_sets_only_real_settings() -> None:
    kustomization = yaml.safe_load((ROOT / "deploy" / "k8s" / "base" / "kustomization.yaml").read_text())
    literals = kustomization["configMapGenerator"][0]["literals"]
    assert not _unknown_env({literal.split("=", 1)[0] for literal in literals})

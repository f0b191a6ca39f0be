"""Property-based requests generated from the gateway's own OpenAPI document: none may end in a 5xx."""

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from policypal.auth import issue_token
from policypal.config import Settings
from policypal.devstack import ManagedProcess, free_port

pytestmark = pytest.mark.integration

#: Bounded so the whole run stays well under a minute on two cores.
EXAMPLES_PER_OPERATION = 15


@pytest.fixture(scope="module")
def gateway_process(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A gateway in its own process: schemathesis calls it with blocking HTTP."""
    port = free_port()
    env = {
        **settings.as_environment(),
        "PORT": str(port),
        "POLICYPAL_LOG_LEVEL": "WARNING",
        # The fuzzer must reach the handlers, not the limiter.
        "POLICYPAL_RATE_LIMIT_TENANT_REQUESTS": "1000000",
        "POLICYPAL_RATE_LIMIT_PRINCIPAL_REQUESTS": "1000000",
    }
    proc = ManagedProcess.start(
        "gateway",
        [sys.executable, "-m", "gateway"],
        port=port,
        url=f"http://127.0.0.1:{port}",
        env=env,
        log_path=tmp_path_factory.mktemp("gateway") / "gateway.log",
    )
    yield str(proc.url)
    proc.stop()


@pytest.fixture(scope="module")
def api_schema(gateway_process: str) -> Any:
    """The gateway's OpenAPI document, as served."""
    return schemathesis.openapi.from_url(f"{gateway_process}/openapi.json")


@pytest.fixture(scope="module")
def admin_headers(settings: Settings) -> dict[str, str]:
    """An administrator: every scope, so generated requests reach every handler."""
    return {"Authorization": f"Bearer {issue_token(settings, 'fuzz', 'fuzzer', role='admin')}"}


def test_no_server_errors(api_schema: Any, admin_headers: dict[str, str]) -> None:
    # Driven by hand (not schemathesis' pytest plugin, which pytest 9 breaks): one property per operation.
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        def no_5xx(case: Any) -> None:
            case.call_and_validate(headers=admin_headers, checks=[not_a_server_error], timeout=10)

        no_5xx()


def test_log_of_the_fuzzed_gateway_is_clean(
    gateway_process: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # Runs after the fuzzing above (same module): no traceback was logged by the gateway.
    logs = list(Path(tmp_path_factory.getbasetemp()).glob("gateway*/gateway.log"))
    assert logs
    assert all("Traceback" not in log.read_text() for log in logs)

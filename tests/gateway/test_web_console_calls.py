"""The workspace uses the API behind each of its controls: sets, retry, new versions, the profile."""

import pytest

from gateway.app import create_app
from policypal.config import Settings
from tests.gateway.test_console import _as_pattern, _called_paths

pytestmark = pytest.mark.integration


def test_the_workspace_calls_the_routes_of_its_controls(settings: Settings) -> None:
    called = _called_paths()
    wanted = {
        "/v1/sets",  # the upload dialog's set suggestions and a new set's colour
        "/v1/documents/x/retry",  # Retry on a failed card
        "/v1/documents/x/versions",  # New version on a card
        "/v1/profile",  # onboarding and Profile
    }
    assert wanted <= called
    routes = [_as_pattern(route) for route in create_app(settings).openapi()["paths"]]
    assert all(any(route.match(path) for route in routes) for path in wanted)

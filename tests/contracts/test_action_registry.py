"""The action registry is the one list of actions: the wire names agree with it, and the worker packages,
the colocated launcher, the embedded system's workers and the composer's mentions all derive from it."""

import importlib.util
from typing import get_args

import pytest

from actions.action_router import durable_name
from actions.action_workers import action_router_builders
from gateway.mentions import action_suggestions
from policypal.cli.embedded_system import VECTOR_WORKERS
from policypal.contracts import ActionName
from policypal.contracts.action_registry import ACTION_REGISTRY, ActionSpec, action_spec


def test_the_registry_lists_exactly_the_wire_names_once_each() -> None:
    assert tuple(spec.name for spec in ACTION_REGISTRY) == get_args(ActionName)


def test_names_derived_from_an_entry_keep_their_wire_values() -> None:
    spec = action_spec("compare")
    assert (spec.subject, spec.durable, spec.worker) == (
        "actions.compare.requested",
        "actions-compare",
        "actions.compare",
    )
    assert durable_name("compare") == "actions-compare"


@pytest.mark.parametrize("spec", ACTION_REGISTRY, ids=lambda spec: spec.name)
def test_every_action_has_a_worker_package_that_runs_as_a_module(spec: ActionSpec) -> None:
    assert importlib.util.find_spec(f"{spec.worker}.__main__") is not None
    assert callable(importlib.import_module(f"{spec.worker}.service").build_router)


def test_the_launchers_run_every_registered_worker() -> None:
    builders = action_router_builders()
    assert list(builders) == [spec.worker for spec in ACTION_REGISTRY]
    assert set(VECTOR_WORKERS) == {"ingestor", *builders}


def test_the_composer_offers_every_registered_action_with_its_hint() -> None:
    offered = action_suggestions("")
    assert [(s.label, s.detail, s.action) for s in offered] == [
        (spec.name, spec.hint, spec.name) for spec in ACTION_REGISTRY
    ]
    assert [s.label for s in action_suggestions("au")] == ["audit"]

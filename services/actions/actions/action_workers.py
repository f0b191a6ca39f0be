"""The router builder of every action worker, found from the action registry.

Each action's package ``actions.<name>`` has a ``service`` module with ``build_router(settings, *,
redis, index, embedder)``; the colocated launcher (``policypal.cli.colocated``) runs them by their
worker names, so a new action needs no edit here or there.
"""

from importlib import import_module

from actions.worker_main import RouterBuilder
from policypal.contracts.action_registry import ACTION_REGISTRY, ActionSpec


def router_builder(spec: ActionSpec) -> RouterBuilder:
    """The ``build_router`` of ``spec``'s worker package."""
    builder: RouterBuilder = import_module(f"{spec.worker}.service").build_router
    return builder


def action_router_builders() -> dict[str, RouterBuilder]:
    """Worker name (``actions.<name>``) -> its router builder, for every registered action."""
    return {spec.worker: router_builder(spec) for spec in ACTION_REGISTRY}

"""The action workers' import layering: shared code never imports an action, no action imports
another, and nothing outside the actions service imports one, so each worker can change (or be
deleted) without touching the others."""

import ast
from pathlib import Path

import actions
from policypal.contracts.action_registry import ACTION_REGISTRY

ROOT = Path(actions.__file__).parent
ACTIONS = frozenset(spec.name for spec in ACTION_REGISTRY)
REPOSITORY = Path(__file__).resolve().parents[2]


def _imported_actions(path: Path) -> set[str]:
    """The action packages ``path`` imports (``actions.<action>`` or below)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            # ``from actions import inquire`` imports the package by the name it gives.
            else [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
            else []
        )
        for name in names:
            parts = name.split(".")
            if len(parts) >= 2 and parts[0] == "actions" and parts[1] in ACTIONS:
                found.add(parts[1])
    return found


def _owner(path: Path) -> str | None:
    """The action package ``path`` belongs to, or None for shared code."""
    first = path.relative_to(ROOT).parts[0]
    return first if first in ACTIONS else None


def test_every_action_package_is_known() -> None:
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "service.py").exists()}
    assert packages == ACTIONS


def test_shared_code_imports_no_action_and_no_action_imports_another() -> None:
    offences = [
        f"{path.relative_to(ROOT)} imports actions.{imported}"
        for path in sorted(ROOT.rglob("*.py"))
        for imported in _imported_actions(path)
        if imported != _owner(path)
    ]
    assert offences == []


def test_nothing_outside_the_actions_service_imports_an_action() -> None:
    others = [
        path
        for top in ("libs", "services")
        for path in sorted((REPOSITORY / top).rglob("*.py"))
        if ROOT not in path.parents
    ]
    offences = [
        f"{path.relative_to(REPOSITORY)} imports actions.{imported}"
        for path in others
        for imported in _imported_actions(path)
    ]
    assert len(others) > 100, "the libraries and the other services were found"
    assert offences == []

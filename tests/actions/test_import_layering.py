"""The action workers' import layering: shared code never imports an action, and no action imports
another, so each worker can change (or be deleted) without touching the others."""

import ast
from pathlib import Path

import actions

ROOT = Path(actions.__file__).parent
ACTIONS = frozenset({"audit", "compare", "inquire", "summarize"})


def _imported_actions(path: Path) -> set[str]:
    """The action packages ``path`` imports (``actions.<action>`` or below)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module]
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

"""Moved to ``tests.support.serving``; this name stays while tests/notifier and tests/telemetry import it."""

from tests.support.serving import serve

__all__ = ["serve"]

"""Fixtures of the end-to-end tests: the browser tab the console tests drive."""

from tests.e2e.console_page import page

__all__ = ["page"]

"""Helpers shared by tests (reading JetStream streams without consumers)."""

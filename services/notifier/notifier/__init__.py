"""notifier service."""

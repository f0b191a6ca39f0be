"""resolver service."""

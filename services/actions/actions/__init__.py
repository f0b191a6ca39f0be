"""actions service."""

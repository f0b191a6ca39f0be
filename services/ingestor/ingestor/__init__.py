"""ingestor service."""

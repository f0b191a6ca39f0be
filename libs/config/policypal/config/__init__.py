"""One validated settings model for every PolicyPal service."""

from policypal.config.settings import DEV_JWT_SECRET, LLMTask, Settings, StructuredMode, get_settings

__all__ = ["DEV_JWT_SECRET", "LLMTask", "Settings", "StructuredMode", "get_settings"]

"""The real offline MiniLM embedder, loaded once per test process and shared by every test that embeds."""

from functools import cache

from policypal.embeddings import MiniLMEmbedder


@cache
def offline_embedder() -> MiniLMEmbedder:
    """The process's one MiniLM embedder (thread-safe; loading the ONNX session takes a while)."""
    return MiniLMEmbedder()

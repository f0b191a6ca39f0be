"""Text embeddings. Offline default: all-MiniLM-L6-v2 (int8 ONNX) shipped inside a package."""

from policypal.embeddings.background import background_embedder, idle_embedder
from policypal.embeddings.embedder import Embedder
from policypal.embeddings.minilm import MiniLMEmbedder
from policypal.embeddings.openai_embedder import OpenAIEmbedder
from policypal.embeddings.selection import embedder_from_settings

__all__ = [
    "Embedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "background_embedder",
    "embedder_from_settings",
    "idle_embedder",
]

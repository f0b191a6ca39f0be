"""The embedder for bulk work (ingestion) beside interactive requests in one process."""

from policypal.embeddings.embedder import Embedder
from policypal.embeddings.minilm import MiniLMEmbedder


def background_embedder(embedder: Embedder) -> Embedder:
    """``embedder`` as bulk work should use it: the offline model on lanes of its own whose batches
    wait while a question's embedding is under way (``interactive_first``), so an ingestion on the
    same cores does not hold questions up; a remote embedder (no local CPU) as it is."""
    if isinstance(embedder, MiniLMEmbedder):
        return embedder.background()
    return embedder

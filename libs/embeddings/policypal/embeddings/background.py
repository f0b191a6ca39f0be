"""The embedder for bulk work (ingestion) beside interactive requests in one process."""

from policypal.embeddings.embedder import Embedder
from policypal.embeddings.minilm import MiniLMEmbedder


def background_embedder(embedder: Embedder) -> Embedder:
    """``embedder`` as bulk work should use it: the offline model on lower-priority threads, so that a
    question's embedding and the event loop that publishes its events are not starved by an
    ingestion on the same cores; a remote embedder (no local CPU) as it is."""
    if isinstance(embedder, MiniLMEmbedder):
        return embedder.background()
    return embedder

"""The embedders for bulk work (ingestion) and idle work (done ahead of need) beside interactive requests."""

from policypal.embeddings.embedder import Embedder
from policypal.embeddings.minilm import MiniLMEmbedder


def background_embedder(embedder: Embedder) -> Embedder:
    """``embedder`` as bulk work should use it: the offline model on lanes of its own whose batches
    wait while a question's embedding is under way (``interactive_first``), so an ingestion on the
    same cores does not hold questions up; a remote embedder (no local CPU) as it is."""
    if isinstance(embedder, MiniLMEmbedder):
        return embedder.background()
    return embedder


def idle_embedder(embedder: Embedder) -> Embedder:
    """``embedder`` as work done ahead of need should use it: the offline model on one lane of its own
    whose batches wait until the model has been quiet for a moment (``interactive_first``), so that
    work never slows a question or an ingestion; a remote embedder as it is."""
    if isinstance(embedder, MiniLMEmbedder):
        return embedder.idle()
    return embedder

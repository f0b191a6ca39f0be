"""Which embedder a process uses: OpenAI's when an embedding model is configured, else the offline one."""

import openai

from policypal.config import Settings
from policypal.embeddings.embedder import Embedder
from policypal.embeddings.minilm import MiniLMEmbedder
from policypal.embeddings.openai_embedder import OpenAIEmbedder


def embedder_from_settings(settings: Settings) -> Embedder:
    """The configured embedder; every process of one deployment must choose the same one."""
    if settings.embedding_model and settings.llm_configured:
        api_key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else "not-needed"
        client = openai.OpenAI(
            api_key=api_key,
            base_url=settings.openai_base_url,
            timeout=settings.llm_timeout_seconds,
            max_retries=settings.llm_max_retries,
        )
        return OpenAIEmbedder(
            client,
            model=settings.embedding_model,
            dimensions=settings.embedding_dimensions,
            batch_size=settings.openai_embed_batch_size,
        )
    return MiniLMEmbedder(batch_size=settings.embed_batch_size)

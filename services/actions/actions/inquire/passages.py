"""Sentences of retrieved chunks, as candidate passages of an extractive answer."""

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from actions.sentences import embed_texts, longest_versions, one_line, sentence_spans
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkHit


@dataclass(frozen=True)
class Passage:
    """A sentence of a retrieved chunk; ``text`` is exactly ``hit.text[start:start + len(text)]``."""

    hit: ChunkHit
    start: int
    text: str

    @property
    def plain(self) -> str:
        """The text on one line (PDF line breaks and runs of spaces collapsed), for display and scoring."""
        return one_line(self.text)


def candidate_passages(hits: list[ChunkHit]) -> list[Passage]:
    """Every sentence of ``hits`` once (its longest version, see ``longest_versions``), longest first."""
    return longest_versions(
        Passage(hit=hit, start=begin, text=hit.text[begin:end])
        for hit in hits
        for begin, end in sentence_spans(hit.text)
        if end > begin
    )


async def score_passages(
    embedder: Embedder, query_vector: npt.NDArray[np.float32], passages: list[Passage]
) -> list[float]:
    """Cosine similarity of each passage to the query, embedded in one batched call off the event loop."""
    if not passages:
        return []
    vectors = await embed_texts(embedder, [p.plain for p in passages])
    return [float(score) for score in vectors @ query_vector]

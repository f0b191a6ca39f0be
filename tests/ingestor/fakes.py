"""Test doubles for the pipeline's collaborators."""

import hashlib

import numpy as np
import numpy.typing as npt

from ingestor import rejections
from policypal.contracts import IngestProgress
from policypal.contracts.envelope import Envelope
from policypal.state import RequestLedger


class HashEmbedder:
    """Deterministic 16-dim vectors from a text hash: fast, and the same text gives the same vector."""

    model_id = "test-hash-16"
    dimension = 16

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.calls += 1
        rows = [np.frombuffer(hashlib.sha256(t.encode()).digest()[:16], dtype=np.uint8) for t in texts]
        matrix = np.array(rows, dtype=np.float32).reshape(len(texts), 16) + 1.0
        result: npt.NDArray[np.float32] = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
        return result


class MemorySource:
    """Objects by name; a missing name is a rejection, as in the object store."""

    def __init__(self, objects: dict[str, bytes]) -> None:
        self.objects = objects

    async def fetch(self, object_name: str) -> bytes:
        if object_name not in self.objects:
            raise rejections.missing_object()
        return self.objects[object_name]


class RecordingSink:
    """Keeps events; terminal events go through the real ledger so the first one wins."""

    def __init__(self, ledger: RequestLedger) -> None:
        self.ledger = ledger
        self.progress_events: list[IngestProgress] = []
        self.terminals: list[Envelope] = []

    async def progress(self, event: IngestProgress) -> None:
        self.progress_events.append(event)

    async def terminal(self, event: Envelope) -> Envelope:
        standing = await self.ledger.record_terminal(event)
        self.terminals.append(standing)
        return standing

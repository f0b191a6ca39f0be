"""An index written by local-mode qdrant-client moves to the embedded engine on first start, whole."""

from pathlib import Path

import pytest
from qdrant_client import AsyncQdrantClient, models

from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex, open_embedded_index, open_qdrant
from policypal.vectorstore.local_migration import MigrationError, is_local_mode, migrate_local_mode
from tests.actions.audit.rule_points import rule_point
from tests.vectorstore.test_hybrid_search import TEXTS, _chunk

pytestmark = pytest.mark.integration

#: The user ``rule_point`` writes rules for.
RULES_USER = "u1"
QUESTION = "How long are records retained under the Halvorsen exemption?"


def _entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


async def _write_local_mode(path: Path, embedder: MiniLMEmbedder) -> list[str]:
    """A local-mode index of two tenants with rules; returns the chunk ids local mode ranks for QUESTION."""
    index = ChunkIndex(open_qdrant(None, path=path), model_id=embedder.model_id, dimension=embedder.dimension)
    await index.ensure_collection()
    chunks = [_chunk(text, i, tenant=tenant) for tenant in ("acme", "globex") for i, text in enumerate(TEXTS)]
    await index.upsert(chunks, embedder.embed([c.text for c in chunks]).tolist())
    rules = [rule_point(0, TEXTS[0], document_id="d1"), rule_point(1, TEXTS[2], document_id="d1")]
    await index.rules.replace_document_rules(
        tenant_id="acme",
        document_id="d1",
        rules=rules,
        vectors=embedder.embed([r.text for r in rules]).tolist(),
    )
    vector = embedder.embed([QUESTION])[0].tolist()
    ranked = await index.hybrid_search(vector, QUESTION, tenant_id="acme", user_id="alice")
    await index.aclose()
    return [hit.chunk_id for hit in ranked]


async def test_a_local_mode_index_is_migrated_with_every_point_and_the_same_ranking(
    tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    path = tmp_path / "qdrant"
    local_ranking = await _write_local_mode(path, embedder)
    assert is_local_mode(path)
    index = await open_embedded_index(path, model_id=embedder.model_id, dimension=embedder.dimension)
    try:
        assert not is_local_mode(path)
        assert _entries(tmp_path) == ["qdrant"]  # no staging or old copy left
        assert index.hybrid
        for tenant in ("acme", "globex"):
            assert await index.count(tenant_id=tenant, document_id="d1") == len(TEXTS)
        vector = embedder.embed([QUESTION])[0].tolist()
        ranked = await index.hybrid_search(vector, QUESTION, tenant_id="acme", user_id="alice")
        assert [hit.chunk_id for hit in ranked] == local_ranking
        assert {hit.tenant_id for hit in ranked} == {"acme"}
        rules = await index.rules.document_rules(tenant_id="acme", user_id=RULES_USER, document_id="d1")
        assert [(s.rule.rule_index, len(s.vector)) for s in rules] == [
            (0, embedder.dimension),
            (1, embedder.dimension),
        ]
    finally:
        await index.aclose()
    assert not await migrate_local_mode(path)  # once only


async def test_a_swap_cut_short_is_completed_from_the_set_aside_index(
    tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    path = tmp_path / "qdrant"
    await _write_local_mode(path, embedder)
    path.rename(tmp_path / "qdrant.local-mode")  # the state a crash between the two renames leaves
    index = await open_embedded_index(path, model_id=embedder.model_id, dimension=embedder.dimension)
    try:
        assert await index.count(tenant_id="acme", document_id="d1") == len(TEXTS)
        assert _entries(tmp_path) == ["qdrant"]
    finally:
        await index.aclose()


async def test_a_failed_migration_leaves_the_local_mode_index_as_it_was(
    tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    path = tmp_path / "qdrant"
    await _write_local_mode(path, embedder)
    stray = AsyncQdrantClient(path=str(path))  # a collection this index never writes
    await stray.create_collection(
        "notes", vectors_config=models.VectorParams(size=4, distance=models.Distance.DOT)
    )
    await stray.close()
    with pytest.raises(MigrationError, match="notes"):
        await open_embedded_index(path, model_id=embedder.model_id, dimension=embedder.dimension)
    assert is_local_mode(path)
    old = ChunkIndex(open_qdrant(None, path=path), model_id=embedder.model_id, dimension=embedder.dimension)
    try:
        await old.ensure_collection()
        assert await old.count(tenant_id="acme", document_id="d1") == len(TEXTS)
    finally:
        await old.aclose()

"""The audit tests' library: a company policy and two versions of a regulation, indexed for one tenant."""

import uuid
from collections.abc import AsyncIterator

import pytest

from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex
from tests.actions.policy_library import COMPANY_POLICY, REGULATION_2024, REGULATION_2025
from tests.actions.worker_harness import IndexedDocument, index_pdf, local_index

TENANT = f"t{uuid.uuid4().hex[:10]}"
Library = tuple[ChunkIndex, list[IndexedDocument]]


@pytest.fixture(scope="module")
async def library(
    tmp_path_factory: pytest.TempPathFactory, embedder: MiniLMEmbedder
) -> AsyncIterator[Library]:
    """The index, and the policy, the 2024 and the 2025 regulation as indexed for ``TENANT``."""
    async with local_index(tmp_path_factory.mktemp("audit") / "q", embedder) as index:
        documents = [
            await index_pdf(
                index,
                embedder,
                tenant=TENANT,
                document_id=doc_id,
                title=title,
                version=version,
                pages=pages,
                doc_type=kind,
            )
            for doc_id, title, version, pages, kind in (
                ("policy", "Northwind Data Policy", "1", COMPANY_POLICY, "policy"),
                ("reg24", "Records Regulation", "2024", REGULATION_2024, "regulatory"),
                ("reg25", "Records Regulation", "2025", REGULATION_2025, "regulatory"),
            )
        ]
        yield index, documents

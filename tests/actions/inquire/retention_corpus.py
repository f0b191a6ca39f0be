"""A small retention policy indexed for one tenant (and a forged neighbour), and requests about it."""

import uuid

from policypal.contracts import ActionRequested, ResolvedDocument, UserContext
from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex, ChunkPoint

USER = "alice"
PAGE_1 = (
    "Retention Policy. This policy applies to every branch and subsidiary of the bank. "
    "It was approved by the board of directors in March 2024 and is reviewed every year."
)
PAGE_2_A = (
    "Customer records must be retained for at least seven years after the account is closed. "
    "Records are stored in the central archive in encrypted form."
)
PAGE_2_B = (
    "Records are stored in the central archive in encrypted form. "
    "Paper copies are shredded once they have been scanned and verified."
)
OTHER_TENANT = "Customer records must be retained for exactly two years and then deleted."


async def index_chunks(index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str) -> list[ChunkPoint]:
    """Index the policy's three chunks for ``tenant`` and one chunk of another tenant."""

    def chunk(text: str, page: int, chunk_index: int, *, owner: str = tenant, doc: str = "ret") -> ChunkPoint:
        return ChunkPoint(
            tenant_id=owner,
            user_id=USER,
            document_id=doc,
            title="Retention Policy",
            version="3",
            doc_type="policy",
            page=page,
            chunk_index=chunk_index,
            text=text,
        )

    chunks = [
        chunk(PAGE_1, 1, 0),
        chunk(PAGE_2_A, 2, 1),
        chunk(PAGE_2_B, 2, 2),
        chunk(OTHER_TENANT, 1, 0, owner=f"{tenant}x", doc="leak"),
    ]
    await index.upsert(chunks, embedder.embed([c.text for c in chunks]).tolist())
    return chunks


def inquiry(tenant: str, query: str, *, tagged: bool = True) -> ActionRequested:
    """An @Inquire request about the policy (with a forged document of another tenant) or untagged."""
    documents = [
        ResolvedDocument(document_id="ret", title="Retention Policy", version="3", doc_type="policy"),
        # Forged: another tenant's document. The search is scoped by tenant whatever the list says.
        ResolvedDocument(document_id="leak", title="Leak", version="1", doc_type="policy"),
    ]
    return ActionRequested(
        tenant_id=tenant,
        user_id=USER,
        request_id=f"req-{uuid.uuid4().hex[:8]}",
        thread_id="conv1",
        action="inquire",
        query=query,
        documents=documents if tagged else [],
        user_context=UserContext(industry="Banking", location="Malaysia"),
    )

"""Uploads as the gateway records them, for tests that drive the ingestor without a gateway, and the
``document.ready`` event an ingestion ends with, for tests of the work done after it."""

import uuid

from nats.js import JetStreamContext

from policypal.bus import document_store
from policypal.contracts import DocumentReady, DocumentUploaded
from policypal.state import DocumentCatalog, DocumentRecord


def make_upload(
    document_id: str = "doc1", *, tenant: str = "t1", content_type: str = "application/pdf"
) -> DocumentUploaded:
    """The ``docs.uploaded`` event of a policy ``document_id`` of user ``u1`` of ``tenant``."""
    return DocumentUploaded(
        tenant_id=tenant,
        user_id="u1",
        request_id=f"req-{document_id}",
        thread_id=document_id,
        document_id=document_id,
        object_name=f"{tenant}/{document_id}",
        filename=f"{document_id}.pdf",
        content_type=content_type,
        size_bytes=1,
        sha256=f"sha-{document_id}",
        title=f"Title {document_id}",
        version="2024-01",
        doc_type="policy",
        set_name="hr",
    )


def document_ready(tenant: str, user: str, document_id: str, *, pages: int, chunks: int) -> DocumentReady:
    """The ``document.ready`` event of ``document_id`` of ``user`` of ``tenant``, on its own thread."""
    return DocumentReady(
        tenant_id=tenant,
        user_id=user,
        request_id=f"up-{uuid.uuid4().hex[:8]}",
        thread_id=document_id,
        document_id=document_id,
        pages=pages,
        chunks=chunks,
        parser="pdfium",
    )


def record_for(upload: DocumentUploaded) -> DocumentRecord:
    """The catalog record the gateway writes before it publishes ``upload``."""
    return DocumentRecord(
        document_id=upload.document_id,
        tenant_id=upload.tenant_id,
        user_id=upload.user_id,
        title=upload.title,
        version=upload.version,
        doc_type=upload.doc_type,
        set_name=upload.set_name,
        filename=upload.filename,
        content_type=upload.content_type,
        size_bytes=upload.size_bytes,
        sha256=upload.sha256,
        request_id=upload.request_id,
    )


async def store_upload(
    js: JetStreamContext, catalog: DocumentCatalog, upload: DocumentUploaded, data: bytes
) -> None:
    """Put the bytes in the object store and the record in the catalog, as the gateway does."""
    await (await document_store(js)).put(upload.object_name, data)
    await catalog.create(record_for(upload))

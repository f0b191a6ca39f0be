"""Documents: upload (bytes to the object store, record, ``docs.uploaded``), list and read."""

import hashlib
import logging
from dataclasses import dataclass
from typing import Annotated, Literal

import uuid_utils
from fastapi import APIRouter, File, Form, HTTPException, Query, Response, UploadFile, status

from gateway.display_text import VisibleText, clean_display_text
from gateway.models import DocumentGroup, DocumentList, DocumentView, ErrorBody, UploadResult
from gateway.resources import Resources, ResourcesDep
from gateway.sets import ensure_set
from gateway.uploads import read_within_limit, require_supported, safe_filename
from policypal.auth import Principal
from policypal.auth.http import BearerPrincipal, forbidden_without
from policypal.bus import publish_event
from policypal.contracts import DocType, DocumentDeleted, DocumentUploaded, new_event_id
from policypal.contracts.codes import DocumentFailureCode
from policypal.contracts.envelope import SafeId
from policypal.state import DocumentRecord, SetStore, set_key

logger = logging.getLogger(__name__)

router = APIRouter(prefix="/v1/documents", tags=["documents"])
#: The listing, apart: another system lists a user's documents with the ``documents`` scope alone.
listing_router = APIRouter(prefix="/v1/documents", tags=["documents"])

_NOT_FOUND = "No such document."


@dataclass(frozen=True)
class NewUpload:
    """A validated upload, ready to be stored."""

    data: bytes
    content_type: str
    filename: str
    title: str
    version: str
    doc_type: DocType
    set_name: str | None
    previous_version_id: str | None = None


def object_name(tenant_id: str, document_id: str) -> str:
    """Key of a document's bytes in the object-store bucket."""
    return f"{tenant_id}/{document_id}"


def document_events_url(resources: Resources, document_id: str) -> str:
    """Where a client follows a document's ingestion (served by the notifier)."""
    return f"{resources.settings.events_base_url}/v1/documents/{document_id}/events"


def document_view(resources: Resources, record: DocumentRecord) -> DocumentView:
    """The owner's view of a record (no tenant or user ids: the caller knows who they are)."""
    fields = record.model_dump(exclude={"tenant_id", "user_id"})
    return DocumentView(**fields, events_url=document_events_url(resources, record.document_id))


def _result(resources: Resources, record: DocumentRecord, *, duplicate: bool) -> UploadResult:
    view = document_view(resources, record)
    return UploadResult(
        document_id=record.document_id,
        request_id=record.request_id,
        status=record.status,
        events_url=view.events_url,
        duplicate=duplicate,
        document=view,
    )


async def accept_upload(resources: Resources, principal: Principal, upload: NewUpload) -> UploadResult:
    """Store a new document and queue it for ingestion, or return the one with the same bytes."""
    sha256 = hashlib.sha256(upload.data).hexdigest()
    existing = await resources.catalog.find_by_sha256(principal.tenant_id, principal.user_id, sha256)
    # A document that never reached the ingestor is not worth keeping: upload it afresh.
    if existing is not None and existing.reason_code != DocumentFailureCode.NOT_QUEUED:
        return _result(resources, existing, duplicate=True)

    document_id = uuid_utils.uuid7().hex
    request_id = new_event_id()
    name = object_name(principal.tenant_id, document_id)
    try:
        await resources.object_store.put(name, upload.data)
    except Exception as exc:
        logger.exception("object store put failed for %s", name)
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE, "The file could not be stored right now; try again."
        ) from exc

    record = DocumentRecord(
        document_id=document_id,
        tenant_id=principal.tenant_id,
        user_id=principal.user_id,
        title=upload.title,
        version=upload.version,
        doc_type=upload.doc_type,
        set_name=upload.set_name,
        filename=upload.filename,
        content_type=upload.content_type,
        size_bytes=len(upload.data),
        sha256=sha256,
        status="processing",
        request_id=request_id,
        previous_version_id=upload.previous_version_id,
    )
    await resources.catalog.create(record)
    await queue_ingestion(resources, record)
    return _result(resources, record, duplicate=False)


async def queue_ingestion(resources: Resources, record: DocumentRecord) -> None:
    """Publish ``docs.uploaded`` for the record's current request; on failure mark it failed and 503."""
    event = DocumentUploaded(
        tenant_id=record.tenant_id,
        user_id=record.user_id,
        request_id=record.request_id,
        thread_id=record.document_id,
        document_id=record.document_id,
        object_name=object_name(record.tenant_id, record.document_id),
        filename=record.filename,
        content_type=record.content_type,
        size_bytes=record.size_bytes,
        sha256=record.sha256,
        title=record.title,
        version=record.version,
        doc_type=record.doc_type,
        set_name=record.set_name,
    )
    try:
        # The request id as Nats-Msg-Id: one upload is one docs.uploaded, however often it is sent.
        await publish_event(resources.broker, event, msg_id=record.request_id)
    except Exception as exc:
        logger.exception("publishing docs.uploaded failed for %s", record.document_id)
        await resources.catalog.save(
            record.model_copy(
                update={
                    "status": "failed",
                    "reason_code": DocumentFailureCode.NOT_QUEUED,
                    "reason": "The document could not be queued for processing; upload it again.",
                }
            )
        )
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE, "The document could not be queued; upload it again."
        ) from exc


async def owned_document(resources: Resources, principal: Principal, document_id: str) -> DocumentRecord:
    """The caller's document, or 404 whether it is missing or someone else's."""
    record = await resources.catalog.get(principal.tenant_id, principal.user_id, document_id)
    if record is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, _NOT_FOUND)
    return record


_UPLOAD_ERRORS: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody, "description": "Missing, invalid or expired token."},
    413: {"model": ErrorBody, "description": "The file is over the size limit."},
    415: {"model": ErrorBody, "description": "The file's content is not a type PolicyPal can index."},
    422: {"description": "A field is missing or invalid, or the file is empty."},
    200: {"model": UploadResult, "description": "The same bytes were already uploaded (`duplicate`)."},
}


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=UploadResult,
    responses=_UPLOAD_ERRORS,
    summary="Upload a document for indexing",
)
async def upload_document(
    principal: BearerPrincipal,
    resources: ResourcesDep,
    response: Response,
    file: Annotated[
        UploadFile, File(description="The document: PDF, DOCX, HTML, Markdown, plain text or e-mail (.eml).")
    ],
    title: Annotated[str, Form(min_length=1, max_length=300), VisibleText],
    version: Annotated[str, Form(min_length=1, max_length=100), VisibleText],
    doc_type: Annotated[DocType, Form()],
    set_name: Annotated[str | None, Form(max_length=200)] = None,
) -> UploadResult:
    """Check size and type, store the bytes, queue ingestion; 202 with the document id."""
    data, content_type = await _read_document(resources, file)
    # The set's stored spelling: "hr" and "HR" name one set, and a new name becomes a set.
    named_set = clean_display_text(set_name or "")
    upload = NewUpload(
        data=data,
        content_type=content_type,
        filename=safe_filename(file.filename),
        title=title,
        version=version,
        doc_type=doc_type,
        set_name=(await ensure_set(resources, principal, named_set)).name if named_set else None,
    )
    result = await accept_upload(resources, principal, upload)
    if result.duplicate:
        response.status_code = status.HTTP_200_OK
    return result


async def _read_document(resources: Resources, file: UploadFile) -> tuple[bytes, str]:
    """The file's bytes and media type; 413 over the limit, 422 empty, 415 not a type we parse."""
    data = await read_within_limit(file, resources.settings.max_upload_bytes)
    if not data:
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT, "The file is empty; choose a document with content."
        )
    return data, require_supported(data, file.filename, file.content_type)


@listing_router.get(
    "", response_model=DocumentList, responses={401: {"model": ErrorBody}, 403: {"model": ErrorBody}}
)
async def list_documents(
    principal: BearerPrincipal,
    resources: ResourcesDep,
    group_by: Annotated[
        Literal["set"] | None, Query(description="`set`: also return the documents grouped by set.")
    ] = None,
    owner: Annotated[
        SafeId | None,
        Query(
            description="Another system (an API key or service token with the `documents` scope): the "
            "user of the tenant whose documents to list, e.g. to name an audit's targets. A person lists "
            "their own and may leave it out or name themselves."
        ),
    ] = None,
) -> DocumentList:
    """The caller's documents, newest first (a system's: ``owner``'s); ``?group_by=set`` adds them grouped by set."""
    records = await resources.catalog.list(principal.tenant_id, listed_owner(principal, owner))
    views = [document_view(resources, r) for r in records]
    if group_by is None:
        return DocumentList(documents=views)
    return DocumentList(documents=views, groups=await group_by_set(resources, principal.tenant_id, views))


def listed_owner(principal: Principal, owner: str | None) -> str:
    """Whose documents ``principal`` lists: its own (scope ``ingest``), or for a system with the
    ``documents`` scope ``owner``'s."""
    if owner is None or owner == principal.user_id:
        if (
            principal.role == "service"
            and "documents" in principal.scopes
            and "ingest" not in principal.scopes
        ):
            raise HTTPException(
                status.HTTP_422_UNPROCESSABLE_CONTENT,
                "Name the user whose documents to list: GET /v1/documents?owner=<user_id>.",
            )
        forbidden_without(principal, "ingest")
        return principal.user_id
    if principal.role != "service":
        raise HTTPException(status.HTTP_403_FORBIDDEN, "You can list only your own documents.")
    forbidden_without(principal, "documents")
    return owner


async def group_by_set(
    resources: Resources, tenant_id: str, views: list[DocumentView]
) -> list[DocumentGroup]:
    """``views`` by set (sets by name, each newest first), the documents in no set last."""
    colours = {set_key(s.name): s.colour for s in await SetStore(resources.redis).list(tenant_id)}
    groups: dict[str | None, list[DocumentView]] = {}
    for view in views:
        groups.setdefault(set_key(view.set_name) if view.set_name else None, []).append(view)
    named = sorted(key for key in groups if key is not None)
    ordered = [
        DocumentGroup(set_name=groups[key][0].set_name, colour=colours.get(key), documents=groups[key])
        for key in named
    ]
    if None in groups:
        ordered.append(DocumentGroup(set_name=None, colour=None, documents=groups[None]))
    return ordered


@router.get(
    "/{document_id}",
    response_model=DocumentView,
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody}},
)
async def get_document(document_id: str, principal: BearerPrincipal, resources: ResourcesDep) -> DocumentView:
    """One document's status (processing, ready, failed), pages, chunks and failure reason."""
    return document_view(resources, await owned_document(resources, principal, document_id))


_NOT_FOUND_ONLY: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody, "description": "Missing, invalid or expired token."},
    404: {"model": ErrorBody, "description": "No such document (or not yours)."},
}


@router.delete(
    "/{document_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={**_NOT_FOUND_ONLY, 503: {"model": ErrorBody, "description": "The bus is unavailable."}},
)
async def delete_document(document_id: str, principal: BearerPrincipal, resources: ResourcesDep) -> Response:
    """Delete a document: its catalog entry now; its chunks and bytes right after (by the ingestor)."""
    record = await owned_document(resources, principal, document_id)
    # The record goes first: from here nothing can mention the document, and an ingestion still
    # running sees it gone and removes its own points (see the ingestor's pipeline).
    await resources.catalog.delete(record)
    event = DocumentDeleted(
        tenant_id=record.tenant_id,
        user_id=record.user_id,
        request_id=new_event_id(),
        thread_id=record.document_id,
        document_id=record.document_id,
        object_name=object_name(record.tenant_id, record.document_id),
    )
    try:
        await publish_event(resources.broker, event, msg_id=event.request_id)
    except Exception as exc:
        logger.exception("publishing docs.deleted failed for %s", document_id)
        # Nothing half-deleted: the record comes back and the owner can try again.
        await resources.catalog.create(record)
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE, "The document could not be deleted right now; try again."
        ) from exc
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/{document_id}/retry",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=UploadResult,
    responses={**_NOT_FOUND_ONLY, 409: {"model": ErrorBody, "description": "The document has not failed."}},
)
async def retry_document(
    document_id: str, principal: BearerPrincipal, resources: ResourcesDep
) -> UploadResult:
    """Ingest a failed document again from its stored bytes, as a new request (new ``request_id``)."""
    record = await owned_document(resources, principal, document_id)
    if record.status != "failed":
        raise HTTPException(
            status.HTTP_409_CONFLICT, f"Only a failed document can be retried; this one is {record.status}."
        )
    cleared = dict.fromkeys(("reason_code", "reason", "pages", "chunks", "parser"))
    retried = await resources.catalog.save(
        record.model_copy(update={**cleared, "status": "processing", "request_id": new_event_id()})
    )
    await queue_ingestion(resources, retried)
    return _result(resources, retried, duplicate=False)


@router.post(
    "/{document_id}/versions",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=UploadResult,
    responses={**_UPLOAD_ERRORS, 404: _NOT_FOUND_ONLY[404], 409: {"model": ErrorBody}},
)
async def upload_new_version(
    document_id: str,
    principal: BearerPrincipal,
    resources: ResourcesDep,
    response: Response,
    file: Annotated[UploadFile, File(description="The new version of the document.")],
    version: Annotated[str, Form(min_length=1, max_length=100), VisibleText],
) -> UploadResult:
    """Upload a new version of a document: same title, type and set; the old one stays by its id."""
    previous = await owned_document(resources, principal, document_id)
    if version == previous.version:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f'"{previous.title}" already has a version {version!r}; name the new version differently.',
        )
    data, content_type = await _read_document(resources, file)
    upload = NewUpload(
        data=data,
        content_type=content_type,
        filename=safe_filename(file.filename),
        title=previous.title,
        version=version,
        doc_type=previous.doc_type,
        set_name=previous.set_name,
        previous_version_id=previous.document_id,
    )
    result = await accept_upload(resources, principal, upload)
    if result.duplicate:
        response.status_code = status.HTTP_200_OK
    return result

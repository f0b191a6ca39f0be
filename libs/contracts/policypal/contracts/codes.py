"""The machine codes events carry: error codes, status stages and document failure reasons.

Each is a ``StrEnum`` whose values are the wire values, so ``code == "cancelled"`` still holds and
the JSON is unchanged. The event fields accept any string beside the known values (an *open*
enumeration, docs/adr/0015-typed-contracts-for-state-and-codes.md): a consumer built before a producer
added a code still reads the event, as ADR 0002 promises, and sees a known code as the enum member.
"""

from enum import StrEnum
from typing import Annotated

from pydantic import Field


class ErrorCode(StrEnum):
    """Why a chat request ended with an ``error`` event (``ErrorEvent.code``)."""

    ACTION_FAILED = "action_failed"
    REQUEST_FAILED = "request_failed"
    DEADLINE_EXCEEDED = "deadline_exceeded"
    CANCELLED = "cancelled"
    INTERRUPT_EXPIRED = "interrupt_expired"
    DOCUMENT_NOT_FOUND = "document_not_found"
    DOCUMENT_NOT_READY = "document_not_ready"
    NO_DOCUMENTS = "no_documents"
    TOO_MANY_DOCUMENTS = "too_many_documents"
    COMPARE_NEEDS_2_TO_5_DOCUMENTS = "compare_needs_2_to_5_documents"
    AUDIT_NEEDS_SOURCE = "audit_needs_source"
    AUDIT_NEEDS_TARGETS = "audit_needs_targets"
    AUDIT_SOURCE_EMPTY = "audit_source_empty"


class StatusStage(StrEnum):
    """The step of a chat request a ``status`` event reports (``StatusEvent.stage``)."""

    # the resolver
    INTENT = "intent"
    DOCUMENTS = "documents"
    DOCS_FOUND = "docs_found"
    VALIDATION = "validation"
    # the action workers
    RETRIEVING = "retrieving"
    SAMPLING = "sampling"
    READING = "reading"
    MODE = "mode"
    COMPARING = "comparing"
    REDLINING = "redlining"
    SUMMARIZING = "summarizing"
    AUDITING = "auditing"


class DocumentFailureCode(StrEnum):
    """Why a document could not be indexed (``DocumentFailed.reason_code``, the catalog's ``reason_code``)."""

    NO_TEXT_LAYER = "no_text_layer"
    ENCRYPTED = "encrypted"
    CORRUPT = "corrupt"
    EMPTY_FILE = "empty_file"
    MISSING_OBJECT = "missing_object"
    UNSUPPORTED_TYPE = "unsupported_type"
    INGEST_ERROR = "ingest_error"
    TOO_LARGE = "too_large"
    TOO_MANY_PAGES = "too_many_pages"
    UNDECODABLE_TEXT = "undecodable_text"
    DECOMPRESSION_BOMB = "decompression_bomb"
    UNBROKEN_TEXT = "unbroken_text"
    TYPE_MISMATCH = "type_mismatch"
    DELETED = "deleted"
    TOO_MUCH_TEXT = "too_much_text"
    XML_ENTITIES = "xml_entities"
    #: The bytes were stored but the upload could not be queued (the gateway's own verdict).
    NOT_QUEUED = "not_queued"


# Left to right: a known value becomes the enum member, any other string stays a string.
AnyErrorCode = Annotated[ErrorCode | str, Field(union_mode="left_to_right")]
AnyStatusStage = Annotated[StatusStage | str, Field(union_mode="left_to_right")]
AnyDocumentFailureCode = Annotated[DocumentFailureCode | str, Field(union_mode="left_to_right")]

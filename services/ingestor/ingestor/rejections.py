"""Why a document cannot be indexed, in words a person understands.

A rejection ends ingestion as ``failed`` with a stable ``reason_code`` and one sentence. It is never
retried: the same bytes would fail the same way. Anything else that goes wrong (a Qdrant or NATS
hiccup) is raised as an ordinary exception so the delivery is retried.
"""

from typing import Final

from policypal.contracts.codes import DocumentFailureCode
from policypal.filetypes import SUPPORTED_TYPES

NO_TEXT_LAYER: Final = DocumentFailureCode.NO_TEXT_LAYER
ENCRYPTED: Final = DocumentFailureCode.ENCRYPTED
CORRUPT: Final = DocumentFailureCode.CORRUPT
EMPTY_FILE: Final = DocumentFailureCode.EMPTY_FILE
MISSING_OBJECT: Final = DocumentFailureCode.MISSING_OBJECT
UNSUPPORTED_TYPE: Final = DocumentFailureCode.UNSUPPORTED_TYPE
INGEST_ERROR: Final = DocumentFailureCode.INGEST_ERROR
TOO_LARGE: Final = DocumentFailureCode.TOO_LARGE
TOO_MANY_PAGES: Final = DocumentFailureCode.TOO_MANY_PAGES
UNDECODABLE_TEXT: Final = DocumentFailureCode.UNDECODABLE_TEXT
DECOMPRESSION_BOMB: Final = DocumentFailureCode.DECOMPRESSION_BOMB
UNBROKEN_TEXT: Final = DocumentFailureCode.UNBROKEN_TEXT
TYPE_MISMATCH: Final = DocumentFailureCode.TYPE_MISMATCH
DELETED: Final = DocumentFailureCode.DELETED
TOO_MUCH_TEXT: Final = DocumentFailureCode.TOO_MUCH_TEXT
XML_ENTITIES: Final = DocumentFailureCode.XML_ENTITIES


class DocumentRejected(Exception):  # noqa: N818 - reads as the verdict on the document
    """The document cannot be indexed; ``reason`` is shown to the user as is."""

    def __init__(self, reason_code: DocumentFailureCode, reason: str) -> None:
        super().__init__(f"{reason_code}: {reason}")
        self.reason_code = reason_code
        self.reason = reason


def no_text_layer() -> DocumentRejected:
    """A scanned PDF: pages are images, there is no text to index."""
    return DocumentRejected(NO_TEXT_LAYER, "The PDF has no text layer; OCR is not enabled.")


def no_text(kind_name: str) -> DocumentRejected:
    """A non-PDF document with nothing to index (only images, or blank)."""
    return DocumentRejected(NO_TEXT_LAYER, f"The {kind_name} contains no text to index.")


def encrypted(kind_name: str = "PDF") -> DocumentRejected:
    """The file needs a password we do not have (for a PDF: the empty password did not open it)."""
    return DocumentRejected(
        ENCRYPTED, f"The {kind_name} is password-protected; upload a copy without a password."
    )


def too_large(size: int, limit: int) -> DocumentRejected:
    """More bytes than the configured upload limit."""
    return DocumentRejected(
        TOO_LARGE, f"The file has {size} bytes, more than the limit of {limit} ({limit / 1_048_576:.1f} MiB)."
    )


def too_many_pages(pages: int, limit: int) -> DocumentRejected:
    """More pages than the configured page limit."""
    return DocumentRejected(
        TOO_MANY_PAGES, f"The PDF has {pages} pages, more than the limit of {limit}; split it into parts."
    )


def undecodable_text() -> DocumentRejected:
    """Text in no encoding we recognise (or binary data posing as text)."""
    return DocumentRejected(
        UNDECODABLE_TEXT,
        "The text is not in an encoding we recognise (UTF-8, UTF-16 or a common legacy one); "
        "save it as UTF-8 and upload it again.",
    )


def unbroken_text(length: int) -> DocumentRejected:
    """A run of characters with no space or line break, far longer than any word or URL."""
    return DocumentRejected(
        UNBROKEN_TEXT,
        f"The file holds {length} characters without a space or line break; "
        "that is encoded or binary data, not a document.",
    )


def too_much_text(detail: str) -> DocumentRejected:
    """More text (or passages) than one document may hold; ``detail`` says what and the limit."""
    return DocumentRejected(TOO_MUCH_TEXT, f"{detail} Split it into smaller documents and upload those.")


def xml_entities(part: str) -> DocumentRejected:
    """An XML part that declares a DTD: entity expansion ("billion laughs") can blow up to gigabytes."""
    return DocumentRejected(
        XML_ENTITIES,
        f"A part of the Word document ({part}) declares XML entities (a DOCTYPE), which Word never writes "
        "and which can expand to billions of characters; it was not opened.",
    )


def decompression_bomb(detail: str) -> DocumentRejected:
    """A compressed container that would unpack to far more than a real document."""
    return DocumentRejected(DECOMPRESSION_BOMB, detail)


def corrupt(detail: str) -> DocumentRejected:
    """Damaged, truncated or not a PDF at all; ``detail`` says which, in plain words."""
    return DocumentRejected(CORRUPT, detail)


def empty_file() -> DocumentRejected:
    """Zero bytes were uploaded."""
    return DocumentRejected(EMPTY_FILE, "The file is empty (0 bytes).")


def missing_object() -> DocumentRejected:
    """The bytes are no longer in the object store."""
    return DocumentRejected(
        MISSING_OBJECT, "The uploaded file is no longer in storage; please upload it again."
    )


def unsupported_type(sentence: str) -> DocumentRejected:
    """Bytes (or a declared type) we do not parse; ``sentence`` says what the file is."""
    return DocumentRejected(UNSUPPORTED_TYPE, f"{sentence} {SUPPORTED_TYPES}")


def type_mismatch(sentence: str) -> DocumentRejected:
    """The name or declared type says one format, the bytes another."""
    return DocumentRejected(TYPE_MISMATCH, sentence)


def gave_up() -> DocumentRejected:
    """Indexing kept failing for a reason on our side (after every retry)."""
    return DocumentRejected(
        INGEST_ERROR, "Indexing failed repeatedly because of an internal error; please try again later."
    )


def deleted() -> DocumentRejected:
    """The owner deleted the document while it was being indexed."""
    return DocumentRejected(DELETED, "The document was deleted while it was being indexed.")

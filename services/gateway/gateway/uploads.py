"""Reading an uploaded file within the size limit and recognising its type from its bytes."""

import os

from fastapi import HTTPException, Request, UploadFile, status
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse
from python_multipart.exceptions import MultipartParseError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from gateway.display_text import clean_display_text
from gateway.models import ErrorBody
from policypal.filetypes import SUPPORTED_TYPES, claimed_types, detect_file_type, judge

_READ_CHUNK = 1 << 20
# Room for the multipart boundaries and the small form fields around the file.
MULTIPART_OVERHEAD_BYTES = 64 * 1024


def too_large(limit: int) -> HTTPException:
    """The 413 answer for a file over ``limit`` bytes."""
    return HTTPException(
        status_code=status.HTTP_413_CONTENT_TOO_LARGE,
        detail=f"The file is larger than the limit of {limit} bytes ({limit / 1_048_576:.1f} MiB).",
    )


async def read_within_limit(upload: UploadFile, limit: int) -> bytes:
    """The file's bytes; raises 413 as soon as more than ``limit`` bytes have been read."""
    buffer = bytearray()
    while chunk := await upload.read(min(_READ_CHUNK, limit + 1 - len(buffer))):
        buffer += chunk
        if len(buffer) > limit:
            raise too_large(limit)
    return bytes(buffer)


def require_supported(data: bytes, filename: str | None, declared: str | None) -> str:
    """The media type of ``data`` judged from its bytes; 415 when PolicyPal cannot parse them.

    A name that lies about parseable bytes ("report.pdf" holding a DOCX) is let through: the ingestor
    ends it ``failed`` (type_mismatch) with the same sentence, visible in the document list.
    """
    detected = detect_file_type(data)
    verdict = judge(detected, claimed_types(filename, declared))
    if verdict.problem in ("unsupported", "unreadable"):
        raise HTTPException(
            status_code=status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
            detail=f"{verdict.message} {SUPPORTED_TYPES}",
        )
    return detected.media_type


#: Longest file name accepted, in characters (most file systems store no longer a name).
MAX_FILENAME_CHARS = 255
#: Longest header line of one part of the multipart upload (python-multipart's limit, in bytes).
MAX_PART_HEADER_BYTES = 4096


def safe_filename(name: str | None) -> str:
    """The file's base name (clients may send a full path), cleaned for display, never empty.

    Raises 422 when the name is longer than ``MAX_FILENAME_CHARS``: a cut name could hide its end
    (``report.pdf`` + 300 spaces + ``.exe``), so the caller renames the file instead.
    """
    base = clean_display_text(os.path.basename((name or "").replace("\\", "/")))
    if len(base) > MAX_FILENAME_CHARS:
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT,
            f"The file name is {len(base)} characters long; the limit is {MAX_FILENAME_CHARS}. "
            "Rename the file and upload it again.",
        )
    return base or "document"


def _part_header_too_long(exc: BaseException) -> bool:
    # Starlette answers any multipart parse failure with "Invalid multipart data."; the parser's own
    # error, two links down the chain, says which.
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, MultipartParseError) and "header size" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


async def explain_multipart_errors(request: Request, exc: StarletteHTTPException) -> Response:
    """Answer an upload whose part header is too long (a very long file name) with the limit, not
    "Invalid multipart data."; every other HTTP error as FastAPI does."""
    if exc.status_code == status.HTTP_400_BAD_REQUEST and _part_header_too_long(exc):
        detail = (
            f"A header of the upload is longer than {MAX_PART_HEADER_BYTES} bytes, most likely the file "
            f"name: file names are limited to {MAX_FILENAME_CHARS} characters. Rename the file and upload it again."
        )
        return JSONResponse(ErrorBody(detail=detail).model_dump(), status_code=status.HTTP_400_BAD_REQUEST)
    return await http_exception_handler(request, exc)


class UploadSizeGuard:
    """Refuses an upload whose declared Content-Length is over the limit before its body is read.

    The form parser spools files to disk, so memory stays bounded anyway; this saves reading (and
    writing) a body we would refuse.
    """

    def __init__(self, app: ASGIApp, *, max_upload_bytes: int, path: str = "/v1/documents") -> None:
        self.app = app
        self.max_body = max_upload_bytes + MULTIPART_OVERHEAD_BYTES
        self.limit = max_upload_bytes
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass everything through except an oversized POST to the upload path."""
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == self.path:
            declared = dict(scope["headers"]).get(b"content-length")
            if declared is not None and declared.isdigit() and int(declared) > self.max_body:
                # Discard (not parse, not spool) the body first: most HTTP clients finish sending
                # before they read, and would see a reset connection instead of our answer.
                await _discard_body(receive, int(declared))
                body = ErrorBody(detail=too_large(self.limit).detail).model_dump_json().encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": status.HTTP_413_CONTENT_TOO_LARGE,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


# Past this, draining costs more than a client's confusion: we answer and close the connection.
_MAX_DISCARD_BYTES = 256 * 1024 * 1024


async def _discard_body(receive: Receive, declared: int) -> None:
    if declared > _MAX_DISCARD_BYTES:
        return
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return

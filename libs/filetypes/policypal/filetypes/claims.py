"""What the uploader claims a file is (its extension, else its Content-Type), checked against the bytes.

The bytes decide the parser. The claim only (a) breaks the one tie bytes cannot: plain text versus
Markdown, and (b) exposes a lie: a "report.pdf" whose bytes are a Word document is refused rather
than indexed under a name that misdescribes it.
"""

import os
from dataclasses import dataclass
from typing import Final, Literal

from policypal.filetypes.detection import MEDIA_TYPES, DetectedType, FileKind

Family = Literal["pdf", "docx", "textual"]

_FAMILIES: Final[dict[FileKind, Family]] = {
    "pdf": "pdf",
    "docx": "docx",
    "html": "textual",
    "markdown": "textual",
    "text": "textual",
    "email": "textual",
}
_EXTENSIONS: Final[dict[str, FileKind]] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".eml": "email",
}
_UNSUPPORTED_EXTENSIONS: Final = frozenset(
    {".png", ".jpg", ".jpeg", ".gif", ".tif", ".tiff", ".bmp", ".webp", ".heic", ".doc", ".xls", ".xlsx"}
    | {".ppt", ".pptx", ".odt", ".rtf", ".zip", ".gz", ".7z", ".rar", ".msg", ".exe"}
)
_MEDIA_KINDS: Final[dict[str, FileKind]] = {
    **{media_type: kind for kind, media_type in MEDIA_TYPES.items()},
    "application/x-pdf": "pdf",
    "application/xhtml+xml": "html",
    "text/x-markdown": "markdown",
}
_NO_CLAIM_MEDIA: Final = frozenset(
    {"", "application/octet-stream", "binary/octet-stream", "application/unknown"}
)


#: The sentence that follows every refusal of a type.
SUPPORTED_TYPES: Final = (
    "PolicyPal indexes PDF, Word (DOCX), HTML, Markdown, plain-text and e-mail (.eml) files."
)


@dataclass(frozen=True)
class Claim:
    """What the name or Content-Type says: a kind we parse, or (kind None) a type we do not.

    ``description`` completes "The file is ...": "named as a .pdf file", "declared as image/png".
    """

    kind: FileKind | None
    description: str


@dataclass(frozen=True)
class Verdict:
    """The kind to parse the bytes as, or why not: ``problem`` and a sentence for the uploader."""

    kind: FileKind | None
    problem: Literal["unsupported", "mismatch", "unreadable"] | None = None
    message: str = ""


def claimed_types(filename: str | None, content_type: str | None) -> list[Claim]:
    """The claims of the extension and of the Content-Type, those that say anything, extension first."""
    claims: list[Claim] = []
    extension = os.path.splitext((filename or "").strip().lower())[1]
    if extension in _EXTENSIONS:
        kind = _EXTENSIONS[extension]
        claims.append(Claim(kind, f"named as a {extension} file"))
    elif extension in _UNSUPPORTED_EXTENSIONS:
        claims.append(Claim(None, f"named as a {extension} file"))
    media_type = (content_type or "").split(";")[0].strip().lower()
    if media_type in _MEDIA_KINDS:
        kind = _MEDIA_KINDS[media_type]
        claims.append(Claim(kind, f"declared as {media_type}"))
    elif media_type.startswith("text/"):
        claims.append(Claim("text", f"declared as {media_type}"))
    elif media_type not in _NO_CLAIM_MEDIA:
        claims.append(Claim(None, f"declared as {media_type}"))
    return claims


def judge(detected: DetectedType, claims: list[Claim]) -> Verdict:
    """Which kind to parse, or the problem: unparseable bytes, a claim we do not parse, a lie."""
    if detected.kind is None:
        documents = [claim for claim in claims if claim.kind is not None]
        if documents:
            return Verdict(
                None,
                "unreadable",
                f"The file is {documents[0].description} but its content is {detected.description}.",
            )
        return Verdict(None, "unsupported", f"This file is {detected.description}.")
    for claim in claims:
        if claim.kind is None:
            return Verdict(
                None,
                "unsupported",
                f"The file is {claim.description}, which is not a document type PolicyPal indexes.",
            )
    for claim in claims:
        if claim.kind is not None and _FAMILIES[claim.kind] != _FAMILIES[detected.kind]:
            return Verdict(
                None,
                "mismatch",
                f"The file is {claim.description} but its content is {detected.description}; "
                "rename it to match its content and upload it again.",
            )
    # Bytes cannot tell Markdown from plain text; there the name (the first claim) decides.
    if claims and {claims[0].kind, detected.kind} == {"markdown", "text"}:
        return Verdict(claims[0].kind)
    return Verdict(detected.kind)

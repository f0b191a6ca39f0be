"""From a document's bytes to its chunks: check limits, recognise the type, parse, chunk.

The type comes from the bytes (``policypal.filetypes``), never from the name or the Content-Type
the uploader sent. PDFs go page by page through ``pdf_text`` (progress per page), their outline
(``pdf_outline``) naming each chunk's section; every other format goes through ``unstructured``
(``structured_text``) in one worker-thread call.
"""

import asyncio
import re
from dataclasses import dataclass, field
from typing import Final

from ingestor import rejections
from ingestor.chunking import TextChunk, chunk_blocks, page_chunks
from ingestor.pdf_page_bound import PageTooLargeError, page_text_bound
from ingestor.pdf_text import PDFIUM, PDFMINER, PYPDF, PageText, PdfText
from ingestor.progress import ProgressReporter
from ingestor.structured_text import KIND_NAMES, Block, partition_structured
from ingestor.text_budget import TextBudget, TextLimits
from ingestor.work_turns import DocumentSteps, unpaced_steps
from ingestor.xml_parts import check_xml_parts, structured_text_bound
from ingestor.zip_guard import check_zip
from policypal.filetypes import FileKind, Verdict, claimed_types, detect_file_type, judge

#: Longer runs without whitespace are not words or URLs but encoded data (base64, hex dumps).
MAX_UNBROKEN_CHARS: Final = 10_000
_UNBROKEN = re.compile(rf"\S{{{MAX_UNBROKEN_CHARS + 1},}}")


@dataclass(frozen=True)
class IngestLimits:
    """What a document may not exceed; each limit ends ingestion with its own reason code."""

    max_bytes: int = 50 * 1024 * 1024
    max_pages: int = 2000
    max_unpacked_bytes: int = 256 * 1024 * 1024
    text: TextLimits = field(default_factory=TextLimits)


@dataclass(frozen=True)
class ParsedDocument:
    """A document's chunks, its page count (1 for formats without pages) and the parser used."""

    kind: FileKind
    chunks: list[TextChunk]
    pages: int
    parser: str


@dataclass(frozen=True)
class UploadedFile:
    """The bytes and what the uploader said about them (name, Content-Type)."""

    data: bytes
    filename: str
    content_type: str


async def parse_document(
    upload: UploadedFile,
    *,
    size: int,
    overlap: int,
    limits: IngestLimits,
    progress: ProgressReporter,
    steps: DocumentSteps | None = None,
) -> ParsedDocument:
    """Chunks of the file; raises ``DocumentRejected`` for anything we cannot or will not index.

    Each PDF page is read in a ``steps`` turn (none: read without waiting), and the text budget of
    ``limits`` is spent as the document is read: too much text stops it before it is all in memory.
    """
    data = upload.data
    if not data:
        raise rejections.empty_file()
    if len(data) > limits.max_bytes:
        raise rejections.too_large(len(data), limits.max_bytes)
    detected = detect_file_type(data)
    if detected.encrypted:
        raise rejections.encrypted("Office document")
    kind = _parse_as(judge(detected, claimed_types(upload.filename, upload.content_type)))
    await progress.report("parsing", f"Reading {detected.description}.")
    budget = TextBudget(limits.text)
    if kind == "pdf":
        return await _pdf_chunks(
            data, limits, budget, progress, steps or unpaced_steps(), size=size, overlap=overlap
        )
    if kind == "docx":
        check_zip(data, max_unpacked_bytes=limits.max_unpacked_bytes)
        await asyncio.to_thread(check_xml_parts, data)
    # Measured on the raw text before unstructured reads it (it takes ~2 s per 100 KB), where the
    # format allows; an e-mail's text is only known after (attachments make its size meaningless).
    estimate = await asyncio.to_thread(structured_text_bound, data, kind)
    if estimate is not None:
        budget.refuse_estimate(estimate)
    blocks = await asyncio.to_thread(partition_structured, data, kind)
    _refuse_unbroken_text(blocks)
    budget.spend_text(sum(len(block.text) for block in blocks))
    chunks = chunk_blocks(blocks, size=size, overlap=overlap)
    budget.spend_chunks(len(chunks))
    if not chunks:
        raise rejections.no_text(KIND_NAMES[kind])
    page_count = max((block.page or 1 for block in blocks), default=1)
    await progress.report("parsed", f"Read {detected.description}.", done=page_count, total=page_count)
    return ParsedDocument(kind, chunks, page_count, f"unstructured-{kind}")


def _parse_as(verdict: Verdict) -> FileKind:
    if verdict.kind is not None:
        return verdict.kind
    if verdict.problem == "mismatch":
        raise rejections.type_mismatch(verdict.message)
    if verdict.problem == "unreadable":
        # Named as a document we parse, but the bytes are not one: to the uploader, a damaged file.
        raise rejections.corrupt(verdict.message)
    raise rejections.unsupported_type(verdict.message)


async def _pdf_chunks(
    data: bytes,
    limits: IngestLimits,
    budget: TextBudget,
    progress: ProgressReporter,
    steps: DocumentSteps,
    *,
    size: int,
    overlap: int,
) -> ParsedDocument:
    # The PDF parsers are CPU-bound: each page runs in a worker thread so the event loop keeps
    # serving (in-progress acks, other consumers of a shared broker). Only the page's chunks are
    # kept, never all the pages' texts.
    pdf = await asyncio.to_thread(PdfText.open, data)
    total = pdf.page_count
    if total > limits.max_pages:
        pdf.close()
        raise rejections.too_many_pages(total, limits.max_pages)
    chunks: list[TextChunk] = []
    parsers: set[str] = set()
    try:
        # The outline (bounded in pdf_outline) is one turn of work, like a page.
        async with steps.step():
            outline = await asyncio.to_thread(pdf.outline)
        for i in range(total):
            async with steps.step():
                page = await asyncio.to_thread(_read_page, pdf, i, budget)
            budget.spend_text(len(page.text))
            found = page_chunks(page, first_index=len(chunks), size=size, overlap=overlap, outline=outline)
            budget.spend_chunks(len(found))
            chunks.extend(found)
            if page.text.strip():
                parsers.add(page.parser)
            await progress.report("parsed", f"Read page {i + 1} of {total}.", done=i + 1, total=total)
    finally:
        pdf.close()
    if not chunks:
        raise rejections.no_text_layer()
    parser = "+".join(name for name in (PDFIUM, PYPDF, PDFMINER) if name in parsers) or PDFIUM
    return ParsedDocument("pdf", chunks, total, parser)


def _read_page(pdf: PdfText, index: int, budget: TextBudget) -> PageText:
    """Page ``index``'s text, once its content shows it cannot hold more than the budget allows."""
    allowance = budget.page_allowance()
    try:
        bound = page_text_bound(pdf.page_object(index), allowance=allowance)
    except PageTooLargeError:
        bound = allowance + 1
    budget.refuse_page(index + 1, bound)
    return pdf.page(index)


def _refuse_unbroken_text(blocks: list[Block]) -> None:
    for block in blocks:
        match = _UNBROKEN.search(block.text)
        if match is not None:
            raise rejections.unbroken_text(len(match.group()))

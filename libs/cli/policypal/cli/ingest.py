"""``policypal ingest PATH...``: upload files or folders and show one progress bar per document.

Each document is uploaded, then followed on the notifier's SSE stream of its upload request until
``document.ready`` or ``document.failed``. Bars are redrawn in place on a terminal; elsewhere (CI
logs, pipes) every change of stage is printed as a line.
"""

import asyncio
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TextIO

from policypal.cli.client import PolicyPalClient
from policypal.contracts import DocumentFailed, DocumentReady, Envelope, IngestProgress

#: Files a folder contributes (the gateway decides by content; these are the names worth sending).
DOCUMENT_SUFFIXES: Final = frozenset({".pdf", ".docx", ".html", ".htm", ".md", ".markdown", ".txt", ".eml"})
BAR_WIDTH: Final = 24
#: Where each stage starts on the bar, and where a counted stage (n of N) ends.
_STAGE_SPAN: Final[dict[str, tuple[float, float]]] = {
    "uploading": (0.0, 0.0),
    "stored": (0.02, 0.02),
    "parsing": (0.05, 0.05),
    "parsed": (0.05, 0.35),
    "chunked": (0.4, 0.4),
    "embedding": (0.4, 0.95),
    "embedded": (0.95, 0.95),
    "indexed": (1.0, 1.0),
}


@dataclass
class DocumentProgress:
    """What the bar of one document shows."""

    name: str
    stage: str = "uploading"
    fraction: float = 0.0
    detail: str = ""
    outcome: str | None = None  # "ready", "failed", "duplicate" or "refused" once finished

    def apply(self, event: Envelope) -> None:
        """Move the bar for one event of the upload request."""
        if isinstance(event, IngestProgress):
            start, end = _STAGE_SPAN.get(event.stage, (self.fraction, self.fraction))
            share = event.done / event.total if event.done is not None and event.total else 0.0
            self.stage, self.detail = event.stage, event.message
            self.fraction = max(self.fraction, start + (end - start) * share)
        elif isinstance(event, DocumentReady):
            pages = f"{event.pages} page" + ("s" if event.pages != 1 else "")
            self.finish("ready", f"{pages}, {event.chunks} passages ({event.parser})", 1.0)
        elif isinstance(event, DocumentFailed):
            self.finish("failed", f"{event.reason} [{event.reason_code}]")

    def finish(self, outcome: str, detail: str, fraction: float | None = None) -> None:
        """End the bar with an outcome."""
        self.outcome, self.stage, self.detail = outcome, outcome, detail
        if fraction is not None:
            self.fraction = fraction

    def render(self, name_width: int) -> str:
        """One line: name, bar, percentage, stage and detail."""
        filled = round(self.fraction * BAR_WIDTH)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        return f"{self.name:<{name_width}} [{bar}] {self.fraction * 100:3.0f}% {self.stage}: {self.detail}"


@dataclass
class ProgressBoard:
    """Every document's bar; redrawn in place on a terminal, printed as lines otherwise."""

    out: TextIO
    interactive: bool
    bars: list[DocumentProgress] = field(default_factory=list)
    _drawn: int = 0
    _last_lines: dict[int, str] = field(default_factory=dict)

    def add(self, name: str) -> DocumentProgress:
        """A new bar for ``name``."""
        bar = DocumentProgress(name)
        self.bars.append(bar)
        return bar

    def draw(self) -> None:
        """Show the current state of every bar."""
        width = max((len(bar.name) for bar in self.bars), default=0)
        if self.interactive:
            if self._drawn:
                self.out.write(f"\x1b[{self._drawn}F")
            for bar in self.bars:
                self.out.write("\x1b[2K" + bar.render(width) + "\n")
            self._drawn = len(self.bars)
        else:
            for i, bar in enumerate(self.bars):
                line = f"{bar.name}: {bar.stage}" + (f" - {bar.detail}" if bar.outcome else "")
                if self._last_lines.get(i) != line:
                    self._last_lines[i] = line
                    self.out.write(line + "\n")
        self.out.flush()


@dataclass(frozen=True)
class IngestOptions:
    """The metadata every uploaded file gets (title defaults to the file name without extension)."""

    title: str | None
    version: str
    doc_type: str
    set_name: str | None
    concurrency: int = 3


def collect_files(paths: Iterable[Path]) -> list[Path]:
    """The files named, and the document files found (recursively) in the folders named, sorted."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                p for p in sorted(path.rglob("*")) if p.is_file() and p.suffix.lower() in DOCUMENT_SUFFIXES
            )
        elif path.is_file():
            found.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    return found


async def ingest_files(
    client: PolicyPalClient, files: list[Path], options: IngestOptions, board: ProgressBoard
) -> dict[Path, DocumentProgress]:
    """Upload every file (a few at a time) and follow each until ready or failed."""
    bars = {path: board.add(path.name) for path in files}
    board.draw()
    limit = asyncio.Semaphore(max(1, options.concurrency))

    async def one(path: Path) -> None:
        async with limit:
            await _ingest_one(client, path, options, bars[path], board)

    await asyncio.gather(*(one(path) for path in files))
    return bars


async def _ingest_one(
    client: PolicyPalClient, path: Path, options: IngestOptions, bar: DocumentProgress, board: ProgressBoard
) -> None:
    response = await client.upload(
        path,
        title=options.title or path.stem,
        version=options.version,
        doc_type=options.doc_type,
        set_name=options.set_name,
        content_type="application/octet-stream",
    )
    if response.status_code >= 400:
        detail = response.json().get("detail", response.text) if response.content else response.reason_phrase
        bar.finish("refused", f"{response.status_code}: {detail}")
        board.draw()
        return
    body = response.json()
    document = body["document"]
    if body.get("duplicate") and document["status"] != "processing":
        bar.finish("duplicate", f"already uploaded as {body['document_id']} ({document['status']})", 1.0)
        board.draw()
        return
    path_on_notifier = f"/v1/documents/{body['document_id']}/events"
    async for streamed in client.stream(path_on_notifier, request_id=body["request_id"]):
        bar.apply(streamed.event)
        board.draw()
        if bar.outcome is not None:
            return


def run_ingest(
    api_url: str,
    events_url: str,
    token: str,
    paths: list[Path],
    options: IngestOptions,
    out: TextIO = sys.stdout,
) -> int:
    """Ingest ``paths``; exit status 0 when every document ended ready (or was already there)."""
    files = collect_files(paths)
    if not files:
        out.write("No document files found.\n")
        return 1
    board = ProgressBoard(out, interactive=out.isatty())

    async def go() -> dict[Path, DocumentProgress]:
        client = PolicyPalClient(api_url, events_url, token)
        try:
            return await ingest_files(client, files, options, board)
        finally:
            await client.aclose()

    bars = asyncio.run(go())
    failed = [bar for bar in bars.values() if bar.outcome not in ("ready", "duplicate")]
    out.write(f"{len(bars) - len(failed)} of {len(bars)} documents ready.\n")
    return 1 if failed else 0

"""``policypal ingest``: which files it sends and how the bars follow the events."""

import io
from pathlib import Path

import pytest

from policypal.cli.ingest import DocumentProgress, ProgressBoard, collect_files
from policypal.contracts import DocumentFailed, DocumentReady, IngestProgress

_IDS = {"tenant_id": "t", "user_id": "u", "request_id": "r", "thread_id": "d", "document_id": "d"}


def _progress(stage: str, done: int | None = None, total: int | None = None) -> IngestProgress:
    return IngestProgress(**_IDS, stage=stage, done=done, total=total, message=f"{stage} {done}/{total}")


def test_folders_contribute_their_documents_recursively(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for name in ("a.pdf", "sub/b.docx", "sub/c.md", "notes.eml", "image.png", "sub/.hidden.bin"):
        (tmp_path / name).write_bytes(b"x")
    single = tmp_path / "image.png"

    files = collect_files([tmp_path, single])

    assert [p.relative_to(tmp_path).as_posix() for p in files] == [
        "a.pdf",
        "notes.eml",
        "sub/b.docx",
        "sub/c.md",
        "image.png",
    ]
    with pytest.raises(FileNotFoundError):
        collect_files([tmp_path / "missing.pdf"])


def test_the_bar_moves_forward_through_the_stages_and_ends_ready() -> None:
    bar = DocumentProgress("policy.pdf")
    seen = []
    for event in (
        _progress("stored"),
        _progress("parsed", 1, 4),
        _progress("parsed", 4, 4),
        _progress("chunked", 10, 10),
        _progress("embedding", 5, 10),
        _progress("indexed", 10, 10),
    ):
        bar.apply(event)
        seen.append(bar.fraction)
    assert seen == sorted(seen)
    assert seen[2] == pytest.approx(0.35)
    assert seen[4] == pytest.approx(0.675)
    bar.apply(DocumentReady(**_IDS, pages=4, chunks=10, parser="pypdf"))
    assert (bar.outcome, bar.fraction) == ("ready", 1.0)
    assert bar.render(12).startswith(
        "policy.pdf   [########################] 100% ready: 4 pages, 10 passages"
    )


def test_a_failure_shows_its_reason_and_code() -> None:
    bar = DocumentProgress("scan.pdf")
    bar.apply(DocumentFailed(**_IDS, reason_code="no_text_layer", reason="The PDF has no text layer."))
    assert bar.outcome == "failed"
    assert bar.detail == "The PDF has no text layer. [no_text_layer]"


def test_without_a_terminal_each_change_is_one_line() -> None:
    out = io.StringIO()
    board = ProgressBoard(out, interactive=False)
    bar = board.add("a.pdf")
    board.draw()
    bar.apply(_progress("parsed", 1, 9))
    board.draw()
    bar.apply(_progress("parsed", 2, 9))
    board.draw()  # same stage: nothing new to say in a log
    bar.apply(DocumentFailed(**_IDS, reason_code="corrupt", reason="Damaged."))
    board.draw()
    assert out.getvalue().splitlines() == [
        "a.pdf: uploading",
        "a.pdf: parsed",
        "a.pdf: failed - Damaged. [corrupt]",
    ]


def test_on_a_terminal_bars_are_redrawn_in_place() -> None:
    out = io.StringIO()
    board = ProgressBoard(out, interactive=True)
    board.add("a.pdf")
    board.add("b.docx")
    board.draw()
    board.draw()
    assert out.getvalue().count("\x1b[2F") == 1
    assert out.getvalue().count("\x1b[2K") == 4

"""`policypal ingest FOLDER` against a running `policypal up`: every document followed to its end."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.system import policypal_up
from tests.ingestor import document_factory
from tests.pdf_factory import drawing_only_pdf, text_pdf

pytestmark = pytest.mark.e2e


def test_ingest_a_folder_shows_each_document_to_its_end(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    (folder / "hr").mkdir(parents=True)
    (folder / "rulebook.pdf").write_bytes(text_pdf(2))
    (folder / "hr" / "conduct.docx").write_bytes(document_factory.policy_docx())
    (folder / "hr" / "gift.eml").write_bytes(document_factory.expense_email())
    (folder / "scan.pdf").write_bytes(drawing_only_pdf(1))

    with policypal_up(tmp_path / "data") as system:
        command = [sys.executable, "-m", "policypal.cli.main", "ingest", str(folder), "--set", "hr"]
        command += ["--api-url", system.api_url, "--events-url", system.events_url]
        command += ["--token", system.token("acme", "alice")]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)

    lines = result.stdout.splitlines()
    assert result.returncode == 1, result.stdout + result.stderr  # the scan fails, so not all are ready
    assert "rulebook.pdf: ready - 2 pages" in "\n".join(lines)
    assert any(line.startswith("conduct.docx: ready - 1 page, ") for line in lines)
    assert any(line.startswith("gift.eml: ready") for line in lines)
    assert any(line.startswith("scan.pdf: failed - ") and "[no_text_layer]" in line for line in lines)
    assert lines[-1] == "3 of 4 documents ready."

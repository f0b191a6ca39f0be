"""PDF outlines through the whole pipeline: sections reach the indexed chunks; broken outlines do no harm."""

import pytest

from policypal.contracts import DocumentReady
from tests import pdf_factory
from tests.ingestor import outlined_pdfs
from tests.ingestor.pipeline_harness import Harness

pytestmark = pytest.mark.integration


async def _indexed_sections(harness: Harness, data: bytes) -> list[tuple[int | None, str | None]]:
    terminal = await harness.pipeline.run(await harness.upload(data))
    assert isinstance(terminal, DocumentReady)
    chunks = await harness.index.document_chunks(tenant_id="t1", user_id="u1", document_id="doc1")
    assert len(chunks) == terminal.chunks
    return [(chunk.page, chunk.section) for chunk in chunks]


async def test_outline_paths_are_the_sections_of_indexed_chunks(harness: Harness) -> None:
    sections = await _indexed_sections(harness, outlined_pdfs.outlined_pdf())

    by_page = {page: {section for p, section in sections if p == page} for page, _ in sections}
    assert by_page[1] == {None}
    assert by_page[2] == {"Scope and Purpose", "Scope and Purpose › Who Must Comply"}
    assert by_page[4] == {"Scope and Purpose › Records Retention"}
    assert by_page[5] == {"Vendor Management"}


async def test_a_pdf_without_outline_is_indexed_without_sections(harness: Harness) -> None:
    sections = await _indexed_sections(harness, pdf_factory.text_pdf(3))
    assert sections
    assert {section for _, section in sections} == {None}


async def test_a_cyclic_outline_still_ends_ready(harness: Harness) -> None:
    sections = await _indexed_sections(harness, outlined_pdfs.cyclic_outline_pdf(3))
    assert {page for page, _ in sections} == {1, 2, 3}
    assert {section for page, section in sections if page == 1} == {None}

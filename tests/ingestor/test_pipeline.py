"""The pipeline end to end without the bus: real Redis (Valkey), in-memory Qdrant, fake source and sink."""

import pytest
from qdrant_client import models

from ingestor import rejections
from ingestor.pipeline import turn_slices
from policypal.bus import Unprocessable
from policypal.contracts import DocumentFailed, DocumentReady
from policypal.contracts.envelope import new_event_id
from policypal.vectorstore import ChunkPoint, sparse_vectors
from policypal.vectorstore.chunk_index import COLLECTION, SPARSE_VECTOR
from tests import pdf_factory
from tests.ingestor.pipeline_harness import Harness
from tests.support.document_uploads import make_upload

pytestmark = pytest.mark.integration


async def test_three_pages_become_ready_with_every_chunk_on_its_page(harness: Harness) -> None:
    upload = await harness.upload(pdf_factory.text_pdf(3))
    terminal = await harness.pipeline.run(upload)

    assert isinstance(terminal, DocumentReady)
    assert (terminal.pages, terminal.parser, terminal.thread_id) == (3, "pdfium", "doc1")
    assert terminal.chunks >= 3
    record = await harness.catalog.get("t1", "u1", "doc1")
    assert record is not None
    assert (record.status, record.pages, record.chunks, record.parser) == (
        "ready",
        3,
        terminal.chunks,
        "pdfium",
    )
    assert await harness.index.count(tenant_id="t1", document_id="doc1") == terminal.chunks

    vector = harness.embedder.embed(["Page 2 clause 3"])[0].tolist()
    hits = await harness.index.search(vector, tenant_id="t1", user_id="u1", limit=100)
    assert sorted(h.chunk_index for h in hits) == list(range(terminal.chunks))
    for hit in hits:
        assert f"Page {hit.page} clause" in hit.text
        assert (hit.title, hit.version, hit.set_name, hit.doc_type) == (
            "Title doc1",
            "2024-01",
            "hr",
            "policy",
        )

    stages = [e.stage for e in harness.sink.progress_events]
    assert stages[0] == "stored"
    assert stages[-1] == "indexed"
    assert {"parsing", "parsed", "chunked", "embedding", "embedded"} <= set(stages)


async def test_re_ingesting_rewrites_the_same_points(harness: Harness) -> None:
    upload = await harness.upload(pdf_factory.text_pdf(3))
    first = await harness.pipeline.run(upload)
    again = upload.model_copy(update={"event_id": new_event_id(), "request_id": "req-reindex"})
    second = await harness.pipeline.run(again)

    assert isinstance(first, DocumentReady)
    assert isinstance(second, DocumentReady)
    assert second.chunks == first.chunks
    assert await harness.index.count(tenant_id="t1", document_id="doc1") == first.chunks


async def test_redelivery_of_a_finished_upload_republishes_the_same_terminal(harness: Harness) -> None:
    upload = await harness.upload(pdf_factory.text_pdf(2))
    first = await harness.pipeline.run(upload)
    calls = harness.embedder.calls
    second = await harness.pipeline.run(upload.model_copy(update={"event_id": new_event_id()}))

    assert second.event_id == first.event_id
    assert harness.embedder.calls == calls  # nothing was embedded again


@pytest.mark.parametrize(
    ("data", "content_type", "code"),
    [
        pytest.param(
            pdf_factory.drawing_only_pdf(2), "application/pdf", rejections.NO_TEXT_LAYER, id="scanned"
        ),
        pytest.param(b"\x00garbage" * 300, "application/pdf", rejections.CORRUPT, id="garbage"),
        pytest.param(pdf_factory.text_pdf(2)[:2000], "application/pdf", rejections.CORRUPT, id="truncated"),
        pytest.param(b"", "application/pdf", rejections.EMPTY_FILE, id="zero-bytes"),
        pytest.param(
            pdf_factory.encrypted_pdf(user_password="pw"),
            "application/pdf",
            rejections.ENCRYPTED,
            id="encrypted",
        ),
        pytest.param(b"hello", "image/png", rejections.UNSUPPORTED_TYPE, id="not-pdf-type"),
    ],
)
async def test_bad_files_end_failed_with_a_reason(
    harness: Harness, data: bytes, content_type: str, code: str
) -> None:
    upload = await harness.upload(data, content_type=content_type)
    terminal = await harness.pipeline.run(upload)

    assert isinstance(terminal, DocumentFailed)
    assert terminal.reason_code == code
    record = await harness.catalog.get("t1", "u1", "doc1")
    assert record is not None
    assert (record.status, record.reason_code, record.reason) == ("failed", code, terminal.reason)
    assert await harness.index.count(tenant_id="t1", document_id="doc1") == 0


async def test_scanned_pdf_reason_is_the_one_users_see(harness: Harness) -> None:
    terminal = await harness.pipeline.run(await harness.upload(pdf_factory.drawing_only_pdf(1)))
    assert isinstance(terminal, DocumentFailed)
    assert terminal.reason == "The PDF has no text layer; OCR is not enabled."


async def test_missing_object_ends_failed(harness: Harness) -> None:
    upload = await harness.upload(b"")
    del harness.source.objects[upload.object_name]
    terminal = await harness.pipeline.run(upload)
    assert isinstance(terminal, DocumentFailed)
    assert terminal.reason_code == rejections.MISSING_OBJECT


async def test_unknown_or_foreign_document_is_unprocessable(harness: Harness) -> None:
    with pytest.raises(Unprocessable):
        await harness.pipeline.run(make_upload("nobody"))
    mine = await harness.upload(pdf_factory.text_pdf(1), "doc2")
    with pytest.raises(Unprocessable):
        await harness.pipeline.run(mine.model_copy(update={"tenant_id": "t2"}))


async def test_transient_index_error_raises_and_leaves_the_document_processing(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken_upsert(*args: object, **kwargs: object) -> None:
        raise ConnectionError("qdrant unreachable")

    monkeypatch.setattr(harness.index, "upsert", broken_upsert)
    upload = await harness.upload(pdf_factory.text_pdf(1))
    with pytest.raises(ConnectionError):
        await harness.pipeline.run(upload)
    record = await harness.catalog.get("t1", "u1", "doc1")
    assert record is not None
    assert record.status == "processing"
    assert harness.sink.terminals == []

    terminal = await harness.pipeline.give_up(upload)
    assert isinstance(terminal, DocumentFailed)
    assert terminal.reason_code == rejections.INGEST_ERROR


async def test_every_chunk_gets_its_bm25_keyword_vector(harness: Harness) -> None:
    upload = await harness.upload(pdf_factory.text_pdf(3))
    terminal = await harness.pipeline.run(upload)
    assert isinstance(terminal, DocumentReady)

    records, _ = await harness.index._client.scroll(COLLECTION, limit=1000, with_vectors=True)
    assert len(records) == terminal.chunks
    for record in records:
        assert isinstance(record.vector, dict)
        keywords = record.vector[SPARSE_VECTOR]
        assert isinstance(keywords, models.SparseVector)
        text = (record.payload or {})["text"]
        assert keywords.indices == sparse_vectors([ChunkPoint.model_validate(record.payload)])[0].indices
        assert len(keywords.indices) > 5, text


def test_a_turn_holds_at_most_its_characters_and_a_longer_text_alone() -> None:
    texts = ["a" * 400, "b" * 400, "c" * 300, "d" * 1200, "e" * 10]

    turns = turn_slices(texts, max_chars=1000)

    assert [[len(text) for text in turn] for turn in turns] == [[400, 400], [300], [1200], [10]]
    assert [text for turn in turns for text in turn] == texts


def test_short_rule_sentences_share_one_turn_where_passages_take_several() -> None:
    sentences = [f"The operator must keep record {n} for five years." for n in range(100)]
    passages = ["word " * 200] * 32

    assert len(turn_slices(sentences, max_chars=16_000)) == 1
    assert [len(turn) for turn in turn_slices(passages, max_chars=16_000)] == [16, 16]

"""Throttling of progress events."""

from ingestor.progress import ProgressReporter
from policypal.contracts import DocumentUploaded, IngestProgress

UPLOAD = DocumentUploaded(
    tenant_id="t1",
    user_id="u1",
    request_id="r1",
    document_id="d1",
    object_name="t1/d1",
    filename="a.pdf",
    content_type="application/pdf",
    size_bytes=10,
    sha256="x",
    title="A",
    version="1",
    doc_type="policy",
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_intermediate_counts_are_throttled_but_stages_and_totals_go_out() -> None:
    sent: list[IngestProgress] = []

    async def publish(event: IngestProgress) -> None:
        sent.append(event)

    clock = Clock()
    reporter = ProgressReporter(UPLOAD, publish, min_interval=0.5, clock=clock)
    await reporter.report("parsing", "start")
    for page in range(1, 101):
        clock.now += 0.01  # 100 pages in one second
        await reporter.report("parsed", f"page {page}", done=page, total=100)
    await reporter.report("chunked", "done", done=7, total=7)

    assert [(e.stage, e.done) for e in sent] == [
        ("parsing", None),
        ("parsed", 1),
        ("parsed", 51),
        ("parsed", 100),
        ("chunked", 7),
    ]
    first = sent[0]
    assert (first.thread_id, first.document_id, first.request_id, first.tenant_id) == ("d1", "d1", "r1", "t1")


async def test_a_failed_publish_is_not_fatal() -> None:
    async def publish(event: IngestProgress) -> None:
        raise ConnectionError("bus down")

    reporter = ProgressReporter(UPLOAD, publish)
    assert await reporter.report("stored", "ok") is False
    assert reporter.sent == 0

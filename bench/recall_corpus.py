"""The corpus of the retrieval bench: two real Debian PDFs, indexed by the real ingestor pipeline.

Debian's ``debian-policy`` package ships the Debian Policy Manual (policy.pdf, 193 pages) and the
Filesystem Hierarchy Standard 3.0 (fhs-3.0.pdf, 50 pages); ``bench.ingestion.default_pdf`` fetches it
into bench/.cache with ``apt-get download``. Both are ingested into local Qdrant as one user's library,
exactly as the ingestor writes them (chunks, dense and BM25 vectors).

It also holds the second question set, ``CHAT_QUESTIONS`` (chat-style messages with their gold pages);
the first set lives in ``bench.retrieval_recall``.
"""

import gzip
import hashlib
import time
from pathlib import Path
from typing import Any

from bench.ingestion import CACHE, default_pdf
from bench.offline_pipeline import offline_pipeline
from ingestor.pipeline import ChunkingOptions, IngestPipeline
from policypal.contracts import DocumentUploaded
from policypal.embeddings import MiniLMEmbedder
from policypal.state import DocumentRecord
from policypal.vectorstore import ChunkIndex

TENANT, USER = "bench", "reader"
#: document id → (file in bench/.cache, title)
DOCUMENTS = {
    "policy": ("policy.pdf", "Debian Policy Manual"),
    "fhs": ("fhs-3.0.pdf", "Filesystem Hierarchy Standard"),
}


def fetch_documents() -> dict[str, Path]:
    """The PDFs of the corpus, fetched into bench/.cache when missing."""
    policy = default_pdf()
    if policy.name != "policy.pdf":
        raise SystemExit("the retrieval bench needs Debian's policy.pdf (apt-get download debian-policy)")
    fhs = CACHE / "fhs-3.0.pdf"
    if not fhs.exists():
        fhs.write_bytes(
            gzip.decompress((CACHE / "x/usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz").read_bytes())
        )
    return {doc_id: CACHE / name for doc_id, (name, _) in DOCUMENTS.items()}


async def ingest_corpus(index: ChunkIndex, embedder: MiniLMEmbedder) -> dict[str, Any]:
    """Ingest every document of the corpus into ``index``; returns pages and chunks per document."""
    stats: dict[str, Any] = {}
    for doc_id, path in fetch_documents().items():
        data = path.read_bytes()
        upload = DocumentUploaded(
            tenant_id=TENANT,
            user_id=USER,
            request_id=f"ingest-{doc_id}",
            document_id=doc_id,
            object_name=doc_id,
            filename=path.name,
            content_type="application/pdf",
            size_bytes=len(data),
            sha256=hashlib.sha256(data).hexdigest(),
            title=DOCUMENTS[doc_id][1],
            version="1",
            doc_type="regulatory",
        )
        started = time.perf_counter()
        ready = await _pipeline(upload, data, index, embedder).run(upload)
        stats[doc_id] = {
            **ready.model_dump(include={"pages", "chunks"}),
            "seconds": time.perf_counter() - started,
        }
    return stats


def catalog() -> list[DocumentRecord]:
    """The corpus as the user's ready documents, the catalog the resolver matches names against."""
    records = []
    for doc_id, path in fetch_documents().items():
        data = path.read_bytes()
        records.append(
            DocumentRecord(
                document_id=doc_id,
                tenant_id=TENANT,
                user_id=USER,
                title=DOCUMENTS[doc_id][1],
                version="1",
                doc_type="regulatory",
                filename=path.name,
                content_type="application/pdf",
                size_bytes=len(data),
                sha256=hashlib.sha256(data).hexdigest(),
                status="ready",
                request_id=f"ingest-{doc_id}",
            )
        )
    return records


def _pipeline(
    upload: DocumentUploaded, data: bytes, index: ChunkIndex, embedder: MiniLMEmbedder
) -> IngestPipeline:
    return offline_pipeline(
        upload, data, index, embedder, ChunkingOptions(chunk_size=1000, chunk_overlap=150)
    )


#: (document id, gold pages); pages are the PDF's page numbers (1-based) as the ingestor records them.
Gold = tuple[str, set[int]]

# The chat set: questions typed as users type them in chat (an @Inquire tag, filler, paraphrase
# rather than the document's wording, field and path names, a few typos). How it was made:
# - Pages: 10 drawn at random, 20 topics chosen by hand. The draw is
#   ``rng = random.Random(2026); rng.sample(policy_pages, 7); rng.sample(fhs_pages, 4)`` over the body
#   pages (Policy 13-156, FHS 8-48) that are not gold pages of the first set; Policy page 88 carries
#   only a running head, so the spare 7th draw (28) replaced it. Hand-chosen topics lean on
#   identifiers (Pre-Depends, Vcs-Git, Rules-Requires-Root, DEB_BUILD_OPTIONS, debian/copyright, ...).
# - Each question was written while reading the gold page's text as the ingestor extracts it
#   (``ingestor.pdf_text.extract_pages``), in words other than the page's where a user would use them.
# - Gold pages: the page written from, plus every page found by grepping the answer's key phrase over
#   both documents that also states the answer (e.g. the Policy's upgrading checklist), read to check.
# - Written and frozen before the first run; not changed after seeing which retrieval finds them.
CHAT_QUESTIONS: list[tuple[str, Gold]] = [
    # Drawn at random: one question per drawn page.
    (
        "@Inquire hey, how do I get a bug closed automatically when my upload hits the archive? "
        "what do I put in the changelog",
        ("policy", {31}),
    ),
    (
        "@Inquire quick q — by the time postrm runs, what can it still count on being installed? "
        "can it call stuff from my Depends?",
        ("policy", {62, 70}),
    ),
    (
        "@Inquire what perms and owner should the dirs my package makes under /usr/local have when "
        "/etc/staff-group-for-usr-local is there?",
        ("policy", {90, 162}),
    ),
    (
        "@Inquire my daemon needs a port name — ok to just append a line to /etc/services from postinst?",
        ("policy", {113}),
    ),
    (
        "@Inquire how many DDs have to second a policy proposal before its elegible for the next release?",
        ("policy", {149}),
    ),
    (
        "@Inquire can my postinst just prompt with `read`, or do I have to go thru debconf for questions?",
        ("policy", {28, 174}),
    ),
    (
        "@Inquire where do host-specific config files go for a package installed under /opt?",
        ("fhs", {16, 20}),
    ),
    ("@Inquire hi! where are PPD files for printer drivers meant to live?", ("fhs", {35})),
    ("@Inquire which man section is for sysadmin commands again, 8?", ("fhs", {32})),
    (
        "@Inquire my app has internal helper binaries nobody should run directly — /usr/lib or "
        "/usr/libexec? can I use both?",
        ("fhs", {27}),
    ),
    # Chosen by hand.
    (
        "@Inquire hey team, when am I actually supposed to use Pre-Depends instead of plain Depends? "
        "do I need to ask anyone first?",
        ("policy", {70}),
    ),
    (
        "@Inquire quick one, I'm linking /usr/lib/foo to /usr/share/bar in my package: relative or "
        "absolute symlink?",
        ("policy", {106, 187}),
    ),
    (
        "@Inquire whats the lock file for /dev/ttyS0 supposed to be called and what goes inside it?",
        ("fhs", {42}),
    ),
    (
        "@Inquire if someone builds my package with DEB_BUILD_OPTIONS=nocheck, what is debian/rules "
        "expected to skip?",
        ("policy", {36, 37, 175}),
    ),
    (
        "@Inquire upstream 2.3 turned out broken and I have to go back to 2.2 — do I bump the epoch or "
        "is there another way?",
        ("policy", {49, 161}),
    ),
    ("@Inquire can my .deb just ship a fifo in its file tree? my daemon needs one", ("policy", {107, 173})),
    (
        "@Inquire is the machine-readable format for debian/copyright mandatory or can I keep free-form text?",
        ("policy", {124}),
    ),
    (
        "@Inquire for a non-native package, where does the Debian changelog end up once the binary is "
        "installed, and what's the file called?",
        ("policy", {123, 124, 125}),
    ),
    (
        "@Inquire how do I write Vcs-Git so it points at our debian branch and a subdirectory of the repo?",
        ("policy", {55}),
    ),
    ("@Inquire what does Rules-Requires-Root: no declare about building my package?", ("policy", {56})),
    (
        "@Inquire disk is full, is it safe to just wipe stuff in /var/cache or will apps brake?",
        ("fhs", {38}),
    ),
    ("@Inquire hey, where should usb sticks and cd-roms get mounted — /mnt or /media?", ("fhs", {19})),
    (
        "@Inquire my lib package installs .so files into /usr/lib, what line do i need in the "
        "DEBIAN/tirggers file?",
        ("policy", {79}),
    ),
    (
        "@Inquire I'm splittin a package in two, should the new one declare Breaks or Conflicts against "
        "the old version?",
        ("policy", {71}),
    ),
    ("@Inquire can my program just assume the user's home dir is /home/<username>?", ("fhs", {17})),
    ("@Inquire what goes in the Homepage field — is it ok to wrap the URL in <>?", ("policy", {54})),
    (
        "@Inquire in my postinst should I call /sbin/ldconfig with the full path or just ldconfig?",
        ("policy", {59}),
    ),
    ("@Inquire do my maintainer scripts really need set -e at the top?", ("policy", {59, 105, 173})),
    ("@Inquire my script uses bash arrays, can it still start with #!/bin/sh?", ("policy", {106})),
    (
        "@Inquire can my program read files it needs from /usr/share/doc/<pkg>? admins tend to delete that",
        ("policy", {123}),
    ),
]

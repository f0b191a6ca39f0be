"""Documents, registries and turns for the resolver's tests."""

from policypal.contracts import ActionName, ChatMentions, ChatRequested, DocType
from policypal.state import DocumentRecord, RegistryEntry
from policypal.state.documents import DocumentStatus
from resolver.pipeline import Context, Deciders, Outcome, advance
from resolver.service import offline_deciders
from resolver.turn import Turn

TENANT, USER, CONV = "acme", "alice", "conv-1"


def document(
    document_id: str,
    title: str | None = None,
    *,
    doc_type: DocType = "policy",
    version: str = "2024",
    tenant: str = TENANT,
    status: DocumentStatus = "ready",
) -> DocumentRecord:
    """A catalog record of the test user."""
    return DocumentRecord(
        document_id=document_id,
        tenant_id=tenant,
        user_id=USER,
        title=title or f"Policy {document_id}",
        version=version,
        doc_type=doc_type,
        filename=f"{document_id}.pdf",
        content_type="application/pdf",
        size_bytes=10,
        sha256=document_id,
        status=status,
        reason="the file has no text layer" if status == "failed" else None,
        request_id="upload",
    )


def entry(record: DocumentRecord, turn: int) -> RegistryEntry:
    """A registry entry of ``record`` last used at ``turn``."""
    return RegistryEntry(
        document_id=record.document_id,
        title=record.title,
        version=record.version,
        doc_type=record.doc_type,
        last_used_turn=turn,
    )


def chat(
    text: str,
    action: ActionName | None = None,
    documents: tuple[str, ...] = (),
    request_id: str = "req-1",
    *,
    web: bool = False,
) -> ChatRequested:
    """A chat request of the test user in the test conversation."""
    return ChatRequested(
        tenant_id=TENANT,
        user_id=USER,
        request_id=request_id,
        thread_id=CONV,
        message_id=f"user-{request_id}",
        text=text,
        mentions=ChatMentions(action=action, documents=list(documents), web=web),
    )


async def run_turn(
    event: ChatRequested,
    catalog: list[DocumentRecord],
    registry: list[RegistryEntry] | None = None,
    deciders: Deciders | None = None,
) -> tuple[Outcome, list[str]]:
    """Advance a fresh turn of ``event``; returns the outcome and the status lines."""
    stages: list[str] = []

    async def report(stage: str, message: str) -> None:
        stages.append(f"{stage}: {message}")

    context = Context(catalog, registry or [], year=2026)
    outcome = await advance(Turn.start(event), context, deciders or offline_deciders(), report)
    return outcome, stages

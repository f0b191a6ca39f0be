"""Does the turn have what its action needs? (docs/product.md, Validation limits; pure, no I/O)

compare: 2-5 documents; audit: a source (text in the message or a policy document) and 1-5 target
documents; summarize: 1-5; inquire: 0-5. More than five is refused with a clear message. The web is
dropped for compare, with a notice.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from policypal.contracts import ActionName, ResolvedDocument
from policypal.contracts.limits import MAX_DOCUMENTS
from policypal.contracts.resume_point import Awaiting

WEB_DROPPED_NOTICE = "Web search is not supported for Compare: the comparison uses your documents only."
#: Words that separate what is audited from what it is audited against.
_AGAINST = re.compile(r"\b(against|compl(?:y|ies|iant) with|versus|vs\.?)\b", re.IGNORECASE)


@dataclass(frozen=True)
class AuditRoles:
    """What is audited (a text or a document) and the documents it is audited against."""

    source_text: str | None
    source_document_id: str | None
    target_document_ids: tuple[str, ...]


@dataclass(frozen=True)
class Verdict:
    """Validation's answer: ready, or what to ask for (``awaiting``), or too many documents."""

    awaiting: Awaiting | None = None
    prompt: str | None = None
    too_many: bool = False
    web: bool = False
    notices: tuple[str, ...] = field(default_factory=tuple)

    @property
    def ready(self) -> bool:
        """Nothing is missing."""
        return self.awaiting is None and not self.too_many


def audit_split(message: str) -> int | None:
    """Where "against" (or "comply with", "versus") separates the audited side from the targets."""
    split = _AGAINST.search(message)
    return split.start() if split is not None else None


def audit_roles(
    message: str,
    documents: Sequence[ResolvedDocument],
    positions: Mapping[str, int],
    *,
    source_text: str | None,
) -> AuditRoles:
    """Split the documents into the audited one and the targets.

    With a pasted text, every document is a target. Otherwise the document written before "against"
    ("Audit @Policy against @Reg", "Does @Policy comply with that regulation?") is the source; failing
    that, the company policy is the source and the regulations are the targets.
    """
    if source_text:
        return AuditRoles(source_text, None, tuple(d.document_id for d in documents))
    split = audit_split(message)
    if split is not None:
        before = [d for d in documents if positions.get(d.document_id, len(message)) < split]
        after = [d for d in documents if d not in before]
        if len(before) == 1 and after:
            return AuditRoles(None, before[0].document_id, tuple(d.document_id for d in after))
    policies = [d for d in documents if d.doc_type == "policy"]
    if len(policies) == 1:
        targets = tuple(d.document_id for d in documents if d is not policies[0])
        return AuditRoles(None, policies[0].document_id, targets)
    return AuditRoles(None, None, tuple(d.document_id for d in documents))


def validate(
    action: ActionName,
    documents: Sequence[ResolvedDocument],
    *,
    web: bool,
    clean_query: str,
    roles: AuditRoles | None = None,
) -> Verdict:
    """Check ``action``'s requirements; ``roles`` is required for audit."""
    web_kept = web and action != "compare"
    notices = (WEB_DROPPED_NOTICE,) if web and action == "compare" else ()
    counted = len(documents) if action != "audit" or roles is None else len(roles.target_document_ids)
    if counted > MAX_DOCUMENTS:
        return Verdict(too_many=True, web=web_kept, notices=notices)
    missing = _missing(action, documents, clean_query, roles)
    if missing is not None:
        awaiting, prompt = missing
        return Verdict(awaiting=awaiting, prompt=prompt, web=web_kept, notices=notices)
    return Verdict(web=web_kept, notices=notices)


def _missing(
    action: ActionName, documents: Sequence[ResolvedDocument], clean_query: str, roles: AuditRoles | None
) -> tuple[Awaiting, str] | None:
    if action == "compare" and len(documents) < 2:
        return (
            "another_document",
            "Compare requires at least 2 documents. Please tag the additional document.",
        )
    if action == "summarize" and not documents:
        return "documents", "Please tag the document you would like to summarize."
    if action == "audit":
        assert roles is not None, "audit is validated with its roles"
        if roles.source_text is None and roles.source_document_id is None:
            return (
                "audit_source",
                "Please enter the text you would like to audit (e.g., an email or policy excerpt).",
            )
        if not roles.target_document_ids:
            return "audit_targets", "Please tag the regulations you would like to audit against."
    if action == "inquire" and not clean_query.strip(" ,;:.?!"):
        titles = ", ".join(d.title for d in documents)
        about = f" about {titles}" if titles else ""
        return "question", f"What would you like to know{about}? Please type your question."
    return None


def too_many_message(action: ActionName, count: int) -> str:
    """The sentence that refuses more than five documents."""
    return (
        f"You referred to {count} documents; @{action.capitalize()} works with at most {MAX_DOCUMENTS} "
        "at a time. Please tag fewer documents and ask again."
    )

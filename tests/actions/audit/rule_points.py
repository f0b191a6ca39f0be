"""Rule units built by hand for the audit's unit tests."""

from policypal.contracts.audit import Modality
from policypal.vectorstore import RulePoint


def rule_point(
    index: int,
    text: str,
    modality: Modality = "obligation",
    words: str = "must",
    *,
    section: str | None = None,
    document_id: str = "fhs-3",
    title: str = "Filesystem Hierarchy Standard",
) -> RulePoint:
    """Rule ``index`` of one target: ``text`` is also its quote, in chunk ``index``."""
    return RulePoint(
        tenant_id="acme",
        user_id="u1",
        document_id=document_id,
        title=title,
        version="1",
        doc_type="regulatory",
        section=section,
        chunk_index=index,
        rule_index=index,
        modality=modality,
        modal_words=words,
        text=text,
        quote=text,
    )

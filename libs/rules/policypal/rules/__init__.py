"""Normative statements of documents: modality, statements, boilerplate and rule units."""

from policypal.rules.boilerplate import boilerplate_chunks
from policypal.rules.modality import (
    BINDING_WORDS,
    NEGATIVE_MODALITIES,
    STRENGTH,
    ModalCue,
    is_binding,
    is_instruction,
    modal_cue,
)
from policypal.rules.rule_units import (
    EXTRACTION_VERSION,
    SourceClause,
    document_clauses,
    quote_around,
    rule_units,
)
from policypal.rules.statements import Statement, one_line, segment

__all__ = [
    "BINDING_WORDS",
    "EXTRACTION_VERSION",
    "NEGATIVE_MODALITIES",
    "STRENGTH",
    "ModalCue",
    "SourceClause",
    "Statement",
    "boilerplate_chunks",
    "document_clauses",
    "is_binding",
    "is_instruction",
    "modal_cue",
    "one_line",
    "quote_around",
    "rule_units",
    "segment",
]

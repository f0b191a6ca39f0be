"""What the resolver has worked out about one chat turn so far.

A turn starts from a ``chat.requested`` event and is advanced step by step (intent, documents,
validation). When a step needs the user, the whole ``Turn`` is saved with the interrupt as its resume
point, so ``chat.resumed`` continues at that step and repeats nothing already decided.
"""

from typing import Literal

from pydantic import BaseModel, Field

from policypal.contracts import (
    ActionName,
    ActionRequested,
    ChatRequested,
    ConfidenceTier,
    InterruptOption,
    ResolvedDocument,
)
from resolver.message_parts import split_message

Step = Literal["intent", "documents", "validation"]
#: What a text_input interrupt asked for, so the answer is read the right way.
Awaiting = Literal["documents", "another_document", "audit_source", "audit_targets", "question"]


class Turn(BaseModel):
    """Per-turn fields; reset for every new message, never stored outside a pending interrupt.

    ``text`` is the instruction part of the message (``resolver.message_parts``); what was pasted
    with it is ``payload``.
    """

    request_id: str = Field(description="The chat request that started the turn.")
    message_id: str
    text: str
    explicit_action: ActionName | None = None
    mentioned_ids: list[str] = Field(default_factory=list)
    step: Step = "intent"
    # intent
    action: ActionName | None = None
    intent_confidence: ConfidenceTier | None = None
    web: bool = False
    # documents
    documents: list[ResolvedDocument] = Field(default_factory=list)
    document_confidence: ConfidenceTier | None = None
    inference_source: Literal["explicit", "inferred", "fuzzy_match", "none"] = "none"
    candidates: list[ResolvedDocument] = Field(default_factory=list)
    unresolved_names: list[str] = Field(default_factory=list)
    clean_query: str = ""
    #: Where each document is referred to in ``text``: what comes before "against" is audited.
    positions: dict[str, int] = Field(default_factory=dict)
    #: The text to audit, when the user typed it in answer to a text_input.
    source_text: str | None = None
    #: Text pasted with the message (an e-mail, a clause): what to audit, never a source of references.
    payload: str | None = None
    # the open question, when the turn waits on the user
    awaiting: Awaiting | None = None
    options: list[InterruptOption] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)
    #: The request a worker paused with a ``retrieval_low`` question, to hand back as the user chose.
    action_request: ActionRequested | None = None

    @classmethod
    def start(cls, event: ChatRequested) -> "Turn":
        """A fresh turn for a new user message."""
        parts = split_message(event.text)
        return cls(
            request_id=event.request_id,
            message_id=event.message_id,
            text=parts.instruction,
            payload=parts.payload,
            explicit_action=event.mentions.action,
            mentioned_ids=list(dict.fromkeys(event.mentions.documents)),
            # A structured @Web mention; the intent step ORs in the @web text tag and the temporal scan.
            web=event.mentions.web,
        )

    def add_documents(self, found: list[ResolvedDocument]) -> None:
        """Add documents not already resolved, keeping the order they were found in."""
        known = {d.document_id for d in self.documents}
        for document in found:
            if document.document_id not in known:
                known.add(document.document_id)
                self.documents.append(document)

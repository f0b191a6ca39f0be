"""Where a paused chat turn continues: saved with its PalAssist question, read when the user answers.

The resolver writes it when a step of a turn needs the user; an action worker writes it when it ends
a request with a ``retrieval_low`` question (then it carries the whole ``action_request``, to be handed
back to the worker with the user's choice). The resolver reads it on ``chat.resumed`` and continues
at ``step``, repeating nothing already decided (docs/adr/0003-palassist-interrupts.md).
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from policypal.contracts.events import (
    ActionName,
    ActionRequested,
    ConfidenceTier,
    InterruptOption,
    ResolvedDocument,
)

#: The step of the resolver a turn continues at.
Step = Literal["intent", "documents", "validation"]
#: What a text_input question asked for, so the answer is read the right way.
Awaiting = Literal["documents", "another_document", "audit_source", "audit_targets", "question"]
#: How the turn's documents were found.
InferenceSource = Literal["explicit", "inferred", "fuzzy_match", "none"]


class ResumePoint(BaseModel):
    """What has been worked out about one chat turn so far.

    ``text`` is the instruction part of the message; what was pasted with it is ``payload``.
    """

    model_config = ConfigDict(extra="ignore")

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
    inference_source: InferenceSource = "none"
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

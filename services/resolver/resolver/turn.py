"""What the resolver has worked out about one chat turn so far.

A turn starts from a ``chat.requested`` event and is advanced step by step (intent, documents,
validation). When a step needs the user, the whole ``Turn`` is saved with the interrupt as its
``ResumePoint`` (policypal.contracts), so ``chat.resumed`` continues at that step and repeats nothing
already decided.
"""

from policypal.contracts import ChatRequested, ResolvedDocument
from policypal.contracts.resume_point import ResumePoint
from resolver.message_parts import split_message


class Turn(ResumePoint):
    """Per-turn fields (the resume point's contract); reset for every new message, never stored outside
    a pending interrupt."""

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

    @classmethod
    def resumed(cls, point: ResumePoint) -> "Turn":
        """The turn saved as ``point``, to continue from where it paused."""
        return cls.model_validate(point.model_dump())

    def add_documents(self, found: list[ResolvedDocument]) -> None:
        """Add documents not already resolved, keeping the order they were found in."""
        known = {d.document_id for d in self.documents}
        for document in found:
            if document.document_id not in known:
                known.add(document.document_id)
                self.documents.append(document)

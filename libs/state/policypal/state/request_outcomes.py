"""How a chat request ends short of an answer, in one shape for the resolver and every action worker.

A ``Question`` (PalAssist) ends the request with an interrupt and saves where the turn continues; a
``Refusal`` ends it with an error event that says what to change, without retrying. Neither crosses a
process: each becomes the events and the pending interrupt that do (``pending_for``, ``error_for``),
the same way whichever service ends the request.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from policypal.contracts import ErrorCode, ErrorEvent, InterruptEvent, InterruptKind, InterruptOption
from policypal.contracts.dedup_ids import interrupt_id_for
from policypal.contracts.envelope import HasRequestEnvelope, answering
from policypal.contracts.resume_point import ResumePoint
from policypal.state.memory import PendingInterrupt


@dataclass(frozen=True)
class Question:
    """The request needs the user: ask ``message``; ``resume_point`` is where the turn continues."""

    resume_point: ResumePoint
    interrupt_type: InterruptKind
    message: str
    options: list[InterruptOption] | None = None

    def pending_for(self, request: HasRequestEnvelope) -> PendingInterrupt:
        """The interrupt ending ``request`` with this question, and its resume point, to save as the
        conversation's pending interrupt before the interrupt is published (ADR 0003); the interrupt id
        is stable across redeliveries."""
        interrupt = InterruptEvent(
            **answering(request),
            interrupt_id=interrupt_id_for(request.request_id),
            interrupt_type=self.interrupt_type,
            message=self.message,
            options=self.options,
        )
        return PendingInterrupt(interrupt=interrupt, resume_point=self.resume_point)


class Refusal(Exception):  # noqa: N818 - reads as what the service does
    """The request cannot be carried out as asked (e.g. compare with one document): tell the user why.

    The resolver returns it as a step's outcome; a worker raises it from wherever it finds out.
    """

    def __init__(self, code: ErrorCode, message: str, notices: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.notices = tuple(notices)

    def error_for(self, request: HasRequestEnvelope) -> ErrorEvent:
        """The terminal error of ``request``: the message, then the notices gathered before it."""
        return ErrorEvent.ending(request, self.code, " ".join([self.message, *self.notices]))

"""What the resolver tells the user: progress lines, and the one terminal event that ends a request
(an answer, an error, a PalAssist question or an escalation).

Each terminal event is recorded in the request ledger first, so the stored turn and the published
event are the same one even when two deliveries race; every step is idempotent. Action workers end
requests through the same pair (``actions/lifecycle/replies.py: conclude``).
"""

from faststream.nats import NatsBroker

from policypal.bus import publish_recorded_terminal, publish_status
from policypal.contracts.codes import StatusStage
from policypal.contracts.envelope import Envelope
from policypal.state import ChatTerminal, ConversationRecord, RequestLedger
from resolver.pipeline import StatusReporter

CANCELLED_SENTENCE = "Request cancelled. Send a new message whenever you are ready."


def status_reporter(broker: NatsBroker, event: Envelope) -> StatusReporter:
    """Publishes the request's status events; a redelivery repeats the same Nats-Msg-Id per stage."""

    async def report(stage: StatusStage, message: str) -> None:
        await publish_status(broker, event, stage, message)

    return report


async def end_request(
    terminal: ChatTerminal, conversation: ConversationRecord, *, broker: NatsBroker, ledger: RequestLedger
) -> None:
    """End the request with ``terminal`` unless another terminal event stands: the one that stands is
    recorded and kept in the conversation in one round trip, then published (once)."""
    recorded = await ledger.record_and_keep(terminal, conversation)
    await publish_recorded_terminal(broker, ledger, recorded.standing, published=recorded.published)

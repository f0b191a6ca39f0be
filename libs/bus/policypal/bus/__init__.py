"""NATS JetStream adapter shared by every service."""

from policypal.bus.broker import StreamDeclaringBroker, build_broker
from policypal.bus.consumer_lag import ConsumerLag, Durable, durables_of
from policypal.bus.delivery import DeliveryOutcome, Unprocessable, process_delivery
from policypal.bus.publishing import (
    TerminalRecorder,
    publish_event,
    publish_recorded_terminal,
    publish_status,
    publish_terminal,
)
from policypal.bus.stream_usage import StreamUsage, dead_letter_source
from policypal.bus.streams import StreamPolicy, declare_streams, document_store, jstream, stream_policy
from policypal.bus.subscribing import (
    CurrentBroker,
    DeliveredMessage,
    durable_pull_subscriber,
    is_last_delivery,
    keep_raw_body,
)
from policypal.bus.worker import run_worker

__all__ = [
    "ConsumerLag",
    "CurrentBroker",
    "DeliveredMessage",
    "DeliveryOutcome",
    "Durable",
    "StreamDeclaringBroker",
    "StreamPolicy",
    "StreamUsage",
    "TerminalRecorder",
    "Unprocessable",
    "build_broker",
    "dead_letter_source",
    "declare_streams",
    "document_store",
    "durable_pull_subscriber",
    "durables_of",
    "is_last_delivery",
    "jstream",
    "keep_raw_body",
    "process_delivery",
    "publish_event",
    "publish_recorded_terminal",
    "publish_status",
    "publish_terminal",
    "run_worker",
    "stream_policy",
]

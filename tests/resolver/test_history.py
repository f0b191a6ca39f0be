"""Summary windows and the history a worker receives."""

from policypal.state import ConversationSummary, StoredMessage
from resolver.history import extractive_summary, history_window, summary_due, summary_span
from tests.resolver.factories import document, entry


def message(i: int, role: str = "user", **metadata: object) -> StoredMessage:
    return StoredMessage(
        message_id=f"m{i}", role=role, content=f"Message {i}. More.", request_id=f"r{i}", metadata=metadata
    )  # type: ignore[arg-type]


def test_summary_spans_follow_seed_000() -> None:
    assert [summary_span(n) for n in (15, 16, 25, 26, 36)] == [0, 5, 5, 15, 25]
    current = ConversationSummary(text="s", covers_messages=5)
    assert summary_due(20, current) == 0
    assert summary_due(26, current) == 15
    assert summary_due(16, None) == 5


def test_extractive_summary_lists_requests_and_documents() -> None:
    bn = entry(document("bn", "Bank Negara"), 1)
    messages = [message(1, mentions={"documents": ["bn"]}), message(2, "assistant"), message(3)]
    assert extractive_summary(messages, [bn]) == (
        "Conversation summary (messages 1-3):\nUser requests: Message 1. | Message 3.\n"
        "Documents referenced: @Bank Negara (2024)."
    )


def test_history_window_is_summary_plus_last_ten_without_the_current_request() -> None:
    messages = [message(i) for i in range(20)]
    summary = ConversationSummary(text="older", covers_messages=5)
    window = history_window(messages, summary, exclude={"r19"})
    assert window[0].content == "older"
    assert [t.content for t in window[1:]] == [f"Message {i}. More." for i in range(9, 19)]

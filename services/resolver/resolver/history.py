"""Long conversations: a summary of older turns and the window of history a worker receives (docs/product.md, Conversation memory).

Up to 15 messages the whole history is used. Past that, the last 10 stay verbatim and the older ones
are summarised; the summary is regenerated every 10 messages (at 16 it covers messages 1-5, at 26
messages 1-15, ...). Offline the summary is extractive and deterministic: each user request in a
sentence, and every document the covered turns referred to.
"""

import re
from collections.abc import Iterable, Sequence

from policypal.contracts import AnswerDetails, HistoryTurn, MessageMentions
from policypal.state import ConversationSummary, RegistryEntry, StoredMessage

FULL_HISTORY_UP_TO = 15
VERBATIM = 10
REGENERATE_EVERY = 10
#: The earlier turns a second look at a message sees (intent, documents): docs/product.md, Intent.
RECENT_TURNS = 5
_REQUEST_CHARS = 120
_MAX_REQUESTS = 12


def summary_span(count: int) -> int:
    """How many of the first messages the summary covers when the conversation has ``count``."""
    if count <= FULL_HISTORY_UP_TO:
        return 0
    first = FULL_HISTORY_UP_TO + 1 - VERBATIM - 1  # 5: at message 16, messages 1-5
    return first + REGENERATE_EVERY * ((count - FULL_HISTORY_UP_TO - 1) // REGENERATE_EVERY)


def summary_due(count: int, current: ConversationSummary | None) -> int:
    """The span a new summary must cover, or 0 when the stored one is still the right one."""
    span = summary_span(count)
    if span == 0 or (current is not None and current.covers_messages == span):
        return 0
    return span


def referenced_documents(messages: Iterable[StoredMessage], registry: Sequence[RegistryEntry]) -> list[str]:
    """Display titles of the registry documents that ``messages`` mention, tag or cite, in order."""
    found: dict[str, None] = {}
    for message in messages:
        meta = message.metadata
        mentioned = set(meta.mentions.documents) if isinstance(meta, MessageMentions) else set()
        cited = {c.document_id for c in meta.citations} if isinstance(meta, AnswerDetails) else set()
        content = message.content.lower()
        for entry in registry:
            if entry.document_id in mentioned | cited or entry.title.lower() in content:
                found.setdefault(entry.display_title)
    return list(found)


def extractive_summary(messages: Sequence[StoredMessage], registry: Sequence[RegistryEntry]) -> str:
    """A deterministic summary of ``messages``: the user's requests and the documents referenced."""
    requests = [_first_sentence(m.content) for m in messages if m.role == "user"]
    if len(requests) > _MAX_REQUESTS:
        skipped = len(requests) - _MAX_REQUESTS
        requests = [*requests[:3], f"({skipped} more requests)", *requests[-(_MAX_REQUESTS - 3) :]]
    lines = [f"Conversation summary (messages 1-{len(messages)}):"]
    if requests:
        lines.append("User requests: " + " | ".join(requests))
    documents = referenced_documents(messages, registry)
    if documents:
        lines.append("Documents referenced: " + ", ".join(f"@{title}" for title in documents) + ".")
    return "\n".join(lines)


def history_window(
    messages: Sequence[StoredMessage], summary: ConversationSummary | None, *, exclude: set[str]
) -> list[HistoryTurn]:
    """What a worker gets as history: the summary (if any) and the last 10 turns before this request.

    Messages of the requests in ``exclude`` (the current message and its PalAssist answers) are the
    query itself, not history.
    """
    covered = summary.covers_messages if summary is not None else 0
    earlier = [m for m in messages[covered:] if m.request_id not in exclude][-VERBATIM:]
    window = [HistoryTurn(role="system", content=summary.text)] if summary is not None else []
    return window + [HistoryTurn(role=m.role, content=m.content) for m in earlier]


def recent_lines(
    messages: Sequence[StoredMessage], *, exclude: set[str], last: int = RECENT_TURNS
) -> list[str]:
    """The last few earlier messages as "role: content" lines, for the classifier's second look."""
    earlier = [m for m in messages if m.request_id not in exclude][-last:]
    return [f"{m.role}: {m.content}" for m in earlier]


def history_turns(lines: Sequence[str]) -> list[HistoryTurn]:
    """``recent_lines`` back as chat turns, for a language model's prompt."""
    turns: list[HistoryTurn] = []
    for line in lines:
        role, _, content = line.partition(": ")
        if role == "user" or role == "assistant" or role == "system":
            turns.append(HistoryTurn(role=role, content=content))
    return turns


def _first_sentence(text: str) -> str:
    sentence = re.split(r"(?<=[.?!])\s|\n", text.strip(), maxsplit=1)[0]
    return sentence if len(sentence) <= _REQUEST_CHARS else sentence[: _REQUEST_CHARS - 1] + "…"

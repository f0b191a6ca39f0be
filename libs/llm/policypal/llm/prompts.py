"""Prompts in the order providers cache them: a static prefix first, then the user, then the task.

OpenAI (and compatible servers with prefix caching) reuse the longest identical beginning of a prompt,
so :data:`SYSTEM_PREFIX` never changes between users, requests or actions; the user's industry and
location follow it, then the task's own instructions, then the conversation and the question.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from openai.types.chat import ChatCompletionMessageParam

from policypal.contracts import HistoryTurn, UserContext

SYSTEM_PREFIX = """You are PolicyPal, an AI compliance assistant for regulatory policy analysis.

## Your Capabilities
1. Summarize: condense complex regulatory documents into clear overviews.
2. Inquire: answer questions with citations from the user's documents.
3. Compare: highlight differences and similarities between policies and their versions.
4. Audit: identify compliance gaps with severity, consequences and suggestions.

## Communication Style
- Maintain a professional, corporate tone at all times.
- Be direct and concise: compliance officers value efficiency.
- Use formal language: "I will proceed", not "I'll go ahead".
- State actions clearly: "Analyzing...", "Auditing...", "Comparing...".
- Avoid casual phrases such as "Let me...", "Okay so...", "I think...".
- When uncertain, be precise: "Please confirm", not "Is that right?".

## Citation Rules
- Support every claim drawn from a source with its numbered marker, e.g. [1] or [2].
- Use only the markers of the sources you were given; never invent a source or a marker.
- Never make claims about a document without supporting evidence from it."""

#: Earlier turns kept in a prompt: enough for follow-up questions, bounded for cost.
MAX_HISTORY_TURNS = 6


def user_context_section(context: UserContext | None) -> str:
    """The user's industry and location, so advice fits their regulatory environment (docs/product.md, User context)."""
    industry = (context.industry if context else None) or "not specified"
    location = (context.location if context else None) or "not specified"
    return (
        "## User Context\n"
        f"- Industry: {industry}\n"
        f"- Location: {location}\n"
        "Tailor your answer to this regulatory environment where the sources allow it."
    )


@dataclass(frozen=True)
class Prompt:
    """One request to a chat model: the task's instructions, the user's message, and context."""

    instructions: str
    user: str
    context: UserContext | None = None
    history: Sequence[HistoryTurn] = field(default_factory=tuple)

    def system(self) -> str:
        """The system message: the static prefix, then the user context, then the task."""
        return f"{SYSTEM_PREFIX}\n\n{user_context_section(self.context)}\n\n## Task\n{self.instructions}"

    def messages(self) -> list[ChatCompletionMessageParam]:
        """The chat messages, system prompt first, the latest history turns, then the user's message."""
        messages: list[ChatCompletionMessageParam] = [{"role": "system", "content": self.system()}]
        for turn in list(self.history)[-MAX_HISTORY_TURNS:]:
            if turn.role != "system":
                messages.append(_turn(turn.role, turn.content))
        messages.append({"role": "user", "content": self.user})
        return messages


def _turn(role: Literal["user", "assistant"], content: str) -> ChatCompletionMessageParam:
    if role == "user":
        return {"role": "user", "content": content}
    return {"role": "assistant", "content": content}

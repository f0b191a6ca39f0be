"""Intent classification by a language model, with progressive context (docs/product.md, Intent).

The first call sees the latest message alone. When the model is not sure (medium or low confidence)
and the conversation has earlier turns, one more call sees the last five turns as well, and its answer
stands however sure it is. The "summarize X about Y → inquire" rule is applied to the model's answer.
If the model cannot be reached (after the adapter's retries) or keeps answering out of schema, the
offline classifier decides instead and the user is told so in a notice.
"""

import logging
from collections.abc import Sequence

from pydantic import BaseModel

from policypal.contracts import ActionName, ConfidenceTier, HistoryTurn
from policypal.llm import LLM, LLMError, Prompt
from resolver.history import RECENT_TURNS, history_turns
from resolver.intent import IntentClassifier, IntentGuess, IntentRequest, asks_about_a_topic

logger = logging.getLogger(__name__)

ACTIONS: tuple[ActionName, ...] = ("summarize", "inquire", "compare", "audit")
OFFLINE_NOTICE = "The language model was unavailable, so the action was chosen by the offline rules."
INSTRUCTIONS = """Classify which action the user's latest message asks PolicyPal to perform.
- summarize: an overview of whole documents ("summarize", "give me the key points").
- inquire: a question about a topic, in documents or in general; "summarize the capital rules in X" is inquire.
- compare: differences or similarities between documents or versions.
- audit: check a policy, an email or a text for compliance against regulations.
Set enable_web_search when the answer needs information newer than the uploaded documents
("is this still enforced?", "what is happening with...", the latest news).
Set multi_action_detected when the message asks for more than one action at once, and list every
requested action in requested_actions in the order asked; otherwise requested_actions holds the action.
confidence: high when the message says what it wants, medium when it is a guess from context, low when
it could be several actions. Earlier turns, when given, are context only: classify the latest message.
reasoning: one short sentence for debugging; it is never shown to the user."""


class IntentClassification(BaseModel):
    """The model's structured answer (action, confidence and web need, plus the actions asked for)."""

    action: ActionName
    confidence: ConfidenceTier
    enable_web_search: bool
    multi_action_detected: bool
    requested_actions: list[ActionName]
    reasoning: str


class LLMIntentClassifier:
    """An ``IntentClassifier`` backed by ``llm``; ``fallback`` decides when the model fails."""

    def __init__(self, llm: LLM, *, fallback: IntentClassifier, recent_turns: int = RECENT_TURNS) -> None:
        self._llm = llm
        self._fallback = fallback
        self._recent_turns = recent_turns

    async def classify(self, request: IntentRequest) -> IntentGuess:
        """The latest message first; the last five turns as well only if the model is unsure."""
        history = history_turns(request.history[-self._recent_turns :])
        try:
            answer = await self._ask(request.message, ())
        except LLMError as exc:
            logger.warning("intent classification fell back to the offline rules: %s", exc)
            offline = await self._fallback.classify(request)
            return IntentGuess(
                offline.action, offline.confidence, offline.web, offline.candidates, OFFLINE_NOTICE
            )
        if answer.confidence != "high" and history:
            try:
                answer = await self._ask(request.message, history)
            except LLMError as exc:
                # The first answer is a real one, only less sure: keep it rather than the rules.
                logger.warning("intent retry with context failed, keeping the first answer: %s", exc)
        return guess_from(answer, request.clean_text)

    async def _ask(self, message: str, history: Sequence[HistoryTurn]) -> IntentClassification:
        prompt = Prompt(instructions=INSTRUCTIONS, user=message, history=history)
        reply = await self._llm.structured("intent", prompt, IntentClassification)
        return reply.value


def guess_from(answer: IntentClassification, clean_text: str) -> IntentGuess:
    """The pipeline's ``IntentGuess`` from the model's answer.

    Candidates are listed only when the user must choose: the actions asked for when there are
    several, or, when the model is unsure, its guess first and then the other actions.
    """
    requested = tuple(dict.fromkeys([*answer.requested_actions]))
    if answer.multi_action_detected and len(requested) > 1:
        return IntentGuess(answer.action, answer.confidence, answer.enable_web_search, requested)
    if answer.confidence == "low":
        ordered = tuple(dict.fromkeys([answer.action, *requested, *ACTIONS]))
        return IntentGuess(answer.action, "low", answer.enable_web_search, ordered)
    action = answer.action
    if action == "summarize" and asks_about_a_topic(clean_text):
        # docs/product.md, Intent: "summarize X about Y" is a question about Y.
        action = "inquire"
    return IntentGuess(action, answer.confidence, answer.enable_web_search)

"""Which action a message asks for, and whether it needs the web (docs/product.md, Intent; Temporal keywords).

An explicit @action always wins. Otherwise an ``IntentClassifier`` decides; the deterministic
``PatternIntentClassifier`` here is the offline one (an LLM classifier satisfies the same protocol).
The free temporal-keyword scan runs on every message and is OR-ed with whatever the classifier says.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from policypal.contracts import ActionName, ConfidenceTier

#: docs/product.md, Temporal keywords: the temporal terms, plus phrasings of "is it still in force".
_TEMPORAL = re.compile(
    r"\b(latest|recent|recently|current|currently|as of now|right now|now in force|today|nowadays|up[- ]to[- ]date|this year|"
    r"still (?:valid|enforced|in force|applicable|current|apply|applies))\b",
    re.IGNORECASE,
)
_WEB_TAG = re.compile(r"(?<![\w@])@web(?:search)?\b", re.IGNORECASE)

_PATTERNS: dict[ActionName, re.Pattern[str]] = {
    "summarize": re.compile(
        r"\b(summari[sz]e\w*|summary|summaries|overview|outline|tl;?dr|gist|key (?:points|takeaways)|"
        r"main points|recap)\b",
        re.IGNORECASE,
    ),
    "compare": re.compile(
        r"\b(compar(?:e|es|ed|ing|ison|isons)|differences?|differ|differs|versus|vs\.?|contrast\w*|"
        r"what changed|changes? between|similarit(?:y|ies))\b",
        re.IGNORECASE,
    ),
    "audit": re.compile(
        r"\b(audit\w*|compl(?:y|ies|ying) with|compliant with|(?:non-?)?compliance (?:of|with|check)|"
        # "violates"/"breaching" ask for a check; "a data breach", "breach notification" are topics.
        r"non-?compliant|violat(?:e|es|ed|ing)|in (?:violation|breach)|breach(?:es|ed|ing)|"
        r"(?:do|does|did|would|could|might|may|will) (?:\w+ ){1,4}breach|check\w* (?:\w+ ){0,4}against|"
        r"gaps? against)\b",
        re.IGNORECASE,
    ),
}
_QUESTION = re.compile(
    r"(\?\s*$|^\s*(what|how|when|where|why|who|whom|which|is|are|was|were|does|do|did|can|could|should|"
    r"must|may|will|would|explain|describe|list|tell me|find|show me|give me)\b)",
    re.IGNORECASE,
)
#: Words that say nothing about a topic: what is left of "summarize X" beyond them is a question.
_NOT_A_TOPIC = frozenset(
    """a an the this that these those it its them they their both all each every one ones two three four
    five of in on for from about me us our my your please can could would you give provide write make
    quick brief short full complete detailed main key points takeaways summary summarize summarise
    summarized summarised overview outline gist recap tldr document documents doc docs file files
    policy policies regulation regulations guideline guidelines rule rules and or with to above
    previous earlier last mentioned same again also now then just kindly want like need i we do
    compare comparison differences difference changed change changes between versus vs version versions
    edition editions manual manuals handbook handbooks guide guides licence licences license licenses
    text texts what did does new newer older old latest current original""".split()  # noqa: SIM905 - a word list reads better as text
)


@dataclass(frozen=True)
class IntentRequest:
    """What a classifier sees: the message, the message without mentions and titles, recent turns.

    ``recent`` has the titles taken out (for word patterns); ``history`` is the same turns as written,
    for a language model.
    """

    message: str
    clean_text: str
    recent: Sequence[str] = field(default_factory=tuple)
    history: Sequence[str] = field(default_factory=tuple)


@dataclass(frozen=True)
class IntentGuess:
    """A classifier's answer; ``candidates`` lists every action asked for when it is more than one."""

    action: ActionName
    confidence: ConfidenceTier
    web: bool = False
    candidates: tuple[ActionName, ...] = ()
    #: Said to the user with the answer, e.g. that the offline rules stood in for the language model.
    notice: str | None = None

    @property
    def multi_action(self) -> bool:
        """The message asks for more than one action at once."""
        return len(self.candidates) > 1


class IntentClassifier(Protocol):
    """Classifies the action of a message that has no explicit @action."""

    async def classify(self, request: IntentRequest) -> IntentGuess:
        """The action, how sure, whether the web is needed, and all actions when several were asked."""
        ...


def web_tagged(text: str) -> bool:
    """Whether the message carries an @Web tag."""
    return _WEB_TAG.search(text) is not None


def needs_web(text: str, *, year: int) -> bool:
    """The temporal-keyword scan (docs/product.md, Temporal keywords): "latest", "current", this or last year's number...

    Run it on the text without mentions and document titles: "Bank Negara 2025" is not a date.
    """
    if _TEMPORAL.search(text):
        return True
    return re.search(rf"\b({year}|{year - 1})\b", text) is not None


def strong_actions(text: str) -> list[ActionName]:
    """The actions whose words appear in ``text``, in the order they first appear."""
    found = [(m.start(), action) for action, pattern in _PATTERNS.items() if (m := pattern.search(text))]
    return [action for _, action in sorted(found)]


def asks_about_a_topic(clean_text: str) -> bool:
    """Whether a "summarize" message names a topic ("summarize the capital rules in X") beyond the documents."""
    # Acronyms, CamelCase and numbers name documents ("BankNegara2024"), not topics.
    plain = re.sub(r"\S*(?:[A-Z]{2}|\d|[a-z][A-Z])\S*", " ", clean_text)
    words = re.findall(r"[a-z][a-z'-]+", plain.lower())
    return any(len(w) > 2 and w not in _NOT_A_TOPIC for w in words)


def classify_by_patterns(text: str) -> IntentGuess | None:
    """The action of ``text`` from its words alone, or None when nothing points to one."""
    actions = strong_actions(text)
    if len(actions) > 1:
        return IntentGuess(action=actions[0], confidence="medium", candidates=tuple(actions))
    if actions == ["summarize"] and asks_about_a_topic(text):
        # docs/product.md, Intent: "summarize X about Y" is a question about Y.
        return IntentGuess(action="inquire", confidence="high")
    if actions:
        return IntentGuess(action=actions[0], confidence="high")
    if _QUESTION.search(text):
        return IntentGuess(action="inquire", confidence="high")
    return None


class PatternIntentClassifier:
    """The offline classifier: action words, then the last five turns, then "I am not sure"."""

    async def classify(self, request: IntentRequest) -> IntentGuess:
        """First the message alone; if it says nothing, the latest earlier user turn that did."""
        guess = classify_by_patterns(request.clean_text)
        if guess is not None:
            return guess
        for earlier in reversed(request.recent[-5:]):
            role, _, content = earlier.partition(": ")
            previous = classify_by_patterns(content) if role == "user" else None
            if previous is not None and not previous.multi_action:
                # A follow-up continues the previous action, but we are less sure of it.
                return IntentGuess(action=previous.action, confidence="medium")
        return IntentGuess(action="inquire", confidence="low", candidates=("inquire", "summarize"))

"""A conversation's title from its first message: a short noun phrase, made without a model.

"@Summarize @OurAMLPolicy" → "Summary of Our AML Policy"; "Compare @GPL 2 and @GPL 3" →
"Comparison of GPL 2 and GPL 3"; "What does our policy say about PEP screening?" → "PEP screening";
a question with no "about X" keeps its own words ("How long must customer records be kept").
Greetings and "can you" go; text pasted after the instruction (an e-mail to audit, after a colon, a
line break or a quote) never reaches the title; at most ``MAX_WORDS`` words are kept.
"""

import re

from policypal.contracts.action_registry import ACTION_REGISTRY
from policypal.state import ConversationRecord

#: The title a conversation has until its first message names it.
DEFAULT_TITLE: str = ConversationRecord.model_fields["title"].default
MAX_WORDS = 8
MAX_CHARS = 60

_ACTIONS = {spec.name: spec.title_prefix for spec in ACTION_REGISTRY} | {"summarise": "Summary of"}
_GREETING = re.compile(
    r"^(?:(?:hi|hello|hey|good (?:morning|afternoon|evening)|please|kindly|quick question|so|ok(?:ay)?)"
    r"(?:\s+(?:there|team|all))?[\s,:;!.-]+)+",
    re.IGNORECASE,
)
_ASKING = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|i(?:'d| would)\s+like\s+(?:you\s+)?to\s+|"
    r"i\s+(?:want|need)\s+(?:you\s+)?to\s+|(?:please\s+)?(?:tell|show)\s+me\s+|let'?s\s+)",
    re.IGNORECASE,
)
_VERB = re.compile(
    r"^(?P<verb>summari[sz]e|give\s+me\s+(?:an?\s+)?(?:overview|summary)\s+of|compare|audit|check)\b\s*",
    re.IGNORECASE,
)
_ABOUT = re.compile(r"\b(?:about|regarding|concerning|on the topic of)\s+(?P<topic>[^?.!]+)", re.IGNORECASE)


def title_from_message(text: str) -> str:
    """A short noun phrase naming what the first message asks about; ``DEFAULT_TITLE`` if none."""
    instruction = re.split(r"\n|:\s|```|[\"“]", text, maxsplit=1)[0]
    action = ""
    tag = re.match(r"\s*@(summari[sz]e|compare|audit|inquire)\b", instruction, re.IGNORECASE)
    if tag is not None:
        action = _ACTIONS[tag.group(1).lower()]
        instruction = instruction[tag.end() :]
    words = _readable_mentions(instruction)
    words = _ASKING.sub("", _GREETING.sub("", words.strip()))
    verb = _VERB.match(words)
    if verb is not None and not action:
        spoken = verb["verb"].lower()
        action = (
            "Comparison of"
            if spoken == "compare"
            else "Audit of"
            if spoken in {"audit", "check"}
            else "Summary of"
        )
        words = words[verb.end() :]
    about = _ABOUT.search(words)
    if about is not None and not action:
        words = about["topic"]
    phrase = " ".join(f"{action} {words}".split()[:MAX_WORDS]).strip(" ,;:.?!-")
    phrase = phrase[:MAX_CHARS].rsplit(" ", 1)[0] if len(phrase) > MAX_CHARS else phrase
    return phrase[:1].upper() + phrase[1:] if phrase else DEFAULT_TITLE


def _readable_mentions(text: str) -> str:
    """``@OurAMLPolicy`` as "Our AML Policy"; other tags lose their @."""

    def spaced(match: re.Match[str]) -> str:
        return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", match.group(1))

    text = re.sub(r"@web\b", " ", text, flags=re.IGNORECASE)
    return re.sub(r"@(\S+)", spaced, text)

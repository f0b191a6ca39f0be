"""What a website customer's message is: small talk, a request for a person, or a question; and the
question made standalone from the conversation so far (docs/product.md, Website widget).

Offline rules written from general chat English. Small talk is a message with nothing but greetings,
thanks, farewells and pleasantries. A request for a person names one (human, agent, someone…) with a
verb of reaching them, or is just "agent" / "human". A follow-up that leans on the previous question
("How do I export it to PDF?", "What about gift cards?") is rewritten with that question's topic.
"""

import re
from collections.abc import Sequence
from typing import Literal

MessageKind = Literal["small_talk", "person", "question"]

_SMALL_TALK_PART = (
    r"hi|hello|hey|heya|hiya|howdy|yo|greetings|good\s+(?:morning|afternoon|evening|day)|morning"
    r"|thanks?(?:\s+(?:so|very)\s+much)?(?:\s+a\s+lot)?|thank\s+(?:you|u)(?:\s+(?:so|very)\s+much)?"
    r"|many\s+thanks|thx|ty|cheers|great|perfect|cool|nice|awesome|ok(?:ay)?|alright|got\s+it|understood"
    r"|bye|goodbye|see\s+you|have\s+a\s+(?:nice|good|great)\s+day|that'?s\s+all|that\s+helps"
    r"|how\s+are\s+(?:you|things)(?:\s+doing)?(?:\s+today)?|what'?s\s+up|nice\s+to\s+meet\s+you"
    r"|is\s+(?:anyone|anybody|someone)\s+there|are\s+you\s+(?:there|a\s+bot|real)"
    r"|there|team|all|everyone|again|folks|bot|:\)|:-\)|:D"
)
_SMALL_TALK = re.compile(rf"^(?:(?:{_SMALL_TALK_PART})[\s,.!?;:-]*)+$", re.IGNORECASE)

_PERSON = r"(?:human|person|people|agent|someone|somebody|representative|rep|operator|staff|colleague|team\s+member|real\s+one)"
_REACH = r"(?:talk|speak|chat|connect|transfer|put\s+me\s+through|get|reach|contact|escalate|hand\s+(?:me\s+)?over)"
_ASKS_FOR_PERSON = re.compile(
    rf"\b{_REACH}\b.{{0,40}}\b(?:a\s+|an\s+|the\s+|real\s+|live\s+)*{_PERSON}\b"
    rf"|^\s*(?:(?:a|an|the|real|live)\s+)*{_PERSON}(?:\s+please)?[\s.!?]*$",
    re.IGNORECASE,
)

#: A pronoun that points back at the previous question's topic.
_BACK_REFERENCE = re.compile(
    r"\b(it|this|that|them|these|those|one)\b"
    # Not the "it" of "is it possible to…", "how long does it take", "it is raining".
    r"(?!\s+(?:is|are)\s+\w+ing|\s+(?:possible|allowed|necessary|required|ok|okay|true|legal|free|worth|takes?)\b)",
    re.IGNORECASE,
)
#: "What about gift cards?", "And for refunds?", "How about a DOCX file?"
_ELLIPSIS = re.compile(
    r"^\s*(?:and\s+)?(?:what|how)\s+about\s+(?P<topic>.+?)[\s?.!]*$|^\s*and\s+(?:for|with)\s+(?P<topic2>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
#: How a question opens before its topic: "how do I", "what is the", "can I", "where can we".
_QUESTION_OPENING = re.compile(
    r"^\s*(?:(?:how|what|when|where|why|which|who)\s+)?"
    r"(?:(?:do|does|did|can|could|should|would|will|may|must|is|are|was|were|am)\s+)?"
    r"(?:(?:i|we|you|one|they|customers?)\s+)?"
    r"(?:(?:have\s+to|need\s+to|want\s+to|able\s+to|be\s+able\s+to)\s+)?",
    re.IGNORECASE,
)
_TOPIC_END = re.compile(
    r"\s*(?:[?.!]|\b(?:in|on|for|with|from|to|into|by|under|after|before)\b).*$", re.IGNORECASE
)
_ACTION_VERB = re.compile(r"^\s*(?!(?:the|a|an|my|our|your)\b)[a-z]+\s+(?=\S)", re.IGNORECASE)


def message_kind(text: str) -> MessageKind:
    """Whether ``text`` is small talk, asks for a person, or is a question for the documents."""
    if _ASKS_FOR_PERSON.search(text):
        return "person"
    if not text.strip() or _SMALL_TALK.match(text.strip()):
        return "small_talk"
    return "question"


def topic_of(question: str) -> str | None:
    """The thing a question is about: "a DOCX file" in "How do I create a DOCX file?"."""
    rest = _QUESTION_OPENING.sub("", question, count=1)
    opened = rest != question
    rest = _TOPIC_END.sub("", rest).strip()
    if opened:
        # "create a DOCX file": after "how do I" comes the verb, then its object.
        verb = _ACTION_VERB.match(rest)
        if verb and len(rest[verb.end() :].split()) >= 1:
            rest = rest[verb.end() :]
    rest = rest.strip(" ,;:")
    return rest if rest and len(rest.split()) <= 8 else None


def standalone_question(text: str, earlier_questions: Sequence[str]) -> str:
    """``text`` as a question that reads on its own, using the last of ``earlier_questions``.

    A message that does not lean on an earlier one comes back unchanged.
    """
    if not earlier_questions:
        return text
    previous = earlier_questions[-1]
    topic = topic_of(previous)
    if topic is None:
        return text
    ellipsis = _ELLIPSIS.match(text)
    if ellipsis:
        new_topic = ellipsis.group("topic") or ellipsis.group("topic2") or ""
        return previous.replace(topic, new_topic.strip(), 1)
    if len(text.split()) > 14 or topic.lower() in text.lower():
        return text
    reference = _BACK_REFERENCE.search(text)
    if reference is None:
        return text
    return text[: reference.start()] + topic + text[reference.end() :]

"""A chat message split into the instruction and the payload pasted with it.

"Audit this email against @GPL(v2) and @GPL(v3): <e-mail>" carries two things: what to do, and the
text to do it to. Words in the pasted text ("both", "compare", "the policy", a capitalised name) are
not the user speaking to PolicyPal, so intent and document resolution read the instruction only,
and the payload becomes the text to audit (docs/product.md, Audit). The payload is, in this order:

- a fenced code block (three backticks);
- a quoted passage of at least ``MIN_PAYLOAD_WORDS`` words;
- an e-mail or letter starting on a later line (a header line such as "From:" or "Subject:", or a
  salutation such as "Dear customer,");
- the lines after the first, or the text after a colon, when the instruction points at a text
  ("this email", "the message below", "the following", "check this …:") and the rest is long enough.

A short quote ("the 'retention period'") or a colon that opens the question ("Quick question: …")
stays in the instruction.
"""

import re
from dataclasses import dataclass

#: A pasted text has at least this many words; anything shorter is part of the instruction.
MIN_PAYLOAD_WORDS = 8

_FENCE = re.compile(r"```[^\n`]*\n?(?P<body>.*?)```", re.DOTALL)
_QUOTED = re.compile(r"[\"“”](?P<body>[^\"“”]+)[\"“”]")
_LETTER_START = re.compile(
    r"^[ \t]*(?:(?:from|to|cc|bcc|subject|date|sent|re|fwd?)[ \t]*:|"
    r"(?:dear|hi|hello|hey|good (?:morning|afternoon|evening))\b[^\n,]{0,40},)",
    re.IGNORECASE | re.MULTILINE,
)
#: The instruction points at a text that comes with it: "this email", "the clause below", "the following".
_POINTS_AT_TEXT = re.compile(
    r"\b(?:(?:this|these|the\s+following|the|my|our|that)\s+(?:\w+\s+){0,2}?"
    r"(?:e-?mails?|messages?|letters?|notes?|texts?|clauses?|paragraphs?|excerpts?|passages?|drafts?|"
    r"statements?|snippets?|config(?:uration)?s?|wording|copy|announcements?|posts?|memos?|contracts?|"
    r"terms|sections?|answers?|replies|reply)"
    r"|the\s+following|below|as\s+follows|attached|pasted|(?:audit|check|review|assess|vet|evaluate)\s+this)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class MessageParts:
    """What the user asks (``instruction``) and the text pasted with it (``payload``), if any."""

    instruction: str
    payload: str | None = None


def split_message(text: str) -> MessageParts:
    """Split ``text`` into instruction and payload; see the module for the rules."""
    fenced = _FENCE.search(text)
    if fenced is not None and _long_enough(fenced["body"]):
        return _parts(text[: fenced.start()] + " " + text[fenced.end() :], fenced["body"])
    for quoted in _QUOTED.finditer(text):
        if _long_enough(quoted["body"]):
            return _parts(text[: quoted.start()] + " " + text[quoted.end() :], quoted["body"])
    # (where the instruction ends, where the payload starts): the earliest that leaves a payload wins.
    cuts: list[tuple[int, int]] = []
    first_line_end = text.find("\n")
    if first_line_end >= 0:
        letter = _LETTER_START.search(text, first_line_end + 1)
        if letter is not None:
            cuts.append((letter.start(), letter.start()))
    pointer = _POINTS_AT_TEXT.search(text)
    if pointer is not None:
        colon = text.find(":", pointer.end())
        cuts.extend((cut, cut + 1) for cut in (first_line_end, colon) if cut >= pointer.end())
    for end, start in sorted(cuts):
        if _long_enough(text[start:]):
            return _parts(text[:end], text[start:])
    return MessageParts(text)


def _long_enough(text: str) -> bool:
    return len(text.split()) >= MIN_PAYLOAD_WORDS


def _parts(instruction: str, payload: str) -> MessageParts:
    cleaned = re.sub(r"[ \t]+", " ", instruction).strip().rstrip(":").strip()
    return MessageParts(cleaned, payload.strip())

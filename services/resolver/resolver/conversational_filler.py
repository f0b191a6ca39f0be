"""The question inside a chat message: greetings, politeness and pointers at the document taken out.

Offline stand-in for the model's query rewrite (docs/product.md, Query rewrite). A chat message carries words that say nothing about
what to search for ("hey team, quick one:", "can you tell me", "thanks!", "according to our
policy"); they are embedded with the question and pull its vector towards small talk. The rules are
written from general chat English, anchored at the start or end of the message (where filler sits),
and conservative: a message they would reduce to nothing, or that would lose a number, identifier,
negation or quoted term, is kept as it was.

No maintained library does this: stop-word lists (spaCy, NLTK) drop negations and every function
word, and disfluency models need a model download; a short list of phrases is enough here.
"""

import re
from collections import Counter
from collections.abc import Iterable

_SEP = r"[\s,;:.!?\u2013\u2014-]"
#: Punctuation left in front of the question; a dot or dash that starts a word (".deb", "--purge") stays.
_GAP = r"(?:\s|[,;:.!?\u2013\u2014-](?![\w/]|[.-]+\w))"
_LEADING_PUNCTUATION = re.compile(rf"^{_GAP}+")
_NAME = r"(?-i:[A-Z][a-z'\u2019-]+)"

_GREETING = re.compile(
    r"(?:hi|hello|hey|heya|hiya|howdy|yo|greetings|good\s+(?:morning|afternoon|evening|day)|morning)"
    r"(?:\s+(?:there|team|all|everyone|everybody|folks|guys|y'all|again|policypal|bot|assistant))*"
    rf"(?:\s+{_NAME}(?={_SEP}*[,!.:]))?"
    rf"(?:{_GAP}+|$)",
    re.IGNORECASE,
)
#: Pleasantries and apologies that make a sentence of their own.
_PLEASANTRY = re.compile(
    r"(?:how\s+are\s+(?:you|things)(?:\s+doing)?(?:\s+today)?"
    r"|(?:i\s+)?hope\s+(?:you(?:'re|\s+are)\s+(?:well|doing\s+well|good)|all\s+is\s+well|this\s+(?:helps|finds\s+you\s+well))"
    r"|sorry\s+to\s+(?:bother|trouble|ask|pester)(?:\s+you)?(?:\s+(?:again|all))?"
    r"|sorry\s+if\s+this\s+is\s+an?\s+(?:dumb|silly|stupid|obvious|basic)\s+question"
    r"|sorry|apologies|no\s+rush)"
    rf"\s*[,.!?:;\u2013\u2014-]{_GAP}*",
    re.IGNORECASE,
)
#: "Quick question:", "one more question for you -", "quick one".
_QUESTION_ANNOUNCED = re.compile(
    r"(?:(?:just|a|one|another|one\s+more|random|small|simple|silly|general|real)\s+)*"
    rf"(?:quick\s+(?:question|q|one|query|thing)(?:\s+for\s+(?:you|you\s+all|\w+))?(?:{_GAP}+|$)"
    rf"|(?:question|query)(?:\s+for\s+(?:you|you\s+all|\w+))?\s*[:,.!?\u2013\u2014-]{_GAP}*"
    rf"|(?:i\s+have|i've\s+got|i\s+got)\s+an?\s+(?:quick\s+)?(?:question|query)\s*[:,.!?\u2013\u2014-]{_GAP}*"
    rf"|(?:can|may)\s+i\s+ask(?:\s+(?:you\s+)?something)?\s*[:,.!?\u2013\u2014-]{_GAP}*)",
    re.IGNORECASE,
)
#: Discourse markers that open a message; the ambiguous ones only when a comma follows.
_MARKER = re.compile(
    r"(?:(?:um+|uh+|erm+|hmm+|btw|so|by\s+the\s+way)(?:\s*,\s*|\s+)"
    r"|(?:ok|okay|well|alright|also|anyway|right)\s*,\s*)",
    re.IGNORECASE,
)
#: "I was wondering if", "can you tell me", "do you know whether": asking, not what is asked.
_ASKING = re.compile(
    r"(?:(?:i(?:\s+was|\s+am|'m|\u2019m)\s+|just\s+)?wondering"
    r"|i\s+wonder(?:ed)?"
    r"|i(?:\s+would|'d|\u2019d)\s+like\s+to\s+(?:know|ask)"
    r"|i\s+(?:want|need)\s+to\s+(?:know|ask)"
    r"|i(?:\s+am|'m|\u2019m)\s+curious(?:\s+to\s+know)?"
    r"|(?:do|does)\s+(?:you|u|anyone|anybody|someone|somebody|we)\s+(?:happen\s+to\s+)?know"
    r"|(?:anyone|anybody)\s+know"
    r"|any\s+idea"
    r"|(?:(?:can|could|would|will)\s+(?:you|u|someone|anyone|somebody)\s+)(?:please\s+)?"
    r"(?:tell\s+me|remind\s+me|let\s+me\s+know|explain(?:\s+to\s+me)?|clarify|confirm|check"
    r"|help\s+me\s+(?:understand|find\s+out|figure\s+out))"
    r"|(?:you|u)\s+(?:can|could|would|might)\s+(?:please\s+)?(?:tell\s+me|let\s+me\s+know|explain|clarify|confirm)"
    r"|(?:(?:please|kindly)\s+)?(?:tell\s+me|let\s+me\s+know|remind\s+me|help\s+me\s+(?:understand|find\s+out|figure\s+out))"
    r"|(?:please|kindly)\s+(?:explain|clarify|confirm|check)"
    r"|please|kindly)"
    r"(?:\s*,)?(?:\s+(?:if|whether))?(?:\s*[,:]\s*|\s+|$)",
    re.IGNORECASE,
)
_LEADING = (_GREETING, _PLEASANTRY, _QUESTION_ANNOUNCED, _MARKER, _ASKING)

#: Thanks, sign-offs and "please" at the end, with a name after a sign-off ("Thanks, Maria").
_TRAILING = re.compile(
    r"(?:^|(?<=[\s,;:.!?]))"
    r"(?:thanks?(?:\s+(?:so|very)\s+much)?(?:\s+(?:a\s+lot|again|in\s+advance|heaps|a\s+bunch))?"
    r"|thank\s+(?:you|u)(?:\s+(?:so|very)\s+much)?(?:\s+(?:in\s+advance|again))?"
    r"|many\s+thanks|thx|thnx|tnx|ty|tia|cheers|much\s+appreciated|(?:i\s+)?appreciate\s+it"
    r"|any\s+help\s+(?:is\s+|would\s+be\s+)?(?:much\s+|greatly\s+)?appreciated"
    r"|(?:best|kind|warm)\s+regards|regards"
    r"|please|pls|plz|if\s+possible|if\s+you\s+(?:can|know)|if\s+anyone\s+knows|real\s+quick"
    r"|:-?\)|:D|\U0001F64F|\U0001F642|\U0001F60A|\U0001F44D)"
    rf"(?:\s*,?\s*{_NAME})?"
    r"[\s!.?,:;)]*$",
    re.IGNORECASE,
)
#: Politeness inside a sentence ("what is, please, the period"; "kindly confirm").
_POLITE_WORD = re.compile(r"(?<![\w'])(?:please|pls|plz|kindly)(?![\w'])\s*,?", re.IGNORECASE)

_QUOTED = re.compile(r"\"[^\"]+\"|\u201c[^\u201d]+\u201d|`[^`]+`|(?<!\w)'[^']+'(?!\w)|\u2018[^\u2019]+\u2019")
_NEGATION = re.compile(
    r"(?i:\b(?:not|no|never|none|nor|neither|nothing|nobody|without|cannot|except|unless)\b|\w+n[\u2019']t\b)"
)
#: Tokens that are data, not chat: anything with a digit, paths, ".ext", "--flag", ALLCAPS, CamelCase.
_IDENTIFIER = re.compile(r"\S*\d\S*|\S*\w[/_.:]\w\S*|(?<!\w)[./-]+\w\S*|\b[A-Z]{2,}\w*|\b\w*[a-z][A-Z]\w*")
_FUNCTION_WORDS = frozenset(
    """a an the is are was were be been do does did what which who whom whose when where why how it its
    this that these those there here i me my we our you your he she they them their to of in on at for
    from by with about and or but if whether so can could would should will shall may might must any
    some one just also please thanks""".split()  # noqa: SIM905 - a word list reads better as text
)


def without_filler(text: str) -> str:
    """``text`` without greetings, announcements, asking phrases, thanks and sign-offs.

    Returns ``text`` unchanged when what is left would have no content word, or when a number,
    identifier, negation or quoted term would be lost.
    """
    masked, quoted = _mask_quotes(text)
    cleaned, greetings = _strip_leading(masked)
    cleaned, question_mark = _strip_trailing(cleaned)
    cleaned = _tidy(_POLITE_WORD.sub(" ", cleaned))
    if question_mark and cleaned and cleaned[-1].isalnum():
        cleaned += "?"
    # A greeting's addressee ("hello PolicyPal") is not part of the question, whatever its case.
    return safe_cleaning(text, _unmask(cleaned, quoted), allowed_to_drop=greetings)


def _strip_leading(text: str) -> tuple[str, list[str]]:
    greetings: list[str] = []
    for _ in range(8):
        text = _LEADING_PUNCTUATION.sub("", text)
        for pattern in _LEADING:
            match = pattern.match(text)
            if match and match.end() > 0:
                if pattern is _GREETING:
                    greetings.append(match.group(0).strip(" ,;:.!?"))
                text = text[match.end() :]
                break
        else:
            break
    return text, greetings


def _strip_trailing(text: str) -> tuple[str, bool]:
    question_mark = False
    for _ in range(6):
        match = _TRAILING.search(text)
        if match is None or match.start() == 0:
            break
        question_mark = question_mark or "?" in match.group(0)
        text = text[: match.start()].rstrip(" ,;:\u2013\u2014-")
    return text, question_mark


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r" ([,;:.?!)])(?!\w)", r"\1", text)
    text = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text)
    return _LEADING_PUNCTUATION.sub("", text).rstrip(",;:\u2013\u2014- ").strip()


def _mask_quotes(text: str) -> tuple[str, list[str]]:
    quoted = _QUOTED.findall(text)
    for number, term in enumerate(quoted):
        text = text.replace(term, f"QUOTED{number}Q", 1)
    return text, quoted


def _unmask(text: str, quoted: list[str]) -> str:
    for number, term in enumerate(quoted):
        text = text.replace(f"QUOTED{number}Q", term, 1)
    return text


def essentials(text: str) -> Counter[str]:
    """Numbers, identifiers, negations and quoted terms of ``text``: what a cleaned query must keep."""
    found: Counter[str] = Counter(_QUOTED.findall(text))
    rest = _QUOTED.sub(" ", text)
    found.update(m.group(0).lower().replace("\u2019", "'") for m in _NEGATION.finditer(rest))
    found.update(m.group(0).strip(",;:.!?()\"'").lower() for m in _IDENTIFIER.finditer(rest))
    return found


def has_content(text: str) -> bool:
    """True when ``text`` has a word that is not a function word (a real question has one)."""
    return any(w.lower() not in _FUNCTION_WORDS for w in re.findall(r"[\w'-]+", text))


def safe_cleaning(original: str, cleaned: str, *, allowed_to_drop: Iterable[str] = ()) -> str:
    """``cleaned`` when it kept a content word and every essential of ``original`` (bar those inside
    ``allowed_to_drop``, e.g. a document title with its version), else ``original``."""
    if cleaned == original:
        return original
    if not has_content(cleaned):
        return original
    needed = essentials(_blank(original, allowed_to_drop))
    if needed - essentials(cleaned):
        return original
    return cleaned


def _blank(text: str, phrases: Iterable[str]) -> str:
    for phrase in phrases:
        text = re.sub(re.escape(phrase), " ", text, flags=re.IGNORECASE)
    return text

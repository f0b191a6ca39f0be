"""The form a rule sets for messages, against the example message a clause gives.

"Error messages from other noninteractive programs should look like this: program:sourcefile:lineno:
message" sets a form: names joined by colons, then a colon, a space and the message. A clause giving
an example in another form ("for example \"[gullwing] E1042 - Unable to open spool file\"", "for
example `17 [error] layouts/page.qtpl: unclosed block`") breaks it. "The string message should not
begin with a capital letter when it follows a program name and/or file name" and "it should not end
with a period" are broken by an example whose message, after those names, does ("gaugeq: Could not
read station table stations.csv."). A clause that only describes the form in words is left to the
other readings; one that gives no example, or gives it of something else, is not judged here.
"""

import re
from collections.abc import Iterator
from typing import Final

from actions.audit.characters import EXAMPLE_CUES
from actions.audit.key_terms import key_terms
from actions.audit.polarity import PARENTHESISED_MESSAGE, rule_subject
from actions.audit.verdict import Verdict

# A form the rule sets: "should look like this: …", "use this format: …", "use one of these formats: …".
_FORM: Final = re.compile(
    r"\b(?:look\s+like\s+this|(?:use|in)\s+(?:this|one\s+of\s+these)\s+formats?)\s*:\s*(?P<form>\S+:\S*\s+\w+)",
    re.IGNORECASE,
)
# The message's first letter, or its last character, as a prohibition on it names them.
_CAPITAL: Final = re.compile(r"\b(?:begin|start)\s+with\s+a\s+capital\s+letter\b", re.IGNORECASE)
_PERIOD: Final = re.compile(r"\bend\s+with\s+a\s+(?:period|full\s+stop)\b", re.IGNORECASE)
# Where a clause gives an example: in quotes or backticks, or after "for example", "e.g.", "such as".
# A message in parentheses after the names it follows is an example too: "(tk-merge: Could not open x.)".
_QUOTED: Final = re.compile(rf"`([^`]+)`|\"([^\"]+)\"|“([^”]+)”|{PARENTHESISED_MESSAGE}")
_AFTER_CUE: Final = re.compile(rf"\b(?:{EXAMPLE_CUES})[,:]?\s+(?P<example>[^\"“`].*)$", re.I)
# Or unquoted after a verb of what it reads, when it opens with a program's name and a colon: "errors
# should read ferro-pack: Cannot read manifest.toml, with …" (up to the comma that ends it).
_AFTER_SAYING: Final = re.compile(
    r"\b(?:reads?|says?|looks?\s+like|prints?|shows?|displays?|goes|go)[,:]?\s+"
    r"(?P<example>[\w.+~/-]+:\s+[^,;\"“`]+)",
    re.I,
)
# Names before the message ("gaugeq: ", "brindle-scan: survey.csv: ", "cc:file.c:12: "): no spaces.
_NAMES: Final = re.compile(r"^(?:[^\s:]+:\s*)*[^\s:]+:\s+")
# What the examples are of: messages a program writes.
_MESSAGES: Final = key_terms("message messages diagnostic diagnostics error errors warning warnings")
_MESSAGE: Final = key_terms("message")
_ERRORS: Final = key_terms("error")
_DIAGNOSTICS: Final = key_terms("diagnostic diagnostics")


def sets_message_form(rule: str, modal_words: str, negative: bool) -> bool:
    """Whether ``rule`` sets the form of messages, or forbids their first capital or last period
    (asked of every rule of a target by the matching: read once per rule)."""
    subject = rule_subject(rule, modal_words)
    act = rule[len(subject) :]
    return _sets_form(subject, act, negative)


def gives_example_message(clause: str) -> bool:
    """Whether ``clause`` gives an example of a message a program writes."""
    return bool(_MESSAGES & key_terms(clause)) and next(_examples(clause), None) is not None


def _sets_form(subject: str, act: str, negative: bool) -> bool:
    return _form_ruled(subject, act, negative) != (None, None, None)


def _form_ruled(
    subject: str, act: str, negative: bool
) -> tuple[re.Match[str] | None, re.Match[str] | None, re.Match[str] | None]:
    """The form a rule about messages sets, or the first capital and last period it forbids (all
    None when its subject names no messages)."""
    if not _MESSAGES & key_terms(subject or act):
        return None, None, None
    if negative:
        return None, _CAPITAL.search(act), _PERIOD.search(act)
    return _FORM.search(act), None, None


def by_message_format(clause: str, subject: str, act: str, negative: bool, said: str) -> Verdict | None:
    """The verdict on a clause giving an example of the messages the rule's ``subject`` names, under a
    rule setting their form (``act``: "should look like this: program: message") or forbidding their
    first capital or last period; None when the rule sets neither or the clause gives no example."""
    form, capital, period = _form_ruled(subject, act, negative)
    terms = key_terms(clause)
    examples = list(_examples(clause))
    if not (form or capital or period) or not (_MESSAGES & terms and examples):
        return None
    # "Error messages from compilers …" binds error messages (diagnostics), not usage messages.
    kinds = key_terms(subject) & _MESSAGES - _MESSAGE
    named = terms | (_ERRORS if _DIAGNOSTICS & terms else frozenset())
    if kinds and not kinds & named:
        return None
    for example in examples:
        names = _NAMES.match(example)
        if form and not names:
            return Verdict(
                True,
                "message_format",
                f"{said} {form.group('form')} (names, a colon, then the message); the clause's example "
                f"“{example}” is not in that form.",
                "Write messages in the form the rule sets, or record why it does not apply.",
            )
        message = example[names.end() :] if names else ""
        if capital and message[:1].isupper():
            return Verdict(
                True,
                "message_format",
                f"{said} begin with a capital letter after a program or file name; the clause's example "
                f"“{example}” does.",
                "Start the message in lower case after the program or file name, or record why the rule does not apply.",
            )
        if period and message.rstrip().endswith("."):
            return Verdict(
                True,
                "message_format",
                f"{said} end with a period; the clause's example “{example}” does.",
                "Drop the message's final period, or record why the rule does not apply.",
            )
    return Verdict(False, "message_format", f"{said}; the clause's example messages keep to it.")


def _examples(clause: str) -> Iterator[str]:
    """The examples ``clause`` gives: quoted, or what follows "for example" to its end, or a message
    in the names-and-colon form after a verb of what it reads ("should read gaugeq: Cannot …")."""
    quoted = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(clause)]
    yield from (q.strip() for q in quoted if ":" in q or " " in q.strip())
    if quoted:
        return
    if cue := _AFTER_CUE.search(clause):
        yield cue.group("example").strip()
    elif saying := _AFTER_SAYING.search(clause):
        yield saying.group("example").strip()

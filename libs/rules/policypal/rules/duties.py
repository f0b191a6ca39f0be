"""The duties of a permission granted on a condition, one rule each.

Licences grant a right on several conditions in one sentence: "You may convey verbatim copies …,
provided that you conspicuously and appropriately publish on each copy an appropriate copyright
notice; keep intact all notices …; keep intact all notices of the absence of any warranty; and give
all recipients a copy of this License along with the Program." As one rule it shares little with a
clause that breaks one duty ("ships without a copy of the GPL"): the other duties dilute it. Each
duty becomes a statement of its own, like a list item under its lead-in (the words up to the
condition), so it is matched, judged and quoted alone.
"""

import re
from typing import Final

from policypal.rules.modality import CONDITION_OPENERS
from policypal.rules.statements import Statement, one_line

# A condition's opening words ("provided you inform …" too), and its subject: what follows is required
# for the permission to hold.
_CONDITION: Final = re.compile(
    rf"\b(?:{CONDITION_OPENERS}|provided)\s+(?:(?:you|they|the\s+\w+)\s+)?(?:also\s+)?",
    re.IGNORECASE,
)
# Duties are separated by semicolons, the last one often after "and".
_SEPARATOR: Final = re.compile(r";\s*(?:and\s+|or\s+)?", re.IGNORECASE)
#: Fewer words is no duty but a fragment of one ("; or", "; and so on").
MIN_DUTY_WORDS: Final = 3


def duty_statements(statement: Statement) -> list[Statement]:
    """The duties of ``statement`` as statements under its lead-in (its words up to the condition),
    when it grants on two duties or more separated by semicolons; else ``statement`` alone."""
    condition = _CONDITION.search(statement.text)
    if condition is None or ";" not in statement.text[condition.end() :]:
        return [statement]
    lead = one_line(statement.text[: condition.end()])
    if statement.lead_in:
        lead = f"{statement.lead_in} {lead}"
    spans: list[tuple[int, int]] = []
    begin = condition.end()
    for separator in _SEPARATOR.finditer(statement.text, condition.end()):
        spans.append((begin, separator.start()))
        begin = separator.end()
    spans.append((begin, len(statement.text)))
    duties = [
        Statement(
            statement.start + start,
            statement.start + end,
            statement.text[start:end],
            one_line(statement.text[start:end]),
            "item",
            statement.section,
            lead,
        )
        for start, end in spans
        if len(statement.text[start:end].split()) >= MIN_DUTY_WORDS
    ]
    return duties if len(duties) >= 2 else [statement]

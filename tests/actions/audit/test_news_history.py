"""Old entries deleted from NEWS, against the rule that they stay in the file."""

import pytest

from actions.audit.judgement import judge
from actions.audit.news_history import discards_old_news, keeps_old_news

RULE = "Don’t discard old items; leave them in the file after the newer items."


def test_the_rule_on_old_news_items_is_recognised() -> None:
    assert keeps_old_news(RULE)
    assert not keeps_old_news("In addition to its manual, the package should have a file named NEWS.")


@pytest.mark.parametrize(
    "clause",
    [
        "We trimmed the `NEWS` file so it now lists only the changes in 3.2; the older entries have been deleted.",
        "When a release branch is cut, `NEWS` is cleared down to the entries for the new version.",
        "Entries for 1.x and 2.x were removed from NEWS because nobody runs those versions any more.",
    ],
)
def test_removing_older_entries_from_news_breaks_it(clause: str) -> None:
    assert discards_old_news(clause) is not None
    verdict = judge(clause, RULE, "prohibition", "Don’t")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "discards_old_news")


@pytest.mark.parametrize(
    "clause",
    [
        "Each release adds its entries at the top of `NEWS`, and the entries for earlier versions stay below them.",
        "The `NEWS` file lists the 4.2.0 changes at the top, and all entries for earlier releases are still there.",
        "We never delete older entries from NEWS.",
        # Another file; news that is no file.
        "Older ChangeLog entries were removed after the move to Git.",
        "We removed the old news ticker from the status page.",
        # "clearly" clears nothing.
        "The `NEWS` file clearly lists the older entries below the new ones.",
    ],
)
def test_keeping_older_entries_or_removing_something_else_breaks_nothing(clause: str) -> None:
    assert discards_old_news(clause) is None

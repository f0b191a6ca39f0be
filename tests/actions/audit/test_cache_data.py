"""Data that cannot be recreated kept in a cache, against a rule that cached data be regenerable."""

import pytest

from actions.audit.cache_data import irreplaceable_cache_data, requires_regenerable_data
from actions.audit.judgement import judge

RULE = "The application must be able to regenerate or restore the data."


def test_the_rule_that_cached_data_be_regenerable_is_recognised() -> None:
    assert requires_regenerable_data(RULE)
    assert requires_regenerable_data(
        "The application must always be able to recover from manual deletion of these files."
    )
    assert not requires_regenerable_data(
        "Files located under /var/cache may be expired by the administrator."
    )


@pytest.mark.parametrize(
    "clause",
    [
        "Signed consent forms are stored only in /var/cache/intake/forms.",
        "The licence tokens in /var/cache/meterd must never be deleted, as the vendor issues them once.",
        "If /var/cache/tally is wiped, the daemon cannot regenerate the ledger it kept there.",
    ],
)
def test_irreplaceable_data_in_a_cache_breaks_it(clause: str) -> None:
    assert irreplaceable_cache_data(clause) is not None
    verdict = judge(clause, RULE, "obligation", "must")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "irreplaceable_cache")


@pytest.mark.parametrize(
    "clause",
    [
        "Map tiles are cached in /var/cache/tiles and downloaded again when the directory is emptied.",
        "Consent forms are stored only in /var/lib/intake/forms, which is backed up nightly.",
        "The thumbnail cache can be cleared at any time; thumbnails are rebuilt on demand.",
        "Map tiles are kept only in /var/cache/tiles and are downloaded again when missing.",
    ],
)
def test_recreatable_cache_data_or_state_kept_elsewhere_breaks_nothing(clause: str) -> None:
    assert irreplaceable_cache_data(clause) is None

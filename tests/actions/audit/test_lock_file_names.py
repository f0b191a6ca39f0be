"""A device lock file not named as the convention requires, against a rule setting its name."""

import pytest

from actions.audit.judgement import judge
from actions.audit.lock_file_names import misnamed_device_lock, sets_lock_file_names

RULE = 'The naming convention which must be used is "LCK.." followed by the base name of the device.'


def test_the_rule_setting_lock_file_names_is_recognised() -> None:
    assert sets_lock_file_names(RULE)
    assert not sets_lock_file_names("Lock files should be stored within the /var/lock directory structure.")


@pytest.mark.parametrize(
    "clause",
    [
        "The GPS daemon locks /dev/ttyACM0 with /run/lock/gpsd-acm0 while it reads fixes.",
        "While dialling, the modem helper holds modem.lck in /var/lock.",
    ],
)
def test_a_device_lock_named_otherwise_breaks_it(clause: str) -> None:
    assert misnamed_device_lock(clause) is not None
    verdict = judge(clause, RULE, "obligation", "must")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "misnamed_lock")


@pytest.mark.parametrize(
    "clause",
    [
        "The GPS daemon locks /dev/ttyACM0 with /var/lock/LCK..ttyACM0 while it reads fixes.",
        "The exporter keeps its own /var/lock/exporter.lock against running twice.",
        "The modem helper never uses /var/lock/modem.lck; it locks /var/lock/LCK..ttyS1.",
    ],
)
def test_a_lock_named_by_the_convention_or_of_no_device_breaks_nothing(clause: str) -> None:
    assert misnamed_device_lock(clause) is None

"""Configuration replaced on upgrade, against rules that keep an administrator's changes."""

import pytest

from actions.audit.conffile_changes import keeps_local_changes, replaced_configuration
from actions.audit.judgement import judge

PRESERVED = "Configuration file handling must conform to the following behavior: local changes must be preserved during a package upgrade, and"
NOT_ALTERED = "The maintainer scripts must not alter a conffile of any package, including the one the scripts belong to."


def test_the_rules_keeping_local_changes_are_recognised() -> None:
    assert keeps_local_changes(PRESERVED)
    assert keeps_local_changes(NOT_ALTERED)
    assert not keeps_local_changes("Two packages that specify the same file as a conffile must conflict.")


@pytest.mark.parametrize(
    ("clause", "rule", "modality", "modal_words"),
    [
        (
            "Each upgrade resets /etc/ledger/limits.ini to the shipped values.",
            PRESERVED,
            "obligation",
            "must",
        ),
        (
            "The preinst replaces ledger.conf with the new template on every update.",
            PRESERVED,
            "obligation",
            "must",
        ),
        (
            "Our postinst runs sed -i on /etc/ledger/ledger.conf to switch on the new cache.",
            NOT_ALTERED,
            "prohibition",
            "must not",
        ),
    ],
)
def test_an_upgrade_replacing_configuration_breaks_them(
    clause: str, rule: str, modality: str, modal_words: str
) -> None:
    assert replaced_configuration(clause) is not None
    verdict = judge(clause, rule, modality, modal_words)  # type: ignore[arg-type]
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "replaced_configuration")


@pytest.mark.parametrize(
    "clause",
    [
        "On upgrade, dpkg asks before replacing a modified /etc/ledger/ledger.conf.",
        "The upgrade never overwrites /etc/ledger/ledger.conf; the new defaults go to ledger.conf.dpkg-dist.",
        "The upgrade replaces /usr/bin/ledger with the new build.",
    ],
)
def test_an_upgrade_keeping_local_changes_breaks_nothing(clause: str) -> None:
    assert replaced_configuration(clause) is None

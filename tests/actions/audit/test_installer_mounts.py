"""An installer mounting on /mnt, against the FHS keeping /mnt for the administrator."""

import pytest

from actions.audit.installer_mounts import installer_mount, kept_from_installers
from actions.audit.judgement import judge

RULE = (
    "This directory must not be used by installation programs: a suitable temporary directory not in use "
    "by the system must be used instead."
)


def test_the_rule_keeping_a_directory_from_installers_is_recognised() -> None:
    assert kept_from_installers(RULE)
    assert not kept_from_installers("Lock files should be stored within the /var/lock directory structure.")


@pytest.mark.parametrize(
    "clause",
    [
        "The recovery installer mounts the rescue partition under /mnt/rescue and copies the system from it.",
        "For upgrades, `kiosk-update` loop-mounts the new squashfs at `/mnt` before switching over.",
    ],
)
def test_an_installation_mounting_on_mnt_breaks_it(clause: str) -> None:
    assert installer_mount(clause) is not None
    verdict = judge(clause, RULE, "prohibition", "must not", referent="the directory /mnt")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "installer_mount")


@pytest.mark.parametrize(
    "clause",
    [
        "The installer mounts the update image on a directory made with mktemp -d, never on /mnt.",
        "Administrators may mount backup disks on /mnt as they see fit.",
        "During updates the image is mounted on /run/kiosk-update.",
    ],
)
def test_a_mount_elsewhere_or_by_the_administrator_breaks_nothing(clause: str) -> None:
    assert installer_mount(clause) is None

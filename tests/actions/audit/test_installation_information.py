"""A device locked to the vendor's signing key, against a licence requiring Installation Information."""

import pytest

from actions.audit.installation_information import requires_installation_information, withheld_installation
from actions.audit.judgement import judge

USER_PRODUCT = (
    "If you convey an object code work under this section in, or with, or specifically for use in, a User "
    "Product, the Corresponding Source conveyed under this section must be accompanied by the Installation "
    "Information."
)


def test_the_rule_requiring_installation_information_is_recognised() -> None:
    assert requires_installation_information(USER_PRODUCT)
    assert requires_installation_information(
        '"Installation Information" for a User Product means any methods, procedures, authorization keys, or '
        "other information required to install and execute modified versions."
    )
    assert not requires_installation_information("You may charge any price or no price for each copy.")


@pytest.mark.parametrize(
    "clause",
    [
        "Units will only boot firmware signed with our release key, and we do not provide the key or any "
        "other way for owners to load a rebuilt image.",
        "The boot loader only accepts images signed with our production key; that key and the signing "
        "procedure stay internal.",
        "Secure boot stays locked to our production key: customers get the full source, but not the signing "
        "key.",
        "The bootloader accepts only images signed with our release key, and neither that key nor any other "
        "procedure for installing self-built firmware is provided to customers.",
    ],
)
def test_a_device_locked_to_the_vendors_key_with_the_key_withheld_breaks_it(clause: str) -> None:
    assert withheld_installation(clause) is not None
    verdict = judge(clause, USER_PRODUCT, "obligation", "must")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "withheld_installation")


@pytest.mark.parametrize(
    "clause",
    [
        # Firmware nobody can rewrite locks nothing.
        "The sensor clip runs firmware burned into mask ROM; because nobody can ever rewrite it, no "
        "installation keys are published for it.",
        # Signed, and the means given.
        "The hub only boots images signed with a key, and owners can enrol their own key from the setup "
        "menu, as the manual describes.",
        # Withheld, but nothing locked.
        "The signing key stays internal; the hub accepts any image the owner builds.",
    ],
)
def test_a_device_that_is_not_locked_or_whose_means_are_given_withholds_nothing(clause: str) -> None:
    assert withheld_installation(clause) is None

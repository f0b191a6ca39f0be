"""A build that fetches from the network, against a rule forbidding network access in the build."""

import pytest

from actions.audit.build_network import forbids_network_access, network_fetch_in_build
from actions.audit.judgement import judge

RULE = (
    "For packages in the main archive, required targets must not attempt network access, except, via the "
    "loopback interface, to services on the build host that have been started by the build."
)


def test_the_rule_forbidding_network_access_is_recognised() -> None:
    assert forbids_network_access(RULE)
    assert not forbids_network_access(
        "The build target should perform all the configuration and compilation."
    )


@pytest.mark.parametrize(
    "clause",
    [
        "During the build, make fetches the test fixtures from https://fixtures.example.org.",
        "Our debian/rules runs git clone on the theme repository at GitHub before compiling.",
        "The binary target pulls the latest translations from the vendor portal.",
        "The build is allowed to download third-party fonts from a mirror, so that nobody has to refresh them by hand.",
    ],
)
def test_a_build_fetching_over_the_network_breaks_it(clause: str) -> None:
    assert network_fetch_in_build(clause) is not None
    verdict = judge(clause, RULE, "prohibition", "must not")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "network_in_build")


@pytest.mark.parametrize(
    "clause",
    [
        "The build never downloads anything from the internet; every input is in the source package.",
        "The installer downloads the latest maps from our server after the package is configured.",
        "The build compiles the fixtures that ship in the source tree.",
        # The build is what is downloaded, by customers.
        "Nightly builds can be downloaded from our download server.",
    ],
)
def test_a_build_that_does_not_fetch_or_a_fetch_outside_the_build_breaks_nothing(clause: str) -> None:
    assert network_fetch_in_build(clause) is None

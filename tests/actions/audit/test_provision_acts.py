"""Provisions a clause breaks by what it does: one list for matching, judgement and a model's selection."""

from actions.audit.matching import matched_by_what_clauses_do
from actions.audit.provision_acts import breach_by_act, provision_of


def test_each_provision_is_known_by_its_text_and_other_rules_are_none() -> None:
    assert provision_of("You may not impose any further restrictions on the exercise of the rights granted.")
    assert provision_of("You waive any legal power to forbid circumvention of technological measures.")
    assert provision_of("Required targets must not attempt network access.")
    assert provision_of("Please don't make the behavior of a utility depend on the name used to invoke it.")
    assert provision_of("The application must be able to regenerate or restore the data.")
    assert provision_of("The maintainer scripts must not alter a conffile of any package.")
    assert provision_of("It should unpack into a subdirectory named foo-69.96.")
    assert provision_of('The naming convention which must be used is "LCK.." followed by the base name.')
    assert provision_of("Please use underscores to separate words in a name.")
    assert provision_of(
        "Provided that you give all recipients a copy of this License along with the Program."
    )
    assert provision_of("Provided that you keep intact all notices of the absence of any warranty.")
    assert provision_of("The work must carry prominent notices stating that you modified it.")
    assert provision_of("This directory must not be used by installation programs.")
    assert provision_of("Do not use a count of errors as the exit status for a program.")
    assert provision_of("Programs must not assume that any files or directories in /tmp are preserved.")
    assert provision_of(
        "Packages must not require the existence of any files in /usr/share/doc/ in order to function."
    )
    assert provision_of("Don’t discard old items; leave them in the file after the newer items.")
    assert provision_of("Log files must be rotated.") is None
    assert not matched_by_what_clauses_do("Log files must be rotated.")


def test_a_clause_doing_the_act_breaks_the_provision_and_says_in_which_words() -> None:
    verdict = breach_by_act(
        "Partners may ship modified builds under their own proprietary EULA.",
        "You must license the entire work, as a whole, under this License.",
        "The rule says “must”",
    )

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "relicensed")
    assert "under their own proprietary EULA" in verdict.rationale


def test_a_clause_not_doing_the_act_leaves_the_provision_to_the_other_readings() -> None:
    assert (
        breach_by_act(
            "Builds ship under the GPL.",
            "You must license the entire work, as a whole, under this License.",
            "The rule says “must”",
        )
        is None
    )

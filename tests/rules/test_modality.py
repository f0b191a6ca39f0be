"""The modal form of a sentence: which modality, which words, and where the main clause rules."""

import pytest

from policypal.rules.modality import is_binding, is_instruction, modal_cue


@pytest.mark.parametrize(
    ("sentence", "modality", "words"),
    [
        ("The controller must keep a record of processing activities.", "obligation", "must"),
        ("Personal data shall be processed lawfully and fairly.", "obligation", "shall"),
        ("Processors are required to notify the controller of a breach.", "obligation", "are required"),
        ("Always verify the signature of a downloaded archive.", "obligation", "Always"),
        ("Packages must not install files into /usr/local.", "prohibition", "must not"),
        # A connective the sentence opens with is no part of the modal words.
        (
            "Likewise, please don’t make it depend on the output device.",
            "recommendation_against",
            "please don’t",
        ),
        ("Also, always quote the variables.", "obligation", "always"),
        # A hedging adverb does not undo the denial.
        ("Applications must generally not add directories to /var.", "prohibition", "must generally not"),
        ("Scripts should normally not call it directly.", "recommendation_against", "should normally not"),
        ("Personal data shall not be retained longer than necessary.", "prohibition", "shall not"),
        ("Files may not be placed in /usr/local by a package.", "prohibition", "may not"),
        ("Use of the root account for daily work is prohibited.", "prohibition", "is prohibited"),
        ("No package may ship a file in /usr/local.", "prohibition", "No package may"),
        ("Never store passwords in clear text.", "prohibition", "Never"),
        (
            "The licence file must neither be compressed nor be a symbolic link.",
            "prohibition",
            "must neither",
        ),
        ("Nor may the archive be re-signed by a third party.", "prohibition", "Nor may"),
        ("There must be no subdirectories in /usr/bin.", "prohibition", "There must be no"),
        ("There should be no unused build dependencies.", "recommendation_against", "There should be no"),
        (
            "Therefore, no program should assume where home directories are.",
            "recommendation_against",
            "no program should",
        ),
        (
            "No ‘--enable’ option should ever cause one feature to replace another.",
            "recommendation_against",
            "No ‘--enable’ option should",
        ),
        ("No `setup.py` file may be shipped.", "prohibition", "No `setup.py` file may"),
        (
            "When you convey a covered work, you waive any legal power to forbid circumvention.",
            "prohibition",
            "waive any legal power to",
        ),
        (
            "Tools should neither phone home nor collect usage data.",
            "recommendation_against",
            "should neither",
        ),
        ("Maintainers should sign every upload.", "recommendation", "should"),
        ("It is recommended to compress large log files.", "recommendation", "is recommended"),
        ("Packages should not depend on obsolete libraries.", "recommendation_against", "should not"),
        ("Avoid hard-coding paths to system binaries.", "recommendation_against", "Avoid"),
        (
            "We recommend against using the root account for daily work.",
            "recommendation_against",
            "We recommend against",
        ),
        (
            "Storing keys in the repository is advised against.",
            "recommendation_against",
            "is advised against",
        ),
        ("The processor may engage a sub-processor with prior written authorisation.", "permission", "may"),
    ],
)
def test_the_first_modal_form_gives_modality_and_words(sentence: str, modality: str, words: str) -> None:
    cue = modal_cue(sentence)

    assert cue is not None
    assert (cue.modality, cue.words) == (modality, words)
    assert sentence[cue.start : cue.start + len(cue.words)] == cue.words


@pytest.mark.parametrize(
    "sentence",
    [
        "Questions on which there is no agreement should be put to the board.",
        "That is no reason you should refuse the link.",
    ],
)
def test_a_no_that_does_not_open_the_subject_negates_nothing(sentence: str) -> None:
    cue = modal_cue(sentence)

    assert cue is not None
    assert (cue.modality, cue.words) == ("recommendation", "should")


def test_a_modal_form_in_an_indirect_question_binds_nobody() -> None:
    asked = "The old approach hid from the init system whether or not the daemon should be started at all."
    answered = "Whether or not the file exists, the package must create it."

    assert modal_cue(asked) is None
    cue = modal_cue(answered)
    assert cue is not None
    assert (cue.modality, cue.words) == ("obligation", "must")


def test_a_statement_of_fact_has_no_modal_cue() -> None:
    assert modal_cue("Variable data files include spool directories and log files.") is None


def test_may_not_is_a_prohibition_not_a_permission() -> None:
    cue = modal_cue("Data subjects' records may not be transferred outside the Union.")

    assert cue is not None
    assert cue.modality == "prohibition"
    assert cue.words == "may not"


@pytest.mark.parametrize(
    ("sentence", "words"),
    [
        ("A package need not provide a manual page for every helper script.", "need not"),
        ("The sample configuration file is optional.", "is optional"),
        ("Contractors are not required to attend the annual training.", "are not required"),
        ("Small controllers do not have to appoint a data protection officer.", "do not have to"),
    ],
)
def test_waivers_are_permissions_that_waive(sentence: str, words: str) -> None:
    cue = modal_cue(sentence)

    assert cue is not None
    assert (cue.modality, cue.words, cue.waives) == ("permission", words, True)


def test_a_plain_may_is_a_permission_that_does_not_waive() -> None:
    cue = modal_cue("Users may store personal files in their home directory.")

    assert cue is not None
    assert cue.modality == "permission"
    assert cue.waives is False


def test_the_main_clause_rules_after_an_opening_condition() -> None:
    sentence = "If a package may not be removed safely, it must provide a prerm script."

    cue = modal_cue(sentence)

    assert cue is not None
    assert (cue.modality, cue.words) == ("obligation", "must")
    assert cue.start == sentence.index("must")


def test_a_condition_put_as_an_inverted_should_binds_nobody() -> None:
    assert (
        modal_cue("SHOULD THE PROGRAM PROVE DEFECTIVE, YOU ASSUME THE COST OF ALL NECESSARY SERVICING.")
        is None
    )
    cue = modal_cue("Should you need the source code, you must ask for it in writing.")
    assert cue is not None
    assert (cue.modality, cue.words) == ("obligation", "must")
    # A "should" that opens no condition still recommends.
    advice = modal_cue("Should a package ship a daemon, it should start it by default.")
    assert advice is not None
    assert advice.start > 0


def test_a_condition_without_a_main_clause_modal_still_gives_its_own() -> None:
    cue = modal_cue("If the processor must notify a breach, the notice is sent in writing.")

    assert cue is not None
    assert cue.modality == "obligation"


@pytest.mark.parametrize(
    "sentence",
    [
        "Some users may not be able to read the log files.",
        "Older clients may not want to upgrade their keyring.",
        "The directory may not exist on a freshly installed system.",
        "Such packages may not comply with all of the requirements of this manual.",
        "A vendor's layout may not match the one described here.",
    ],
)
def test_an_epistemic_may_not_is_no_prohibition(sentence: str) -> None:
    cue = modal_cue(sentence)

    assert cue is None or cue.modality != "prohibition"


def test_can_is_a_permission_only_when_asked() -> None:
    sentence = "Developers can skip the second review for typo fixes."

    permitted = modal_cue(sentence, can_permits=True)

    assert modal_cue(sentence) is None
    assert permitted is not None
    assert (permitted.modality, permitted.words) == ("permission", "can")


def test_the_earliest_modal_form_decides() -> None:
    cue = modal_cue("Logs should be rotated weekly and must be kept for a year.")

    assert cue is not None
    assert cue.modality == "recommendation"


def test_only_obligations_prohibitions_and_their_advice_are_binding() -> None:
    binding = {
        m
        for m in ("obligation", "prohibition", "recommendation", "recommendation_against", "permission")
        if is_binding(m)
    }

    assert binding == {"obligation", "prohibition", "recommendation", "recommendation_against"}


def test_a_permission_granted_on_a_condition_requires_the_condition() -> None:
    cue = modal_cue(
        "You may convey the work in object code form, provided that you also convey the Corresponding Source."
    )

    assert cue is not None
    assert (cue.modality, cue.words) == ("obligation", "provided that")


def test_an_instruction_is_a_recommendation_and_a_noun_is_not_an_instruction() -> None:
    instruction = modal_cue("If malloc fails in a noninteractive program, make that a fatal error.")

    assert instruction is not None
    assert (instruction.modality, instruction.words) == ("recommendation", "make")
    assert modal_cue("Use of the library is widespread.") is None


def test_a_code_line_is_no_instruction() -> None:
    assert modal_cue("#define HAS_REVERSIBLE_CC_MODE 1") is None
    assert modal_cue("$(INSTALL_PROGRAM) foo $(bindir)/foo") is None
    cue = modal_cue("“Check every system call for an error return.”")
    assert cue is not None
    assert cue.words == "Check"


def test_an_instructions_modal_words_are_its_verb() -> None:
    cue = modal_cue("Keep a change log to describe all the changes made to program source files.")

    assert cue is not None
    assert is_instruction(cue.words)
    assert not is_instruction("should")
    assert not is_instruction("Please")
    assert not is_instruction("Don’t")


@pytest.mark.parametrize(
    ("sentence", "words"),
    [
        # What a relative clause's thing needs binds nobody: the main clause's form does.
        (
            "Programs which keep data that doesn't need to be modified should store it in /usr/share.",
            "should",
        ),
        ("A package that needs to create users must depend on adduser.", "must"),
        # Nor does what a condition's subject needs.
        ("If you now need to go back to an older release, the maintainer must bump the epoch.", "must"),
        # A need said of the subject itself binds it.
        ("The package needs to depend on adduser.", "needs to"),
        ("Files that do not need to be modified need not be kept in /var.", "need not"),
    ],
)
def test_a_form_of_need_inside_a_relative_clause_or_a_condition_binds_nobody(
    sentence: str, words: str
) -> None:
    cue = modal_cue(sentence)

    assert cue is not None
    assert cue.words == words


def test_a_sentence_needing_something_only_in_its_condition_states_no_rule() -> None:
    assert (
        modal_cue(
            "For example, if you uploaded 2.3-3 and now you need to go backwards, call it 2.3+really2.2-1."
        )
        is None
    )

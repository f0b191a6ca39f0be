"""Which statements a summary may quote alone: whole sentences, never fragments."""

import pytest

from actions.summarize.standalone_sentences import has_finite_verb, leans_on_context, reads_alone


@pytest.mark.parametrize(
    "sentence",
    [
        "Every package must have a maintainer, except for orphaned packages as described below.",
        "This manual describes the policy requirements for the Debian distribution.",
        "Page 3 clause 1 says the policy compliance record must be kept.",
        "Each package installs its configuration files in /etc.",
        "The board approved the retention schedule in its March meeting.",
        "Security incidents were reported to the regulator within 72 hours.",
        "“Shall” is used to express a requirement of this regulation.",
    ],
)
def test_whole_sentences_read_alone(sentence: str) -> None:
    assert reads_alone(sentence)


@pytest.mark.parametrize(
    "fragment",
    [
        # A parenthetical aside.
        "(This will lobotomize the file list of the 'conflicting' package if there is one.)",
        # Starts mid-sentence (a chunk's overlap).
        "the package must be removed before the new one is configured by dpkg.",
        # No verb: a running head, a heading, a field list.
        "Debian Policy Manual, Release 4.6.2.0, Chapter 7, Declaring relationships between packages.",
        "Binary Dependencies - Depends, Recommends, Suggests, Enhances, Pre-Depends.",
        "Package: mutt Version: 1.3.17-1 Depends: libc6 (>= 2.2.1), exim | mail-transport-agent.",
        # A numbered heading and a contents line.
        "2.3 Copyright considerations for the main archive area",
        "Scope of this manual and of its appendices . . . . . . . 3",
        # A footnote read into the sentence, an unclosed bracket, no closing stop.
        "The license may 1 The Debian archive software uses the term component internally.",
        "The archive areas (main, contrib and non-free are described below.",
        "Every package must have a maintainer, except for orphaned packages as",
        # Too short to make a point.
        "It must be so.",
    ],
)
def test_fragments_never_read_alone(fragment: str) -> None:
    assert not reads_alone(fragment)


def test_verbs_are_found_without_a_tagger() -> None:
    assert has_finite_verb("Each script must return a zero exit status for success.")
    assert has_finite_verb("The maintainer installs the files into the build tree.")
    assert not has_finite_verb("Relationships between source and binary packages in the archive.")
    assert not has_finite_verb("The GNU coding standards, last updated August 17, 2021.")


@pytest.mark.parametrize(
    ("sentence", "leans"),
    [
        ("It also describes Debian policy as it relates to creating packages.", True),
        ("However, the maintainer may choose another priority for the package.", True),
        ("This includes the structure and contents of the Debian archive.", True),
        ("In this case the package must declare a conflict with the other one.", True),
        ("This manual describes the policy requirements for the distribution.", False),
        ("Each package must have a priority value in its control file.", False),
    ],
)
def test_sentences_pointing_back_are_told_apart(sentence: str, leans: bool) -> None:
    assert leans_on_context(sentence) is leans

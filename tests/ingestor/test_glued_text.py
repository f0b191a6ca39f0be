"""Detection of words glued together by the extractor."""

from ingestor.glued_text import glue_score, looks_glued

PROSE = (
    "This manual describes the policy requirements for the Debian distribution. This includes the "
    "structure and contents of the Debian archive and several design issues of the operating system, "
    "as well as technical requirements that each package must satisfy to be included in the distribution."
)
GLUED = (
    "ThismanualdescribesthepolicyrequirementsfortheDebiandistribution.Thisincludesthe"
    "structureandcontentsoftheDebianarchiveandseveraldesignissuesoftheoperatingsystem,"
    "aswellastechnicalrequirementsthateachpackagemustsatisfytobeincludedinthedistribution."
)
# What pypdf really produced on Debian's policy.pdf: some lines fine, most glued.
PARTLY_GLUED = (
    "Each package must have a priority value, which is set in the metadata for the Debian archive and is "
    "also included in thepackage'scontrolfiles(seePriority).Thisinformationisusedtocontrolwhich "
    "packagesareincludedinstandardorminimalDebianinstallations.Mostpackagesshouldhavethepriority "
    "optional.Prioritylevelsotherthanoptionalareonlyusedforpackagesthatmeetspecificcriteria."
)


def test_prose_is_not_glued() -> None:
    assert not looks_glued(PROSE)
    assert glue_score(PROSE) == 0.0


def test_glued_text_is_detected() -> None:
    assert looks_glued(GLUED)
    assert looks_glued(PARTLY_GLUED)


def test_long_words_in_normal_prose_do_not_trigger() -> None:
    text = PROSE + " Internationalization and telecommunications responsibilities are notwithstanding."
    assert not looks_glued(text)


def test_short_text_is_not_judged() -> None:
    assert glue_score("Debianchangelog") is None
    assert not looks_glued("Page 3")
    assert not looks_glued("")


def test_non_latin_letters_count_as_letters() -> None:
    spaced = "Die Verordnung gilt für die Verarbeitung personenbezogener Daten in der Union. " * 5
    assert not looks_glued(spaced)
    assert looks_glued(spaced.replace(" ", ""))

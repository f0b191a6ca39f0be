"""A regulation's abbreviation in a clause reads as the regulation's own word for itself."""

from actions.audit.checking import governing_verdict
from actions.audit.clauses import Clause
from actions.audit.document_names import as_document_words
from actions.audit.matching import Candidate
from tests.actions.audit.rule_points import rule_point

GPL = "GNU General Public License"


def test_an_abbreviation_of_the_title_names_the_document_by_its_own_word() -> None:
    assert (
        as_document_words("ships without a copy of the GPL", GPL) == "ships without a copy of the GPL License"
    )
    assert (
        as_document_words("under GPLv3 and the GPL-3.0", GPL) == "under GPLv3 License and the GPL-3.0 License"
    )
    assert as_document_words("as the FHS requires", "Filesystem Hierarchy Standard") == (
        "as the FHS Standard requires"
    )


def test_other_words_and_short_titles_are_left_alone() -> None:
    assert as_document_words("the GPL applies", "Debian Policy Manual") == "the GPL applies"
    assert as_document_words("GPLAN files", GPL) == "GPLAN files"
    assert as_document_words("the PL", "Public License") == "the PL"


def test_a_clause_naming_the_abbreviation_denies_what_the_rule_calls_this_license() -> None:
    rule = rule_point(0, "Each copy must carry this License.", document_id="gpl3", title=GPL)
    clause = Clause(text="Copies of the firmware come without the GPL.", quote="")
    candidate = Candidate(rule=rule, relatedness=0.5, similarity=0.5, term_share=0.5)

    verdict = governing_verdict(clause, candidate)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "polarity")

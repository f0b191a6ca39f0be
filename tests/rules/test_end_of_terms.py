"""A licence's terms end at its END OF TERMS AND CONDITIONS line: the advice after it gives no rules."""

from policypal.rules.end_of_terms import TermsEnd
from policypal.rules.rule_units import rule_units
from tests.rules.chunked_pages import chunks_of

TERMS = (
    "4. Conveying Verbatim Copies.\n"
    "You must give all recipients a copy of this License along with the Program.\n"
    "17. Interpretation.\n"
    "Reviewing courts shall apply local law that most closely approximates an absolute waiver.\n"
)
ADVICE = (
    "How to Apply These Terms to Your New Programs\n"
    "It is safest to attach them to the start of each source file; each file should have at least "
    "the copyright line.\n"
    "You should have received a copy of the GNU General Public License along with this program.\n"
)


def test_no_rule_follows_the_line_that_ends_the_terms() -> None:
    for between in ("\nEND OF TERMS AND CONDITIONS\n\n", " END OF TERMS AND CONDITIONS "):
        chunks = chunks_of([(None, TERMS + between + ADVICE)], size=400, overlap=80)

        texts = [rule.text for rule in rule_units(chunks)]

        assert any("give all recipients a copy" in text for text in texts)
        assert any("Reviewing courts shall apply" in text for text in texts)
        assert not any("should have received" in text or "each file should" in text for text in texts)


def test_a_document_without_the_line_keeps_all_its_rules() -> None:
    chunks = chunks_of([(None, TERMS + ADVICE)], size=400, overlap=80)

    texts = [rule.text for rule in rule_units(chunks)]

    assert TermsEnd.of(chunks) is None
    assert any("should have received" in text for text in texts)


def test_the_line_in_prose_or_in_lower_case_ends_nothing() -> None:
    prose = "The end of terms and conditions is marked in capitals in the licence itself.\n"
    chunks = chunks_of([(None, TERMS + prose + ADVICE)], size=400, overlap=80)

    assert TermsEnd.of(chunks) is None

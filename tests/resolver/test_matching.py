"""Titles written out, loose names, and fuzzy matching over title + version."""

from resolver.matching import compact, fuzzy_matches, loose_names, stands_for, title_hits
from tests.resolver.factories import document

BN24 = document("bn24", "Bank Negara Capital Guidelines", version="2024")
BN25 = document("bn25", "Bank Negara Capital Guidelines", version="2025")
FSA = document("fsa", "FSA Conduct Rules", version="2023")


def test_compact_joins_spellings() -> None:
    assert compact("Bank Negara 2024") == compact("BankNegara2024")


def test_a_title_with_its_version_picks_that_edition_only() -> None:
    assert [
        h.document_id for h in title_hits("summarize bank negara capital guidelines 2025", [BN24, BN25])
    ] == ["bn25"]
    both = title_hits("summarize the Bank Negara Capital Guidelines", [BN24, BN25])
    assert {h.document_id for h in both} == {"bn24", "bn25"}
    assert not any(h.with_version for h in both)


def test_loose_names_skip_sentence_openers_and_keep_the_tail() -> None:
    assert [n for n, _ in loose_names("What about the FSA guidelines?")] == ["FSA guidelines"]
    assert [n for n, _ in loose_names("Does BankNegara2024 apply?")] == ["BankNegara2024"]


def test_fuzzy_matching_needs_85_and_the_same_numbers() -> None:
    assert fuzzy_matches("FSA conduct rules", [BN24, FSA]) == ["fsa"]
    assert fuzzy_matches("Bank Negara 2025", [BN24, BN25]) == ["bn25"]
    assert set(fuzzy_matches("Bank Negara capital guidelines", [BN24, BN25])) == {"bn24", "bn25"}
    assert fuzzy_matches("ABC guidelines", [BN24, FSA]) == []


def test_an_acronym_stands_for_a_title_by_initials_or_in_brackets() -> None:
    assert stands_for("DORA", "Digital Operational Resilience Act")
    assert stands_for("GDPR", "General Data Protection Regulation (EU) 2016/679")
    assert stands_for("PSD2", "Payment Services Directive (PSD2)")
    assert not stands_for("KYC", "KYC Procedure")  # a word of the title, not what it is known by
    assert not stands_for("PP", "Privacy Policy")  # two letters say too little
    assert not stands_for("dora", "Digital Operational Resilience Act")


def test_fuzzy_matching_finds_a_document_by_its_acronym() -> None:
    dora = document("dora", "Digital Operational Resilience Act", version="2022")
    assert fuzzy_matches("DORA", [BN24, FSA, dora]) == ["dora"]
    assert fuzzy_matches("PEP", [BN24, FSA, dora]) == []

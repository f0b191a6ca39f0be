"""Topic acronyms versus document names: the position in the message and the user's documents decide."""

import pytest

from resolver.matching import loose_names
from resolver.name_roles import is_known_regulation, name_role, refers_to_a_document
from tests.resolver.factories import document

GDPR = document("gdpr", "GDPR", doc_type="regulatory", version="2016")
DORA = document("dora", "Digital Operational Resilience Act", doc_type="regulatory", version="2022")
KYC = document("kyc", "KYC Procedure", version="2022")
FSA = document("fsa", "FSA Conduct Rules", doc_type="regulatory", version="2023")
CATALOG = [GDPR, DORA, KYC, FSA]


def _verdicts(text: str, *, uploaded: bool = True) -> dict[str, bool]:
    """Each loose name of ``text``: whether it counts as a document (against CATALOG or nothing)."""
    known = CATALOG if uploaded else []
    return {name: refers_to_a_document(name, start, text, known) for name, start in loose_names(text)}


@pytest.mark.parametrize(
    ("text", "name", "role"),
    [
        ("What does MiFID II say about inducements?", "MiFID II", "document"),
        ("Does DORA require a register?", "DORA", "document"),
        ("Is this in line with DORA?", "DORA", "document"),
        ("What is the LCR floor under Basel III?", "Basel III", "document"),
        ("Audit it against AMLD6", "AMLD6", "document"),
        ("What does Article 5 of GDPR cover?", "GDPR", "document"),
        ("What does our policy say about PEP screening?", "PEP", "modifier"),
        ("What is our CET1 ratio?", "CET1", "modifier"),
        ("What do we say about AML?", "AML", "topic"),
        ("How do we file a SAR?", "SAR", "bare"),
    ],
)
def test_the_position_of_a_name_in_the_message(text: str, name: str, role: str) -> None:
    start = text.index(name)
    assert name_role(name, start, text) == role


@pytest.mark.parametrize(
    "text",
    [
        "What does our policy say about PEP screening?",
        "How often do we refresh CDD for high-risk customers?",
        "When do we have to file a SAR or STR with the FIU?",
        "What is our minimum CET1 ratio and LCR buffer?",
        "Do we need a DPIA before launching the app?",
        "What are the UBO thresholds for corporate clients?",
        "Who is our DPO?",
        "What are our KYC checks for new clients?",
        "What does our GDPR training cover?",
    ],
)
def test_topic_acronyms_are_not_documents(text: str) -> None:
    verdicts = _verdicts(text)
    assert verdicts
    assert not any(verdicts.values()), verdicts


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("What does MiFID II say about inducements?", "MiFID II"),
        ("Does PSD2 apply to our card payments?", "PSD2"),
        ("What are the SOX requirements for access reviews?", "SOX"),
        ("Is the XYZ framework stricter?", "XYZ framework"),
        ("Audit it against AMLD6", "AMLD6"),
    ],
)
def test_regulations_the_user_has_not_uploaded_are_still_documents(text: str, name: str) -> None:
    assert _verdicts(text, uploaded=False)[name] is True


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("What are the GDPR fines for late notification?", "GDPR"),
        ("What are the DORA requirements for ICT incidents?", "DORA"),
        ("What do the FSA conduct rules say about complaints?", "FSA"),
        ("Anything on complaints, FSA?", "FSA"),
    ],
)
def test_a_name_the_users_documents_answer_to_is_a_document(text: str, name: str) -> None:
    assert _verdicts(text)[name] is True


def test_an_unknown_acronym_without_evidence_is_a_topic_but_in_a_document_position_it_is_asked_about() -> (
    None
):
    assert _verdicts("What is the QRT deadline?", uploaded=False) == {"QRT": False}
    assert _verdicts("What does QRT say about deadlines?", uploaded=False) == {"QRT": True}


@pytest.mark.parametrize(
    ("name", "known"),
    [("MiFID II", True), ("Basel III", True), ("GDPR", True), ("PEP", False), ("KYC", False)],
)
def test_known_regulations_are_matched_by_their_first_word(name: str, known: bool) -> None:
    assert is_known_regulation(name) is known

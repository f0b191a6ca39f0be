"""Phrases that only point at a document come out of the search text; the subject stays."""

import pytest

from policypal.contracts import ResolvedDocument
from resolver.document_pointers import document_names, plain_question, without_document_pointers

MANUAL = ResolvedDocument(document_id="m", title="Debian Policy Manual", version="4.6", doc_type="policy")
NAMES = document_names([MANUAL])


@pytest.mark.parametrize(
    ("message", "question"),
    [
        (
            "According to our policy, how long must customer records be kept?",
            "how long must customer records be kept?",
        ),
        ("in the policy manual, where do config files go?", "where do config files go?"),
        ("Who approves refunds as per the handbook?", "Who approves refunds?"),
        ("How long, according to the document above, are logs kept?", "How long are logs kept?"),
        ("What is allowed in the PDF I uploaded?", "What is allowed?"),
        ("Based on the guidelines, when is a review due?", "when is a review due?"),
    ],
)
def test_generic_pointers_go_whether_or_not_a_document_is_resolved(message: str, question: str) -> None:
    assert without_document_pointers(message) == question


@pytest.mark.parametrize(
    ("message", "question"),
    [
        (
            "What does the Debian Policy Manual say about maintainer scripts?",
            "what about maintainer scripts?",
        ),
        ("Debian Policy Manual 4.6: what is a virtual package?", "what is a virtual package?"),
        ("How are package names formed in the debian policy manual?", "How are package names formed?"),
        ("According to Debian Policy Manual 4.6, who may upload?", "who may upload?"),
    ],
)
def test_a_resolved_documents_title_goes(message: str, question: str) -> None:
    assert without_document_pointers(message, NAMES) == question


def test_an_unresolved_title_stays_because_it_steers_the_search() -> None:
    message = "What does the Debian Policy Manual say about maintainer scripts?"
    assert without_document_pointers(message) == message


@pytest.mark.parametrize(
    "message",
    [
        # The document word is part of the subject, not a pointer: the clause goes on.
        "where do files go in the file system hierarchy?",
        "Under the policy of least privilege, who gets admin?",
        "What changed in the manual pages section?",
        # A title that is the question's subject (no pointing preposition) stays.
        "Does the Debian Policy Manual allow non-free dependencies?",
        # Only a pointer: nothing would be left.
        "According to the policy?",
    ],
)
def test_subjects_and_bare_pointers_stay(message: str) -> None:
    assert without_document_pointers(message, NAMES) == message


def test_plain_question_takes_out_filler_then_pointers() -> None:
    message = (
        "hey team, quick one - according to the Debian Policy Manual, what is an essential package? thanks!"
    )
    assert plain_question(message, NAMES) == "what is an essential package?"


def test_names_are_title_with_version_title_and_extra_names() -> None:
    assert document_names([MANUAL], ["debian policy"]) == [
        "Debian Policy Manual 4.6",
        "Debian Policy Manual",
        "debian policy",
    ]

"""What an audit checks: statements of practice, not questions, lead-ins or glossary entries."""

from actions.audit.clauses import text_clauses


def test_lead_ins_questions_and_glossary_entries_are_not_clauses() -> None:
    text = (
        "Download and packaging notes:\n\n"
        "Binary package: the .deb file that is installed on a customer's machine.\n\n"
        "Why do we sign packages?\n\n"
        "Every package is signed by the release key before upload."
    )

    assert [c.text for c in text_clauses(text)] == [
        "Every package is signed by the release key before upload."
    ]


def test_a_statement_with_a_colon_inside_is_still_a_clause() -> None:
    text = "Note: every package is signed by the release key before upload."

    assert len(text_clauses(text)) == 1

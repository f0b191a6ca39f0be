"""What an audit checks: statements of practice, not questions, lead-ins or glossary entries."""

from actions.audit.clauses import policy_clauses, text_clauses
from policypal.vectorstore import ChunkPoint


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


def test_a_pasted_e_mails_header_lines_are_not_clauses() -> None:
    text = (
        "From: Priya Raman <priya@example.com>\n"
        "To: Packaging and Operations\n"
        "Subject: kestrel-agent 3.2 packaging changes\n\n"
        "The postinst adds a line for the health report to /etc/crontab."
    )

    assert [c.text for c in text_clauses(text)] == [
        "The postinst adds a line for the health report to /etc/crontab."
    ]


def test_a_file_name_ending_in_a_letter_ends_its_sentence() -> None:
    text = "Maintainer scripts restart the agent through invoke-rc.d. After an upgrade the postinst calls it directly."

    assert len(text_clauses(text)) == 2


def test_a_sentence_before_a_colon_is_a_clause_not_a_glossary_term() -> None:
    texts = [c.text for c in text_clauses("We do not keep a change log: the commit history is enough.\n")]

    assert texts == ["We do not keep a change log: the commit history is enough."]


def test_a_numbered_heading_of_a_document_is_no_clause() -> None:
    chunk = ChunkPoint(
        tenant_id="acme",
        user_id="u",
        document_id="std",
        title="Engineering standard",
        version="1",
        doc_type="policy",
        chunk_index=0,
        section="7. Command-line tools and run-time behaviour",
        text=(
            "7. Command-line tools and run-time behaviour\n\n"
            "Every tool prints its usage with --help and exits with status 0."
        ),
    )

    assert [c.text for c in policy_clauses([chunk])] == [
        "Every tool prints its usage with --help and exits with status 0."
    ]

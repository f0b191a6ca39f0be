"""DOCX, HTML, Markdown, text and e-mail through unstructured: sections, tables, offline."""

import subprocess
import sys
import textwrap

import pytest

from ingestor import rejections
from ingestor.chunking import chunk_blocks
from ingestor.rejections import DocumentRejected
from ingestor.structured_text import partition_structured
from tests.ingestor import document_factory


def test_docx_sections_and_table_reach_the_chunks() -> None:
    blocks = partition_structured(document_factory.policy_docx(), "docx")
    chunks = chunk_blocks(blocks, size=1000, overlap=150)

    gift = next(c for c in chunks if document_factory.GIFT_RULE in c.text)
    assert gift.section == "1. Gifts and hospitality"
    table = next(c for c in chunks if c.text.startswith("Role | Gift limit (EUR) | Approver"))
    assert table.section == "1. Gifts and hospitality"
    assert "Grade 2 employee | 100 | Line manager of grade 2" in table.text
    assert document_factory.GIFT_RULE not in table.text
    travel = next(c for c in chunks if document_factory.TRAVEL_RULE in c.text)
    assert travel.section == "2. Travel"
    assert [c.index for c in chunks] == list(range(len(chunks)))


def test_a_long_docx_table_is_split_by_rows_under_its_header() -> None:
    blocks = partition_structured(document_factory.policy_docx(table_rows=80), "docx")
    chunks = chunk_blocks(blocks, size=1000, overlap=150)
    tables = [c for c in chunks if c.text.startswith("Role | Gift limit (EUR) | Approver\n")]
    assert len(tables) > 1
    rows = [line for c in tables for line in c.text.split("\n")[1:]]
    assert rows == [f"Grade {i} employee | {50 * i} | Line manager of grade {i}" for i in range(1, 80)]


def test_html_and_markdown_headings_become_sections() -> None:
    html = chunk_blocks(partition_structured(document_factory.policy_html(), "html"), size=1000, overlap=150)
    assert next(c for c in html if "seven years" in c.text).section == "Retention"
    assert next(c for c in html if "privacy officer" in c.text).section == "Access"
    assert any(c.text == "Record | Years\nInvoices | 10" for c in html)

    md = chunk_blocks(
        partition_structured(document_factory.policy_markdown(), "markdown"), size=1000, overlap=150
    )
    assert next(c for c in md if "fourteen characters" in c.text).section == "Passwords"
    assert next(c for c in md if c.text.startswith("Device | Check")).section == "Devices"


def test_plain_text_titles_are_not_every_short_sentence() -> None:
    text = b"Retention Period\n\nRecords are kept for seven years.\n\nFirms must report losses quarterly.\n"
    chunks = chunk_blocks(partition_structured(text, "text"), size=1000, overlap=150)
    assert [c.section for c in chunks] == ["Retention Period"]


def test_numbered_headings_of_a_plain_text_open_sections_and_numbered_lists_do_not() -> None:
    text = textwrap.dedent(
        """\
        TERMS AND CONDITIONS

          0. Definitions.

          "This Licence" refers to version 2 of the Northwind Data Licence.

          A "record" is any document about a customer, kept in any form.

          1. Retention.

          Records must be kept for seven years after the account is closed.

          The steps on closing an account are:

          1. Export the records.
          2. Seal the export.
          3. Store it offline.

          Each step is signed by the records officer.

          4.2 Transfers to vendors

          Personal data must not be transferred without consent.
        """
    ).encode()
    blocks = partition_structured(text, "text")
    section_of = {b.text: b.section for b in blocks}

    assert (
        section_of['"This Licence" refers to version 2 of the Northwind Data Licence.'] == "0. Definitions."
    )
    assert section_of["Records must be kept for seven years after the account is closed."] == "1. Retention."
    # A numbered list is no run of headings: its items and what follows stay in the section.
    assert section_of["Each step is signed by the records officer."] == "1. Retention."
    assert section_of["Personal data must not be transferred without consent."] == "4.2 Transfers to vendors"


def test_email_keeps_sender_and_subject() -> None:
    chunks = chunk_blocks(
        partition_structured(document_factory.expense_email(), "email"), size=1000, overlap=150
    )
    assert chunks[0].section == "Supplier gift"
    assert "From: Alice Example <alice@example.com>" in chunks[0].text
    assert any("500 EUR" in c.text for c in chunks)


def test_legacy_encoded_text_is_read() -> None:
    text = "Les données personnelles sont conservées dix ans après la clôture du compte.\n"
    chunks = chunk_blocks(partition_structured(text.encode("cp1252"), "text"), size=1000, overlap=150)
    assert chunks[0].text == text.strip()


def test_undecodable_text_is_rejected() -> None:
    with pytest.raises(DocumentRejected) as caught:
        partition_structured(b"\x00\x01binary\xff" * 100, "text")
    assert caught.value.reason_code == rejections.UNDECODABLE_TEXT


# A fresh interpreter: the integration lane, not the fast one.
@pytest.mark.integration
def test_unstructured_runs_without_network_and_downloads_nothing() -> None:
    # A fresh interpreter with every socket connection refused: a download attempt would fail the run.
    script = textwrap.dedent(
        """
        import socket
        def refuse(*args, **kwargs):
            raise OSError("network disabled by the test")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        from unstructured.nlp import tokenize
        def no_install():
            raise AssertionError("unstructured tried to install a spaCy model")
        tokenize._install_spacy_model = no_install
        from ingestor.structured_text import partition_structured
        from tests.ingestor import document_factory as f
        for data, kind in ((f.policy_docx(), "docx"), (f.policy_html(), "html"),
                           (f.policy_markdown(), "markdown"), (f.expense_email(), "email"),
                           (b"Scope\\n\\nThis policy applies to every employee.\\n", "text")):
            assert partition_structured(data, kind), kind
        print(",".join(tokenize._get_nlp().pipe_names))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "tok2vec,tagger,sentencizer"

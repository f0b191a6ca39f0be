"""Non-PDF documents made by the tests: DOCX (python-docx), HTML, Markdown, e-mail, hostile files."""

import io
import zipfile
from email.message import EmailMessage

import docx
from docx.enum.text import WD_BREAK
from docx.oxml import OxmlElement

GIFT_RULE = "Employees must not accept gifts worth more than 50 EUR from a supplier."
TRAVEL_RULE = "Travel is booked through the corporate portal at least seven days ahead."


def policy_docx(*, table_rows: int = 3) -> bytes:
    """A code of conduct: a title, two headed sections, a limits table under the first."""
    document = docx.Document()
    document.add_heading("Code of Conduct", 0)
    document.add_heading("1. Gifts and hospitality", 1)
    document.add_paragraph(GIFT_RULE)
    table = document.add_table(rows=table_rows, cols=3)
    header = ("Role", "Gift limit (EUR)", "Approver")
    for column, text in enumerate(header):
        table.cell(0, column).text = text
    for row in range(1, table_rows):
        values = (f"Grade {row} employee", str(50 * row), f"Line manager of grade {row}")
        for column, text in enumerate(values):
            table.cell(row, column).text = text
    document.add_heading("2. Travel", 1)
    document.add_paragraph(TRAVEL_RULE)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def paged_docx(*, rendered_breaks: bool = False) -> bytes:
    """Three pages split by hard page breaks (as LibreOffice or a generator writes them); with
    ``rendered_breaks`` also the rendered-break markers Word adds when it saves."""
    document = docx.Document()
    document.add_heading("Staff Handbook", 0)
    document.add_paragraph(GIFT_RULE)
    for text in (TRAVEL_RULE, "Expense claims are filed within thirty days of the expense."):
        paragraph = document.add_paragraph()
        paragraph.add_run().add_break(WD_BREAK.PAGE)
        if rendered_breaks:
            paragraph.runs[0]._r.append(OxmlElement("w:lastRenderedPageBreak"))
        paragraph.add_run(text)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def policy_html() -> bytes:
    return (
        b"<!DOCTYPE html><html><head><title>Privacy</title></head><body>"
        b"<h1>Privacy Policy</h1><h2>Retention</h2>"
        b"<p>Customer records are kept for seven years after the account is closed.</p>"
        b"<h2>Access</h2><p>Only the privacy officer may grant access to archived records.</p>"
        b"<table><tr><th>Record</th><th>Years</th></tr><tr><td>Invoices</td><td>10</td></tr></table>"
        b"</body></html>"
    )


def policy_markdown() -> bytes:
    return (
        b"# Information Security\n\n## Passwords\n\n"
        b"Passwords must have at least fourteen characters and are never shared.\n\n"
        b"## Devices\n\nLaptops are encrypted and locked when unattended.\n\n"
        b"| Device | Check |\n|---|---|\n| Laptop | Monthly |\n| Phone | Quarterly |\n"
    )


def expense_email() -> bytes:
    message = EmailMessage()
    message["From"] = "Alice Example <alice@example.com>"
    message["To"] = "bob@example.com"
    message["Subject"] = "Supplier gift"
    message["Date"] = "Tue, 01 Apr 2025 10:00:00 +0000"
    message.set_content(
        "Hi Bob,\n\nI accepted a gift worth 500 EUR from our cleaning supplier last week.\n\n"
        "Regards,\nAlice\n"
    )
    return bytes(message)


def zip_bomb_docx(unpacked_bytes: int = 64 * 1024 * 1024) -> bytes:
    """A DOCX-shaped ZIP whose document.xml inflates from ~64 KB to ``unpacked_bytes`` of zeros."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as part:
            block = b"0" * (1024 * 1024)
            for _ in range(unpacked_bytes // len(block)):
                part.write(block)
    return buffer.getvalue()


def encrypted_office_container() -> bytes:
    """The head of an OLE2 compound file holding an ``EncryptedPackage`` stream, as Office writes one."""
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504
    return header + "EncryptedPackage".encode("utf-16-le") + b"\x00" * 1024

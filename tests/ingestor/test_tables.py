"""Tables as chunks: whole when they fit, row groups under a repeated header when they do not."""

from ingestor.tables import Table, table_chunks, table_from_html


def _table(rows: int, width: int = 20) -> Table:
    header = ("Role", "Limit", "Approver")
    body = tuple((f"Grade {i}", str(50 * i), "x" * width) for i in range(1, rows + 1))
    return Table((header, *body))


def test_rows_come_from_html_with_nested_markup() -> None:
    table = table_from_html(
        "<table><thead><tr><th>Role</th><th>Limit</th></tr></thead>"
        "<tbody><tr><td><b>Staff</b> member</td><td>50</td></tr><tr><td></td><td></td></tr></tbody></table>"
    )
    assert table.rows == (("Role", "Limit"), ("Staff member", "50"))


def test_a_table_that_fits_is_one_chunk() -> None:
    chunks = table_chunks(_table(3), size=1000)
    assert chunks == [
        "Role | Limit | Approver\n" + "\n".join(f"Grade {i} | {50 * i} | {'x' * 20}" for i in range(1, 4))
    ]


def test_a_long_table_is_split_by_rows_with_the_header_repeated() -> None:
    table = _table(60)
    chunks = table_chunks(table, size=300)
    assert len(chunks) > 1
    assert all(chunk.startswith("Role | Limit | Approver\n") for chunk in chunks)
    assert all(len(chunk) <= 300 for chunk in chunks)
    rows = [line for chunk in chunks for line in chunk.split("\n")[1:]]
    assert rows == [f"Grade {i} | {50 * i} | {'x' * 20}" for i in range(1, 61)]


def test_a_row_longer_than_a_chunk_is_cut_under_the_header() -> None:
    chunks = table_chunks(_table(2, width=700), size=300)
    assert all(chunk.startswith("Role | Limit | Approver\n") and len(chunk) <= 300 for chunk in chunks)
    assert "".join(chunk.split("\n", 1)[1] for chunk in chunks).count("x") == 1400

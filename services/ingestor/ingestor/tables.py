"""Tables as chunks: whole when they fit, else split by rows with the header row repeated.

A table cut in the middle of a row, or a chunk of rows without its header, is unreadable to a
person checking a citation and useless to a model; so rows are the unit and the header travels.
"""

from dataclasses import dataclass
from html.parser import HTMLParser

CELL_SEPARATOR = " | "


@dataclass(frozen=True)
class Table:
    """A table's rows of cell texts; ``rows[0]`` is the header row."""

    rows: tuple[tuple[str, ...], ...]


class _RowCollector(HTMLParser):
    """Cell texts per ``<tr>``; nested markup inside a cell contributes its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self._close_cell()
            self.rows.append([])
        elif tag in ("td", "th"):
            self._close_cell()
            if not self.rows:
                self.rows.append([])
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th", "tr"):
            self._close_cell()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def _close_cell(self) -> None:
        if self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None


def table_from_html(markup: str) -> Table:
    """Rows of an HTML table (as unstructured gives it in ``text_as_html``); empty rows dropped."""
    collector = _RowCollector()
    collector.feed(markup)
    collector.close()
    return Table(tuple(tuple(row) for row in collector.rows if any(row)))


def render_row(row: tuple[str, ...]) -> str:
    """One row as a line of text, cells separated by `` | ``."""
    return CELL_SEPARATOR.join(row)


def table_chunks(table: Table, *, size: int) -> list[str]:
    """The table as one text when it fits in ``size`` characters, else row groups under the header.

    A single row longer than the room left beside the header is cut into pieces, each under the
    header (the only case where a row is split).
    """
    if not table.rows:
        return []
    lines = [render_row(row) for row in table.rows]
    whole = "\n".join(lines)
    if len(whole) <= size or len(lines) == 1:
        return [whole] if len(whole) <= size else _cut(whole, size)
    header, body = lines[0], lines[1:]
    room = size - len(header) - 1
    if room < size // 4:
        # A header that leaves almost no room is treated as a row like the others.
        header, body, room = "", lines, size
    chunks: list[str] = []
    group: list[str] = []
    used = 0
    for line in body:
        if len(line) > room:
            if group:
                chunks.append(_join(header, group))
                group, used = [], 0
            chunks.extend(_join(header, [piece]) for piece in _cut(line, room))
            continue
        if group and used + 1 + len(line) > room:
            chunks.append(_join(header, group))
            group, used = [], 0
        group.append(line)
        used += len(line) + (1 if used else 0)
    if group:
        chunks.append(_join(header, group))
    return chunks


def _join(header: str, lines: list[str]) -> str:
    return "\n".join([header, *lines]) if header else "\n".join(lines)


def _cut(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]

"""What an audit checks: the statements of the source, a short text or sentences of a policy document."""

from dataclasses import dataclass

from actions.extracts import MIN_EXTRACT_CHARS, Extract
from actions.inquire.citations import is_verbatim, quote_from
from actions.sentences import sentence_spans

#: Seed 000, text mode is for short sources (< 1000 words): at most this many statements are checked.
MAX_TEXT_STATEMENTS = 40


@dataclass(frozen=True)
class SourceStatement:
    """A statement of the audited source; ``extract`` is set when the source is an indexed document."""

    text: str
    quote: str
    extract: Extract | None = None
    theme: str | None = None

    @property
    def plain(self) -> str:
        """The statement on one line, for embedding and display."""
        return " ".join(self.text.split())


def text_statements(source_text: str) -> list[SourceStatement]:
    """The sentences of a short source text, each with a verbatim quote of at most 300 characters."""
    statements = []
    for begin, end in sentence_spans(source_text):
        text = source_text[begin:end]
        quote = quote_from(text)
        if len(text.strip()) >= MIN_EXTRACT_CHARS // 2 and is_verbatim(quote, source_text):
            statements.append(SourceStatement(text=text, quote=quote))
    return statements[:MAX_TEXT_STATEMENTS]


def document_statement(extract: Extract, theme: str | None) -> SourceStatement:
    """A sentence of the audited policy document, under its theme."""
    return SourceStatement(text=extract.text, quote=quote_from(extract.text), extract=extract, theme=theme)

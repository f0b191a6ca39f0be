"""Rule units: the normative statements of a document, each with its section, page, modality and chunk.

A statement is a rule when it has a modal form (``modality``), or when it is a list item under a
normative lead-in ("The following programs must be in /bin: …"). Boilerplate chunks give none. The
quote is a verbatim slice of the chunk that holds the statement (cut to 300 characters around the
modal words when longer), so an audit finding cites it like any passage.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from policypal.contracts.limits import MAX_QUOTE_CHARS
from policypal.rules.boilerplate import appended_licences, in_appended_licence
from policypal.rules.document_pages import DocumentPage, document_pages
from policypal.rules.duties import duty_statements
from policypal.rules.end_of_terms import TermsEnd
from policypal.rules.modality import ModalCue, modal_cue
from policypal.rules.referents import MAX_CHAIN, referent, section_area
from policypal.rules.section_outline import SectionOutline
from policypal.rules.statement_sections import StructureSections
from policypal.rules.statements import Statement, segment
from policypal.vectorstore import ChunkPoint, RulePoint

#: Raised whenever the extraction changes what it finds: stored rules of an older one are found again.
EXTRACTION_VERSION: Final = 31
#: The lead-in kept in front of a list item's own words when it is matched.
MAX_LEAD_IN_CHARS: Final = 200
#: Longer "statements" are run-on text (tables read as prose): matched by their first part only.
MAX_RULE_CHARS: Final = 600
#: Lower-case words an item under a lead-in needs to read as prose (a code line has one or none).
MIN_PROSE_WORDS: Final = 2
_PROSE_WORD: Final = re.compile(r"(?<![\w#$@./-])[a-z]{3,}(?![\w(/])")
# A title compared word by word: its numbering and punctuation aside, case ignored.
_TITLE_WORDS: Final = re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?)?|[^\w\s]+")


@dataclass(frozen=True)
class SourceClause:
    """A statement of any document with the chunk that holds it: a rule's or an audited clause's origin."""

    statement: Statement
    chunk: ChunkPoint
    quote: str
    modal: ModalCue | None

    @property
    def text(self) -> str:
        """The statement as matched: its words on one line, after its lead-in when it is a list item."""
        words = self.statement.plain[:MAX_RULE_CHARS]
        lead = self.statement.lead_in
        return f"{lead[:MAX_LEAD_IN_CHARS]} {words}" if lead else words


def document_clauses(
    chunks: Sequence[ChunkPoint],
    *,
    skip: frozenset[int] | set[int] = frozenset(),
    split_duties: bool = False,
) -> list[SourceClause]:
    """Every statement of a document in order, each placed in a chunk; chunks in ``skip`` give none.
    ``split_duties``: a permission granted on several duties gives one statement per duty
    (``duties``), each bound as the condition binds it."""
    clauses: list[SourceClause] = []
    section: str | None = None
    for page in document_pages(chunks):
        segmented = segment(
            page.text, section=section if page.page is not None else page.chunks[0].chunk.section
        )
        section = segmented.section
        for statement in segmented.statements:
            pieces = duty_statements(statement) if split_duties else [statement]
            for piece in pieces:
                clause = _placed(page, piece, by_lead=len(pieces) > 1)
                if clause is not None and clause.chunk.chunk_index not in skip:
                    clauses.append(clause)
    return clauses


def rule_units(
    chunks: Sequence[ChunkPoint], *, boilerplate: frozenset[int] | set[int] = frozenset()
) -> list[RulePoint]:
    """The rule units of one document's ``chunks``; chunks whose index is in ``boilerplate`` give none."""
    rules: list[RulePoint] = []
    sections = StructureSections.of(chunks)
    outline = SectionOutline.of(chunks)
    licences = appended_licences(chunks)
    clauses = document_clauses(chunks, skip=boilerplate, split_duties=True)
    terms_end = TermsEnd.of(chunks)
    for at, clause in enumerate(clauses):
        if clause.modal is None or (terms_end and terms_end.follows(clause.chunk, clause.quote, clause.text)):
            continue
        chunk = clause.chunk
        section = sections.section_of(clause.statement.section, chunk)
        enclosing = outline.enclosing(section)
        # The document's own licence, appended: what it binds is the manual's readers, not its subject.
        if _repeats_title(clause.text, section) or in_appended_licence(section, licences):
            continue
        rules.append(
            RulePoint(
                tenant_id=chunk.tenant_id,
                user_id=chunk.user_id,
                document_id=chunk.document_id,
                title=chunk.title,
                version=chunk.version,
                doc_type=chunk.doc_type,
                set_name=chunk.set_name,
                page=chunk.page,
                section=section,
                enclosing_sections=enclosing,
                chunk_index=chunk.chunk_index,
                rule_index=len(rules),
                modality=clause.modal.modality,
                modal_words=clause.modal.words,
                text=clause.text,
                quote=clause.quote,
                extraction=EXTRACTION_VERSION,
                referent=referent(clause.statement.plain, _before(clauses, at))
                or section_area(clause.statement.plain, [*enclosing, *([section] if section else [])]),
            )
        )
    return rules


def _before(clauses: Sequence[SourceClause], at: int) -> list[str]:
    """The statements before ``clauses[at]`` in its section, nearest first (what its subject may
    refer back to)."""
    section = clauses[at].statement.section
    earlier = []
    for clause in reversed(clauses[max(0, at - MAX_CHAIN) : at]):
        if clause.statement.section != section:
            break
        earlier.append(clause.statement.plain)
    return earlier


def _repeats_title(text: str, section: str | None) -> bool:
    """Whether ``text`` is only its section's title ("13. Use with the GNU Affero General Public
    License." under that heading): a heading read as a sentence, not a rule."""
    if not section:
        return False
    title = section.split(" › ")[-1]
    return _TITLE_WORDS.sub(" ", text).lower().split() == _TITLE_WORDS.sub(" ", title).lower().split()


def _placed(page: DocumentPage, statement: Statement, *, by_lead: bool = False) -> SourceClause | None:
    """``statement`` in the chunk that holds it, with its quote and modal form; ``by_lead``: a duty,
    bound by the condition its lead-in ends on ("provided that you"), not by its own verb ("give")."""
    found = page.chunk_for(statement.start, statement.end)
    if found is None:
        return None
    placed, start, end = found
    own = None if by_lead else modal_cue(statement.plain)
    lead = (
        modal_cue(statement.lead_in)
        if statement.lead_in and own is None and (by_lead or _reads_as_prose(statement.plain))
        else None
    )
    modal = own or lead
    local = placed.chunk.text[start - placed.offset : end - placed.offset]
    # The modal words' place in the chunk's own text (``own.start`` counts in the one-line form).
    cue_at = max(0, local.lower().find(own.words.lower())) if own is not None else 0
    return SourceClause(statement, placed.chunk, quote_around(local, cue_at), modal)


def _reads_as_prose(item: str) -> bool:
    """An item under a normative lead-in is a rule when it reads as words, not as a line of code
    ("#define HAS_REVERSIBLE_CC_MODE 0" after "…you should write:")."""
    return len(_PROSE_WORD.findall(item)) >= MIN_PROSE_WORDS


def quote_around(text: str, position: int, limit: int = MAX_QUOTE_CHARS) -> str:
    """A verbatim slice of ``text`` of at most ``limit`` characters that keeps ``position`` in view.

    Whole when short enough; else from the start, or from a word boundary shortly before
    ``position`` when the start would leave it out; cut at a word boundary.
    """
    text = text.strip()
    if len(text) <= limit:
        return text
    begin = 0
    if position > limit * 2 // 3:
        begin = text.rfind(" ", 0, max(0, position - limit // 3)) + 1
    piece = text[begin : begin + limit]
    if begin + limit < len(text):
        space = piece.rfind(" ")
        if space > limit // 2:
            piece = piece[:space]
    return piece.strip()

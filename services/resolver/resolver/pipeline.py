"""The resolver's steps for one turn: intent → documents → validation → a plan, a question or a refusal.

``advance`` starts at ``turn.step``, so a resumed turn continues where it stopped and repeats no
decision already made (the classifier and the matcher are not asked again). Nothing here does I/O
except ``report`` (status events); the caller loads the ``Context`` and acts on the outcome.
"""

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from policypal.contracts import ActionName, InterruptOption, ResolvedDocument
from policypal.contracts.codes import ErrorCode, StatusStage
from policypal.state import DocumentRecord, Question, Refusal, RegistryEntry
from policypal.telemetry import stamp_action
from resolver.documents import DocumentMatcher, resolve_documents
from resolver.intent import IntentClassifier, IntentRequest, needs_web, web_tagged
from resolver.matching import loose_names
from resolver.mentions import mention_names, strip_mentions
from resolver.name_roles import has_document_noun
from resolver.turn import Turn
from resolver.validation import audit_roles, too_many_message, validate
from resolver.versions import is_bare_follow_up, without_version_references

#: (stage, message) -> publishes a status event of the request.
StatusReporter = Callable[[StatusStage, str], Awaitable[None]]

ACTION_LABELS: dict[ActionName, str] = {
    "summarize": "Summarize",
    "inquire": "Inquire",
    "compare": "Compare",
    "audit": "Audit",
}
ALL_OPTION = InterruptOption(id="all", label="All of these")
#: What the user may do when a document the message names is not in the library.
SEARCH_LIBRARY, SEARCH_WEB = "search_library", "search_web"
ABSENT_OPTIONS = (
    InterruptOption(id=SEARCH_LIBRARY, label="Search all my documents"),
    InterruptOption(id=SEARCH_WEB, label="Search the web"),
)


@dataclass(frozen=True)
class Context:
    """What the resolver knows besides the turn: the user's documents and the conversation."""

    catalog: Sequence[DocumentRecord]
    registry: Sequence[RegistryEntry]
    recent: Sequence[str] = ()
    year: int = 2026


@dataclass(frozen=True)
class Deciders:
    """The two judgements that an LLM may make instead of the deterministic rules."""

    classifier: IntentClassifier
    matcher: DocumentMatcher


@dataclass(frozen=True)
class Plan:
    """The turn is complete: hand it to the action worker."""

    turn: Turn
    source_text: str | None = None
    source_document_id: str | None = None
    target_document_ids: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()


#: A question's resume point is the ``Turn`` itself; a refusal is returned, not raised.
Outcome = Plan | Question | Refusal


async def advance(turn: Turn, context: Context, deciders: Deciders, report: StatusReporter) -> Outcome:
    """Run the remaining steps of ``turn`` (it is updated in place)."""
    if turn.step == "intent":
        question = await _intent(turn, context, deciders.classifier, report)
        if question is not None:
            return question
        turn.step = "documents"
    if turn.action is not None:
        # Decided now (or before the pause): the handling span and the matcher's spans carry it (docs/architecture.md, Invariant: one trace).
        stamp_action(turn.action)
    if turn.step == "documents":
        stopped = await _documents(turn, context, deciders.matcher, report)
        if stopped is not None:
            return stopped
        turn.step = "validation"
    return await _validation(turn, report)


def known_names(turn: Turn, context: Context) -> list[str]:
    """Titles and ids that may follow an @ in the turn's message."""
    return mention_names(d for d in context.catalog if d.document_id in turn.mentioned_ids)


def without_titles(text: str, context: Context) -> str:
    """``text`` without the titles (and versions) of the user's documents written out in it."""
    names = {f"{d.title} {d.version}" for d in context.catalog} | {d.title for d in context.catalog}
    names |= {e.title for e in context.registry}
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", text).strip()


async def _intent(
    turn: Turn, context: Context, classifier: IntentClassifier, report: StatusReporter
) -> Question | None:
    # "Summarize both versions" asks for no topic, and "the current version" is a document, not the web.
    explicit = [d for d in context.catalog if d.document_id in turn.mentioned_ids]
    written = strip_mentions(turn.text, known_names(turn, context))
    clean = without_version_references(
        written,
        explicit=explicit,
        registry=context.registry,
        catalog=context.catalog,
    )
    clean = without_titles(clean, context)
    # A document's name is not a topic ("Summarize the Fedora Packaging Guidelines"), uploaded or not.
    for name, _ in loose_names(clean):
        if has_document_noun(name):
            clean = clean.replace(name, " ")
    if is_bare_follow_up(written):
        # "What about 2025?" names a version and no action: the conversation's last action goes on.
        clean = ""
    turn.web = turn.web or web_tagged(turn.text) or needs_web(clean, year=context.year)
    if turn.explicit_action is not None:
        # Explicit @action: no classification, and no status line for it (docs/product.md, Intent).
        turn.action, turn.intent_confidence = turn.explicit_action, "high"
        return None
    await report(StatusStage.INTENT, "Clarifying intent…")
    recent = tuple(without_titles(line, context) for line in context.recent)
    # The model reads the instruction; that a text was pasted with it is said, not shown.
    pasted = f"\n[followed by {len(turn.payload.split())} words of pasted text]" if turn.payload else ""
    guess = await classifier.classify(IntentRequest(turn.text + pasted, clean, recent, context.recent))
    turn.web = turn.web or guess.web
    turn.action, turn.intent_confidence = guess.action, guess.confidence
    if guess.notice is not None:
        turn.notices.append(guess.notice)
    if guess.confidence == "low" or guess.multi_action:
        turn.options = [InterruptOption(id=a, label=ACTION_LABELS[a]) for a in guess.candidates]
        message = (
            "Please choose the action you would like me to perform."
            if guess.confidence == "low"
            else "I can only perform one action at a time. Which would you like to do first?"
        )
        return Question(turn, "action_choice", message, turn.options)
    return None


async def _documents(
    turn: Turn, context: Context, matcher: DocumentMatcher, report: StatusReporter
) -> Question | Refusal | None:
    assert turn.action is not None, "intent runs first"
    await report(StatusStage.DOCUMENTS, "Finding documents…")
    explicit = [d for d in context.catalog if d.document_id in turn.mentioned_ids]
    missing = [i for i in turn.mentioned_ids if i not in {d.document_id for d in explicit}]
    if missing:
        # The same words whether the id is unknown or another tenant's: nothing leaks across tenants.
        return Refusal(
            ErrorCode.DOCUMENT_NOT_FOUND,
            f"I can't find the document “{missing[0]}” among your documents. It may have been deleted: "
            "tag it again from the list.",
        )
    for record in sorted(explicit, key=lambda d: turn.mentioned_ids.index(d.document_id)):
        if record.status != "ready":
            return Refusal(ErrorCode.DOCUMENT_NOT_READY, _not_ready_sentence(record))
    explicit.sort(key=lambda d: turn.mentioned_ids.index(d.document_id))
    ready = [d for d in context.catalog if d.status == "ready"]
    resolution = await resolve_documents(
        turn.text,
        action=turn.action,
        explicit=explicit,
        registry=context.registry,
        catalog=ready,
        matcher=matcher,
        recent=context.recent,
    )
    turn.documents = resolution.documents
    turn.document_confidence = resolution.confidence
    turn.inference_source = resolution.source
    turn.candidates = resolution.candidates
    turn.unresolved_names = resolution.unresolved_names
    turn.clean_query = resolution.clean_query
    if turn.payload and turn.action == "inquire":
        # "What does this clause mean under @GDPR: <clause>": the clause is what the question is about.
        turn.clean_query = f"{turn.clean_query}\n\n{turn.payload}".strip()
    turn.positions = resolution.positions
    if resolution.notice is not None and resolution.notice not in turn.notices:
        turn.notices.append(resolution.notice)
    if turn.documents:
        await report(StatusStage.DOCS_FOUND, found_sentence(turn.documents))
    if resolution.confidence == "low" and turn.action == "inquire" and turn.web:
        # A question for the web need not name an uploaded document (docs/product.md, Document resolution).
        turn.document_confidence = "medium"
    elif resolution.confidence == "low":
        turn.awaiting = "documents"
        if not resolution.unresolved_names:
            return Question(
                turn,
                "text_input",
                "I could not tell which document you mean. Please tag the document you would like to reference.",
            )
        # Never a silent answer from other documents: say what is missing and offer the ways on.
        names = " and ".join(f"“{n}”" for n in resolution.unresolved_names)
        turn.options = list(ABSENT_OPTIONS)
        return Question(
            turn,
            "text_input",
            f"I don't have {names} in this conversation or among your documents. Please tag the document "
            "you would like to reference, or choose to search all your documents or the web instead.",
            turn.options,
        )
    if resolution.confidence == "medium" and resolution.candidates:
        turn.options = [_document_option(d) for d in resolution.candidates] + [ALL_OPTION]
        return Question(turn, "doc_choice", _confirm_sentence(turn), turn.options)
    registry_ids = {e.document_id for e in context.registry}
    inferred = [d for d in turn.documents if d.document_id not in turn.mentioned_ids]
    remembered = [d for d in inferred if d.document_id in registry_ids]
    matched = [d for d in inferred if d.document_id not in registry_ids]
    if remembered:
        turn.notices.append(f"Using {_titles(remembered)} from earlier in this conversation.")
    if matched:
        turn.notices.append(f"Using {_titles(matched)}, found by name among your documents.")
    return None


async def _validation(turn: Turn, report: StatusReporter) -> Outcome:
    assert turn.action is not None, "intent runs first"
    await report(StatusStage.VALIDATION, "Validating request…")
    roles = None
    if turn.action == "audit":
        source_text = turn.source_text or turn.payload
        roles = audit_roles(turn.text, turn.documents, turn.positions, source_text=source_text)
    verdict = validate(turn.action, turn.documents, web=turn.web, clean_query=turn.clean_query, roles=roles)
    turn.web = verdict.web
    notices = [*turn.notices, *(n for n in verdict.notices if n not in turn.notices)]
    if verdict.too_many:
        count = len(roles.target_document_ids) if roles is not None else len(turn.documents)
        return Refusal(ErrorCode.TOO_MANY_DOCUMENTS, too_many_message(turn.action, count), notices)
    if verdict.awaiting is not None and verdict.prompt is not None:
        turn.awaiting, turn.notices = verdict.awaiting, notices
        return Question(turn, "text_input", verdict.prompt)
    turn.awaiting = None
    if roles is None:
        return Plan(turn, notices=tuple(notices))
    return Plan(turn, roles.source_text, roles.source_document_id, roles.target_document_ids, tuple(notices))


def found_sentence(documents: Sequence[ResolvedDocument]) -> str:
    """The docs_found status line: the documents as the library shows them."""
    count = len(documents)
    return f"Found {count} document{'s' if count != 1 else ''}: {_titles(documents)}"


def display_title(document: ResolvedDocument) -> str:
    """ "Title (Version)", as in the document library (docs/product.md, Documents)."""
    return f"{document.title} ({document.version})" if document.version else document.title


def _titles(documents: Sequence[ResolvedDocument]) -> str:
    return ", ".join(display_title(d) for d in documents)


def _document_option(document: ResolvedDocument) -> InterruptOption:
    return InterruptOption(id=document.document_id, label=display_title(document))


def _confirm_sentence(turn: Turn) -> str:
    explicit = [d for d in turn.documents if d.document_id in turn.mentioned_ids]
    if turn.action == "audit" and explicit:
        return f"I will audit {_titles(explicit)} against the following. Please confirm:"
    return "Several documents match your request. Please confirm which to use:"


def _not_ready_sentence(record: DocumentRecord) -> str:
    if record.status == "failed":
        reason = f" ({record.reason})" if record.reason else ""
        return (
            f"“{record.title}” could not be processed{reason}, so I can't search it. "
            "Upload it again or tag another document."
        )
    return f"“{record.title}” is still being processed ({record.status}). Ask again when it shows as ready."

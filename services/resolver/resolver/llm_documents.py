"""Stage 2 of document resolution by a language model: one call over the full message (docs/product.md, Document resolution).

The model sees the FULL message (mentions in place; docs/product.md, Document resolution), the action, the documents the user
tagged, and the conversation's registry; the last five messages only when no registry title is written
in the message (a reference such as "that regulation" may need them). It answers with registry ids,
names it could not place (stage 3 fuzzy-matches those over the catalog), candidates when a reference is
ambiguous, a confidence, the implicit-reference flag and a reasoning line. Ids the model invents are
dropped. If the model fails, the offline matcher decides and the user is told so in a notice.
"""

import logging
from collections.abc import Sequence

from pydantic import BaseModel

from policypal.contracts import ConfidenceTier, ResolvedDocument
from policypal.llm import LLM, LLMError, Prompt
from policypal.state import RegistryEntry
from resolver.documents import DocumentMatcher, MatchRequest, RegistryMatch
from resolver.history import RECENT_TURNS, history_turns
from resolver.matching import fuzzy_matches, title_hits
from resolver.mentions import mask_spans
from resolver.references import find_references

logger = logging.getLogger(__name__)

OFFLINE_NOTICE = "The language model was unavailable, so the documents were matched by the offline rules."
INSTRUCTIONS = """Identify the documents the user's message refers to, for the action given.
- The user tagged some documents already (listed): they are confirmed; never list them again.
  Reference words in a message that tags documents ("this manual", "these two versions", "them") and
  short names of a tagged title ("the GPL") mean the tagged documents: resolve nothing for them and
  never list them as unresolved. A reference means other documents only when the tagged ones cannot
  be it (the other side of an audit's "against", more documents than tagged, another type).
- resolved_ids: ids from the conversation's document list that the message refers to, by title, by a
  reference ("those", "both", "that regulation", "the policy above") or implicitly (a follow-up about
  the documents just used). A reference means the most recently used documents of its type.
- unresolved_names: document names written in the message that are not in the lists, exactly as written.
- candidate_ids: when a reference fits several listed documents equally, all of them (confidence medium).
- confidence: high when every reference is resolved, medium when one is ambiguous, low when a document
  the message names or points to is not in the lists.
- has_implicit_refs: whether the message refers to documents without tagging them.
Use only ids that appear in the lists. reasoning: one short sentence for debugging, never shown."""


class DocResolution(BaseModel):
    """The model's structured answer (the registry ids it resolved, the names it could not place, and the candidates to offer)."""

    resolved_ids: list[str]
    unresolved_names: list[str]
    candidate_ids: list[str]
    inference_confidence: ConfidenceTier
    has_implicit_refs: bool
    reasoning: str


class LLMDocumentMatcher:
    """A ``DocumentMatcher`` backed by ``llm``; ``fallback`` decides when the model fails."""

    def __init__(self, llm: LLM, *, fallback: DocumentMatcher, recent_turns: int = RECENT_TURNS) -> None:
        self._llm = llm
        self._fallback = fallback
        self._recent_turns = recent_turns

    async def match(self, request: MatchRequest) -> RegistryMatch:
        """One call; the registry answer validated against the registry."""
        free_text = mask_spans(request.message, request.mention_spans)
        registry_hit = bool(title_hits(free_text, request.registry))
        history = [] if registry_hit else history_turns(request.recent[-self._recent_turns :])
        prompt = Prompt(instructions=INSTRUCTIONS, user=describe(request), history=history)
        try:
            reply = await self._llm.structured("doc_resolution", prompt, DocResolution)
        except LLMError as exc:
            logger.warning("document resolution fell back to the offline rules: %s", exc)
            offline = await self._fallback.match(request)
            return RegistryMatch(
                offline.document_ids,
                offline.unresolved_names,
                offline.confidence,
                offline.candidates,
                offline.has_implicit_refs,
                offline.positions,
                OFFLINE_NOTICE,
            )
        logger.debug("document resolution: %s", reply.value.reasoning)
        return checked(reply.value, request)


def describe(request: MatchRequest) -> str:
    """The user part of the prompt: the action, the full message, the tagged and the registry documents."""
    tagged = [f"- {d.document_id}: {_label(d)}" for d in request.explicit]
    registry = [
        f"- {e.document_id}: {_label(e)}, last used in turn {e.last_used_turn}"
        for e in sorted(request.registry, key=lambda e: -e.last_used_turn)
    ]
    return "\n".join(
        [
            f"Action: {request.action}",
            f"Message: {request.message}",
            "",
            "Tagged by the user (confirmed):",
            *(tagged or ["(none)"]),
            "",
            "Documents this conversation has used (most recent first):",
            *(registry or ["(none)"]),
        ]
    )


def checked(answer: DocResolution, request: MatchRequest) -> RegistryMatch:
    """The model's answer kept to what exists: registry ids only, no tagged document twice.

    An invented id is dropped; when nothing else was resolved the turn is low confidence, so the user
    is asked rather than answered from a document that does not exist.
    """
    explicit = {d.document_id for d in request.explicit}
    by_id = {e.document_id: e for e in request.registry if e.document_id not in explicit}
    invented = [
        i for i in [*answer.resolved_ids, *answer.candidate_ids] if i not in by_id and i not in explicit
    ]
    if invented:
        logger.warning("document resolution: dropped %d id(s) not in the registry", len(invented))
    ids = tuple(dict.fromkeys(i for i in answer.resolved_ids if i in by_id))
    candidates = tuple(dict.fromkeys(i for i in answer.candidate_ids if i in by_id and i not in ids))
    confidence = _kept_confidence(answer.inference_confidence, bool(invented), ids, candidates)
    if confidence == "medium" and not candidates:
        # Nothing to choose between: what was resolved stands.
        confidence = "high" if ids or explicit else "low"
    known: list[RegistryEntry | ResolvedDocument] = [*request.explicit, *(by_id[i] for i in ids)]
    names = _unknown_names(answer.unresolved_names, known)
    return RegistryMatch(
        document_ids=ids,
        unresolved_names=names,
        confidence=confidence,
        candidates=candidates,
        has_implicit_refs=answer.has_implicit_refs or bool(ids or candidates),
        positions=_positions(request, [by_id[i] for i in (*ids, *candidates)]),
    )


def _kept_confidence(
    said: ConfidenceTier, invented: bool, ids: Sequence[str], candidates: Sequence[str]
) -> ConfidenceTier:
    """The model's confidence, low when all it resolved was invented."""
    return "low" if invented and not ids and not candidates else said


def _unknown_names(
    names: Sequence[str], known: Sequence[RegistryEntry | ResolvedDocument]
) -> tuple[str, ...]:
    """The names the model could not resolve that match no known document either, once each."""
    return tuple(dict.fromkeys(n.strip() for n in names if n.strip() and not fuzzy_matches(n.strip(), known)))


def _positions(request: MatchRequest, found: Sequence[RegistryEntry]) -> dict[str, int]:
    """Where each found document is referred to: its title, else the first reference phrase.

    Audit reads what comes before "against" as the audited document; an implicit document with no
    phrase to point at counts as written at the end (a target).
    """
    text = mask_spans(request.message, request.mention_spans)
    positions = {hit.document_id: hit.position for hit in title_hits(text, found)}
    references = find_references(text)
    fallback = references[0].position if references else len(request.message)
    return {d.document_id: positions.get(d.document_id, fallback) for d in found}


def _label(document: RegistryEntry | ResolvedDocument) -> str:
    version = f" ({document.version})" if document.version else ""
    return f"{document.title}{version}, {document.doc_type}"

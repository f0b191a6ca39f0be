"""An @Inquire answer as the response event carries it, whichever path composed it."""

from dataclasses import dataclass, field

from actions.inquire.confidence import Confidence
from actions.inquire.extractive_answer import ExtractiveAnswer
from actions.lifecycle.request import OFFLINE_MODEL
from policypal.contracts import Citation, Usage, WebCitation

#: Told to the user when the language model failed and the offline answer stands in for it.
LLM_FALLBACK_NOTICE = (
    "The language model was unavailable, so this answer was composed offline from the passages of "
    "your documents. Please ask again later for a drafted answer."
)


@dataclass(frozen=True)
class InquiryAnswer:
    """The text with its ``[N]`` markers, one citation per marker, the model, its usage and notices.

    ``confidence`` is the retrieval's, when documents were searched (not for a general-knowledge answer);
    ``cached`` marks an answer given again from the semantic answer cache.
    """

    answer: str
    citations: list[Citation]
    model: str
    usage: Usage = field(default_factory=Usage)
    notices: list[str] = field(default_factory=list)
    confidence: Confidence | None = None
    cached: bool = False
    web_citations: list[WebCitation] = field(default_factory=list)


def offline(
    answer: ExtractiveAnswer, confidence: Confidence, *, notices: list[str] | None = None
) -> InquiryAnswer:
    """The offline-extractive ``answer`` (no tokens, no cost), with ``notices`` for the user."""
    return InquiryAnswer(
        answer=answer.answer,
        citations=answer.citations,
        model=OFFLINE_MODEL,
        notices=notices or [],
        confidence=confidence,
    )

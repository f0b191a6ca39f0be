"""The structured result of a summary, carried in ``ResponseEvent.result`` of a @Summarize answer.

It says what the summary covers of each document, part by part (docs/adr/0011), so a reader, a
client or a test can check coverage without parsing the answer's text. Fields a drafted summary adds
(how many passages went to the model, in how many calls) are left out of the JSON when absent, so an
offline summary's result is exactly ``{"documents": [...]}``.
"""

from pydantic import BaseModel, ConfigDict, Field

from policypal.contracts.envelope import SafeId


def _absent(value: object) -> bool:
    return value is None


class PartCoverage(BaseModel):
    """One top-level part of a document and how much of it the summary carries."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    title: str
    first_page: int | None = None
    last_page: int | None = None
    chunks: int = Field(ge=0, description="Passages of the document in this part.")
    statements: int = Field(ge=0, description="Sentences of the part that read alone (candidates).")
    points: int = Field(ge=0, description="Key statements the summary quotes from the part.")


class DocumentCoverage(BaseModel):
    """What the summary covers of one document."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    document_id: SafeId
    chunks_total: int = Field(ge=0)
    pages: int = Field(ge=0)
    parts: list[PartCoverage] = Field(default_factory=list)
    overview_points: int = Field(default=0, ge=0, description="Key statements of the opening overview.")


class SummaryResult(BaseModel):
    """A whole summary: each document's coverage, and the model's share when one drafted it."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    documents: list[DocumentCoverage]
    passages_sent: int | None = Field(
        default=None, ge=0, exclude_if=_absent, description="Passages given to the model (drafted only)."
    )
    model_calls: int | None = Field(
        default=None, ge=0, exclude_if=_absent, description="Model calls made (drafted only)."
    )
    passages_per_call_limit: int | None = Field(
        default=None, ge=0, exclude_if=_absent, description="Most passages one call may carry (drafted only)."
    )

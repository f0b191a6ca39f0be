"""The structured result of a comparison, carried in ``ResponseEvent.result`` of a @Compare answer.

One model per mode, told apart by ``mode`` (docs/product.md, Compare): a ``redline`` of versions of
one document (docs/adr/0010), a ``holistic`` comparison theme by theme, a ``focused`` one on a topic.
What only some answers carry (the offline analysis, a drafted answer's theme attempts, a focused
comparison's edits between versions) is left out of the JSON when absent, as it always was.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from policypal.contracts.envelope import SafeId

#: What an edit did to a provision.
ChangeKind = Literal["changed", "added", "removed", "moved"]
#: What an edit changes of what a provision requires.
ChangeSubstance = Literal["modality", "negation", "number", "duration", "party"]
#: An answer's ``[N]``.
Marker = Annotated[int, Field(ge=1)]


def _absent(value: object) -> bool:
    return value is None


class _ResultPart(BaseModel):
    # ``from`` is a Python keyword: fields named ``from_`` travel as ``from``.
    model_config = ConfigDict(
        extra="ignore", frozen=True, serialize_by_alias=True, validate_by_alias=True, validate_by_name=True
    )


class ChangedWords(_ResultPart):
    """A run of words one wording has where the other has another ("" for none)."""

    before: str
    after: str


class ProvisionWording(_ResultPart):
    """One side of a changed provision: where it stands, its text, and the changed words marked."""

    section: str | None = None
    page: int | None = None
    text: str
    marked: str = Field(
        description="The text with changed words as ~~removed~~ or **added**, cut around them."
    )
    marker: int | None = Field(default=None, ge=1, description="The answer's [N] citing it, when shown.")


class ProvisionChange(_ResultPart):
    """One edit of a redline; ``before`` is absent for an added provision, ``after`` for a removed one."""

    kind: ChangeKind
    substance: list[ChangeSubstance] = Field(default_factory=list)
    before: ProvisionWording | None = Field(default=None, exclude_if=_absent)
    after: ProvisionWording | None = Field(default=None, exclude_if=_absent)


class ChangeCounts(_ResultPart):
    """How many provisions of a pair of versions changed, and how many stand unchanged."""

    changed: int = Field(ge=0)
    added: int = Field(ge=0)
    removed: int = Field(ge=0)
    moved: int = Field(ge=0)
    unchanged: int = Field(ge=0)


class SectionEdits(_ResultPart):
    """Sections retitled (first version's heading, second's), new in the second, gone from the first."""

    retitled: list[tuple[str, str]] = Field(default_factory=list)
    new: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)


class VersionPairRedline(_ResultPart):
    """The redline from version ``from`` to version ``to``."""

    from_: SafeId = Field(alias="from")
    to: SafeId
    counts: ChangeCounts
    sections: SectionEdits = Field(default_factory=SectionEdits)
    changes: list[ProvisionChange] = Field(default_factory=list, description="Most substantive first.")


class VersionPairEdits(_ResultPart):
    """The edits from version ``from`` to version ``to`` that bear on a focused comparison's topic."""

    from_: SafeId = Field(alias="from")
    to: SafeId
    changes: list[ProvisionChange] = Field(default_factory=list)


class CounterpartDifference(_ResultPart):
    """Two passages of two documents that say the same thing in different words."""

    theme: str | None = Field(default=None, exclude_if=_absent, description="Holistic comparison only.")
    documents: tuple[SafeId, SafeId]
    markers: tuple[Marker, Marker]
    changes: list[ChangedWords] = Field(default_factory=list)


class RedlineComparison(_ResultPart):
    """Versions of one document compared word by word, pair by pair."""

    mode: Literal["redline"] = "redline"
    reason: str = Field(description="Why the documents were taken for versions of one document.")
    pairs: list[VersionPairRedline]
    drafted: bool | None = Field(
        default=None, exclude_if=_absent, description="True when a model wrote an account above the redline."
    )


class HolisticComparison(_ResultPart):
    """Documents compared theme by theme; the offline analysis or a drafted answer's theme attempts."""

    mode: Literal["holistic"] = "holistic"
    themes: list[str]
    differences: list[CounterpartDifference] | None = Field(default=None, exclude_if=_absent)
    similarities: int | None = Field(
        default=None, ge=0, exclude_if=_absent, description="Counterparts worded the same."
    )
    unique: int | None = Field(
        default=None, ge=0, exclude_if=_absent, description="Passages only one document has, shown."
    )
    theme_attempts: int | None = Field(
        default=None, ge=1, exclude_if=_absent, description="Model calls it took to name the themes."
    )


class FocusedComparison(_ResultPart):
    """Documents compared on one topic; for versions, also the edits between them on it."""

    mode: Literal["focused"] = "focused"
    topic: str
    differences: list[CounterpartDifference] | None = Field(default=None, exclude_if=_absent)
    changes: list[VersionPairEdits] | None = Field(default=None, exclude_if=_absent)


CompareResult = Annotated[
    RedlineComparison | HolisticComparison | FocusedComparison, Field(discriminator="mode")
]

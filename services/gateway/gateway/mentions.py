"""Autocomplete for the composer's @-input: actions, sets, documents and the web, by prefix.

A suggestion matches when its label, or any word of it, starts with the prefix (any case). Sets and
documents are offered only to a caller that may list them (the ``ingest`` scope): the tenant's sets
the caller has documents in, and the caller's own documents, as documents belong to their uploader.
A widget visitor gets actions and the web only.
"""

from collections import Counter
from typing import Annotated, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from gateway.models import ErrorBody
from gateway.resources import ResourcesDep
from gateway.sets import PALETTE, sets_with_counts
from policypal.auth.http import BearerPrincipal
from policypal.contracts import ActionName
from policypal.contracts.action_registry import ACTION_REGISTRY
from policypal.state import DocumentRecord, set_key

router = APIRouter(prefix="/v1/mentions", tags=["mentions"])

MentionKind = Literal["action", "set", "document", "web"]

_WEB_LABEL = "web"
_WEB_HINT = "Also search the web"


class MentionSuggestion(BaseModel):
    """One suggestion; ``insert_text`` goes into the message, the ids into ``mentions``."""

    kind: MentionKind = Field(examples=["document"])
    label: str = Field(examples=["GDPR"])
    detail: str = Field(description="A short second line.", examples=["Version 2016 · regulation · ready"])
    insert_text: str = Field(examples=["@GDPR"])
    action: ActionName | None = Field(default=None, description="For an action: mentions.action.")
    web: bool = Field(default=False, description="For the web: set mentions.web to true.")
    document_ids: list[str] = Field(
        default_factory=list,
        description="For a document or a set: the ids to put in mentions.documents.",
        examples=[["0196f1c2a4e7b3d8"]],
    )
    colour: str | None = Field(default=None, description="For a set: its palette colour.", examples=["teal"])


class MentionSuggestions(BaseModel):
    """Suggestions by category, each in display order; a category may be empty."""

    prefix: str = Field(examples=["gd"])
    actions: list[MentionSuggestion]
    sets: list[MentionSuggestion]
    documents: list[MentionSuggestion]
    web: list[MentionSuggestion]


def matches(label: str, prefix: str) -> bool:
    """True when ``label`` or one of its words starts with ``prefix``, ignoring case."""
    wanted = prefix.casefold()
    text = label.casefold()
    return text.startswith(wanted) or any(word.startswith(wanted) for word in text.split())


def mention_text(label: str) -> str:
    """``@label`` with spaces removed, so the mention reads as one word; the resolver knows both forms."""
    return "@" + "".join(label.split())


def action_suggestions(prefix: str) -> list[MentionSuggestion]:
    """The registered actions whose name starts with ``prefix``, in the registry's order."""
    return [
        MentionSuggestion(
            kind="action", label=spec.name, detail=spec.hint, insert_text=f"@{spec.name}", action=spec.name
        )
        for spec in ACTION_REGISTRY
        if matches(spec.name, prefix)
    ]


def document_suggestion(record: DocumentRecord, *, with_version: bool = False) -> MentionSuggestion:
    """A document shown by title and version; ``with_version`` puts the version in its label too.

    Two versions of one title must not read the same in the message ("@GNU General Public License"
    twice): then the label, and so the text the composer inserts, is "Title (version)", which the
    resolver reads as that version.
    """
    label = f"{record.title} ({record.version})" if with_version and record.version else record.title
    return MentionSuggestion(
        kind="document",
        label=label,
        detail=f"Version {record.version} · {record.doc_type} · {record.status}",
        insert_text=mention_text(label),
        document_ids=[record.document_id],
    )


def document_suggestions(records: list[DocumentRecord], prefix: str, limit: int) -> list[MentionSuggestion]:
    """The documents whose title or ``title version`` matches, newest first; failed ones left out."""
    listed = [r for r in records if r.status != "failed"]
    titles = Counter(r.title.casefold() for r in listed)
    found = [
        document_suggestion(r, with_version=titles[r.title.casefold()] > 1)
        for r in listed
        if matches(r.title, prefix) or matches(f"{r.title} {r.version}", prefix)
    ]
    return found[:limit]


@router.get(
    "",
    response_model=MentionSuggestions,
    responses={401: {"model": ErrorBody}, 403: {"model": ErrorBody}, 429: {"model": ErrorBody}},
)
async def suggest_mentions(
    principal: BearerPrincipal,
    resources: ResourcesDep,
    prefix: Annotated[
        str, Query(max_length=100, description="What follows the @ so far (may be empty).", examples=["gd"])
    ] = "",
    limit: Annotated[int, Query(ge=1, le=50, description="At most this many per category.")] = 8,
) -> MentionSuggestions:
    """Suggestions for the @-input whose label (or a word of it) starts with ``prefix``, by category."""
    prefix = prefix.strip().lstrip("@")
    sets: list[MentionSuggestion] = []
    documents: list[MentionSuggestion] = []
    if "ingest" in principal.scopes:
        records = await resources.catalog.list(principal.tenant_id, principal.user_id)
        listed = [r for r in records if r.status != "failed"]
        for view in await sets_with_counts(resources, principal, listed):
            if view.document_count and matches(view.name, prefix):
                members = [
                    r.document_id for r in listed if r.set_name and set_key(r.set_name) == set_key(view.name)
                ]
                plural = "document" if view.document_count == 1 else "documents"
                sets.append(
                    MentionSuggestion(
                        kind="set",
                        label=view.name,
                        detail=f"Set · {view.document_count} {plural}",
                        insert_text=mention_text(view.name),
                        document_ids=members,
                        colour=view.colour if view.colour in PALETTE else None,
                    )
                )
        documents = document_suggestions(records, prefix, limit)
    web = (
        [MentionSuggestion(kind="web", label=_WEB_LABEL, detail=_WEB_HINT, insert_text="@web", web=True)]
        if matches(_WEB_LABEL, prefix)
        else []
    )
    return MentionSuggestions(
        prefix=prefix,
        actions=action_suggestions(prefix)[:limit],
        sets=sets[:limit],
        documents=documents,
        web=web,
    )

"""Document sets: create one with a colour from the palette, list them with their document counts.

Sets belong to the tenant (every user of the tenant sees the same names and colours); the counts are
of the caller's own documents, since documents are the uploader's. A set also comes into being when a
document is uploaded with a set name nobody used yet; it then gets the default colour.
"""

from collections import Counter
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, HTTPException, status
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from gateway.display_text import VisibleText
from gateway.models import ErrorBody
from gateway.resources import Resources, ResourcesDep
from policypal.auth import Principal
from policypal.auth.http import BearerPrincipal
from policypal.state import DocumentRecord, DocumentSet, SetStore, set_key

router = APIRouter(prefix="/v1/sets", tags=["sets"])

#: The colours a set may have, by name, in the order defaults are handed out.
PALETTE: dict[str, str] = {
    "blue": "#2563EB",
    "green": "#16A34A",
    "orange": "#EA580C",
    "purple": "#9333EA",
    "teal": "#0D9488",
    "red": "#DC2626",
    "amber": "#D97706",
    "pink": "#DB2777",
    "indigo": "#4F46E5",
    "slate": "#475569",
}

SetName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$"),
    VisibleText,
]
_ERRORS: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody, "description": "Missing, invalid or expired credential."},
    403: {"model": ErrorBody, "description": "The credential lacks the 'ingest' scope."},
    429: {"model": ErrorBody, "description": "Too many requests; see Retry-After."},
}


class SetCreate(BaseModel):
    """A new set: its name, and optionally a colour from the palette (else the least used one)."""

    model_config = ConfigDict(extra="forbid")

    name: SetName = Field(examples=["HR policies"])
    colour: str | None = Field(
        default=None,
        description="One of the palette's colour names; omitted: the palette colour used least so far.",
        examples=["teal"],
        json_schema_extra={"enum": [*PALETTE]},
    )


class PaletteColour(BaseModel):
    """One colour a set may have."""

    name: str = Field(examples=["teal"])
    hex: str = Field(examples=["#0D9488"])


class SetView(BaseModel):
    """A set with the number of the caller's documents in it."""

    name: str = Field(examples=["HR policies"])
    colour: str = Field(examples=["teal"])
    colour_hex: str = Field(examples=["#0D9488"])
    document_count: int = Field(ge=0, examples=[3], description="The caller's documents in this set.")
    created_at: datetime


class SetList(BaseModel):
    """The tenant's sets by name, and the palette a new set's colour comes from."""

    sets: list[SetView]
    palette: list[PaletteColour]


def palette_colours() -> list[PaletteColour]:
    """The palette, in order."""
    return [PaletteColour(name=name, hex=hex_value) for name, hex_value in PALETTE.items()]


def palette_colour(colour: str) -> str:
    """The palette name of ``colour`` (any case); 422 with the palette when it is not one."""
    name = colour.strip().lower()
    if name not in PALETTE:
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT,
            f"Unknown colour {colour!r}; choose one of: {', '.join(PALETTE)}.",
        )
    return name


def default_colour(existing: list[DocumentSet]) -> str:
    """The palette colour the fewest sets have (the earliest in the palette on a tie)."""
    used = Counter(s.colour for s in existing)
    return min(PALETTE, key=lambda name: used[name])


def set_view(document_set: DocumentSet, document_count: int) -> SetView:
    """A stored set as the API shows it."""
    return SetView(
        name=document_set.name,
        colour=document_set.colour,
        colour_hex=PALETTE.get(document_set.colour, PALETTE["slate"]),
        document_count=document_count,
        created_at=document_set.created_at,
    )


async def ensure_set(resources: Resources, principal: Principal, name: str) -> DocumentSet:
    """The tenant's set called ``name`` (any case), created with the default colour if new."""
    store = SetStore(resources.redis)
    found = await store.get(principal.tenant_id, name)
    if found is not None:
        return found
    colour = default_colour(await store.list(principal.tenant_id))
    return await store.add(
        DocumentSet(tenant_id=principal.tenant_id, name=name, colour=colour, created_by=principal.user_id)
    )


async def sets_with_counts(
    resources: Resources, principal: Principal, documents: list[DocumentRecord]
) -> list[SetView]:
    """The tenant's sets by name, each with how many of ``documents`` are in it."""
    # A document named a set before sets were stored (or while storing it failed): list it as well.
    store = SetStore(resources.redis)
    known = {set_key(s.name) for s in await store.list(principal.tenant_id)}
    for name in {d.set_name for d in documents if d.set_name and set_key(d.set_name) not in known}:
        await ensure_set(resources, principal, name)
    counts = Counter(set_key(d.set_name) for d in documents if d.set_name)
    return [set_view(s, counts[set_key(s.name)]) for s in await store.list(principal.tenant_id)]


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=SetView,
    responses={
        **_ERRORS,
        409: {"model": ErrorBody, "description": "A set with this name (in any case) already exists."},
        422: {"model": ErrorBody, "description": "The colour is not in the palette, or the name is invalid."},
    },
)
async def create_set(body: SetCreate, principal: BearerPrincipal, resources: ResourcesDep) -> SetView:
    """Create a set for the caller's tenant, with a palette colour (the least used one when omitted)."""
    store = SetStore(resources.redis)
    colour = palette_colour(body.colour) if body.colour is not None else None
    existing = await store.list(principal.tenant_id)
    wanted = DocumentSet(
        tenant_id=principal.tenant_id,
        name=body.name,
        colour=colour or default_colour(existing),
        created_by=principal.user_id,
    )
    stored = await store.add(wanted)
    if stored is not wanted:
        raise HTTPException(status.HTTP_409_CONFLICT, f"A set named {stored.name!r} already exists.")
    documents = await resources.catalog.list(principal.tenant_id, principal.user_id)
    count = sum(1 for d in documents if d.set_name and set_key(d.set_name) == set_key(stored.name))
    return set_view(stored, count)


@router.get("", response_model=SetList, responses=_ERRORS)
async def list_sets(principal: BearerPrincipal, resources: ResourcesDep) -> SetList:
    """The tenant's sets by name, each with the number of the caller's documents in it."""
    documents = await resources.catalog.list(principal.tenant_id, principal.user_id)
    return SetList(sets=await sets_with_counts(resources, principal, documents), palette=palette_colours())

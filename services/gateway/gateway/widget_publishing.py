"""Admin endpoints for what the website widget answers from (docs/product.md, Website widget).

An administrator publishes documents, or a set of their own documents, to the widget; customers'
questions are answered from exactly the published documents (nothing private), in their newest
ready version, and a deleted or unpublished document drops out at once.
"""

from typing import Annotated, Self

from fastapi import APIRouter, HTTPException, Path, Response, status
from pydantic import BaseModel, Field, model_validator

from gateway.models import ErrorBody
from gateway.resources import ResourcesDep
from policypal.auth.http import AdminPrincipal
from policypal.contracts import DocType
from policypal.state import SetStore
from policypal.state.published import Publication, PublishedLibrary

router = APIRouter(prefix="/v1/admin/widget/publications", tags=["admin"])

PublicationKey = Annotated[str, Path(pattern=r"^(?:document|set):[A-Za-z0-9_:. -]{1,300}$")]
_ERRORS: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody},
    403: {"model": ErrorBody},
    429: {"model": ErrorBody},
}


class PublicationCreate(BaseModel):
    """Publish one document of the tenant, or a set of the caller's documents: exactly one of them."""

    document_id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,64}$")
    set_name: str | None = Field(default=None, min_length=1, max_length=100)

    @model_validator(mode="after")
    def _one_of_them(self) -> Self:
        if (self.document_id is None) == (self.set_name is None):
            raise ValueError("give either document_id or set_name")
        return self


class PublicationView(Publication):
    """A publication with the key to unpublish it by."""

    publication_key: str


class PublishedDocument(BaseModel):
    """A document customers may read now."""

    document_id: str
    title: str
    version: str
    doc_type: DocType


class PublishedList(BaseModel):
    """What is published, and the documents that covers now."""

    publications: list[PublicationView]
    documents: list[PublishedDocument]


def _view(publication: Publication) -> PublicationView:
    return PublicationView(**publication.model_dump(), publication_key=publication.key)


@router.get("", response_model=PublishedList, responses=_ERRORS)
async def list_publications(principal: AdminPrincipal, resources: ResourcesDep) -> PublishedList:
    """The tenant's publications and the ready documents they cover."""
    library = PublishedLibrary(resources.redis)
    publications = await library.publications(principal.tenant_id)
    documents = await library.documents(principal.tenant_id)
    return PublishedList(
        publications=[_view(p) for p in publications],
        documents=[PublishedDocument.model_validate(d.model_dump()) for d in documents],
    )


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=PublicationView,
    responses={**_ERRORS, 404: {"model": ErrorBody}},
)
async def publish(
    body: PublicationCreate, principal: AdminPrincipal, resources: ResourcesDep
) -> PublicationView:
    """Publish a document of the tenant, or a set of the caller's documents, to the widget."""
    if body.document_id is not None:
        record = await resources.catalog.get_in_tenant(principal.tenant_id, body.document_id)
        if record is None:
            raise HTTPException(status.HTTP_404_NOT_FOUND, "No such document.")
        publication = Publication(
            kind="document",
            document_id=record.document_id,
            owner_id=record.user_id,
            published_by=principal.user_id,
        )
    else:
        found = await SetStore(resources.redis).get(principal.tenant_id, body.set_name or "")
        if found is None:
            raise HTTPException(status.HTTP_404_NOT_FOUND, "No such set.")
        publication = Publication(
            kind="set", set_name=found.name, owner_id=principal.user_id, published_by=principal.user_id
        )
    return _view(await PublishedLibrary(resources.redis).publish(principal.tenant_id, publication))


@router.delete(
    "/{publication_key}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={**_ERRORS, 404: {"model": ErrorBody}},
)
async def unpublish(
    publication_key: PublicationKey, principal: AdminPrincipal, resources: ResourcesDep
) -> Response:
    """Take a document or set off the widget: customers' next questions no longer read it."""
    if not await PublishedLibrary(resources.redis).unpublish(principal.tenant_id, publication_key):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Nothing is published under this key.")
    return Response(status_code=status.HTTP_204_NO_CONTENT)

"""Small hostile inputs get a clear 4xx or are stored harmless (real gateway on NATS and Valkey)."""

import httpx
import pytest

from policypal.config import Settings
from tests.pdf_factory import one_page_pdf
from tests.support.gateway_client import admin, new_conversation, new_id, upload

pytestmark = pytest.mark.integration

RLO = "\u202e"
ZERO_WIDTH = "\u200b"


@pytest.mark.parametrize(
    "origin", ["https://x.example.org:abc", "https://shop.example.com:99999", "https://shop.example.com:-1"]
)
async def test_an_origin_with_a_bad_port_is_a_clear_400(
    client: httpx.AsyncClient, settings: Settings, origin: str
) -> None:
    tenant = new_id("t")
    await client.put(
        "/v1/admin/tenant", headers=admin(settings, tenant), json={"allowed_domains": ["shop.example.com"]}
    )
    response = await client.post(
        "/v1/widget/sessions", headers={"Origin": origin}, json={"tenant_id": tenant}
    )
    assert response.status_code == 400
    assert "Origin header is not a web origin" in response.json()["detail"]
    assert "access-control-allow-origin" not in response.headers
    # Elsewhere such an Origin is simply not admitted by CORS.
    assert (await client.get("/healthz", headers={"Origin": origin})).status_code == 200
    preflight = {"Origin": origin, "Access-Control-Request-Method": "GET"}
    assert (await client.options("/v1/documents", headers=preflight)).status_code == 403


async def test_a_5000_character_file_name_is_refused_naming_the_limit(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    response = await upload(client, auth, one_page_pdf("Policy"), filename="a" * 4996 + ".pdf")
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert "file names are limited to 255 characters" in detail
    assert "Invalid multipart data" not in detail


async def test_a_file_name_over_255_characters_is_refused_not_cut(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    name = "Board minutes" + " " * 300 + "2024.pdf"
    response = await upload(client, auth, one_page_pdf("Policy"), filename="x" * 290 + ".pdf")
    assert response.status_code == 422
    assert response.json()["detail"] == (
        "The file name is 294 characters long; the limit is 255. Rename the file and upload it again."
    )
    # White space collapses before the length is judged: this one is short enough, and shown whole.
    accepted = await upload(client, auth, one_page_pdf("Policy"), filename=name)
    assert accepted.status_code == 202, accepted.text
    stored = (await client.get(f"/v1/documents/{accepted.json()['document_id']}", headers=auth)).json()
    assert stored["filename"] == "Board minutes 2024.pdf"


async def test_invisible_and_reordering_characters_are_stripped_from_stored_names(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    response = await upload(
        client,
        auth,
        one_page_pdf("Policy"),
        filename=f"contract{RLO}cod.pdf",
        title=f"Data{ZERO_WIDTH} Protection\u2066 Policy\u0007",
        version=f"2{ZERO_WIDTH}.1",
        set_name=f"HR{RLO} policies",
    )
    assert response.status_code == 202, response.text
    stored = (await client.get(f"/v1/documents/{response.json()['document_id']}", headers=auth)).json()
    assert (stored["filename"], stored["title"], stored["version"], stored["set_name"]) == (
        "contractcod.pdf",
        "Data Protection Policy",
        "2.1",
        "HR policies",
    )

    conversation = await new_conversation(client, auth, f"{RLO}weiver RPDG")
    read = (await client.get(f"/v1/conversations/{conversation}", headers=auth)).json()
    assert read["title"] == "weiver RPDG"
    renamed = await client.patch(
        f"/v1/conversations/{conversation}", headers=auth, json={"title": f"GDPR{ZERO_WIDTH}\ufeff review"}
    )
    assert renamed.json()["title"] == "GDPR review"
    # Persian needs its zero-width non-joiner, emoji sequences their joiners: those stay.
    kept = await client.patch(
        f"/v1/conversations/{conversation}",
        headers=auth,
        json={"title": "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 👩\u200d⚖️"},
    )
    assert kept.json()["title"] == "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 👩\u200d⚖️"


@pytest.mark.parametrize("title", [ZERO_WIDTH * 3, f"{RLO}\u2069", "\u00ad"])
async def test_a_title_of_invisible_characters_only_is_422(
    client: httpx.AsyncClient, auth: dict[str, str], title: str
) -> None:
    assert (await client.post("/v1/conversations", headers=auth, json={"title": title})).status_code == 422
    response = await upload(client, auth, one_page_pdf("Policy"), title=title)
    assert response.status_code == 422
    assert (await client.post("/v1/sets", headers=auth, json={"name": title})).status_code == 422

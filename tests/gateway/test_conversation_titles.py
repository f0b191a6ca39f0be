"""Conversations titled from their first message: the phrase, and the store's rules over HTTP."""

import httpx
import pytest

from gateway.conversation_titles import DEFAULT_TITLE, MAX_WORDS, title_from_message
from tests.support.gateway_client import new_conversation


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("@Summarize @OurAMLPolicy", "Summary of Our AML Policy"),
        ("Compare @GPL 2 and @GPL 3", "Comparison of GPL 2 and GPL 3"),
        ("What does our policy say about PEP screening?", "PEP screening"),
        ("Hi team, can you summarize the Debian Policy Manual?", "Summary of the Debian Policy Manual"),
        ("How long must customer records be kept?", "How long must customer records be kept"),
        ("Check @ACME against those", "Audit of ACME against those"),
        ("   ", DEFAULT_TITLE),
    ],
)
def test_a_short_noun_phrase_from_the_first_message(message: str, title: str) -> None:
    assert title_from_message(message) == title


def test_pasted_text_never_reaches_the_title() -> None:
    title = title_from_message("Audit this email against @GDPR:\nDear customer, we keep your data forever.")
    assert title == "Audit of this email against GDPR"
    long = title_from_message("What does the regulation say about " + "very " * 30 + "long retention?")
    assert len(long.split()) <= MAX_WORDS


@pytest.mark.integration
async def test_the_first_message_titles_an_untitled_conversation_once(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    untitled = await new_conversation(client, auth)
    named = await new_conversation(client, auth, "Board pack")
    for conversation_id in (untitled, named):
        url = f"/v1/conversations/{conversation_id}/messages"
        sent = await client.post(
            url, headers=auth, json={"text": "What does our policy say about PEP screening?"}
        )
        assert sent.status_code == 202
        later = await client.post(url, headers=auth, json={"text": "Summarize the retention rules"})
        assert later.status_code == 202
    listed = (await client.get("/v1/conversations", headers=auth)).json()["conversations"]
    titles = {c["conversation_id"]: c["title"] for c in listed}
    # Only the untitled one, only from its first message; a title the user gave stays.
    assert titles == {untitled: "PEP screening", named: "Board pack"}

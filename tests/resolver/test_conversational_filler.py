"""Chat filler comes out of the question; numbers, identifiers, negations and quotes never do.

The messages are written from general chat English, not from any benchmark's question set.
"""

import pytest

from resolver.conversational_filler import essentials, has_content, without_filler


@pytest.mark.parametrize(
    ("message", "question"),
    [
        (
            "hey team, quick one: can you tell me how long we keep audit logs? thanks!",
            "how long we keep audit logs?",
        ),
        (
            "Hi! Quick question. What is the retention period for KYC records? Thanks, Maria",
            "What is the retention period for KYC records?",
        ),
        ("Good morning all - who approves vendor onboarding?", "who approves vendor onboarding?"),
        ("hello there PolicyPal, do you happen to know where /var/log lives?", "where /var/log lives?"),
        ("I was wondering if you could tell me whether contractors need MFA", "contractors need MFA"),
        ("Do you know if expense reports need two signatures?", "expense reports need two signatures?"),
        ("Could you please explain what a conflict of interest is?", "what a conflict of interest is?"),
        ("sorry to bother you again, where are backups stored?", "where are backups stored?"),
        ("So, what happens when a laptop is lost? pls", "what happens when a laptop is lost?"),
        ("ok, one more question for you: who signs off on exceptions", "who signs off on exceptions"),
        ("I'd like to know how often access reviews run. Much appreciated!", "how often access reviews run."),
        ("what is the travel allowance please?", "what is the travel allowance?"),
        (
            "Kindly confirm the notice period for resignations. Best regards, Tom",
            "the notice period for resignations.",
        ),
        ("hey, GDPR?", "GDPR?"),
        ("hey, can my .deb ship a .so file? thanks", "can my .deb ship a .so file?"),
        ("hi! --purge removes what exactly?", "--purge removes what exactly?"),
        ("um, does anyone know who owns the risk register? thx :)", "who owns the risk register?"),
    ],
)
def test_filler_is_removed(message: str, question: str) -> None:
    assert without_filler(message) == question


@pytest.mark.parametrize(
    "message",
    [
        # Nothing but filler: the original is kept, never an empty query.
        "thanks!",
        "Hi there!",
        "Quick question, thanks",
        "Can you tell me?",
        # What is left would have no content word.
        "Hi, why?",
        # Nothing to remove.
        "How long must customer transaction records be retained?",
        # Words that look like filler but are the subject.
        "Right to erasure: how fast must we respond?",
        "Which teams say thanks in the recognition programme?",
        "What is the best practice for key rotation?",
    ],
)
def test_questions_without_removable_filler_are_kept_as_they_are(message: str) -> None:
    assert without_filler(message) == message


def test_numbers_identifiers_negations_and_quotes_survive() -> None:
    message = 'Hi! Do you know if "material breach" does not apply under section 4.2 of ISO27001? Thanks'
    cleaned = without_filler(message)
    assert cleaned == '"material breach" does not apply under section 4.2 of ISO27001?'
    assert essentials(message) - essentials(cleaned) == essentials("")


def test_filler_inside_quotes_stays() -> None:
    message = "Hey, what does 'thank you' mean in the gifts clause?"
    assert without_filler(message) == "what does 'thank you' mean in the gifts clause?"


def test_a_cleaning_that_would_lose_an_essential_keeps_the_original() -> None:
    # "Thanks, SOX" reads like a sign-off with a name, but SOX is an identifier: the message stays.
    message = "Which controls are in scope? Thanks, SOX"
    assert without_filler(message) == message


def test_essentials_are_numbers_identifiers_negations_and_quotes() -> None:
    found = essentials("Don't log 'secret' values; keep /etc/app.conf for 90 days per GDPR and iOS")
    assert found == {"don't": 1, "'secret'": 1, "/etc/app.conf": 1, "90": 1, "gdpr": 1, "ios": 1}


def test_content_words_are_what_is_not_a_function_word() -> None:
    assert has_content("who owns it?") is True
    assert has_content("what is it?") is False

"""Instruction and payload: what the user asks, and the text pasted with it."""

import pytest

from resolver.message_parts import split_message

EMAIL = "Dear customer, we guarantee a fixed return of twenty percent on every deposit, no checks."


@pytest.mark.parametrize(
    "message",
    [
        f"Audit this email: {EMAIL}",
        f"Audit “{EMAIL}” please",
        f'Does this comply with @GDPR? "{EMAIL}"',
        f"Check the text below against @GDPR\n{EMAIL}",
        f"Is this compliant with those two?\nFrom: a@b.example\nSubject: Offer\n{EMAIL}",
        f"Review this against the policy:\n```\n{EMAIL}\n```",
    ],
)
def test_the_pasted_text_is_the_payload(message: str) -> None:
    parts = split_message(message)
    assert parts.payload is not None
    assert "twenty percent" in parts.payload
    assert "twenty percent" not in parts.instruction
    assert parts.instruction
    assert not parts.instruction.endswith(":")


@pytest.mark.parametrize(
    "message",
    [
        "Audit @pol against @reg: capital only",
        "Quick question: how long must we keep customer records after the account is closed?",
        "@Inquire @GDPR: How long may personal data be kept under the regulation, and by whom?",
        "What does the “retention period” mean in the FSA rules?",
        "Compare @A and @B\nfocus on retention",
    ],
)
def test_a_question_with_a_colon_short_quote_or_second_line_is_all_instruction(message: str) -> None:
    assert split_message(message).payload is None
    assert split_message(message).instruction == message


def test_headers_on_the_line_after_the_colon_start_the_payload() -> None:
    message = f"Audit this email against @GPL:\nFrom: Dana <d@acme.example>\nSubject: Plan\n\n{EMAIL}"
    parts = split_message(message)
    assert parts.instruction == "Audit this email against @GPL"
    assert parts.payload is not None
    assert parts.payload.startswith("From: Dana")

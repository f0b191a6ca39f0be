"""Cost of a call from the price table."""

import logging

import pytest

from policypal.llm import PRICES, Price, add_usage, estimate_tokens, price_of, usage_with_cost


def test_cost_is_tokens_times_the_price_per_million() -> None:
    usage = usage_with_cost("gpt-4o", prompt_tokens=2_000, completion_tokens=500)
    assert (usage.prompt_tokens, usage.completion_tokens) == (2_000, 500)
    assert usage.cost_usd == pytest.approx(2_000 * 2.50 / 1e6 + 500 * 10.00 / 1e6)
    mini = usage_with_cost("gpt-4o-mini", prompt_tokens=1_000_000, completion_tokens=1_000_000)
    assert mini.cost_usd == pytest.approx(0.15 + 0.60)


def test_dated_snapshots_take_the_price_of_their_model() -> None:
    assert price_of("gpt-4o-mini-2024-07-18") == PRICES["gpt-4o-mini"]
    assert price_of("gpt-4o-2024-08-06") == PRICES["gpt-4o"]
    assert price_of("gpt-4o-minimal") is None


def test_unknown_model_costs_nothing_with_a_note(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="policypal.llm.pricing"):
        usage = usage_with_cost("smollm2-135m", prompt_tokens=500, completion_tokens=50)
    assert usage.cost_usd == 0.0
    assert (usage.prompt_tokens, usage.completion_tokens) == (500, 50)
    assert "no price for model 'smollm2-135m'" in caplog.text


def test_custom_price_table_and_sum_of_calls() -> None:
    prices = {"local": Price(1.0, 2.0)}
    first = usage_with_cost("local", 1_000, 100, prices)
    second = usage_with_cost("local", 3_000, 300, prices)
    total = add_usage(first, second)
    assert (total.prompt_tokens, total.completion_tokens) == (4_000, 400)
    assert total.cost_usd == pytest.approx((4_000 * 1.0 + 400 * 2.0) / 1e6)
    assert total.estimated is False


def test_an_estimate_is_four_characters_a_token_and_marks_any_sum_it_is_in() -> None:
    assert [estimate_tokens(text) for text in ("", "abcd", "abcde", "x" * 400)] == [0, 1, 2, 100]
    reported = usage_with_cost("gpt-4o", 1_000, 100)
    estimated = usage_with_cost("gpt-4o", 40, 10, estimated=True)
    assert estimated.estimated is True
    assert estimated.cost_usd == pytest.approx((40 * 2.50 + 10 * 10.00) / 1e6)
    assert add_usage(reported, estimated).estimated is True
    assert add_usage(estimated, reported).estimated is True

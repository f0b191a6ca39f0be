"""What a completion costs, from a price table per model (USD per million tokens)."""

import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass

from policypal.contracts import Usage

logger = logging.getLogger(__name__)

#: Characters per token of English text with OpenAI's tokenizers (their published rule of thumb).
CHARACTERS_PER_TOKEN = 4


@dataclass(frozen=True)
class Price:
    """USD per one million prompt (input) and completion (output) tokens."""

    prompt_per_million: float
    completion_per_million: float


#: OpenAI's list prices (standard tier). Dated snapshots ("gpt-4o-mini-2024-07-18") use their base entry.
PRICES: Mapping[str, Price] = {
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4o-mini": Price(0.15, 0.60),
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1-nano": Price(0.10, 0.40),
}


def price_of(model: str, prices: Mapping[str, Price] = PRICES) -> Price | None:
    """The price of ``model``, or of the longest listed name it is a dated snapshot of; None if unlisted."""
    if model in prices:
        return prices[model]
    bases = [
        name
        for name in prices
        if model.startswith(f"{name}-") and model[len(name) + 1 : len(name) + 2].isdigit()
    ]
    return prices[max(bases, key=len)] if bases else None


def usage_with_cost(
    model: str,
    prompt_tokens: int,
    completion_tokens: int,
    prices: Mapping[str, Price] = PRICES,
    *,
    estimated: bool = False,
) -> Usage:
    """Token counts of one call and their cost; a model missing from the table costs 0, with a log note.

    ``estimated`` marks counts the server did not report (see :func:`estimate_tokens`).
    """
    price = price_of(model, prices)
    if price is None:
        logger.warning("no price for model %r: its cost is counted as 0 USD", model)
        cost = 0.0
    else:
        cost = (
            prompt_tokens * price.prompt_per_million + completion_tokens * price.completion_per_million
        ) / 1e6
    return Usage(
        prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cost_usd=cost, estimated=estimated
    )


def add_usage(first: Usage, second: Usage) -> Usage:
    """The usage of two calls made for one answer: estimated if either one was."""
    return Usage(
        prompt_tokens=first.prompt_tokens + second.prompt_tokens,
        completion_tokens=first.completion_tokens + second.completion_tokens,
        cost_usd=first.cost_usd + second.cost_usd,
        estimated=first.estimated or second.estimated,
    )


def estimate_tokens(text: str) -> int:
    """About how many tokens ``text`` is, for a server that reports none: four characters a token.

    OpenAI's rule of thumb for English; exact counts need the model's own tokenizer, which a client
    of an arbitrary compatible server does not have.
    """
    return math.ceil(len(text) / CHARACTERS_PER_TOKEN)

"""One question to Redis at start-up: does it answer at ``url``?"""

from policypal.state.connection import DEFAULT_REDIS_URL, connect_redis


async def ping_redis(url: str | None) -> None:
    """PING Redis at ``url`` (default: the local one) on a connection of its own, then close it.

    Raises redis-py's error when it does not answer.
    """
    client = connect_redis(url)
    try:
        await client.ping()
    finally:
        await client.aclose()


def redis_location(url: str | None) -> str:
    """The URL a client of ``url`` connects to (for messages)."""
    return url or DEFAULT_REDIS_URL

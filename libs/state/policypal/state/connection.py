"""Redis connection from a URL."""

from redis.asyncio import BlockingConnectionPool, Redis

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def connect_redis(url: str | None) -> "Redis":
    """An asyncio Redis client that returns ``str``; it connects lazily on first command."""
    # Blocking pool: above 100 concurrent commands (e.g. 500 SSE clients connecting at once) wait for a
    # free connection instead of failing with "Too many connections" (redis-py's default pool raises).
    pool = BlockingConnectionPool.from_url(
        url or DEFAULT_REDIS_URL,
        max_connections=100,
        timeout=10,
        decode_responses=True,
        health_check_interval=30,
    )
    client: Redis = Redis(connection_pool=pool)
    return client

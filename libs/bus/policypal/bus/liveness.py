"""A worker's liveness signal: a file it touches while its event loop turns.

Workers serve no HTTP, so Kubernetes checks the file's age with an exec probe (deploy/k8s: a
one-line ``python -c`` that imports nothing of ours, so the probe costs milliseconds). A loop that
stops turning (a handler blocking it, a deadlock) stops the touches and the probe fails; a broker
reconnecting through a NATS outage keeps them, since a restart would not bring NATS back.
"""

import asyncio
from pathlib import Path

#: How often the file is touched; the probe allows several missed beats (deploy/k8s: 30 s).
BEAT_SECONDS = 5.0


async def beat(path: Path, every: float = BEAT_SECONDS) -> None:
    """Touch ``path`` every ``every`` seconds until cancelled."""
    await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
    while True:
        await asyncio.to_thread(path.touch)
        await asyncio.sleep(every)

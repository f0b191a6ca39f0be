"""``python -m actions.compare``: the @Compare worker, configured from the environment."""

import asyncio

from actions.compare.service import DURABLE, build_router
from actions.worker_main import serve_action_worker

if __name__ == "__main__":
    asyncio.run(serve_action_worker(DURABLE, build_router))

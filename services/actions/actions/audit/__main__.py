"""``python -m actions.audit``: the @Audit worker, configured from the environment."""

import asyncio

from actions.audit.service import DURABLE, build_router
from actions.worker_main import serve_action_worker

if __name__ == "__main__":
    asyncio.run(serve_action_worker(DURABLE, build_router))

"""``python -m actions.inquire``: the @Inquire worker, configured from the environment."""

import asyncio

from actions.inquire.service import build_router
from actions.worker_main import serve_action_worker

if __name__ == "__main__":
    asyncio.run(serve_action_worker("actions-inquire", build_router))

"""``python -m actions.summarize``: the @Summarize worker, configured from the environment."""

from actions.summarize.service import DURABLE, build_router
from actions.worker_main import run_action_worker

if __name__ == "__main__":
    run_action_worker(DURABLE, build_router)

"""``python -m actions.compare``: the @Compare worker, configured from the environment."""

from actions.compare.service import DURABLE, build_router
from actions.worker_main import run_action_worker

if __name__ == "__main__":
    run_action_worker(DURABLE, build_router)

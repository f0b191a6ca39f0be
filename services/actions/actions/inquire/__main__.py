"""``python -m actions.inquire``: the @Inquire worker, configured from the environment."""

from actions.inquire.service import build_router
from actions.worker_main import run_action_worker

if __name__ == "__main__":
    run_action_worker("actions-inquire", build_router)

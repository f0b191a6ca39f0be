"""A worker without QDRANT_URL opens local Qdrant only when the embedded launcher says it owns it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from policypal.config import Settings
from policypal.devstack import ManagedProcess
from policypal.vectorstore import UnownedLocalIndexError, require_index_owner


def test_local_qdrant_needs_the_launchers_word_for_that_directory(tmp_path: Path) -> None:
    path = tmp_path / "qdrant"
    with pytest.raises(UnownedLocalIndexError, match="QDRANT_URL"):
        require_index_owner(Settings(_env_file=None, qdrant_path=path))
    with pytest.raises(UnownedLocalIndexError):
        require_index_owner(Settings(_env_file=None, qdrant_path=path, qdrant_local_owner=tmp_path / "other"))
    require_index_owner(Settings(_env_file=None, qdrant_path=path, qdrant_local_owner=path))
    require_index_owner(Settings(_env_file=None, qdrant_url="http://qdrant:6333"))


@pytest.mark.integration
@pytest.mark.parametrize("module", ["ingestor", "actions.inquire"])
def test_a_worker_started_by_hand_without_qdrant_url_refuses_to_start(
    module: str, nats_server: ManagedProcess, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if "QDRANT" not in k}
    env |= {
        "NATS_URL": str(nats_server.url),
        "POLICYPAL_DATA_DIR": str(tmp_path),
        "POLICYPAL_ENVIRONMENT": "production",
        "POLICYPAL_JWT_SECRET": "a-real-secret-for-this-test-0123456789abcdef",
    }
    result = subprocess.run(
        [sys.executable, "-m", module], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode != 0
    assert "QDRANT_URL is not set" in result.stderr
    assert not (tmp_path / "qdrant").exists(), "it opened a local index before refusing"

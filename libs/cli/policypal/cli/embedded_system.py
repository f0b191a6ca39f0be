"""Every PolicyPal process on one machine, on the embedded defaults.

nats-server comes from its wheel when NATS_URL is unset and Valkey from its wheel when REDIS_URL is
unset; both keep their data under POLICYPAL_DATA_DIR so a restart keeps documents and conversations.
Local Qdrant is single-process, so without QDRANT_URL the ingestor and the action workers share one
process (``policypal.cli.colocated``).

The embedded nats-server admits no anonymous client: each process connects as its own user with the
permissions of the services it runs (docs/adr/0007); other systems' credentials, made with
``policypal bus-credential create``, are kept under POLICYPAL_DATA_DIR/bus across restarts.
"""

import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from policypal.auth import issue_token
from policypal.cli.bus_credentials import BusCredentials
from policypal.config import Settings
from policypal.contracts.action_registry import ACTION_REGISTRY
from policypal.devstack import ManagedProcess, Supervisor, start_nats_server, start_valkey, stop_together

#: Workers that open Qdrant; colocated when Qdrant is local.
VECTOR_WORKERS = ("ingestor", *(spec.worker for spec in ACTION_REGISTRY))
COLOCATED = "ingestor+actions"
#: Started from wheels when no URL is given; stopped last, once every service has drained.
INFRASTRUCTURE = frozenset({"nats-server", "valkey"})
#: Beyond a worker's own drain time: closing its connections and exporting its last telemetry.
STOP_MARGIN_SECONDS = 15.0
#: The NATS user of each process and the services whose permissions it has.
PROCESS_USERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "resolver": ("resolver", ("resolver",)),
    "notifier": ("notifier", ("notifier",)),
    "gateway": ("gateway", ("gateway",)),
    "ingestor": ("ingestor", ("ingestor",)),
    COLOCATED: ("ingestor-actions", ("ingestor", "actions")),
    **{name: ("actions", ("actions",)) for name in VECTOR_WORKERS if name.startswith("actions.")},
}


@dataclass
class EmbeddedSystem:
    """The started processes, stopped in reverse order."""

    settings: Settings
    processes: list[ManagedProcess] = field(default_factory=list)
    #: NATS user -> password of this run, when the embedded nats-server was started.
    bus_passwords: dict[str, str] = field(default_factory=dict)
    nats_url: str | None = None

    @property
    def log_dir(self) -> Path:
        """Where every process writes its log."""
        return self.settings.data_dir / "logs"

    def start(self) -> None:
        """Start infrastructure, then services; wait until the HTTP services listen."""
        data_dir = self.settings.data_dir
        data_dir.mkdir(parents=True, exist_ok=True)
        env = self.settings.as_environment() | {"POLICYPAL_DATA_DIR": str(data_dir.resolve())}
        try:
            nats_url = self.settings.nats_url
            if nats_url is None:
                credentials = BusCredentials(data_dir / "bus")
                self.bus_passwords = credentials.issue_service_credentials(dict(PROCESS_USERS.values()))
                nats = start_nats_server(
                    data_dir / "nats",
                    log_path=self.log_dir / "nats-server.log",
                    config=credentials.config_path,
                    pid_file=credentials.pid_file,
                )
                self.processes.append(nats)
                nats_url = nats.url
            redis_url = self.settings.redis_url
            if redis_url is None:
                valkey = start_valkey(data_dir / "valkey", log_path=self.log_dir / "valkey.log")
                self.processes.append(valkey)
                redis_url = valkey.url
            self.nats_url = str(nats_url)
            env |= {"NATS_URL": str(nats_url), "REDIS_URL": str(redis_url)}
            self._start_services(env)
        except BaseException:
            self.stop()
            raise

    def _start_services(self, env: dict[str, str]) -> None:
        python = sys.executable
        if self.settings.qdrant_url:
            workers = [(name, [python, "-m", name]) for name in VECTOR_WORKERS]
        else:
            workers = [(COLOCATED, [python, "-m", "policypal.cli.colocated", *VECTOR_WORKERS])]
            # That one process owns local Qdrant; a worker started any other way refuses to open it.
            env = env | {"POLICYPAL_QDRANT_LOCAL_OWNER": str(self.settings.qdrant_local_path.resolve())}
        for name, argv in [("resolver", [python, "-m", "resolver"]), *workers]:
            self.processes.append(
                ManagedProcess.start(
                    name, argv, env=self._env_of(name, env), log_path=self.log_dir / f"{name}.log"
                )
            )
        for name, port in (("notifier", self.settings.notifier_port), ("gateway", self.settings.port)):
            self.processes.append(
                ManagedProcess.start(
                    name,
                    [python, "-m", name],
                    port,
                    f"http://{self.settings.host}:{port}",
                    env=self._env_of(name, env),
                    log_path=self.log_dir / f"{name}.log",
                    ready_timeout=60.0,
                )
            )

    def _env_of(self, process: str, env: dict[str, str]) -> dict[str, str]:
        """``env`` with the NATS user of ``process`` when this run issued the bus credentials."""
        user = PROCESS_USERS[process][0]
        if user not in self.bus_passwords:
            return env
        return env | {"NATS_USER": user, "NATS_PASSWORD": self.bus_passwords[user]}

    @property
    def stop_timeout(self) -> float:
        """How long services get to stop: their drain time (POLICYPAL_GRACEFUL_TIMEOUT_SECONDS) and a margin."""
        return self.settings.graceful_timeout_seconds + STOP_MARGIN_SECONDS

    def stop(self) -> None:
        """SIGTERM every service at once and let them drain in parallel; then infrastructure, last first."""
        services = [p for p in self.processes if p.name not in INFRASTRUCTURE]
        stop_together(services, timeout=self.stop_timeout)
        for proc in reversed([p for p in self.processes if p.name in INFRASTRUCTURE]):
            proc.stop(timeout=10.0)
        self.processes.clear()

    def exited(self) -> list[ManagedProcess]:
        """Processes that stopped on their own."""
        return [p for p in self.processes if not p.running]


def run_until_interrupted(settings: Settings, *, tenant: str, user: str) -> int:
    """Start everything, print how to use it, restart what crashes, and stop cleanly on Ctrl-C or SIGTERM."""
    stopping = False

    def _request_stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, _request_stop)
    signal.signal(signal.SIGTERM, _request_stop)
    system = EmbeddedSystem(settings)
    print(f"Starting PolicyPal (data in {settings.data_dir.resolve()}, logs in {system.log_dir.resolve()}) …")
    system.start()
    token = issue_token(settings, tenant, user)
    print(
        f"\nPolicyPal is up.\n"
        f"  API:     http://{settings.host}:{settings.port}  (docs: /docs)\n"
        f"  Events:  {settings.events_base_url}\n"
        f"  Token:   {token}\n"
        f"           (tenant {tenant!r}, user {user!r}; another: policypal token --tenant T --user U)\n"
        f"  Bus:     {system.nats_url}  (no anonymous access; a credential for another system:\n"
        f"           policypal bus-credential create --tenant T --name N)\n"
        f"Press Ctrl-C to stop.",
        flush=True,
    )
    # A crashed process comes back after a back-off; the others keep serving meanwhile.
    supervisor = Supervisor(system.processes)
    while not stopping:
        supervisor.check()
        time.sleep(0.5)
    print(
        f"Stopping PolicyPal (workers finish what they hold, up to {system.stop_timeout:g} s) …", flush=True
    )
    system.stop()
    print("Stopped.", flush=True)
    return 0

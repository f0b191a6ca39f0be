"""A real nats-server that admits only PolicyPal's service users and tenant-scoped external users."""

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nats
from nats.aio.client import Client

from policypal.bus.permissions import SERVICE_PERMISSIONS
from policypal.cli.bus_credentials import BusCredentials
from policypal.devstack import ManagedProcess, start_nats_server


@dataclass
class SecuredBus:
    """The server, its credential directory, and this run's service passwords."""

    server: ManagedProcess
    credentials: BusCredentials
    passwords: dict[str, str]
    errors: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        """Where the server listens."""
        return str(self.server.url)

    async def connect(self, user: str | None = None, password: str | None = None, **options: Any) -> Client:
        """A client logged in as ``user``; asynchronous server errors (permission violations) are recorded."""

        async def record(exc: Exception) -> None:
            self.errors.append(str(exc))

        return await nats.connect(
            self.url,
            user=user,
            password=password,
            error_cb=record,
            allow_reconnect=False,
            max_reconnect_attempts=0,
            **options,
        )

    async def service(self, name: str) -> Client:
        """A client logged in as PolicyPal service ``name``."""
        return await self.connect(name, self.passwords[name])

    async def violations(self, wait: float = 0.5) -> list[str]:
        """The permission violations the server reported so far (after letting them arrive)."""
        await asyncio.sleep(wait)
        return [e for e in self.errors if "permissions violation" in e.lower()]


@contextmanager
def secured_bus(root: Path) -> Iterator[SecuredBus]:
    """Start nats-server under ``root`` with one user per PolicyPal service; stop it afterwards."""
    credentials = BusCredentials(root / "bus")
    passwords = credentials.issue_service_credentials({name: (name,) for name in SERVICE_PERMISSIONS})
    server = start_nats_server(
        root / "store",
        log_path=root / "nats.log",
        config=credentials.config_path,
        pid_file=credentials.pid_file,
    )
    try:
        yield SecuredBus(server, credentials, passwords)
    finally:
        server.stop()

"""Bus credentials on one machine: a user per PolicyPal process, and tenant-scoped users for other systems.

Everything lives in one directory (``<data_dir>/bus`` for ``policypal up``): the hashes of this run's
service passwords, the external credentials (kept across restarts), the nats-server configuration
rendered from both, and the server's pid file so that a new or revoked credential takes effect at
once (SIGHUP). Passwords are shown once and never stored; only their bcrypt hashes are.
"""

import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from policypal.bus.permissions import (
    external_inbox_prefix,
    external_permissions,
    service_permissions,
)
from policypal.contracts.subjects import tenant_action_requested
from policypal.devstack.nats_auth import (
    NatsUser,
    hash_password,
    new_password,
    reload_nats_server,
    render_authorization,
    write_private,
)

_SAFE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: External users' names start with this, so they can never take a service's name.
EXTERNAL_USER_PREFIX = "ext"


@dataclass(frozen=True)
class ExternalCredential:
    """A credential handed to another system; ``password`` only when just created."""

    user: str
    tenant_id: str
    created_at: str
    password: str | None = None

    @property
    def publish_subject(self) -> str:
        """Where it publishes audit requests."""
        return tenant_action_requested("audit", self.tenant_id)

    @property
    def events_subject(self) -> str:
        """What it subscribes to for results."""
        return f"events.{self.tenant_id}.>"

    @property
    def inbox_prefix(self) -> str:
        """The inbox prefix its client must connect with (JetStream acks arrive there)."""
        return external_inbox_prefix(self.tenant_id)


@dataclass(frozen=True)
class _ServiceUser:
    user: str
    services: tuple[str, ...]
    password_hash: str


class BusCredentials:
    """The credential files of one nats-server under ``directory``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.config_path = directory / "nats-auth.conf"
        self.pid_file = directory / "nats-server.pid"
        self._services_path = directory / "services.json"
        self._external_path = directory / "external-credentials.json"

    def issue_service_credentials(
        self, users: Mapping[str, tuple[str, ...]], *, keep_others: bool = False
    ) -> dict[str, str]:
        """New passwords for ``users`` (user name -> the services its process runs); returns them.

        The previous passwords of ``users`` stop working. Other service users are dropped (each
        ``policypal up`` issues its own set) unless ``keep_others`` (rotating one deployed service).
        """
        passwords = {user: new_password() for user in users}
        records = [
            asdict(_ServiceUser(user, tuple(services), hash_password(passwords[user])))
            for user, services in users.items()
        ]
        if keep_others:
            records = [r for r in self._service_records() if r["user"] not in users] + records
        write_private(self._services_path, json.dumps(records, indent=2) + "\n")
        self.render()
        return passwords

    def service_user_names(self) -> list[str]:
        """The service users the configuration admits."""
        return [record["user"] for record in self._service_records()]

    def create_external(self, tenant_id: str, name: str) -> ExternalCredential:
        """A new credential of ``tenant_id`` named ``name``; live at once if the server runs."""
        for value, what in ((tenant_id, "tenant"), (name, "name")):
            if not _SAFE_NAME.match(value):
                raise ValueError(f"{what} {value!r} must be 1-64 letters, digits, '-' or '_'")
        user = f"{EXTERNAL_USER_PREFIX}-{tenant_id}-{name}"
        records = self._external_records()
        if any(r["user"] == user for r in records):
            raise ValueError(f"a credential {user!r} exists; revoke it first or choose another name")
        password = new_password()
        created_at = datetime.now(UTC).isoformat(timespec="seconds")
        records.append(
            {
                "user": user,
                "tenant_id": tenant_id,
                "created_at": created_at,
                "password_hash": hash_password(password),
            }
        )
        self._write_external(records)
        return ExternalCredential(user, tenant_id, created_at, password)

    def revoke_external(self, user: str) -> bool:
        """Remove credential ``user``; its connections are closed when the server reloads."""
        records = self._external_records()
        kept = [r for r in records if r["user"] != user]
        if len(kept) == len(records):
            return False
        self._write_external(kept)
        return True

    def external(self) -> list[ExternalCredential]:
        """The external credentials, without passwords."""
        return [
            ExternalCredential(r["user"], r["tenant_id"], r["created_at"]) for r in self._external_records()
        ]

    def users(self) -> list[NatsUser]:
        """Every user the server admits: this run's services, then the external systems."""
        found: list[NatsUser] = []
        for record in self._service_records():
            rights = service_permissions(*record["services"])
            found.append(
                NatsUser(record["user"], rights.publish, rights.subscribe, password=record["password_hash"])
            )
        for record in self._external_records():
            rights = external_permissions(record["tenant_id"])
            found.append(
                NatsUser(record["user"], rights.publish, rights.subscribe, password=record["password_hash"])
            )
        return found

    def render(self) -> Path:
        """Write the server's configuration from the current users; returns its path."""
        write_private(self.config_path, render_authorization(self.users()))
        return self.config_path

    def reload_server(self) -> bool:
        """Make a running nats-server of this directory read the configuration again."""
        return reload_nats_server(self.pid_file)

    def _service_records(self) -> list[dict[str, Any]]:
        if not self._services_path.exists():
            return []
        records: list[dict[str, Any]] = json.loads(self._services_path.read_text())
        return records

    def _external_records(self) -> list[dict[str, str]]:
        if not self._external_path.exists():
            return []
        records: list[dict[str, str]] = json.loads(self._external_path.read_text())
        return records

    def _write_external(self, records: list[dict[str, str]]) -> None:
        write_private(self._external_path, json.dumps(records, indent=2) + "\n")
        self.render()
        self.reload_server()

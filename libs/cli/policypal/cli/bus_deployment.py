"""Bus credentials of a deployment (docker-compose.yml, deploy/k8s): a NATS user per deployed service.

The operator keeps one credential directory per deployment (``--bus-dir``). It holds only bcrypt
hashes, of the services' passwords and of the external credentials (``policypal bus-credential
--bus-dir``), and the nats-server configuration rendered from them, so it reveals no password. The
passwords themselves go once, straight to where the services read them: a compose ``.env`` file or
one Kubernetes Secret per service. nats-server never sees a plaintext password (docs/adr/0007).
"""

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from policypal.cli.bus_credentials import BusCredentials
from policypal.contracts.action_registry import ACTION_REGISTRY
from policypal.devstack.nats_auth import write_private

#: Each deployed PolicyPal process (a compose service, a Kubernetes Deployment; also its NATS user)
#: and the services whose rights it has. Every action worker has its own user, so one can be
#: rotated or revoked without touching the others.
DEPLOYED_SERVICES: dict[str, tuple[str, ...]] = {
    "gateway": ("gateway",),
    "notifier": ("notifier",),
    "resolver": ("resolver",),
    "ingestor": ("ingestor",),
    **{spec.durable: ("actions",) for spec in ACTION_REGISTRY},
}
#: The variable of a compose ``.env`` that tells docker-compose.yml where the credential directory is.
AUTH_DIR_VARIABLE = "NATS_AUTH_DIR"
#: The Secret (and its key) that holds nats-server's authorization block (deploy/k8s/nats/values.yaml).
SERVER_SECRET = "nats-auth"
SERVER_CONFIG_KEY = "nats-auth.conf"

_ENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=")


def password_variable(user: str) -> str:
    """The ``.env`` variable with ``user``'s password, e.g. ``NATS_PASSWORD_ACTIONS_AUDIT``."""
    return "NATS_PASSWORD_" + user.upper().replace("-", "_")


def service_secret_name(user: str) -> str:
    """The Kubernetes Secret with ``user``'s password (key ``password``)."""
    return f"policypal-nats-{user}"


def issue_deployment_passwords(credentials: BusCredentials, services: Iterable[str] = ()) -> dict[str, str]:
    """New passwords for the deployed ``services`` (all when empty); the others keep theirs.

    Returns user -> password. The configuration in the credential directory is rendered again;
    external credentials are kept.
    """
    chosen = list(services) or list(DEPLOYED_SERVICES)
    unknown = sorted(set(chosen) - set(DEPLOYED_SERVICES))
    if unknown:
        raise ValueError(f"unknown service {', '.join(unknown)}; one of {', '.join(DEPLOYED_SERVICES)}")
    issued = {name: DEPLOYED_SERVICES[name] for name in chosen}
    return credentials.issue_service_credentials(issued, keep_others=True)


def missing_services(credentials: BusCredentials) -> list[str]:
    """Deployed services that have no user in the configuration yet."""
    present = set(credentials.service_user_names())
    return [name for name in DEPLOYED_SERVICES if name not in present]


def update_env_file(path: Path, values: Mapping[str, str]) -> None:
    """Set ``values`` in the ``.env`` file at ``path``, keeping its other lines; owner-readable only."""
    lines = path.read_text().splitlines() if path.exists() else []
    pending = dict(values)
    updated: list[str] = []
    for line in lines:
        match = _ENV_LINE.match(line)
        if match and match.group(1) in values:
            name = match.group(1)
            if name in pending:
                updated.append(f"{name}={pending.pop(name)}")
            continue  # a repeated assignment of a replaced variable would override the new value
        updated.append(line)
    updated += [f"{name}={value}" for name, value in pending.items()]
    write_private(path, "\n".join(updated) + "\n")


def compose_environment(credentials: BusCredentials, passwords: Mapping[str, str]) -> dict[str, str]:
    """What docker-compose.yml reads from ``.env``: the credential directory and the passwords."""
    return {AUTH_DIR_VARIABLE: str(credentials.directory.resolve())} | {
        password_variable(user): password for user, password in passwords.items()
    }


def _secret(name: str, namespace: str, data: Mapping[str, str], labels: Mapping[str, str]) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels)},
        "type": "Opaque",
        "stringData": dict(data),
    }


def service_secrets(passwords: Mapping[str, str], namespace: str) -> dict[str, Any]:
    """A Kubernetes List of one Secret per service (``kubectl apply -f -`` reads this JSON)."""
    labels = {"app.kubernetes.io/part-of": "policypal", "app.kubernetes.io/component": "nats-credentials"}
    items = [
        _secret(service_secret_name(user), namespace, {"user": user, "password": password}, labels)
        for user, password in passwords.items()
    ]
    return {"apiVersion": "v1", "kind": "List", "items": items}


def server_config_secret(credentials: BusCredentials, namespace: str) -> dict[str, Any]:
    """The Secret that nats-server's pods mount: the authorization block of every current user."""
    config = credentials.render().read_text()
    labels = {"app.kubernetes.io/part-of": "policypal", "app.kubernetes.io/component": "nats-auth"}
    return _secret(SERVER_SECRET, namespace, {SERVER_CONFIG_KEY: config}, labels)


def as_manifest_text(manifest: Mapping[str, Any]) -> str:
    """``manifest`` as JSON, which kubectl reads like YAML."""
    return json.dumps(manifest, indent=2) + "\n"

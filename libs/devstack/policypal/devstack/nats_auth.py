"""nats-server's ``authorization`` block: users, their bcrypt-hashed passwords and subject permissions.

The server stores only bcrypt hashes, so its configuration file reveals no password. There is no
``no_auth_user``: a connection without a valid user and password is refused (docs/adr/0007).
"""

import json
import os
import secrets
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import bcrypt

#: bcrypt work factor: nats-server checks the hash once per connection, not per message.
BCRYPT_COST = 11


@dataclass(frozen=True)
class NatsUser:
    """One user of nats-server: its name, password and allow lists.

    ``password`` is a bcrypt hash; with ``password_env`` set instead, the server reads the password
    from that variable of its own environment (a Kubernetes Secret or a compose ``.env``).
    """

    name: str
    publish: tuple[str, ...]
    subscribe: tuple[str, ...]
    password: str | None = None
    password_env: str | None = None


def new_password() -> str:
    """A random password (256 bits, URL-safe characters)."""
    return secrets.token_urlsafe(32)


def hash_password(password: str) -> str:
    """The bcrypt hash nats-server compares a client's password with."""
    return bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=BCRYPT_COST)).decode()


def _quoted(values: Sequence[str]) -> str:
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def render_authorization(users: Sequence[NatsUser]) -> str:
    """The configuration block that admits exactly ``users``, each with its own allow lists."""
    lines = ["authorization {", "  users = ["]
    for user in users:
        # A quoted value is a literal (a bcrypt hash starts with "$2"); an unquoted $NAME is a variable.
        if user.password_env is not None:
            password = f"${user.password_env}"
        elif user.password is not None:
            password = json.dumps(user.password)
        else:
            raise ValueError(f"user {user.name!r} has no password")
        lines += [
            "    {",
            f"      user: {json.dumps(user.name)}",
            f"      password: {password}",
            "      permissions: {",
            f"        publish: {{ allow: {_quoted(user.publish)} }}",
            f"        subscribe: {{ allow: {_quoted(user.subscribe)} }}",
            "      }",
            "    }",
        ]
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by its owner only (created that way, then replaced atomically)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(path.name + ".tmp")
    fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    staging.replace(path)


def reload_nats_server(pid_file: Path) -> bool:
    """Ask the nats-server whose pid is in ``pid_file`` to re-read its configuration (SIGHUP).

    Returns False when no such server runs; the new configuration is read at its next start.
    """
    try:
        pid = int(pid_file.read_text().strip())
        os.kill(pid, signal.SIGHUP)
    except (FileNotFoundError, ValueError, ProcessLookupError):
        return False
    return True

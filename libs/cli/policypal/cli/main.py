"""``policypal up``, ``token``, ``ingest``, ``bus-credential``, ``bus-deployment`` and ``api-key``."""

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from policypal.auth import issue_token
from policypal.cli.api_key_command import add_api_key_command
from policypal.cli.bus_deployment_command import add_bus_deployment_command
from policypal.config import get_settings

if TYPE_CHECKING:
    from policypal.cli.bus_credentials import BusCredentials


def _token(args: argparse.Namespace) -> int:
    print(issue_token(get_settings(), args.tenant, args.user, ttl_seconds=args.ttl, role=args.role))
    return 0


def _up(args: argparse.Namespace) -> int:
    from policypal.cli.embedded_system import run_until_interrupted

    return run_until_interrupted(get_settings(), tenant=args.tenant, user=args.user)


def _ingest(args: argparse.Namespace) -> int:
    from policypal.cli.ingest import IngestOptions, run_ingest

    settings = get_settings()
    token = args.token or os.environ.get("POLICYPAL_TOKEN") or issue_token(settings, args.tenant, args.user)
    api_url = args.api_url or f"http://{settings.host}:{settings.port}"
    options = IngestOptions(title=args.title, version=args.version, doc_type=args.doc_type, set_name=args.set)
    return run_ingest(api_url, args.events_url or settings.events_base_url, token, args.paths, options)


def _bus_credential(args: argparse.Namespace) -> int:
    from policypal.cli.bus_credentials import BusCredentials

    credentials = BusCredentials(args.bus_dir or get_settings().data_dir / "bus")
    if args.action == "create":
        created = credentials.create_external(args.tenant, args.name)
        print(
            f"NATS user:     {created.user}\n"
            f"NATS password: {created.password}   (shown once; only its hash is kept)\n"
            f"Publish:       {created.publish_subject}  (JetStream, stream ACTIONS)\n"
            f"Subscribe:     {created.events_subject}\n"
            f"Inbox prefix:  {created.inbox_prefix}  (connect with it: JetStream acks arrive there)\n"
            f"See docs/publishing-audits.md."
        )
        _note_deployed_reload(credentials)
        return 0
    if args.action == "revoke":
        if credentials.revoke_external(args.user):
            print(f"revoked {args.user}")
            _note_deployed_reload(credentials)
            return 0
        print(f"no credential {args.user!r}", file=sys.stderr)
        return 1
    for existing in credentials.external():
        print(f"{existing.user}\ttenant {existing.tenant_id}\tcreated {existing.created_at}")
    return 0


def _note_deployed_reload(credentials: "BusCredentials") -> None:
    """Say what to do when no nats-server of this directory runs here (a compose or Kubernetes one)."""
    if not credentials.pid_file.exists():
        print(
            f"No nats-server of {credentials.directory} runs on this machine: it takes effect once the\n"
            f"server reloads {credentials.config_path} (deploy/README.md).",
            file=sys.stderr,
        )


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``policypal`` console script."""
    parser = argparse.ArgumentParser(prog="policypal", description="PolicyPal compliance-document assistant")
    commands = parser.add_subparsers(dest="command", required=True)

    up = commands.add_parser("up", help="start the whole system on this machine (embedded defaults)")
    up.add_argument("--tenant", default="dev", help="tenant of the printed development token")
    up.add_argument("--user", default="dev", help="user of the printed development token")
    up.set_defaults(run=_up)

    token = commands.add_parser("token", help="print a bearer token signed with POLICYPAL_JWT_SECRET")
    token.add_argument("--tenant", required=True)
    token.add_argument("--user", required=True)
    token.add_argument("--ttl", type=int, default=None, help="lifetime in seconds")
    token.add_argument(
        "--role",
        choices=["user", "admin"],
        default="user",
        help="admin: may manage the tenant's API keys, settings and escalations (default: user)",
    )
    token.set_defaults(run=_token)

    ingest = commands.add_parser("ingest", help="upload files or folders and follow their ingestion")
    ingest.add_argument("paths", nargs="+", type=Path, help="files, or folders searched recursively")
    ingest.add_argument("--title", help="title of every document (default: the file name)")
    ingest.add_argument("--version", default="1", help="version label (default: 1)")
    ingest.add_argument("--doc-type", choices=["regulatory", "policy"], default="policy")
    ingest.add_argument("--set", help="document set to file the documents under")
    ingest.add_argument("--api-url", help="gateway URL (default: http://POLICYPAL_HOST:PORT)")
    ingest.add_argument("--events-url", help="notifier URL (default: POLICYPAL_PUBLIC_EVENTS_URL)")
    ingest.add_argument("--token", help="bearer token (default: $POLICYPAL_TOKEN, else a development token)")
    ingest.add_argument("--tenant", default="dev", help="tenant of the development token")
    ingest.add_argument("--user", default="dev", help="user of the development token")
    ingest.set_defaults(run=_ingest)

    bus = commands.add_parser(
        "bus-credential",
        help="NATS credentials of other systems, each scoped to one tenant's audits and events",
    )
    bus.add_argument(
        "--bus-dir",
        type=Path,
        help="credential directory of the nats-server (default: POLICYPAL_DATA_DIR/bus)",
    )
    bus_actions = bus.add_subparsers(dest="action", required=True)
    create = bus_actions.add_parser("create", help="a new credential; prints its password once")
    create.add_argument("--tenant", required=True, help="the one tenant it may publish and read for")
    create.add_argument("--name", required=True, help="what the credential is for, e.g. billing-bot")
    revoke = bus_actions.add_parser("revoke", help="remove a credential; its connections are closed")
    revoke.add_argument("user", help="the credential's NATS user")
    bus_actions.add_parser("list", help="the credentials, without passwords")
    bus.set_defaults(run=_bus_credential)
    add_bus_deployment_command(commands)
    add_api_key_command(commands)

    args = parser.parse_args(argv)
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())

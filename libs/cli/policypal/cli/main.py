"""``policypal up``, ``policypal token`` and ``policypal ingest``."""

import argparse
import os
import sys
from pathlib import Path

from policypal.auth import issue_token
from policypal.config import get_settings


def _token(args: argparse.Namespace) -> int:
    print(issue_token(get_settings(), args.tenant, args.user, ttl_seconds=args.ttl))
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

    args = parser.parse_args(argv)
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())

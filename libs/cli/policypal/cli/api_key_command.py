"""``policypal api-key create|list|revoke``: a tenant's API keys for other systems, without writing code.

The command calls the gateway's admin API (``/v1/admin/api-keys``) as an administrator of the tenant:
with ``--token`` (or ``POLICYPAL_TOKEN``) when one is given, else with a short-lived admin token it
signs with ``POLICYPAL_JWT_SECRET``, which only works where that secret is known.
"""

import argparse
import os
import sys
from typing import Any

import httpx

from policypal.auth import issue_token
from policypal.config import get_settings

SCOPES = ("ingest", "chat", "audit", "admin")
#: Lifetime of the admin token the command signs for itself.
OWN_TOKEN_SECONDS = 300


def add_api_key_command(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``api-key create``, ``api-key list`` and ``api-key revoke`` to ``commands``."""
    api_key = commands.add_parser("api-key", help="API keys of a tenant, for other systems")
    api_key.add_argument("--tenant", required=True, help="the tenant whose keys these are")
    api_key.add_argument("--api-url", help="gateway URL (default: http://POLICYPAL_HOST:PORT)")
    api_key.add_argument(
        "--token", help="an admin's bearer token (default: $POLICYPAL_TOKEN, else one signed here)"
    )
    actions = api_key.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="a new key; prints it once")
    create.add_argument("--name", required=True, help="what the key is for, e.g. billing-audit-bot")
    create.add_argument(
        "--scope", action="append", required=True, choices=SCOPES, help="what the key may do (repeatable)"
    )
    actions.add_parser("list", help="the tenant's keys, without the keys themselves")
    revoke = actions.add_parser("revoke", help="stop a key at once")
    revoke.add_argument("key_id", help="the key's id, as listed")
    api_key.set_defaults(run=run_api_key_command)


def run_api_key_command(args: argparse.Namespace) -> int:
    """Carry out one ``api-key`` action against the gateway; 0 on success, 1 with a sentence otherwise."""
    settings = get_settings()
    token = (
        args.token
        or os.environ.get("POLICYPAL_TOKEN")
        or issue_token(settings, args.tenant, "policypal-cli", OWN_TOKEN_SECONDS, role="admin")
    )
    api_url = args.api_url or f"http://{settings.host}:{settings.port}"
    headers = {"Authorization": f"Bearer {token}"}
    try:
        with httpx.Client(base_url=api_url, headers=headers, timeout=30) as client:
            if args.action == "create":
                response = client.post("/v1/admin/api-keys", json={"name": args.name, "scopes": args.scope})
            elif args.action == "revoke":
                response = client.delete(f"/v1/admin/api-keys/{args.key_id}")
            else:
                response = client.get("/v1/admin/api-keys")
    except httpx.HTTPError as exc:
        print(f"cannot reach the gateway at {api_url}: {exc}", file=sys.stderr)
        return 1
    if response.is_error:
        print(f"the gateway refused ({response.status_code}): {_detail(response)}", file=sys.stderr)
        return 1
    if args.action == "create":
        created = response.json()
        print(
            f"Key id:  {created['key_id']}\n"
            f"Scopes:  {', '.join(created['scopes'])}\n"
            f"API key: {created['api_key']}   (shown once; send as 'X-API-Key' or 'Authorization: Bearer')"
        )
    elif args.action == "revoke":
        print(f"revoked {args.key_id}")
    else:
        for key in response.json()["api_keys"]:
            state = f"revoked {key['revoked_at']}" if key["revoked_at"] else "active"
            print(f"{key['key_id']}\t{key['name']}\t{','.join(key['scopes'])}\t{state}")
    return 0


def _detail(response: httpx.Response) -> str:
    try:
        body: Any = response.json()
    except ValueError:
        return response.text.strip() or response.reason_phrase
    return str(body.get("detail", body)) if isinstance(body, dict) else str(body)

"""``policypal bus-deployment``: issue and rotate the services' NATS passwords of a deployment, and
render nats-server's authorization block for it (deploy/README.md)."""

import argparse
import sys
from pathlib import Path

from policypal.cli.bus_credentials import BusCredentials
from policypal.cli.bus_deployment import (
    DEPLOYED_SERVICES,
    as_manifest_text,
    compose_environment,
    issue_deployment_passwords,
    missing_services,
    server_config_secret,
    service_secrets,
    update_env_file,
)


def add_bus_deployment_command(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``bus-deployment issue`` and ``bus-deployment server-config`` to ``commands``."""
    deployment = commands.add_parser(
        "bus-deployment",
        help="NATS users of the services of a docker-compose or Kubernetes deployment",
    )
    deployment.add_argument(
        "--bus-dir",
        type=Path,
        required=True,
        help="the deployment's credential directory (bcrypt hashes and the rendered nats-server config)",
    )
    actions = deployment.add_subparsers(dest="action", required=True)
    issue = actions.add_parser("issue", help="new passwords for the services (all, or those named)")
    issue.add_argument(
        "--service",
        action="append",
        default=[],
        choices=list(DEPLOYED_SERVICES),
        help="rotate only this service's password (repeatable)",
    )
    where = issue.add_mutually_exclusive_group(required=True)
    where.add_argument("--env-file", type=Path, help="compose: set the passwords in this .env file")
    where.add_argument(
        "--kubernetes-namespace",
        metavar="NAMESPACE",
        help="Kubernetes: print a Secret per service in NAMESPACE (pipe to kubectl apply -f -)",
    )
    config = actions.add_parser(
        "server-config", help="print nats-server's authorization block for every current user"
    )
    config.add_argument(
        "--kubernetes-namespace",
        metavar="NAMESPACE",
        help="print it as the Secret nats-auth in NATS's namespace instead (pipe to kubectl apply -f -)",
    )
    deployment.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    credentials = BusCredentials(args.bus_dir)
    if args.action == "issue":
        return _issue(credentials, args)
    _warn_if_incomplete(credentials)
    if args.kubernetes_namespace:
        print(as_manifest_text(server_config_secret(credentials, args.kubernetes_namespace)), end="")
    else:
        print(credentials.render().read_text(), end="")
    return 0


def _issue(credentials: BusCredentials, args: argparse.Namespace) -> int:
    passwords = issue_deployment_passwords(credentials, args.service)
    _warn_if_incomplete(credentials)
    names = ", ".join(passwords)
    if args.env_file:
        update_env_file(args.env_file, compose_environment(credentials, passwords))
        print(
            f"Passwords of {names} set in {args.env_file}; server config: {credentials.config_path}.\n"
            f"Apply: docker compose kill -s HUP nats, then docker compose up -d (recreates the services\n"
            f"whose password changed)."
        )
        return 0
    print(as_manifest_text(service_secrets(passwords, args.kubernetes_namespace)), end="")
    print(
        f"Secrets of {names} printed; server config: {credentials.config_path}.\n"
        f"Apply the Secrets, then policypal bus-deployment --bus-dir {credentials.directory} server-config\n"
        f"--kubernetes-namespace <NATS namespace> | kubectl apply -f -, then restart the Deployments.",
        file=sys.stderr,
    )
    return 0


def _warn_if_incomplete(credentials: BusCredentials) -> None:
    missing = missing_services(credentials)
    if missing:
        print(
            f"warning: no NATS user yet for {', '.join(missing)}: they cannot connect "
            f"(policypal bus-deployment --bus-dir {credentials.directory} issue …)",
            file=sys.stderr,
        )

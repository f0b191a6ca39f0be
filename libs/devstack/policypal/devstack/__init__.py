"""Real infrastructure on one machine, from packages: nats-server and Valkey as child processes."""

from policypal.devstack.nats_server import nats_server_binary, start_nats_server
from policypal.devstack.processes import ManagedProcess, free_port, wait_for_port
from policypal.devstack.valkey import start_valkey, valkey_server_binary

__all__ = [
    "ManagedProcess",
    "free_port",
    "nats_server_binary",
    "start_nats_server",
    "start_valkey",
    "valkey_server_binary",
    "wait_for_port",
]

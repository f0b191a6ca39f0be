"""Real infrastructure on one machine, from packages: nats-server and Valkey as child processes."""

from policypal.devstack.nats_server import nats_server_binary, start_nats_server
from policypal.devstack.processes import ManagedProcess, free_port, stop_together, wait_for_port
from policypal.devstack.supervision import Supervisor
from policypal.devstack.valkey import start_valkey, valkey_server_binary

__all__ = [
    "ManagedProcess",
    "Supervisor",
    "free_port",
    "nats_server_binary",
    "start_nats_server",
    "start_valkey",
    "stop_together",
    "valkey_server_binary",
    "wait_for_port",
]

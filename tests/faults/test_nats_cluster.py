"""A 3-node JetStream cluster with R3 streams: losing a node (SIGKILL) or restarting one while ~100
requests are in flight through real worker processes loses and doubles nothing.

The node killed is the leader of the ACTIONS stream, the worst case: the stream elects a new
leader among the two others, the worker's consumer and the publishers carry on through them.
"""

import asyncio
from pathlib import Path

import pytest
from nats.js import JetStreamContext
from nats.js.api import ClusterInfo

from actions.inquire.service import DURABLE
from tests.faults.nats_cluster import NatsCluster, cluster_conversation
from tests.faults.stack import (
    assert_exactly_once,
    conversation_outcome,
    inquiries,
    publish_all,
    wait_for_in_flight,
    wait_for_terminals,
)

pytestmark = [pytest.mark.faults, pytest.mark.integration]

REQUESTS = 100
#: The node goes down once this many requests have ended, while the others are still coming.
FAULT_AFTER = 20
#: Between two published requests: publishing lasts ~10 s, across the fault.
PUBLISH_PAUSE = 0.1


async def _leader_of(js: JetStreamContext, stream: str) -> str:
    info = await js.stream_info(stream)
    assert info.cluster is not None
    assert info.cluster.leader is not None
    return info.cluster.leader


async def _run_through_a_fault(tmp_path: Path, *, restart: bool) -> None:
    tenant = "acme"
    async with cluster_conversation(tmp_path, tenant) as (stack, cluster, js, redis):
        stack.start_worker("actions.inquire", POLICYPAL_STREAM_REPLICAS="3")
        requests = inquiries(tenant, REQUESTS)
        publishing = asyncio.create_task(publish_all(js, requests, pause=PUBLISH_PAUSE))
        await wait_for_terminals(js, tenant, FAULT_AFTER, within=60)
        await wait_for_in_flight(js, DURABLE)
        assert not publishing.done(), "requests are still being published when the node goes"

        victim = cluster.node_named(await _leader_of(js, "ACTIONS"))
        if restart:
            cluster.stop(victim)
            cluster.start_node(victim)
        else:
            cluster.kill(victim)

        await publishing
        await wait_for_terminals(js, tenant, REQUESTS, within=60)
        terminals, history = await conversation_outcome(js, redis, tenant)
        assert all(w.running for w in stack.workers), "the worker rode out the node's loss"
        await _assert_replicated(js, cluster, victim, back=restart)
    assert_exactly_once(requests, terminals, history)
    assert {t["type"] for t in terminals} == {"response"}, "every request answered, none failed"


async def _assert_replicated(js: JetStreamContext, cluster: NatsCluster, victim: int, *, back: bool) -> None:
    info = await js.stream_info("ACTIONS")
    assert info.config.num_replicas == 3, "the worker kept the streams at the R3 settings"
    assert info.cluster is not None
    if not back:
        assert info.cluster.leader != f"n{victim}"
        peers = {r.name: r for r in info.cluster.replicas or []}
        assert not peers[f"n{victim}"].current, (
            "the killed node is a lagging replica: the stream runs without it"
        )
        return
    # The restarted node catches up with the leader and is a current replica of every stream again.
    for _ in range(100):
        infos = [await js.stream_info(name) for name in ("ACTIONS", "EVENTS")]
        if all(_is_current(info.cluster, f"n{victim}") for info in infos):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"n{victim} did not catch up with the streams")


def _is_current(cluster: ClusterInfo | None, node: str) -> bool:
    assert cluster is not None
    peers = {r.name: r for r in cluster.replicas or []}
    return cluster.leader == node or (node in peers and bool(peers[node].current))


async def test_a_killed_node_loses_and_doubles_nothing(tmp_path: Path) -> None:
    await _run_through_a_fault(tmp_path, restart=False)


async def test_a_restarted_node_loses_and_doubles_nothing_and_catches_up(tmp_path: Path) -> None:
    await _run_through_a_fault(tmp_path, restart=True)

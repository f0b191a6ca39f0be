"""Streams and the document bucket are declared with the contract's subjects, idempotently."""

import nats
import pytest

from policypal.bus import declare_streams, document_store
from policypal.contracts.streams import ALL_STREAMS
from policypal.devstack import ManagedProcess

pytestmark = pytest.mark.integration


async def test_streams_have_their_subjects_and_redeclaring_is_harmless(nats_server: ManagedProcess) -> None:
    nc = await nats.connect(nats_server.url)
    try:
        js = nc.jetstream()
        await declare_streams(js)
        await declare_streams(js)
        declared = {s.config.name: s.config for s in await js.streams_info()}
        for spec in ALL_STREAMS:
            assert declared[spec.name].subjects == list(spec.subjects)
        assert declared["ACTIONS"].retention == "workqueue"
        store = await document_store(js)
        await store.put("acme/doc", b"%PDF-1.7 bytes")
        again = await document_store(js)
        assert (await again.get("acme/doc")).data == b"%PDF-1.7 bytes"
    finally:
        await nc.drain()

"""The guide to publishing audits on NATS: its example is a valid request, and its whole path works.

The path runs against a real nats-server configured as ``policypal up`` configures it: the credential
made by the command the guide shows, the connect options it names, the subject it names.
"""

import asyncio
import contextlib
import io
import json
import re
from pathlib import Path

import jsonschema
import nats
import pytest
from nats.aio.msg import Msg

from policypal.bus import declare_streams
from policypal.bus.admission import admit
from policypal.cli.main import main
from policypal.contracts import ActionRequested, parse_event
from policypal.contracts.streams import ACTIONS
from policypal.contracts.subjects import tenant_action_requested
from tests.support.secured_bus import secured_bus

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "publishing-audits.md"
SCHEMAS = Path(__file__).resolve().parents[2] / "libs" / "contracts" / "schemas"


def _example() -> str:
    [block] = re.findall(r"```json\n(.*?)```", GUIDE.read_text(), flags=re.DOTALL)
    return str(block)


def test_the_example_parses_as_an_audit_request_for_the_subject_the_guide_names() -> None:
    event = parse_event(_example())
    assert isinstance(event, ActionRequested)
    assert event.action == "audit"
    assert event.source_text
    assert event.target_document_ids == ["gdpr2016"]
    assert {d.document_id for d in event.documents} >= set(event.target_document_ids)
    assert f"`{tenant_action_requested('audit', event.tenant_id)}`" in GUIDE.read_text()


def test_the_example_validates_against_the_published_json_schema() -> None:
    schema = json.loads((SCHEMAS / "action.requested.v1.json").read_text())
    jsonschema.validate(json.loads(_example()), schema)


def _created_credential(bus_dir: Path, tenant: str) -> dict[str, str]:
    """Run the guide's ``policypal bus-credential create`` and read what it prints."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert (
            main(
                [
                    "bus-credential",
                    "--bus-dir",
                    str(bus_dir),
                    "create",
                    "--tenant",
                    tenant,
                    "--name",
                    "billing-bot",
                ]
            )
            == 0
        )
    fields = dict(re.findall(r"^([A-Za-z ]+):\s+(\S+)", printed.getvalue(), flags=re.MULTILINE))
    return {
        "user": fields["NATS user"],
        "password": fields["NATS password"],
        "inbox": fields["Inbox prefix"],
        "subject": fields["Publish"],
    }


@pytest.mark.integration
async def test_the_guides_path_from_credential_to_result_on_a_real_bus(tmp_path: Path) -> None:
    example = json.loads(_example())
    with secured_bus(tmp_path) as bus:
        gateway = await bus.service("gateway")
        await declare_streams(gateway.jetstream())
        credential = _created_credential(bus.credentials.directory, example["tenant_id"])
        assert credential["subject"] == tenant_action_requested("audit", example["tenant_id"])
        for _ in range(50):  # the running server reloads its configuration (SIGHUP)
            with contextlib.suppress(nats.errors.Error):
                nc = await nats.connect(
                    bus.url,
                    user=credential["user"],
                    password=credential["password"],
                    inbox_prefix=credential["inbox"],
                )
                break
            await asyncio.sleep(0.1)
        results: asyncio.Queue[Msg] = asyncio.Queue()
        await nc.subscribe(f"events.{example['tenant_id']}.{example['thread_id']}.>", cb=results.put)
        body = _example().encode()
        ack = await nc.jetstream().publish(
            credential["subject"], body, headers={"Nats-Msg-Id": example["event_id"]}, stream=ACTIONS.name
        )
        assert ack.stream == ACTIONS.name
        stored = await gateway.jetstream().get_last_msg(ACTIONS.name, credential["subject"])
        assert admit(stored.subject, stored.data or b"")[1] is None  # what a worker admits
        worker = await bus.service("actions")
        await worker.publish(
            f"events.{example['tenant_id']}.{example['thread_id']}.response", b'{"type": "response"}'
        )
        await worker.flush()
        assert (await asyncio.wait_for(results.get(), timeout=5)).subject.endswith(".response")
        for client in (nc, worker, gateway):
            await client.close()

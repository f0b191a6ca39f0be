"""The gateway's OpenAPI document passes openapi-spec-validator, and its AsyncAPI document passes the
official AsyncAPI parser (@asyncapi/parser on Node, deploy/tools), with servers and dead-letter channels."""

import json
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from gateway.app import create_app
from gateway.asyncapi import asyncapi_document
from policypal.config import Settings

TOOLS = Path(__file__).resolve().parents[2] / "deploy" / "tools"


@cache
def _openapi() -> dict[str, Any]:
    document: dict[str, Any] = create_app(Settings(_env_file=None, environment="test")).openapi()
    return document


def test_the_openapi_document_is_valid() -> None:
    validate(_openapi())


def test_the_openapi_validator_refuses_a_python_only_pattern() -> None:
    text = json.dumps(_openapi())
    broken = json.loads(text.replace('"pattern": "^', '"pattern": "(?i)^', 1))
    with pytest.raises(OpenAPIValidationError, match="is not a 'regex'"):
        validate(broken)


def _asyncapi_diagnostics(document: dict[str, Any], tmp_path: Path) -> tuple[int, list[dict[str, Any]]]:
    node = shutil.which("node")
    npm = shutil.which("npm")
    if node is None or npm is None:
        raise FileNotFoundError("node and npm are needed: apt-get install nodejs npm")
    if not (TOOLS / "node_modules" / "@asyncapi" / "parser").exists():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--silent"], cwd=TOOLS, check=True, timeout=300)
    path = tmp_path / "asyncapi.json"
    path.write_text(json.dumps(document))
    done = subprocess.run(
        [node, str(TOOLS / "validate-asyncapi.mjs"), str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines() if line]


# The official parser runs in a Node process: the integration lane, not the fast one.
@pytest.mark.integration
def test_the_asyncapi_document_parses_without_errors(tmp_path: Path) -> None:
    code, diagnostics = _asyncapi_diagnostics(asyncapi_document(), tmp_path)
    assert [d for d in diagnostics if d["severity"] == 0] == []
    assert code == 0


@pytest.mark.integration
def test_the_asyncapi_parser_reports_a_broken_document(tmp_path: Path) -> None:
    broken = json.loads(json.dumps(asyncapi_document()))
    broken["servers"]["kubernetes"]["protocol"] = 42
    code, diagnostics = _asyncapi_diagnostics(broken, tmp_path)
    assert code == 1
    errors = [d["path"] for d in diagnostics if d["severity"] == 0]
    assert ["servers", "kubernetes", "protocol"] in errors


def test_the_asyncapi_document_names_the_servers_and_the_dead_letter_channels() -> None:
    document = asyncapi_document()
    servers = document["servers"]
    assert servers["kubernetes"]["host"] == "nats.nats.svc.cluster.local:4222"
    assert {s["protocol"] for s in servers.values()} == {"nats"}
    assert document["components"]["securitySchemes"]["natsUser"]["type"] == "userPassword"
    addresses = {c["address"] for c in document["channels"].values()}
    assert {
        "dlq.actions.{action}.requested.{tenant_id}",
        "dlq.chat.requested",
        "dlq.docs.uploaded",
    } <= addresses
    dead_audit = document["components"]["messages"]["dead_letter_action_requested_tenant"]
    assert "Policypal-Error-Code" in dead_audit["headers"]["required"]
    assert dead_audit["payload"] == document["components"]["messages"]["action_requested"]["payload"]

"""The console's JSDoc types name only fields the contracts have, and every module is type-checked.

``console/types.js`` describes the event payloads and API bodies the console reads; when a contract
drops or renames a field, this test names the type and the field, before a browser shows a blank.
"""

import itertools
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from gateway.models import DocumentView, UploadResult
from gateway.web_console import CONSOLE_DIR
from policypal.contracts import (
    Citation,
    DocumentFailed,
    DocumentReady,
    ErrorEvent,
    EscalationEvent,
    IngestProgress,
    InterruptEvent,
    ResponseEvent,
    StatusEvent,
    TokenEvent,
    Usage,
    WebCitation,
)
from policypal.contracts.audit import AuditFinding, AuditResult, RuleCoverage
from policypal.contracts.envelope import Envelope
from policypal.contracts.events import InterruptOption
from policypal.state import StoredMessage

#: Each JSDoc type and the model it describes.
DESCRIBED: dict[str, type[BaseModel]] = {
    "Envelope": Envelope,
    "IngestProgress": IngestProgress,
    "DocumentReady": DocumentReady,
    "DocumentFailed": DocumentFailed,
    "Citation": Citation,
    "WebCitation": WebCitation,
    "Usage": Usage,
    "InterruptOption": InterruptOption,
    "StatusEvent": StatusEvent,
    "TokenEvent": TokenEvent,
    "InterruptEvent": InterruptEvent,
    "ErrorEvent": ErrorEvent,
    "EscalationEvent": EscalationEvent,
    "ResponseFields": ResponseEvent,
    "AuditFinding": AuditFinding,
    "RuleCoverage": RuleCoverage,
    "AuditResult": AuditResult,
    "DocumentView": DocumentView,
    "UploadResult": UploadResult,
    "StoredMessage": StoredMessage,
}
_TYPEDEF = re.compile(r"@typedef\s+\{(?P<body>.*?)\}\s+(?P<name>\w+)\s*$", re.S | re.M)
_PROPERTY = re.compile(r"@property\s+\{[^\n]*\}\s+\[?(?P<field>\w+)\]?")
_INLINE_FIELD = re.compile(r"[{,]\s*(?P<field>\w+)\??\s*:")


def jsdoc_fields(source: str) -> dict[str, set[str]]:
    """Each ``@typedef`` of ``source`` and the field names it gives: inline object types
    (``{ a: T, b?: U }``) and ``@property`` lines up to the next typedef."""
    comments = " ".join(re.findall(r"/\*\*(.*?)\*/", source, re.S))
    text = re.sub(r"\n\s*\*", "\n", comments)
    found: dict[str, set[str]] = {}
    starts = [m.start() for m in re.finditer(r"@typedef", text)] + [len(text)]
    for start, end in itertools.pairwise(starts):
        chunk = text[start:end]
        head = re.match(r"@typedef\s+\{", chunk)
        assert head is not None
        depth, index = 1, head.end()
        while depth:  # the type runs to its matching brace
            depth += {"{": 1, "}": -1}.get(chunk[index], 0)
            index += 1
        body, rest = chunk[head.end() : index - 1], chunk[index:]
        name = re.match(r"\s*(\w+)", rest)
        assert name is not None, chunk
        fields = {m.group("field") for m in _INLINE_FIELD.finditer(body)}
        fields |= {m.group("field") for m in _PROPERTY.finditer(rest)}
        found[name.group(1)] = fields
    return found


TYPES = jsdoc_fields((CONSOLE_DIR / "types.js").read_text())


@pytest.mark.parametrize("name", sorted(DESCRIBED))
def test_each_described_field_exists_in_its_contract(name: str) -> None:
    assert name in TYPES, f"types.js has no typedef {name}"
    fields = TYPES[name]
    assert fields, f"{name} names no fields"
    unknown = sorted(fields - set(DESCRIBED[name].model_fields))
    assert unknown == [], f"{name}: {unknown} are not fields of {DESCRIBED[name].__name__}"


def test_the_parser_sees_inline_and_property_fields_and_catches_a_stale_one() -> None:
    source = """/**
 * @typedef {{ marker: number, quote?: string }} Cited
 * @typedef {object} Finding
 * @property {string} severity
 * @property {string} [renamed_field]
 */"""
    parsed = jsdoc_fields(source)
    assert parsed == {"Cited": {"marker", "quote"}, "Finding": {"severity", "renamed_field"}}
    assert parsed["Finding"] - set(AuditFinding.model_fields) == {"renamed_field"}


#: Modules written with other parts of the product (their endpoints): checked as they are.
SHARED_MODULES = {"api.js", "inbox.js"}


@pytest.mark.parametrize(
    "module",
    sorted(p for p in CONSOLE_DIR.glob("*.js") if p.name not in SHARED_MODULES),
    ids=lambda p: p.name,
)
def test_every_console_module_asks_for_type_checking(module: Path) -> None:
    assert module.read_text().startswith("// @ts-check\n"), module.name

"""What a consumer checks before it handles a message: size, schema version, and whose tenant it is.

Every consumer gets these checks through ``process_delivery``; a message that fails one is
dead-lettered at once with a reason code and a sentence, never retried (docs/adr/0007).
"""

import json
from dataclasses import dataclass
from typing import Any

from policypal.contracts.envelope import SCHEMA_VERSION
from policypal.contracts.subjects import tenant_of_subject

#: The largest event a consumer reads; the largest legitimate one (an audit request with 50,000
#: characters of text and a conversation's history) is well under it.
MAX_EVENT_BYTES = 256 * 1024
#: Major schema versions this code reads (contracts evolve by optional fields within one: ADR 0002).
SUPPORTED_SCHEMA_VERSIONS = frozenset({SCHEMA_VERSION})


@dataclass(frozen=True)
class Inadmissible:
    """Why a message is not handled: a stable code and a sentence for the dead letter."""

    code: str
    reason: str


def admit(subject: str, body: bytes, *, max_bytes: int = MAX_EVENT_BYTES) -> tuple[Any, Inadmissible | None]:
    """Decode ``body`` (received on ``subject``) as a JSON object, or say why it must not be handled.

    Returns the decoded object (``None`` when it cannot be decoded) and the refusal, if any.
    """
    if len(body) > max_bytes:
        return None, Inadmissible(
            "too_large", f"the message has {len(body):,} bytes; at most {max_bytes:,} are read"
        )
    try:
        payload = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, Inadmissible("invalid", f"the body is not JSON: {exc}")
    if not isinstance(payload, dict):
        return None, Inadmissible("invalid", "the body is not a JSON object")
    version = payload.get("schema_version", SCHEMA_VERSION)
    if isinstance(version, bool) or version not in SUPPORTED_SCHEMA_VERSIONS:
        supported = ", ".join(str(v) for v in sorted(SUPPORTED_SCHEMA_VERSIONS))
        return payload, Inadmissible(
            "unsupported_schema_version",
            f"schema_version {version!r} is not one this consumer reads ({supported})",
        )
    subject_tenant = tenant_of_subject(subject)
    if subject_tenant is not None and payload.get("tenant_id") != subject_tenant:
        # Permissions let a publisher reach its own tenant's subjects only: the subject is the proof.
        return payload, Inadmissible(
            "tenant_mismatch",
            f"the subject is tenant {subject_tenant!r}'s but the payload names {payload.get('tenant_id')!r}",
        )
    return payload, None

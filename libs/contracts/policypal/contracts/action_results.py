"""What ``ResponseEvent.result`` carries: one model per action, and a result this version cannot read.

Each action's result is read as its model, left to right (an audit's needs ``overall_status``, a
summary's ``documents``, a comparison's a known ``mode``). A result none of them reads (a newer
producer's mode or fields) is an ``UnrecognisedResult``: kept whole and written back as it came, so an
older consumer still reads the event (ADR 0002).
"""

from pydantic import BaseModel, ConfigDict

from policypal.contracts.audit import AuditResult
from policypal.contracts.comparison import CompareResult
from policypal.contracts.summary import SummaryResult

#: The structured result of an action, one model per action (and per compare mode).
ActionResult = AuditResult | SummaryResult | CompareResult


class UnrecognisedResult(BaseModel):
    """A result no model of this version reads: its fields kept as they came, for clients to show."""

    model_config = ConfigDict(extra="allow", frozen=True)

"""Every action PolicyPal has, in one place: adding an action is one entry here plus its package.

From an entry derive the action's subject (``actions.<name>.requested``), its worker's durable
consumer (``actions-<name>``), its worker process and module (``actions.<name>``, whose ``service``
module has ``build_router``), the composer's mention of it, the embedded launcher's list of
workers, its NATS user in a deployment, the AsyncAPI document's list of actions, and the title of a
conversation it opens. ``ActionName`` (the wire value of ``ActionRequested.action``) lists the same names; a test
keeps the two equal.
"""

from dataclasses import dataclass
from typing import Final

from policypal.contracts.events import ActionName
from policypal.contracts.subjects import action_requested


@dataclass(frozen=True)
class ActionSpec:
    """One action: its wire name and how the composer describes it."""

    name: ActionName
    #: The second line of the composer's @-suggestion.
    hint: str
    #: How a conversation it opens is titled: "Summary of <the documents>" ("" for a question's own words).
    title_prefix: str = ""

    @property
    def subject(self) -> str:
        """Where its requests are published by PolicyPal's own services."""
        return action_requested(self.name)

    @property
    def durable(self) -> str:
        """Its worker's durable consumer; replicas share it and split the requests."""
        return f"actions-{self.name}"

    @property
    def worker(self) -> str:
        """Its worker's process name and package: ``python -m actions.<name>``."""
        return f"actions.{self.name}"


#: In the order the composer offers them.
ACTION_REGISTRY: Final[tuple[ActionSpec, ...]] = (
    ActionSpec("summarize", hint="Summarize a document", title_prefix="Summary of"),
    ActionSpec("inquire", hint="Ask a question answered from your documents"),
    ActionSpec("compare", hint="Compare two or more documents", title_prefix="Comparison of"),
    ActionSpec("audit", hint="Audit a policy against regulations", title_prefix="Audit of"),
)


def action_spec(name: ActionName) -> ActionSpec:
    """The registry entry of ``name``."""
    return next(spec for spec in ACTION_REGISTRY if spec.name == name)

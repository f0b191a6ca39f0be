"""The resolver's scenario set: the product's examples (docs/product.md, The resolver) and variations, with what should happen.

Each scenario is one message in a conversation whose registry is given (document id -> turn last
used). ``expected`` is the outcome kind ("plan" or the interrupt type, or a refusal code), the action
and the documents; for audit, the source and targets too. Used by the accuracy report and the tests.
"""

from dataclasses import dataclass, field

from policypal.contracts import ActionName
from policypal.state import DocumentRecord, Question, Refusal, RegistryEntry
from resolver.pipeline import Outcome, Plan
from tests.resolver.factories import document, entry

CATALOG: list[DocumentRecord] = [
    document("bn24", "Bank Negara Capital Guidelines", doc_type="regulatory", version="2024"),
    document("bn25", "Bank Negara Capital Guidelines", doc_type="regulatory", version="2025"),
    document("fsa", "FSA Conduct Rules", doc_type="regulatory", version="2023"),
    document("aml", "Our AML Policy", doc_type="policy", version="v3"),
    document("aml2", "Our AML Policy", doc_type="policy", version="v2"),
    document("kyc", "KYC Procedure", doc_type="policy", version="2022"),
    document("priv", "Privacy Policy", doc_type="policy", version="2021"),
    document("gdpr", "GDPR", doc_type="regulatory", version="2016"),
    document("dora", "Digital Operational Resilience Act", doc_type="regulatory", version="2022"),
]
BY_ID = {d.document_id: d for d in CATALOG}
EMAIL = (
    "Dear customer, we guarantee a fixed return of twenty percent on every deposit "
    "and no identity checks are needed."
)


@dataclass(frozen=True)
class Scenario:
    """One message and what the resolver should make of it."""

    name: str
    text: str
    expected: str
    action: ActionName | None = None
    documents: tuple[str, ...] = ()
    mention_action: ActionName | None = None
    mentions: tuple[str, ...] = ()
    registry: dict[str, int] = field(default_factory=dict)
    source: str | None = None
    targets: tuple[str, ...] = ()
    web: bool | None = None
    recent: tuple[str, ...] = ()

    def registry_entries(self) -> list[RegistryEntry]:
        """The conversation's registry before the message."""
        return [entry(BY_ID[i], turn) for i, turn in self.registry.items()]


SCENARIOS: list[Scenario] = [
    Scenario(
        "explicit compare",
        "Compare @Bank Negara Capital Guidelines and @Bank Negara Capital Guidelines",
        "plan",
        "compare",
        ("bn24", "bn25"),
        "compare",
        ("bn24", "bn25"),
    ),
    Scenario(
        "explicit pure mention",
        "@Summarize @Our AML Policy",
        "plan",
        "summarize",
        ("aml",),
        "summarize",
        ("aml",),
    ),
    Scenario(
        "explicit inquire",
        "@Inquire @GDPR How long may personal data be kept?",
        "plan",
        "inquire",
        ("gdpr",),
        "inquire",
        ("gdpr",),
    ),
    Scenario(
        "implicit high after compare",
        "What are the key differences in capital requirements?",
        "plan",
        "compare",
        ("bn24", "bn25"),
        registry={"bn24": 1, "bn25": 1},
    ),
    Scenario(
        "hybrid high",
        "Does @Our AML Policy comply with that regulation?",
        "plan",
        "audit",
        ("aml", "bn24"),
        mentions=("aml",),
        registry={"bn24": 1},
        source="aml",
        targets=("bn24",),
    ),
    Scenario(
        "hybrid medium",
        "Audit @GDPR against the policy",
        "doc_choice",
        "audit",
        ("gdpr",),
        mentions=("gdpr",),
        registry={"kyc": 1, "priv": 2},
    ),
    Scenario(
        "implicit low", "What about the ABC guidelines?", "text_input", "inquire", (), registry={"bn24": 1}
    ),
    Scenario("multi action", "Summarize and audit this document", "action_choice", registry={"aml": 1}),
    Scenario(
        "compare one document",
        "@Compare @KYC Procedure",
        "text_input",
        "compare",
        ("kyc",),
        "compare",
        ("kyc",),
    ),
    Scenario(
        "audit email against those two",
        f"Now audit this email against those two docs: {EMAIL}",
        "plan",
        "audit",
        ("bn24", "fsa"),
        registry={"bn24": 3, "fsa": 3, "kyc": 1},
        targets=("bn24", "fsa"),
        web=False,
    ),
    Scenario(
        "summarize topic is inquire",
        "Summarize the capital adequacy requirements in @GDPR",
        "plan",
        "inquire",
        ("gdpr",),
        mentions=("gdpr",),
    ),
    Scenario(
        "summarize untagged title",
        "Summarize Bank Negara Capital Guidelines 2025",
        "plan",
        "summarize",
        ("bn25",),
    ),
    Scenario("camelcase title", "Summarize BankNegaraCapitalGuidelines2024", "plan", "summarize", ("bn24",)),
    Scenario(
        "title without version is ambiguous",
        "Summarize the Bank Negara Capital Guidelines",
        "doc_choice",
        "summarize",
    ),
    Scenario(
        "fuzzy acronym", "What do the FSA conduct rules say about complaints?", "plan", "inquire", ("fsa",)
    ),
    Scenario("web for latest", "What are the latest capital buffer rules?", "plan", "inquire", (), web=True),
    Scenario(
        "web dropped for compare",
        "@Compare @Bank Negara Capital Guidelines @FSA Conduct Rules with the latest news",
        "plan",
        "compare",
        ("bn24", "fsa"),
        "compare",
        ("bn24", "fsa"),
        web=False,
    ),
    Scenario(
        "them after summarize",
        "Compare them",
        "plan",
        "compare",
        ("kyc", "priv"),
        registry={"kyc": 2, "priv": 2, "gdpr": 1},
    ),
    Scenario(
        "both regulations",
        "Audit @Our AML Policy against both regulations",
        "plan",
        "audit",
        ("aml", "bn24", "fsa"),
        mentions=("aml",),
        registry={"bn24": 2, "fsa": 1},
        source="aml",
        targets=("bn24", "fsa"),
    ),
    Scenario(
        "that policy most recent",
        "Summarize that policy",
        "plan",
        "summarize",
        ("priv",),
        registry={"kyc": 1, "priv": 2},
    ),
    Scenario(
        "the policy ambiguous",
        "Summarize the policy",
        "doc_choice",
        "summarize",
        registry={"kyc": 1, "priv": 2},
    ),
    Scenario("audit without source", "@Audit @GDPR", "text_input", "audit", ("gdpr",), "audit", ("gdpr",)),
    Scenario(
        "audit policy vs regulation by type",
        "@Audit @GDPR @Privacy Policy",
        "plan",
        "audit",
        ("gdpr", "priv"),
        "audit",
        ("gdpr", "priv"),
        source="priv",
        targets=("gdpr",),
    ),
    Scenario("summarize nothing", "Summarize it", "text_input", "summarize"),
    Scenario("general question", "What is capital adequacy?", "plan", "inquire", ()),
    Scenario(
        "too many",
        "@Compare @a @b @c @d @e @f",
        "too_many_documents",
        mention_action="compare",
        mentions=("bn24", "bn25", "fsa", "aml", "kyc", "priv"),
    ),
    Scenario("low intent", "capital buffers", "action_choice"),
    Scenario(
        "follow-up keeps action",
        "and for the 2025 edition",
        "plan",
        "summarize",
        ("bn25",),
        registry={"bn24": 1},
        recent=("user: @Summarize @Bank Negara Capital Guidelines",),
    ),
    Scenario(
        "regulation above",
        "Check @KYC Procedure against the regulation above",
        "plan",
        "audit",
        ("kyc", "gdpr"),
        mentions=("kyc",),
        registry={"gdpr": 1, "priv": 1},
        source="kyc",
        targets=("gdpr",),
    ),
    Scenario(
        "those guidelines versions",
        "Compare those two versions",
        "plan",
        "compare",
        ("bn24", "bn25"),
        registry={"bn24": 2, "bn25": 2, "kyc": 1},
    ),
    # Versions of one title: the catalog holds two Bank Negara editions and two AML policy versions.
    Scenario(
        "compare it with the previous version",
        "Can you compare it with the previous version?",
        "plan",
        "compare",
        ("bn24", "bn25"),
        registry={"bn25": 1},
        recent=("user: @Summarize @Bank Negara Capital Guidelines",),
    ),
    Scenario(
        "what changed in the new version",
        "What changed in the new version?",
        "plan",
        "compare",
        ("bn24", "bn25"),
        registry={"bn24": 1},
    ),
    Scenario(
        "summarize both versions",
        "Summarize both versions",
        "plan",
        "summarize",
        ("bn24", "bn25"),
        registry={"bn24": 1},
    ),
    Scenario(
        "previous version of two titles is ambiguous",
        "Compare it with the previous version",
        "doc_choice",
        "compare",
        (),
        registry={"bn25": 2, "aml": 2},
    ),
    Scenario(
        "edition of a title written out",
        "Summarize the 2024 edition of the Bank Negara Capital Guidelines",
        "plan",
        "summarize",
        ("bn24",),
    ),
    Scenario(
        "v2 of a policy",
        "What does v2 of our AML policy say about record keeping?",
        "plan",
        "inquire",
        ("aml2",),
    ),
    Scenario(
        "tagged edition against last year's",
        "@Compare @Bank Negara Capital Guidelines with last year's version",
        "plan",
        "compare",
        ("bn24", "bn25"),
        "compare",
        ("bn25",),
    ),
    Scenario(
        "the older one after comparing versions",
        "Summarize the older one",
        "plan",
        "summarize",
        ("bn24",),
        registry={"bn24": 2, "bn25": 2, "kyc": 1},
    ),
    Scenario(
        "two editions by year",
        "Compare the 2024 and 2025 editions",
        "plan",
        "compare",
        ("bn24", "bn25"),
        registry={"bn25": 1},
    ),
    Scenario(
        "audit policy against the new version",
        "Audit @Our AML Policy against the new version",
        "plan",
        "audit",
        ("aml", "bn25"),
        mentions=("aml",),
        registry={"bn24": 1},
        source="aml",
        targets=("bn25",),
    ),
    Scenario(
        "edition skips a later title without it",
        "Summarize the 2025 edition",
        "plan",
        "summarize",
        ("bn25",),
        registry={"kyc": 2, "bn24": 1},
    ),
    Scenario(
        "current version is not the web",
        "What does the current version say about the capital conservation buffer?",
        "plan",
        "inquire",
        ("bn25",),
        registry={"bn24": 1},
        web=False,
    ),
    Scenario(
        "bare year follow-up",
        "What about 2025?",
        "plan",
        "summarize",
        ("bn25",),
        registry={"bn24": 1},
        recent=("user: @Summarize @Bank Negara Capital Guidelines",),
    ),
    Scenario(
        "previous version of a title with one version",
        "Compare it with the previous version",
        "text_input",
        "compare",
        ("kyc",),
        registry={"kyc": 1},
    ),
]


def verdict(outcome: Outcome, scenario: Scenario) -> list[str]:
    """What differs between ``outcome`` and the scenario's expectation (empty when it is right)."""
    problems: list[str] = []
    if isinstance(outcome, Refusal):
        kind = outcome.code
    elif isinstance(outcome, Question):
        kind = outcome.interrupt_type
    else:
        kind = "plan"
    if kind != scenario.expected:
        problems.append(f"outcome {kind} != {scenario.expected}")
    if isinstance(outcome, Refusal):
        return problems
    turn = outcome.turn if isinstance(outcome, Plan) else outcome.resume_point
    if scenario.action is not None and turn.action != scenario.action:
        problems.append(f"action {turn.action} != {scenario.action}")
    if scenario.expected in {"plan", "text_input", "doc_choice"} and scenario.action is not None:
        found = {d.document_id for d in turn.documents}
        if found != set(scenario.documents):
            problems.append(f"documents {sorted(found)} != {sorted(scenario.documents)}")
    if isinstance(outcome, Plan):
        if scenario.source is not None and outcome.source_document_id != scenario.source:
            problems.append(f"source {outcome.source_document_id} != {scenario.source}")
        if scenario.targets and set(outcome.target_document_ids) != set(scenario.targets):
            problems.append(f"targets {outcome.target_document_ids} != {scenario.targets}")
        if scenario.web is not None and turn.web != scenario.web:
            problems.append(f"web {turn.web} != {scenario.web}")
    return problems

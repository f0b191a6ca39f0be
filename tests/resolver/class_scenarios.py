"""Scenarios by class, on the way people really write: pasted payloads, plural references, ambiguous
singulars, absent documents, versions in mentions, bare-year follow-ups, multi-action, and reference
words in a message that tags documents.

Written before the rules that serve them and not tuned on: each class has at least five phrasings.
The catalog mirrors the trials that found the problems: two versions of one licence, versions of a
social contract and of a dated framework, a set of regulations, and company policies.
"""

from dataclasses import dataclass

from policypal.state import DocumentRecord, Question, RegistryEntry
from resolver.pipeline import Outcome, Plan
from tests.resolver.factories import document, entry
from tests.resolver.scenario_set import Scenario, verdict

CLASS_CATALOG: list[DocumentRecord] = [
    document("gpl2", "GNU General Public License", doc_type="regulatory", version="2"),
    document("gpl3", "GNU General Public License", doc_type="regulatory", version="3"),
    document("sc10", "Debian Social Contract", doc_type="regulatory", version="1.0"),
    document("sc11", "Debian Social Contract", doc_type="regulatory", version="1.1"),
    document("dpm", "Debian Policy Manual", doc_type="regulatory", version="4.6.2"),
    document("devref", "Developer's Reference", doc_type="regulatory", version="12.0"),
    document("ret", "Data Retention Regulation", doc_type="regulatory", version="2023"),
    document("cred", "Consumer Credit Regulation", doc_type="regulatory", version="2022"),
    document("cap24", "Capital Adequacy Framework", doc_type="regulatory", version="2024"),
    document("cap25", "Capital Adequacy Framework", doc_type="regulatory", version="2025"),
    document("acme", "ACME Acceptable Use Policy", doc_type="policy", version="v1"),
    document("hr", "Remote Work Policy", doc_type="policy", version="2024"),
]
CLASS_BY_ID = {d.document_id: d for d in CLASS_CATALOG}

RELEASE_EMAIL = (
    "From: Dana Reyes <dana@acme.example>\nSubject: Release plan\n\nHi team, we will ship both the "
    "library and the CLI under the same licence. We may modify the source and keep our changes "
    "private, and we will not publish the installer scripts. Thanks, Dana"
)
BOARD_NOTE = (
    "Quick summary for the board: our policy is to compare vendors yearly, and we share customer "
    "files with both partners without asking for consent."
)
CLAUSE = (
    "Customer records are deleted after ninety days unless a summary of the account is needed for "
    "both audits and the previous version of the contract."
)
CONTROL_FILE = (
    "Package: foo\nMaintainer: Jane Doe <jane@example.org>\nDepends: libc6 (>= 2.36), both-tools\n"
    "Description: compare two files and summarize the differences"
)
LOAN_LETTER = (
    "Dear customer, both offers compare favourably: we approve every loan within an hour and keep "
    "your documents for as long as we like."
)
OFFER_EMAIL = (
    "From: sales@acme.example\nTo: clients@acme.example\nSubject: New offer\nWe guarantee approval "
    "for everyone, no credit checks, and we keep both copies of your ID forever."
)
SEARCH_OPTIONS = ("search_library", "search_web")


@dataclass(frozen=True)
class ClassScenario(Scenario):
    """A scenario of one class, with what else must hold for it to count as right."""

    klass: str = ""
    #: The audited text must start with this (the payload, not the instruction).
    source_starts: str | None = None
    #: The clean query handed on must be exactly this (e.g. no "2 and 3" left as a topic).
    query: str | None = None
    #: Option ids the interrupt must offer.
    options: tuple[str, ...] = ()
    #: Documents offered to choose from (doc_choice).
    candidates: tuple[str, ...] = ()
    #: Names of documents the message names that are not in the library (for the scripted model).
    absent: tuple[str, ...] = ()

    def registry_entries(self) -> list[RegistryEntry]:
        """The conversation's registry before the message, from the class catalog."""
        return [entry(CLASS_BY_ID[i], turn) for i, turn in self.registry.items()]


def class_verdict(outcome: Outcome, scenario: ClassScenario) -> list[str]:
    """What differs between ``outcome`` and the scenario's expectation (empty when it is right)."""
    problems = verdict(outcome, scenario)
    if isinstance(outcome, Plan):
        source = outcome.source_text or ""
        if scenario.source_starts is not None and not source.startswith(scenario.source_starts):
            problems.append(f"source text {source[:40]!r} does not start with {scenario.source_starts!r}")
        if scenario.query is not None and outcome.turn.clean_query.strip(" ,;:.?!") != scenario.query:
            problems.append(f"query {outcome.turn.clean_query!r} != {scenario.query!r}")
    if isinstance(outcome, Question):
        offered = [o.id for o in outcome.options or []]
        missing = [o for o in scenario.options if o not in offered]
        if missing:
            problems.append(f"options {offered} lack {missing}")
        if scenario.candidates and {c.document_id for c in outcome.resume_point.candidates} != set(
            scenario.candidates
        ):
            found = sorted(c.document_id for c in outcome.resume_point.candidates)
            problems.append(f"candidates {found} != {sorted(scenario.candidates)}")
    return problems


PASTED = [
    ClassScenario(
        "audit e-mail against two tagged versions",
        f"Audit this email against @GNUGeneralPublicLicense(2) and @GNUGeneralPublicLicense(3): {RELEASE_EMAIL}",
        "plan",
        "audit",
        ("gpl2", "gpl3"),
        mentions=("gpl2", "gpl3"),
        targets=("gpl2", "gpl3"),
        klass="pasted payloads",
        source_starts="From: Dana Reyes",
    ),
    ClassScenario(
        "audit a note against those two docs after a compare",
        f"Now audit this email against those two docs:\n\n{BOARD_NOTE}",
        "plan",
        "audit",
        ("gpl2", "gpl3"),
        registry={"gpl2": 1, "gpl3": 1, "hr": 0},
        targets=("gpl2", "gpl3"),
        klass="pasted payloads",
        source_starts="Quick summary for the board",
    ),
    ClassScenario(
        "quoted clause",
        f'Does this clause comply with @Data Retention Regulation? "{CLAUSE}"',
        "plan",
        "audit",
        ("ret",),
        mentions=("ret",),
        targets=("ret",),
        klass="pasted payloads",
        source_starts="Customer records are deleted",
    ),
    ClassScenario(
        "code block",
        f"Check this config against @Debian Policy Manual:\n```\n{CONTROL_FILE}\n```",
        "plan",
        "audit",
        ("dpm",),
        mentions=("dpm",),
        targets=("dpm",),
        klass="pasted payloads",
        source_starts="Package: foo",
    ),
    ClassScenario(
        "letter on the following lines",
        f"Please audit the message below against @Consumer Credit Regulation and @Data Retention Regulation\n{LOAN_LETTER}",
        "plan",
        "audit",
        ("cred", "ret"),
        mentions=("cred", "ret"),
        targets=("cred", "ret"),
        klass="pasted payloads",
        source_starts="Dear customer",
    ),
    ClassScenario(
        "e-mail with headers after a question",
        f"Is this email compliant with the regulations we discussed?\n{OFFER_EMAIL}",
        "plan",
        "audit",
        ("ret", "cred"),
        registry={"ret": 2, "cred": 2, "hr": 1},
        targets=("ret", "cred"),
        klass="pasted payloads",
        source_starts="From: sales@acme.example",
    ),
]

PLURAL = [
    ClassScenario(
        "audit against those after two summaries",
        "Audit @ACME Acceptable Use Policy against those",
        "plan",
        "audit",
        ("acme", "ret", "cred"),
        mentions=("acme",),
        registry={"ret": 1, "cred": 2},
        source="acme",
        targets=("ret", "cred"),
        klass="plural references",
    ),
    ClassScenario(
        "compare both of them",
        "Compare both of them",
        "plan",
        "compare",
        ("ret", "cred"),
        registry={"ret": 1, "cred": 2},
        klass="plural references",
    ),
    ClassScenario(
        "check against all of them",
        "Check @Remote Work Policy against all of them",
        "plan",
        "audit",
        ("hr", "ret", "cred"),
        mentions=("hr",),
        registry={"ret": 1, "cred": 2},
        source="hr",
        targets=("ret", "cred"),
        klass="plural references",
    ),
    ClassScenario(
        "comply with the regulations",
        "Does @ACME Acceptable Use Policy comply with the regulations?",
        "plan",
        "audit",
        ("acme", "ret", "cred"),
        mentions=("acme",),
        registry={"ret": 1, "cred": 1, "hr": 2},
        source="acme",
        targets=("ret", "cred"),
        klass="plural references",
    ),
    ClassScenario(
        "summarize these two documents",
        "Summarize these two documents",
        "plan",
        "summarize",
        ("dpm", "ret"),
        registry={"dpm": 2, "ret": 1},
        klass="plural references",
    ),
    ClassScenario(
        "question over these documents",
        "What do these documents say about retention periods?",
        "plan",
        "inquire",
        ("ret", "cred"),
        registry={"ret": 3, "cred": 3, "acme": 1},
        klass="plural references",
    ),
]

AMBIGUOUS = [
    ClassScenario(
        "audit against the policy after two regulations",
        "Audit @ACME Acceptable Use Policy against the policy",
        "doc_choice",
        "audit",
        ("acme",),
        mentions=("acme",),
        registry={"ret": 1, "cred": 2},
        klass="ambiguous singulars",
        options=("ret", "cred", "all"),
        candidates=("ret", "cred"),
    ),
    ClassScenario(
        "audit against the regulation",
        "Audit @Remote Work Policy against the regulation",
        "doc_choice",
        "audit",
        ("hr",),
        mentions=("hr",),
        registry={"ret": 1, "cred": 1},
        klass="ambiguous singulars",
        options=("ret", "cred", "all"),
        candidates=("ret", "cred"),
    ),
    ClassScenario(
        "summarize the document",
        "Summarize the document",
        "doc_choice",
        "summarize",
        (),
        registry={"dpm": 1, "ret": 1},
        klass="ambiguous singulars",
        options=("dpm", "ret", "all"),
        candidates=("dpm", "ret"),
    ),
    ClassScenario(
        "what the regulation says",
        "What does the regulation say about interest caps?",
        "doc_choice",
        "inquire",
        (),
        registry={"ret": 2, "cred": 2},
        klass="ambiguous singulars",
        options=("ret", "cred", "all"),
        candidates=("ret", "cred"),
    ),
    ClassScenario(
        "comply with the licence",
        "Does @ACME Acceptable Use Policy comply with the licence?",
        "doc_choice",
        "audit",
        ("acme",),
        mentions=("acme",),
        registry={"gpl2": 1, "gpl3": 1},
        klass="ambiguous singulars",
        options=("gpl2", "gpl3", "all"),
        candidates=("gpl2", "gpl3"),
    ),
    ClassScenario(
        "summarize that one",
        "Summarize that one",
        "doc_choice",
        "summarize",
        (),
        registry={"ret": 2, "cred": 2},
        klass="ambiguous singulars",
        options=("ret", "cred", "all"),
        candidates=("ret", "cred"),
    ),
]

ABSENT = [
    ClassScenario(
        "packaging guide not uploaded",
        "What about the Ubuntu packaging guide?",
        "text_input",
        "inquire",
        (),
        registry={"dpm": 1, "devref": 1},
        klass="absent documents",
        absent=("Ubuntu packaging guide",),
        options=SEARCH_OPTIONS,
    ),
    ClassScenario(
        "guidelines of another distribution",
        "Summarize the Fedora Packaging Guidelines",
        "text_input",
        "summarize",
        (),
        klass="absent documents",
        absent=("Fedora Packaging Guidelines",),
        options=SEARCH_OPTIONS,
    ),
    ClassScenario(
        "a standard with a number",
        "Does @ACME Acceptable Use Policy comply with the ISO 27001 standard?",
        "text_input",
        "audit",
        ("acme",),
        mentions=("acme",),
        klass="absent documents",
        absent=("ISO 27001 standard",),
        options=SEARCH_OPTIONS,
    ),
    ClassScenario(
        "another licence",
        "How does the Apache License 2.0 treat patents?",
        "text_input",
        "inquire",
        (),
        registry={"gpl3": 1},
        klass="absent documents",
        absent=("Apache License 2.0",),
        options=SEARCH_OPTIONS,
    ),
    ClassScenario(
        "a constitution next to a social contract",
        "According to the Debian Constitution, who appoints the Project Leader?",
        "text_input",
        "inquire",
        (),
        registry={"sc11": 1},
        klass="absent documents",
        absent=("Debian Constitution",),
        options=SEARCH_OPTIONS,
    ),
    ClassScenario(
        "compare with a licence not uploaded",
        "Compare the MPL 2.0 with @GNUGeneralPublicLicense(3)",
        "text_input",
        "compare",
        ("gpl3",),
        mentions=("gpl3",),
        klass="absent documents",
        absent=("MPL 2.0",),
        options=SEARCH_OPTIONS,
    ),
]

VERSIONS = [
    ClassScenario(
        "typed mentions with versions",
        "Compare @GPL 2 and @GPL 3",
        "plan",
        "compare",
        ("gpl2", "gpl3"),
        klass="versions in mentions",
        query="",
    ),
    ClassScenario(
        "composer mentions unique per version",
        "Compare @GNUGeneralPublicLicense(2) and @GNUGeneralPublicLicense(3)",
        "plan",
        "compare",
        ("gpl2", "gpl3"),
        mentions=("gpl2", "gpl3"),
        klass="versions in mentions",
        query="",
    ),
    ClassScenario(
        "tagged version with the previous version",
        "Compare @GNU General Public License (v3) with the previous version",
        "plan",
        "compare",
        ("gpl2", "gpl3"),
        mentions=("gpl3",),
        klass="versions in mentions",
        query="",
    ),
    ClassScenario(
        "the 1.1 edition",
        "Summarize the 1.1 edition of the Debian Social Contract",
        "plan",
        "summarize",
        ("sc11",),
        klass="versions in mentions",
    ),
    ClassScenario(
        "typed mention with a dotted version",
        "Summarize @Debian Social Contract 1.0",
        "plan",
        "summarize",
        ("sc10",),
        klass="versions in mentions",
    ),
    ClassScenario(
        "typed mention with a bracketed version",
        "What does @GPL(v2) say about distributing object code?",
        "plan",
        "inquire",
        ("gpl2",),
        klass="versions in mentions",
    ),
    ClassScenario(
        "bracketed numbers after a licence",
        "Compare (2) and (3)",
        "plan",
        "compare",
        ("gpl2", "gpl3"),
        registry={"gpl3": 1},
        recent=("user: Summarize @GNU General Public License",),
        klass="versions in mentions",
        query="",
    ),
]

BARE_YEARS = [
    ClassScenario(
        "what about 2025 after a summary",
        "What about 2025?",
        "plan",
        "summarize",
        ("cap25",),
        registry={"cap24": 1},
        recent=("user: @Summarize @Capital Adequacy Framework",),
        klass="bare-year follow-ups",
    ),
    ClassScenario(
        "and 2024",
        "And 2024?",
        "plan",
        "summarize",
        ("cap24",),
        registry={"cap25": 1},
        recent=("user: Summarize the Capital Adequacy Framework 2025",),
        klass="bare-year follow-ups",
    ),
    ClassScenario(
        "same for 2025",
        "Same for 2025",
        "plan",
        "summarize",
        ("cap25",),
        registry={"cap24": 1},
        recent=("user: @Summarize @Capital Adequacy Framework",),
        klass="bare-year follow-ups",
    ),
    ClassScenario(
        "what about 2024 then",
        "what about 2024 then?",
        "plan",
        "summarize",
        ("cap24",),
        registry={"cap25": 2},
        recent=("user: Summarize the Capital Adequacy Framework 2025",),
        klass="bare-year follow-ups",
    ),
    ClassScenario(
        "now 2025",
        "Now 2025",
        "plan",
        "summarize",
        ("cap25",),
        registry={"cap24": 1},
        recent=("user: @Summarize @Capital Adequacy Framework",),
        klass="bare-year follow-ups",
    ),
    ClassScenario(
        "a year in a real question is a date",
        "What applies from 2025?",
        "plan",
        "inquire",
        (),
        registry={"ret": 1},
        klass="bare-year follow-ups",
    ),
]

MULTI_ACTION = [
    ClassScenario(
        "summarize then audit",
        "Summarize @Data Retention Regulation and then audit @ACME Acceptable Use Policy against it",
        "action_choice",
        mentions=("ret", "acme"),
        klass="multi-action",
        options=("summarize", "audit"),
    ),
    ClassScenario(
        "compare and summarize each",
        "Compare the two GPL versions and give me a summary of each",
        "action_choice",
        registry={"gpl2": 1, "gpl3": 1},
        klass="multi-action",
        options=("compare", "summarize"),
    ),
    ClassScenario(
        "audit a payload and summarize",
        f"Audit this email against @Consumer Credit Regulation and summarize the regulation too:\n{OFFER_EMAIL}",
        "action_choice",
        mentions=("cred",),
        klass="multi-action",
        options=("audit", "summarize"),
    ),
    ClassScenario(
        "action words inside the payload are not actions",
        "Audit this against @Data Retention Regulation: We summarize and compare customer files weekly, "
        "then keep both copies for ten years.",
        "plan",
        "audit",
        ("ret",),
        mentions=("ret",),
        targets=("ret",),
        klass="multi-action",
        source_starts="We summarize and compare",
    ),
    ClassScenario(
        "summarize and compare two titles",
        "Can you summarize the Debian Policy Manual and also compare it with the Developer's Reference?",
        "action_choice",
        klass="multi-action",
        options=("summarize", "compare"),
    ),
    ClassScenario(
        "overview then check",
        "Give me an overview of @Remote Work Policy, then check it against @Data Retention Regulation",
        "action_choice",
        mentions=("hr", "ret"),
        klass="multi-action",
        options=("summarize", "audit"),
    ),
]

TAGGED = [
    ClassScenario(
        "summarize this manual",
        "Summarize this manual.",
        "plan",
        "summarize",
        ("dpm",),
        mentions=("dpm",),
        registry={"ret": 1},
        klass="reference words with tags",
    ),
    ClassScenario(
        "what changed between these two versions",
        "What changed between these two versions?",
        "plan",
        "compare",
        ("gpl2", "gpl3"),
        mentions=("gpl2", "gpl3"),
        registry={"cap24": 1, "cap25": 1},
        klass="reference words with tags",
    ),
    ClassScenario(
        "both of them with tags",
        "Do both of them allow linking from proprietary programs?",
        "plan",
        "inquire",
        ("gpl2", "gpl3"),
        mentions=("gpl2", "gpl3"),
        registry={"ret": 1, "cred": 1},
        klass="reference words with tags",
    ),
    ClassScenario(
        "those files and a hyphenated acronym",
        "Which of those files says most about FSF-copyrighted code?",
        "plan",
        "inquire",
        ("gpl2", "gpl3"),
        mentions=("gpl2", "gpl3"),
        registry={"ret": 1},
        klass="reference words with tags",
    ),
    ClassScenario(
        "the licence's own acronym",
        "Is the GPL clear about tivoization in this version?",
        "plan",
        "inquire",
        ("gpl3",),
        mentions=("gpl3",),
        klass="reference words with tags",
    ),
    ClassScenario(
        "summarize them with two tags",
        "Summarize them",
        "plan",
        "summarize",
        ("ret", "cred"),
        mentions=("ret", "cred"),
        registry={"hr": 1},
        klass="reference words with tags",
    ),
]

CLASS_SCENARIOS: list[ClassScenario] = [
    *PASTED,
    *PLURAL,
    *AMBIGUOUS,
    *ABSENT,
    *VERSIONS,
    *BARE_YEARS,
    *MULTI_ACTION,
    *TAGGED,
]

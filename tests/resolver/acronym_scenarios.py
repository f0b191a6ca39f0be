"""Scenarios on acronyms: topics of the question, regulations not uploaded, uploaded documents by acronym.

Compliance officers write acronyms all the time; most are what the question is about ("PEP
screening", "our CET1 ratio"), some name a regulation ("does DORA require…"). The offline resolver
must answer the first from the user's documents without asking, ask to tag the second when it is not
uploaded, and resolve it when it is (also by the title's initials). Same catalog and checks as
``tests.resolver.scenario_set``.
"""

from tests.resolver.scenario_set import Scenario

ACRONYM_SCENARIOS: list[Scenario] = [
    # Topics of the question: answered from the user's documents, never asked about.
    Scenario(
        "PEP screening is a topic",
        "@Inquire What does our policy say about PEP screening?",
        "plan",
        "inquire",
        (),
        "inquire",
    ),
    Scenario(
        "our policy from the registry, PEP a topic",
        "What does our policy say about PEP screening?",
        "plan",
        "inquire",
        ("aml",),
        registry={"aml": 1},
    ),
    Scenario(
        "CDD and EDD are topics",
        "How often do we refresh CDD for high-risk customers, and who signs off on EDD?",
        "plan",
        "inquire",
        (),
    ),
    Scenario(
        "SAR and STR are topics", "When do we have to file a SAR or STR with the FIU?", "plan", "inquire", ()
    ),
    Scenario(
        "prudential ratios are topics",
        "What is our minimum CET1 ratio and LCR buffer?",
        "plan",
        "inquire",
        (),
    ),
    Scenario(
        "a DPIA is a topic", "Do we need a DPIA before launching the new customer app?", "plan", "inquire", ()
    ),
    Scenario(
        "AML training is not the AML policy",
        "What does our AML training cover for new joiners?",
        "plan",
        "inquire",
        (),
    ),
    Scenario(
        "KYC checks are a topic", "What are our KYC checks for new corporate clients?", "plan", "inquire", ()
    ),
    # Regulations named but not uploaded: ask to tag.
    Scenario(
        "MiFID II not uploaded", "What does MiFID II say about inducements?", "text_input", "inquire", ()
    ),
    Scenario("Basel III not uploaded", "What is the LCR floor under Basel III?", "text_input", "inquire", ()),
    Scenario("PSD2 not uploaded", "Does PSD2 apply to our card payments?", "text_input", "inquire", ()),
    Scenario(
        "SOX requirements not uploaded",
        "What are the SOX requirements for quarterly access reviews?",
        "text_input",
        "inquire",
        (),
    ),
    Scenario(
        "audit against a directive not uploaded",
        "Audit @Our AML Policy against AMLD6",
        "text_input",
        "audit",
        ("aml",),
        mentions=("aml",),
    ),
    # Uploaded documents an acronym names: resolved, also by the title's initials.
    Scenario(
        "uploaded GDPR as a modifier",
        "What are the GDPR fines for late notification to the supervisor?",
        "plan",
        "inquire",
        ("gdpr",),
    ),
    Scenario(
        "uploaded GDPR in a document position",
        "Does the GDPR allow us to keep rejected candidates' CVs for two years?",
        "plan",
        "inquire",
        ("gdpr",),
    ),
    Scenario(
        "DORA is the uploaded act's acronym",
        "Is our ICT incident reporting in line with DORA?",
        "plan",
        "inquire",
        ("dora",),
    ),
    Scenario(
        "DORA requirements with a topic acronym",
        "Does DORA require a register of all our ICT third-party providers?",
        "plan",
        "inquire",
        ("dora",),
    ),
    Scenario(
        "uploaded procedure named, PEP a topic",
        "What do our KYC procedures say about PEP screening?",
        "plan",
        "inquire",
        ("kyc",),
    ),
    Scenario(
        "regulator named with a topic acronym",
        "How do we handle STR filing deadlines under the FSA rules?",
        "plan",
        "inquire",
        ("fsa",),
    ),
]

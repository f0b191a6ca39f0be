"""Multi-page documents for the action tests, with planted changes and violations.

Two versions of a regulation (the 2025 one keeps records ten years instead of seven and adds a page on
automated decisions) and a company policy that contradicts the 2024 regulation in three places.
"""

RETENTION_2024 = "Customer records must be retained for at least seven years after the account is closed."
RETENTION_2025 = "Customer records must be retained for at least ten years after the account is closed."
TRANSFER_RULE = (
    "Personal data must not be transferred to a vendor without the written consent of the customer."
)
INCIDENT_RULE = "Security incidents must be reported to the regulator within 72 hours of discovery."

POLICY_RETENTION = "Customer records are kept for two years after the account is closed."
POLICY_TRANSFER = "Staff may transfer personal data to any vendor without asking the customer."
POLICY_INCIDENT = "Security incidents are reported to the regulator within 30 days of discovery."

_SCOPE = (
    "Scope and application. This regulation applies to every licensed bank and payment institution "
    "operating in the territory. It sets minimum standards for the handling of customer information. "
    "Institutions remain responsible for the conduct of their branches, agents and outsourced providers. "
    "The board of directors approves the institution's framework for compliance with this regulation."
)
_RETENTION = (
    "Record retention. {rule} Records include account opening forms, identity documents and "
    "transaction histories. Retained records must be kept in a form that can be produced to the "
    "regulator on request within five working days. Records must be protected against loss, alteration "
    "and unauthorised destruction for the whole retention period."
)
_TRANSFERS = (
    "Data transfers and consent. {rule} The consent must name the vendor and the purpose of the "
    "transfer. Institutions must keep a register of every vendor that receives personal data. A vendor "
    "agreement must oblige the vendor to delete the data when the contract ends."
)
_INCIDENTS = (
    "Incident reporting. {rule} The report must describe the nature of the incident, the customers "
    "affected and the measures taken to contain it. A final report follows once the investigation is "
    "complete. Institutions must test their incident response plan at least once a year."
)
_TRAINING = (
    "Staff training. Every employee who handles customer information must complete data protection "
    "training when hired and every year after that. Training records must show the date and content of "
    "each course. Managers must ensure that contractors receive equivalent instruction before they are "
    "given access to customer systems."
)
_PENALTIES = (
    "Enforcement and penalties. The regulator may inspect any institution without prior notice. A breach "
    "of this regulation may lead to a public reprimand, a fine or the suspension of the licence. When "
    "setting a fine, the regulator considers the gravity and duration of the breach and any cooperation "
    "by the institution."
)
_AUTOMATED = (
    "Automated decisions. Institutions that use machine learning models to approve loans must explain "
    "each refusal to the applicant in plain language. The models must be validated by an independent "
    "team before first use and after every material change. A human officer must be able to override an "
    "automated decision at the request of the customer."
)

REGULATION_2024 = [
    _SCOPE,
    _RETENTION.format(rule=RETENTION_2024),
    _TRANSFERS.format(rule=TRANSFER_RULE),
    _INCIDENTS.format(rule=INCIDENT_RULE),
    _TRAINING,
    _PENALTIES,
]
REGULATION_2025 = [
    _SCOPE,
    _RETENTION.format(rule=RETENTION_2025),
    _TRANSFERS.format(rule=TRANSFER_RULE),
    _INCIDENTS.format(rule=INCIDENT_RULE),
    _TRAINING,
    _AUTOMATED,
    _PENALTIES,
]
COMPANY_POLICY = [
    (
        "Northwind Bank data handling policy. This policy describes how Northwind Bank handles customer "
        "information in all of its branches. The compliance officer reviews it every year and reports to "
        "the board of directors."
    ),
    (
        f"Keeping records. {POLICY_RETENTION} Account opening forms and identity documents are stored in "
        "the document management system. Records can be produced to the regulator on request."
    ),
    (
        f"Working with vendors. {POLICY_TRANSFER} The procurement team keeps a list of the vendors we work "
        "with. Vendor contracts are signed by the head of operations."
    ),
    (
        f"Handling incidents. {POLICY_INCIDENT} The security team leads the investigation and informs the "
        "affected customers. The incident response plan is tested at least once a year."
    ),
    (
        "Training. Every employee who handles customer information completes data protection training "
        "when hired and every year after that. Contractors receive the same training before they access "
        "customer systems."
    ),
]

EMAIL = (
    "Hello team, a quick reminder about our housekeeping rules. "
    f"{POLICY_RETENTION} "
    "Feel free to share customer files with our new analytics vendor whenever it helps, no consent needed. "
    f"{POLICY_INCIDENT} "
    "The office kitchen will be closed on Friday for cleaning."
)

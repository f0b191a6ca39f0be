"""The corpus of the @Audit quality bench (``bench.audit_quality``): regulations, company sources, gold.

- ``corpus``: the targets (four real documents from Debian packages: the Debian Policy Manual, the
  FHS 3.0, the GNU Coding Standards and the GPL-3 text), the sources written for the bench (company
  documents with planted violations and compliant clauses) and the gold (``gold.json``).
- ``scoring``: how findings are matched to planted clauses and gold rules, and the metrics.

The sources are split into ``dev`` (6 sources, to look at while tuning) and ``held-out`` (the
others, reported separately and not to be read or tuned on).
"""

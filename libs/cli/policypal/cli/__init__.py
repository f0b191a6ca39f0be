"""The ``policypal`` command: the whole system on one machine, and developer tokens."""

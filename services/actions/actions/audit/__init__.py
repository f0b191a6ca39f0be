"""The @Audit worker: a text or a policy checked against 1-5 regulations, per target and severity."""

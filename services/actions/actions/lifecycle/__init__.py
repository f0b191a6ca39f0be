"""One action request from delivery to its one terminal event, shared by every action worker (ADR 0005)."""

"""The @Summarize worker: each tagged document summarised part by part, from its own structure."""

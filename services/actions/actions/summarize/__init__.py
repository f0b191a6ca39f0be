"""The @Summarize worker: an extractive summary of each tagged document from a stratified sample."""

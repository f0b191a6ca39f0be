"""The @Inquire worker: answers a question from the passages of the tagged documents, with citations."""

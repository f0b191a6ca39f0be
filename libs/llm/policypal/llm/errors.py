"""Why a language-model call failed; messages name the model and the cause, never prompt text."""


class LLMError(Exception):
    """A language-model call did not produce a usable answer."""


class LLMUnavailableError(LLMError):
    """The API failed (rate limit, server error, timeout, connection) even after the retries."""


class StructuredOutputError(LLMError):
    """The model's reply did not validate against the requested schema, even after one correction."""

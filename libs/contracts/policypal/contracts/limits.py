"""The limits of a request, defined once and imported by the gateway, the resolver and the workers.

docs/product.md, Validation limits: summarize 1-5 documents, inquire 0-5, compare 2-5, audit a
source and 1-5 targets; more than five ends the request with ``too_many_documents``.
"""

from typing import Final

#: The most documents one action works with (for an audit: the most targets).
MAX_DOCUMENTS: Final = 5
#: The fewest documents a comparison needs.
MIN_COMPARE_DOCUMENTS: Final = 2
#: The longest text an audit accepts to check (characters), over HTTP and on the bus alike.
MAX_SOURCE_TEXT: Final = 50_000
#: The longest verbatim quote a citation or an audit finding carries (characters).
MAX_QUOTE_CHARS: Final = 300
#: The longest chat message (characters): a user's, or a reviewer's answer shown as one.
MAX_MESSAGE_TEXT: Final = 20_000

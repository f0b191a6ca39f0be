"""Where a licence's terms end: what follows "END OF TERMS AND CONDITIONS" is advice, not terms.

The GNU licences and the Apache License close their terms with that line and then tell authors how
to apply the licence to a new program of their own ("How to Apply These Terms to Your New
Programs": attach these notices, "You should have received a copy of the GNU General Public
License", get your employer to sign a disclaimer). That advice binds no one who receives or passes on
the licensed work; read as rules, its sample notice outranks the terms a clause breaks ("a copy of
the GPL" meets "You should have received a copy …" before "give all recipients a copy of this
License"). A document's statements after the line give no rule units; a licence appended to a
manual is left out whole already (``boilerplate.appended_licences``).
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from policypal.vectorstore import ChunkPoint

# In capitals, as the licences write it: "the end of terms and conditions" in prose is no such line.
_END_OF_TERMS: Final = re.compile(r"\bEND\s+OF\s+(?:THE\s+)?TERMS\s+AND\s+CONDITIONS\b")


@dataclass(frozen=True)
class TermsEnd:
    """The chunk that holds the line ending a licence's terms, and where the line ends in it."""

    chunk_index: int
    offset: int

    @classmethod
    def of(cls, chunks: Sequence[ChunkPoint]) -> "TermsEnd | None":
        """The first such line in ``chunks`` (one document's, in reading order); None without one."""
        for chunk in chunks:
            found = _END_OF_TERMS.search(chunk.text)
            if found is not None:
                return cls(chunk.chunk_index, found.end())
        return None

    def follows(self, chunk: ChunkPoint, quote: str, text: str) -> bool:
        """Whether a statement of ``chunk`` (its ``quote`` and ``text``) comes after the line, or holds
        it (a heading read into the sentence after it)."""
        if chunk.chunk_index != self.chunk_index:
            return chunk.chunk_index > self.chunk_index
        return chunk.text.find(quote) >= self.offset or _END_OF_TERMS.search(text) is not None

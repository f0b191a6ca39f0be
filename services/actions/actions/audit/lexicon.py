"""Words that name the same act: a clause's "starts" for a rule's "begin", "removes" for "delete".

A prohibition is broken only by a clause that does the act it forbids (``judgement``), and a clause
seldom uses the rule's own verb. Single words are embedded by the audit's embedder and compared: a
clause word at least ``SYNONYM`` similar to the rule's verb reads as that verb. Measured with the
offline MiniLM: begin/start 0.84, delete/remove 0.76, contain/include 0.63 read alike; close/end
0.42, send/transmit 0.45, place/install 0.23 do not, so the bar errs towards the rule's own words.
"""

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from actions.audit.clauses import Clause
from actions.audit.matching import JUDGED, Matched
from actions.audit.polarity import act_verbs, rule_act
from actions.sentences import embed_texts
from policypal.embeddings import Embedder
from policypal.rules import NEGATIVE_MODALITIES

#: Cosine at which two single words name the same act.
SYNONYM: Final = 0.6
_WORD: Final = re.compile(r"[a-z][a-z'-]{2,}")


@dataclass(frozen=True)
class Lexicon:
    """Unit vectors of the words an audit compares, by lower-case word."""

    vectors: Mapping[str, npt.NDArray[np.float32]]

    @classmethod
    async def of(cls, embedder: Embedder, texts: Iterable[str]) -> "Lexicon":
        """The lexicon of every word of ``texts`` (embedded once each, in one batch)."""
        words = sorted({w for text in texts for w in words_of(text)})
        if not words:
            return cls({})
        vectors = await embed_texts(embedder, words)
        return cls(dict(zip(words, vectors, strict=True)))

    def alike(self, word: str, candidates: Iterable[str]) -> str | None:
        """The candidate that names what ``word`` names, the closest first; None when none does."""
        own = self.vectors.get(word.lower())
        if own is None:
            return None
        best, score = None, SYNONYM
        for candidate in candidates:
            other = self.vectors.get(candidate.lower())
            if other is not None and (similarity := float(own @ other)) >= score:
                best, score = candidate, similarity
        return best


async def act_lexicon(embedder: Embedder, clauses: Sequence[Clause], matched: Sequence[Matched]) -> Lexicon:
    """The lexicon an offline audit needs: the clauses' words and the verbs of the prohibitions
    that may govern them (a clause must do the act a prohibition forbids to break it)."""
    verbs = {
        verb
        for target in matched
        for found in target.candidates
        for candidate in found[:JUDGED]
        if candidate.rule.modality in NEGATIVE_MODALITIES
        for verb in act_verbs(rule_act(candidate.rule.text, candidate.rule.modal_words))
    }
    return await Lexicon.of(embedder, [*(c.text for c in clauses), " ".join(sorted(verbs))])


def words_of(text: str) -> list[str]:
    """The lower-case words of ``text`` a lexicon holds (three letters or more)."""
    return _WORD.findall(text.lower())

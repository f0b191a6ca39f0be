"""Words naming the same act, read with the real offline embedder."""

from actions.audit.lexicon import Lexicon
from policypal.embeddings import MiniLMEmbedder


async def test_a_word_reads_as_a_verb_of_the_same_act_and_not_as_a_merely_related_one(
    embedder: MiniLMEmbedder,
) -> None:
    lexicon = await Lexicon.of(embedder, ["begin delete close", "starts removes ends report"])

    assert lexicon.alike("begin", ["report", "starts"]) == "starts"
    assert lexicon.alike("delete", ["removes"]) == "removes"
    assert lexicon.alike("close", ["ends", "report"]) is None


async def test_an_unknown_word_reads_as_nothing(embedder: MiniLMEmbedder) -> None:
    lexicon = await Lexicon.of(embedder, ["begin"])

    assert lexicon.alike("begin", ["commence"]) is None
    assert lexicon.alike("unseen", ["begin"]) is None
    assert (await Lexicon.of(embedder, [""])).vectors == {}

"""Mentions typed with a version, and reference words or names that point at the tagged documents."""

from resolver.references import find_references
from resolver.tagged_references import covered_by_tagged, names_a_tagged
from resolver.typed_mentions import typed_mentions
from tests.resolver.factories import document

GPL2 = document("gpl2", "GNU General Public License", doc_type="regulatory", version="2")
GPL3 = document("gpl3", "GNU General Public License", doc_type="regulatory", version="3")
SC = document("sc10", "Debian Social Contract", doc_type="regulatory", version="1.0")
POL = document("pol", "Acceptable Use Policy", doc_type="policy", version="v1")
CATALOG = [GPL2, GPL3, SC, POL]


def test_typed_mentions_name_one_version_by_acronym_title_or_bracket() -> None:
    found = typed_mentions("Compare @GPL 2 and @GPL(v3), then @Debian Social Contract 1.0", CATALOG)
    assert [t.document.document_id for t in found] == ["gpl2", "gpl3", "sc10"]
    assert [t.start for t in found] == [8, 19, 34]


def test_a_typed_mention_that_leaves_the_version_open_or_names_nothing_is_left_alone() -> None:
    assert typed_mentions("Summarize @GPL", CATALOG) == []  # two versions: the other rules ask
    assert typed_mentions("@Summarize @Unknown 2 and mail me@acme.example", CATALOG) == []
    assert [t.document.document_id for t in typed_mentions("@AcceptableUsePolicy", CATALOG)] == ["pol"]
    # A mention already tagged by the composer is not read twice.
    assert typed_mentions("@GPL 2", CATALOG, taken=[(0, 6)]) == []


def test_reference_words_point_at_the_tags_unless_the_tags_cannot_be_what_they_mean() -> None:
    def covered(text: str, tagged: list, action: str = "inquire", positions: dict | None = None) -> bool:
        [reference] = find_references(text)
        return covered_by_tagged(
            reference,
            tagged,
            positions=positions or {},
            message=text,
            action=action,  # type: ignore[arg-type]
        )

    assert covered("What changed between these two versions?", [GPL2, GPL3])
    assert covered("Summarize this manual", [document("m", "Debian Policy Manual", doc_type="regulatory")])
    assert not covered("Compare those three documents", [GPL2, GPL3])
    assert not covered("Does it comply with that regulation?", [POL])
    text = "Audit @Acceptable Use Policy against those"
    assert not covered(text, [POL], "audit", {"pol": 6})


def test_short_names_of_a_tagged_title_are_that_document() -> None:
    assert names_a_tagged("GPL", [GPL3])
    assert names_a_tagged("General Public License", [GPL3])
    assert not names_a_tagged("MPL", [GPL3])
    assert not names_a_tagged("EU", [GPL3])

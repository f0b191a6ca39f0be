"""Several versions of one title: the newest answers unless the question names one."""

from actions.inquire.versions import is_passed_over, names_version, version_choices, version_numbers
from policypal.vectorstore import ChunkHit
from tests.actions.inquire.hand_made_hits import chunk_hit


def constitution(version: str) -> ChunkHit:
    hit = chunk_hit("The Technical Committee consists of up to 8 Developers.", title="Debian Constitution")
    return hit.model_copy(update={"version": version, "document_id": f"c{version.replace('.', '_')}"})


def test_version_labels_are_read_as_numbers() -> None:
    assert version_numbers("1.7") == (1, 7)
    assert version_numbers("v2.0") == (2,)
    assert version_numbers("2022-03-23") == (2022, 3, 23)
    assert version_numbers("Draft") is None


def test_a_named_version_is_found_only_as_a_whole_label() -> None:
    assert names_version("in constitution 1.7, how long was it?", "1.7")
    assert names_version("what did v1.7 say", "1.7")
    assert not names_version("under 1.75 or 11.7", "1.7")
    assert not names_version("version 1.7.2", "1.7")


def test_the_newest_version_is_preferred_unless_the_question_names_one() -> None:
    hits = [constitution(v) for v in ("1.9", "1.7", "1.8")]
    choice = version_choices(hits, "How many members can the committee have?")["debian constitution"]
    assert (choice.preferred, choice.versions, choice.named) == ("1.9", ("1.7", "1.8", "1.9"), False)
    assert [is_passed_over(h, {"debian constitution": choice}) for h in hits] == [False, True, True]
    assert choice.describe("1.9") == "version 1.9, the newest; also in scope: 1.7, 1.8"

    named = version_choices(hits, "In version 1.7, how many members?")["debian constitution"]
    assert (named.preferred, named.named) == ("1.7", True)
    assert named.describe("1.7") == "version 1.7, as asked"


def test_one_version_or_unreadable_labels_give_no_preference() -> None:
    assert version_choices([constitution("1.9")], "q") == {}
    assert version_choices([constitution("Draft"), constitution("Final")], "q") == {}

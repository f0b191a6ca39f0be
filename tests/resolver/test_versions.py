"""Version references against the catalog's versions of the title in focus."""

from resolver.versions import find_version_references, resolve_versions, without_version_references
from tests.resolver.factories import document, entry

BN23 = document("bn23", "Capital Guidelines", doc_type="regulatory", version="2023")
BN24 = document("bn24", "Capital Guidelines", doc_type="regulatory", version="2024")
BN25 = document("bn25", "Capital Guidelines", doc_type="regulatory", version="2025")
AML2 = document("aml2", "AML Policy", version="v2")
AML3 = document("aml3", "AML Policy", version="v3")
KYC = document("kyc", "KYC Procedure", version="2022")
CATALOG = [BN25, BN23, BN24, AML3, AML2, KYC]


def kinds(text: str) -> list[tuple[str, str | None, int | None]]:
    return [(r.kind, r.written, r.count) for r in find_version_references(text)]


def picked(
    text: str, registry: dict[str, int], explicit: tuple[str, ...] = ()
) -> tuple[tuple[str, ...], ...]:
    """(picked, candidates, anchors) for ``text`` with ``registry`` (id -> turn)."""
    by_id = {d.document_id: d for d in CATALOG}
    match = resolve_versions(
        find_version_references(text),
        text,
        explicit=[by_id[i] for i in explicit],
        registry=[entry(by_id[i], turn) for i, turn in registry.items()],
        catalog=CATALOG,
    )
    assert match is not None, text
    return match.document_ids, match.candidates, match.anchors


def test_finds_how_users_name_versions() -> None:
    assert kinds("and for the 2025 edition") == [("exact", "2025", None)]
    assert kinds("what does v2 say, and version 3.1?") == [("exact", "v2", None), ("exact", "3.1", None)]
    assert kinds("compare the 2024 and 2025 editions") == [("exact", "2024", None), ("exact", "2025", None)]
    assert kinds("what changed in the new version?") == [("newer", None, None)]
    assert kinds("the latest version vs the previous one") == [("newest", None, None), ("older", None, None)]
    assert kinds("compare with last year's") == [("older", None, None)]
    assert kinds("summarize the original edition") == [("oldest", None, None)]
    assert kinds("summarize both versions") == [("all", None, 2)]
    assert kinds("compare the two versions") == [("all", None, 2)]
    assert kinds("across all versions") == [("all", None, None)]


def test_messages_without_version_words_have_none() -> None:
    assert kinds("Summarize that policy") == []
    assert kinds("What are the capital requirements for 2025?") == []
    assert kinds("Compare those two docs") == []


def test_an_explicit_edition_of_the_title_in_focus() -> None:
    assert picked("and for the 2025 edition", {"bn24": 1}) == (("bn25",), (), ("bn24",))


def test_relative_words_pick_the_neighbour_of_the_version_in_focus() -> None:
    assert picked("the previous version", {"bn25": 1})[0] == ("bn24",)
    assert picked("the new version", {"bn23": 1})[0] == ("bn24",)
    assert picked("the latest version", {"bn23": 1})[0] == ("bn25",)
    assert picked("the original version", {"bn25": 1})[0] == ("bn23",)
    assert picked("last year's version", {"aml3": 1})[0] == ("aml2",)


def test_with_two_versions_in_focus_newer_and_older_choose_between_them() -> None:
    assert picked("the older one", {"bn24": 2, "bn25": 2})[0] == ("bn24",)
    assert picked("the newer one", {"bn23": 2, "bn25": 2})[0] == ("bn25",)


def test_a_written_title_without_a_version_means_the_newest_two() -> None:
    assert picked("what changed in the new version of the Capital Guidelines?", {}) == (
        ("bn25",),
        (),
        ("bn24",),
    )
    assert picked("the previous version of the AML Policy", {"kyc": 1})[0] == ("aml2",)


def test_a_written_title_takes_the_version_the_conversation_used() -> None:
    assert picked("the previous version of the Capital Guidelines", {"bn24": 1, "kyc": 2})[0] == ("bn23",)


def test_a_tagged_version_is_the_focus() -> None:
    assert picked("compare it with the previous version", {}, explicit=("aml3",)) == (
        ("aml2",),
        (),
        ("aml3",),
    )


def test_all_versions_and_counts() -> None:
    assert picked("summarize all versions", {"bn24": 1})[0] == ("bn23", "bn24", "bn25")
    assert picked("compare the two versions", {"bn24": 1, "bn25": 1})[0] == ("bn24", "bn25")
    # Three editions and "both": which two is the user's call.
    assert picked("summarize both versions", {"bn24": 1}) == ((), ("bn23", "bn24", "bn25"), ())


def test_the_most_recent_title_that_fits_wins() -> None:
    # KYC (turn 2) has no 2025 edition; the guidelines (turn 1) have.
    assert picked("the 2025 edition", {"bn24": 1, "kyc": 2})[0] == ("bn25",)


def test_two_titles_that_fit_are_ambiguous() -> None:
    assert picked("the previous version", {"bn25": 1, "aml3": 1}) == ((), ("bn24", "aml2"), ())


def test_no_fitting_title_leaves_the_message_to_the_other_rules() -> None:
    registry = [entry(KYC, 1)]
    for text in ("the previous version", "the 2025 edition", "v7"):
        assert (
            resolve_versions(
                find_version_references(text), text, explicit=[], registry=registry, catalog=CATALOG
            )
            is None
        )
    # The newest version has no newer one.
    assert (
        resolve_versions(
            find_version_references("the new version"),
            "the new version",
            explicit=[],
            registry=[entry(BN25, 1)],
            catalog=CATALOG,
        )
        is None
    )


def test_only_phrases_that_resolve_leave_the_intent_text() -> None:
    registry = [entry(BN24, 1)]
    assert (
        without_version_references("Summarize both versions", explicit=[], registry=registry, catalog=CATALOG)
        == "Summarize"
    )
    assert (
        without_version_references(
            "What is the latest version of Basel III?", explicit=[], registry=[entry(KYC, 1)], catalog=CATALOG
        )
        == "What is the latest version of Basel III?"
    )

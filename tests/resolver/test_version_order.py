"""The order of a title's versions: labels by their numbers, upload time when labels cannot be compared."""

from datetime import UTC, datetime, timedelta

from policypal.state import DocumentRecord
from resolver.version_order import VersionKey, names_version, ordered_versions, version_key
from tests.resolver.factories import document

START = datetime(2026, 1, 1, tzinfo=UTC)


def uploaded(document_id: str, version: str, day: int) -> DocumentRecord:
    """A version of "Capital Rules" uploaded ``day`` days after the start."""
    record = document(document_id, "Capital Rules", version=version)
    return record.model_copy(update={"created_at": START + timedelta(days=day)})


def order(*records: DocumentRecord) -> list[str]:
    return [r.document_id for r in ordered_versions(list(records))]


def test_labels_read_as_numbers() -> None:
    assert version_key("2024") == VersionKey("dated", (2024,))
    assert version_key("Q1 2025") == VersionKey("dated", (2025, 1))
    assert version_key("March 2024") == VersionKey("dated", (2024, 3))
    assert version_key("v3.1") == VersionKey("numbered", (3, 1))
    assert version_key("Rev 4") == VersionKey("numbered", (4,))
    assert version_key("2.0") == version_key("v2")
    assert version_key("Final") is None


def test_years_order_by_label_not_by_upload() -> None:
    # The 2023 edition was uploaded last (an archive copy): it is still the oldest.
    assert order(uploaded("y25", "2025", 1), uploaded("y23", "2023", 3), uploaded("y24", "2024", 2)) == [
        "y23",
        "y24",
        "y25",
    ]


def test_semantic_numbers_compare_part_by_part() -> None:
    # As text "v10" < "v9" and "3.10" < "3.9"; as numbers they are the newest.
    assert order(uploaded("a", "v10", 1), uploaded("b", "v9", 2), uploaded("c", "v2", 3)) == ["c", "b", "a"]
    assert order(uploaded("a", "3.10", 1), uploaded("b", "3.9", 2)) == ["b", "a"]


def test_quarters_and_months_order_within_a_year() -> None:
    assert order(
        uploaded("q2", "Q2 2024", 1), uploaded("q1", "Q1 2025", 2), uploaded("q4", "Q4 2024", 3)
    ) == [
        "q2",
        "q4",
        "q1",
    ]
    assert order(uploaded("jun", "June 2024", 1), uploaded("mar", "March 2024", 2)) == ["mar", "jun"]


def test_labels_that_cannot_be_compared_fall_back_to_upload_time() -> None:
    assert order(uploaded("final", "Final", 2), uploaded("draft", "Draft", 1)) == ["draft", "final"]
    # Mixed schemes ("v3" next to "2024") are not comparable either.
    assert order(uploaded("v3", "v3", 1), uploaded("y24", "2024", 2)) == ["v3", "y24"]
    assert order(uploaded("y24", "2024", 1), uploaded("v3", "v3", 2)) == ["y24", "v3"]


def test_equal_labels_keep_upload_order() -> None:
    assert order(uploaded("late", "v2.0", 2), uploaded("early", "v2", 1)) == ["early", "late"]


def test_a_written_version_names_labels() -> None:
    assert names_version("2025", "2025")
    assert names_version("2025", "Q1 2025")
    assert not names_version("2025", "2024")
    assert names_version("v2", "2.0")
    assert names_version("3.1", "v3.1")
    assert not names_version("v3", "v3.1")
    assert not names_version("2", "2024")

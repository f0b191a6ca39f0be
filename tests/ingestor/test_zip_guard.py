"""Zip bombs are refused before python-docx inflates anything."""

import pytest

from ingestor import rejections
from ingestor.rejections import DocumentRejected
from ingestor.zip_guard import check_zip
from tests.ingestor import document_factory


def test_a_real_docx_passes() -> None:
    check_zip(document_factory.policy_docx(), max_unpacked_bytes=256 * 1024 * 1024)


def test_a_bomb_under_the_size_limit_is_caught_by_its_ratio() -> None:
    with pytest.raises(DocumentRejected) as caught:
        check_zip(document_factory.zip_bomb_docx(), max_unpacked_bytes=256 * 1024 * 1024)
    assert caught.value.reason_code == rejections.DECOMPRESSION_BOMB
    assert "compressed" in caught.value.reason


def test_a_bomb_over_the_unpacked_limit_is_caught_by_its_size() -> None:
    with pytest.raises(DocumentRejected) as caught:
        check_zip(document_factory.zip_bomb_docx(), max_unpacked_bytes=16 * 1024 * 1024)
    assert "unpack to" in caught.value.reason


def test_a_truncated_archive_is_corrupt() -> None:
    with pytest.raises(DocumentRejected) as caught:
        check_zip(document_factory.policy_docx()[:2000], max_unpacked_bytes=1024)
    assert caught.value.reason_code == rejections.CORRUPT

import pytest

from ingestor.code_spans import keep_code_spans
from ingestor.structured_text import partition_structured


def _texts(markdown: str) -> list[str]:
    return [block.text for block in partition_structured(markdown.encode(), "markdown")]


def test_an_inline_code_span_keeps_its_backticks_and_its_words() -> None:
    (text,) = _texts(
        "Error messages should read like `tessera: Could not read manifest.json.`, starting there.\n"
    )
    assert text == "Error messages should read like `tessera: Could not read manifest.json.`, starting there."


@pytest.mark.parametrize(
    "code",
    [
        "/var/opt/<subdir>/*.conf",
        "my_var_name",
        "a & b",
        "make -j2 install",
        "[x](y)",
        "1. two",
        "C:\\temp",
        "#define",
    ],
)
def test_markup_inside_a_span_is_kept_as_written(code: str) -> None:
    (text,) = _texts(f"Run `{code}` first.\n")
    assert text == f"Run `{code}` first."


def test_code_blocks_and_nested_items_are_read_as_before() -> None:
    markdown = "Intro with `a`.\n\n```\nfenced `b`\n```\n\n    indented `c`\n\n- item\n    - nested `d`\n"
    kept = keep_code_spans(markdown)
    assert "fenced `b`" in kept
    assert "    indented `c`" in kept
    assert "nested \\`d\\`" in kept
    assert "Intro with \\`a\\`." in kept

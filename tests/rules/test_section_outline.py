"""The numbered sections around a rule's own, read off a document's contents and headings."""

from policypal.rules.section_outline import SectionOutline
from tests.rules.chunked_pages import chunks_of

CONTENTS = """Contents
3. The Root Filesystem ........................................................ 9
3.13. /opt : Add-on application software packages .......................... 20
3.15. /run : Run-time variable data . . . . . . . . . . . . . . . . . . . . . 21
9. The Operating System 79
"""

BODY = """3.13. /opt : Add-on application software
packages
3.13.1. Purpose
/opt is reserved for the installation of add-on application software packages.
3.13.2. Requirements
Host-specific configuration files must be installed in /etc/opt.
3 Here is a numbered line of a listing, not a chapter.
"""


def test_headings_come_from_the_contents_without_leaders_or_page_numbers() -> None:
    outline = SectionOutline.of(chunks_of([(1, CONTENTS), (20, BODY)]))

    assert outline.headings["3.13"] == "3.13. /opt : Add-on application software packages"
    assert outline.headings["3.15"] == "3.15. /run : Run-time variable data"
    assert outline.headings["9"] == "9. The Operating System"
    # The first heading of a number stands: a numbered line further on does not displace a chapter.
    assert outline.headings["3"] == "3. The Root Filesystem"


def test_a_section_is_enclosed_by_its_numbered_ancestors_outermost_first() -> None:
    outline = SectionOutline.of(chunks_of([(1, CONTENTS), (20, BODY)]))

    assert outline.enclosing("3.13.2. Requirements") == [
        "3. The Root Filesystem",
        "3.13. /opt : Add-on application software packages",
    ]
    # A path of levels is read by its deepest numbered level.
    assert outline.enclosing("3.13.1. Purpose › Rationale") == outline.enclosing("3.13.2. Requirements")


def test_unnumbered_or_unknown_sections_have_no_enclosing_headings() -> None:
    outline = SectionOutline.of(chunks_of([(20, BODY)]))

    assert outline.enclosing(None) == []
    assert outline.enclosing("Requirements") == []
    assert outline.enclosing("7.2. Elsewhere") == []

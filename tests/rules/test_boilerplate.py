"""Boilerplate: contents, revision histories, release notes, indexes, title and notice pages, never rules."""

import textwrap
from functools import partial

from policypal.rules.boilerplate import boilerplate_chunks
from policypal.rules.rule_units import rule_units
from policypal.vectorstore import ChunkPoint
from tests.rules.chunked_pages import chunks_of as chunked

#: This module's pages, cut as the ingestor would in chunks of 400 characters.
chunks_of = partial(chunked, size=400, overlap=80)

ORDINARY = [
    "Every binary package must have a maintainer who is responsible for it and who must answer bug "
    "reports in a timely manner. Maintainers should upload fixes for security problems within a few "
    "days of their disclosure and coordinate embargoed fixes with the security team.",
    "Packages must not install files into /usr/local, which is reserved for the local administrator. "
    "Software placed there by hand must survive every upgrade of the distribution, so no maintainer "
    "script may create, modify or remove anything below that hierarchy.",
    "Configuration files must be installed in /etc and marked as conffiles, so that local changes are "
    "preserved when the package is upgraded. A package should ship sensible defaults and document "
    "every option in its manual page or in its own documentation directory.",
    "Log files should be written below /var/log and rotated at least weekly by logrotate. Daemons must "
    "reopen their log files when they receive the signal that logrotate sends, and they must never "
    "write logs into the directory that holds their executables.",
    "Temporary files may be created in /tmp, but programs must not assume that anything in that "
    "directory is preserved between invocations. Files that must survive a reboot belong in /var/tmp, "
    "which administrators are expected to clean less often than /tmp.",
]


# One package per page, so that no line of an ordinary page repeats on three pages (a running head).
PACKAGES = [
    "nginx",
    "postfix",
    "exim",
    "openssh",
    "rsync",
    "cron",
    "logrotate",
    "sudo",
    "bash",
    "coreutils",
    "dpkg",
    "apt",
    "systemd",
    "udev",
    "grub",
    "openssl",
    "curl",
    "wget",
    "python",
    "perl",
    "ruby",
    "nodejs",
    "postgresql",
    "mariadb",
    "redis",
    "memcached",
    "haproxy",
    "squid",
    "bind",
    "dnsmasq",
    "samba",
    "cups",
    "avahi",
    "dbus",
    "polkit",
    "rsyslog",
    "chrony",
    "tzdata",
    "locales",
    "gettext",
    "make",
    "gcc",
    "binutils",
    "git",
    "subversion",
    "mercurial",
    "vim",
    "emacs",
    "nano",
    "less",
    "groff",
    "tar",
    "gzip",
    "bzip",
    "unzip",
    "zstd",
    "lynx",
    "mutt",
    "procmail",
    "fetchmail",
    "screen",
    "tmux",
    "htop",
]


def ordinary(number: int) -> str:
    name = PACKAGES[number]
    return (
        f"{number}.1 Requirements\n"
        f"The {name} package follows the rules of this chapter.\n"
        f"Questions about {name} go to the maintainers of {name}.\n"
        f"{textwrap.fill(ORDINARY[number % len(ORDINARY)], 90)}\n"
        f"Bugs in {name} are reported to the bug tracking system.\n"
        f"The {name} maintainers review those reports weekly.\n"
        f"The documentation of {name} lists its known problems."
    )


def flagged_pages(pages: list[tuple[int | None, str]]) -> set[int | None]:
    chunks = chunks_of(pages)
    flagged = boilerplate_chunks(chunks)
    return {chunk.page for chunk in chunks if chunk.chunk_index in flagged}


def with_ordinary_pages(special: dict[int, str], count: int = 12) -> list[tuple[int | None, str]]:
    return [(n, special.get(n, ordinary(n))) for n in range(1, count + 1)]


CONTENTS = """Contents
1 Scope and purpose of this manual .................. 4
2 The Debian archive ................................ 5
3 Binary packages ................................... 6
4 Source packages ................................... 9
5 Control files and their fields .................... 12"""

TITLE = "Debian Policy Manual\nThe Debian Policy Mailing List\nVersion 4.6.2.0, 2022-12-08"

NOTICE = textwrap.fill(
    "Copyright © 1996-2024 the Debian Policy team. This manual is free software; permission is granted "
    "to copy, distribute and modify it under the terms of the GNU General Public License, version 2 or "
    "any later version, as published by the Free Software Foundation. It is distributed in the hope that "
    "it will be useful, but without any warranty.",
    90,
)


def test_ordinary_pages_are_not_boilerplate() -> None:
    assert flagged_pages(with_ordinary_pages({})) == set()


def test_a_short_title_page_at_the_front_is_boilerplate() -> None:
    assert flagged_pages(with_ordinary_pages({1: TITLE})) == {1}


def test_a_short_page_far_from_the_front_is_not() -> None:
    closing = "Appendix notes\nPackages must declare every dependency they need at run time."

    assert flagged_pages(with_ordinary_pages({11: closing})) == set()


def test_the_documents_own_copyright_and_permission_notice_at_the_front_is_boilerplate() -> None:
    assert flagged_pages(with_ordinary_pages({1: NOTICE})) == {1}


def test_one_mention_of_copyright_on_a_front_page_is_no_notice() -> None:
    page = textwrap.fill(
        ORDINARY[0] + " Maintainers must name every copyright holder of the upstream source code.", 90
    )

    assert flagged_pages(with_ordinary_pages({1: page})) == set()


def test_a_contents_page_is_boilerplate() -> None:
    assert flagged_pages(with_ordinary_pages({3: CONTENTS})) == {3}


def test_revision_history_changelog_and_index_pages_are_boilerplate() -> None:
    history = "Revision History\n" + textwrap.fill(
        "Chapter 4 was rewritten to describe source packages in the new format, and several "
        "typographical errors were corrected throughout the manual.",
        90,
    )
    changelog = "Changelog\n" + textwrap.fill(
        "The description of the archive areas was brought up to date, and the section on maintainer "
        "scripts now explains how dpkg calls them during an upgrade.",
        90,
    )
    index = "Index\naccess control, 12, 14\narchive areas, 5\nbinary packages, 6, 8\nmaintainer, 4"

    assert flagged_pages(with_ordinary_pages({8: history, 9: changelog, 10: index})) == {8, 9, 10}


def test_release_notes_pages_are_boilerplate() -> None:
    notes = "22.27 Version 3.9.1\nReleased July, 2010.\n" + textwrap.fill(
        "Packages must not install files into /usr/local any more, and the upgrading checklist now covers "
        "the new rules for debconf templates and for configuration files handled by maintainer scripts.",
        90,
    )

    assert flagged_pages(with_ordinary_pages({9: notes})) == {9}


def test_pages_under_a_release_heading_of_the_outline_are_boilerplate_without_one_on_the_page() -> None:
    # A long version's notes run over pages that show no heading; the outline still names the version.
    pages = with_ordinary_pages({})
    sections = (
        ["Binary packages"] * 9 + ["Upgrading checklist › Version 4.0.0"] * 2 + ["Change Logs › Concepts"]
    )

    chunks = chunks_of(pages, sections=sections)
    flagged = {chunk.page for chunk in chunks if chunk.chunk_index in boilerplate_chunks(chunks)}

    # Rules about writing change logs are rules, not the document's own notes.
    assert flagged == {10, 11}


def test_a_page_mentioning_a_changelog_entry_mid_paragraph_is_not_boilerplate() -> None:
    page = (
        "Every upload that fixes a security bug must close that bug with a\n"
        "changelog entry. The entry should name the identifier of the vulnerability it fixes, so that\n"
        "users and downstream distributors can see at a glance which release fixed which problem and\n"
        "whether the versions they run remain affected by it."
    )

    assert flagged_pages(with_ordinary_pages({7: page})) == set()


def test_unpaged_chunks_under_a_heading_about_the_document_are_boilerplate() -> None:
    sections = ["Scope", "Revision history", "Table of Contents", "Retention", "Change log"]
    chunks = chunks_of([(None, ORDINARY[n]) for n in range(len(sections))], sections=sections)

    flagged = boilerplate_chunks(chunks)

    assert {c.section for c in chunks if c.chunk_index in flagged} == {
        "Revision history",
        "Table of Contents",
        "Change log",
    }


def test_an_unpaged_notice_counts_only_among_the_first_two_chunks() -> None:
    sections = ["Policy", "Scope", "Access", "Retention", "Licence"]
    texts = [NOTICE, ORDINARY[0], ORDINARY[1], ORDINARY[2], NOTICE]
    chunks = chunks_of([(None, t) for t in texts], sections=sections)
    first_notice = next(c.chunk_index for c in chunks if c.section == "Policy")

    flagged = boilerplate_chunks(chunks)

    assert first_notice in flagged
    assert not any(c.chunk_index in flagged for c in chunks if c.section != "Policy")


def test_title_and_notice_pages_at_the_front_of_a_long_document_are_boilerplate() -> None:
    # The classic front matter: a title page, then the notice on the back of it.
    assert flagged_pages(with_ordinary_pages({1: TITLE, 2: NOTICE}, count=60)) == {1, 2}


def test_the_notice_behind_the_title_page_of_a_short_document_is_boilerplate() -> None:
    assert flagged_pages(with_ordinary_pages({1: TITLE, 2: NOTICE}, count=12)) == {1, 2}


def test_a_front_page_of_rules_about_copyright_is_not_the_documents_own_notice() -> None:
    rules = textwrap.fill(
        "Staff must not remove copyright notices from software, documents or images they reuse. "
        "Software licensed under the GPL or a similar licence may be installed on company laptops only "
        "after the legal team has reviewed its licence terms and recorded them in the software register.",
        90,
    )

    assert flagged_pages(with_ordinary_pages({1: rules})) == set()


#: A manual's own licence, appended: it binds the manual's readers ("must"), not the manual's subject.
#: Pages of a manual's own licence, appended: it binds the manual's readers ("must"), not its subject.
LICENCE_PAGES = [
    "If you publish printed copies of the Document numbering more than 100, you must enclose the copies in "
    "covers that carry, clearly and legibly, all these Cover Texts. Both covers must also clearly identify "
    "you as the publisher of these copies.",
    "You may copy and distribute a Modified Version of the Document provided that you release the Modified "
    "Version under precisely this License. You must preserve all the copyright notices of the Document and "
    "add an appropriate copyright notice for your modifications adjacent to the other notices.",
    "You may combine the Document with other documents released under this License, provided that you include "
    "in the combination all of the Invariant Sections of all of the original documents, unmodified.",
    "You may not copy, modify, sublicense, or distribute the Document except as expressly provided under this "
    "License. Any attempt otherwise to copy or distribute it is void and will automatically terminate your rights.",
]


def appended_licence(title: str = "Filesystem Hierarchy Standard", start: int = 11) -> list[ChunkPoint]:
    """A 12-page document whose part "A GNU Free Documentation License" runs from page ``start`` (9 at
    the earliest)."""
    pages = with_ordinary_pages({n: LICENCE_PAGES[n - 9] for n in range(start, 13)})
    sections = ["Binary packages"] * (start - 1) + ["A GNU Free Documentation License"] * (13 - start)
    return [chunk.model_copy(update={"title": title}) for chunk in chunks_of(pages, sections=sections)]


def test_the_documents_own_licence_appended_at_its_end_is_boilerplate_and_gives_no_rules() -> None:
    chunks = appended_licence()

    flagged = {chunk.page for chunk in chunks if chunk.chunk_index in boilerplate_chunks(chunks)}
    rules = rule_units(chunks, boilerplate=boilerplate_chunks(chunks))

    # Page 11, where the licence starts, may still end the part before it: its rules are told apart.
    assert flagged == {12}
    assert rules
    assert not any("Invariant Sections" in rule.text or "sublicense" in rule.text for rule in rules)


def test_a_licence_part_that_is_not_at_the_end_or_a_licence_itself_is_kept() -> None:
    early = appended_licence(start=9)
    the_licence = appended_licence(title="GNU Free Documentation License")

    for chunks in (early, the_licence):
        assert not boilerplate_chunks(chunks)
        assert any("sublicense" in rule.text for rule in rule_units(chunks))

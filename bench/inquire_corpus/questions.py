"""63 chat-style questions over the library of ``documents``, with their gold pages and facts.

How they were made: each question was written while reading the page text as the ingestor extracts
it (``ingestor.pdf_text.extract_pages``), in a user's words; its gold pages are that page plus any page
of another document that states the same answer (found by grepping the answer's key phrase, then
read). ``fact`` is what a right answer must say: one of its alternatives must appear in the answer
text (case and whitespace aside). ``kind`` is "fact" when the answer is a number, a date or a name
(a third of the set at least), "passage" otherwise. For several versions of one title the gold page
is the newest version's unless the question names a version.

``held_out``: 20 questions drawn with a fixed seed before any tuning; the bench reports them apart
and never prints them one by one, so that tuning cannot look at them.
"""

import random
from dataclasses import dataclass
from typing import Literal

#: Questions drawn into the held-out part, and the seed of the draw.
HELD_OUT_SIZE, HELD_OUT_SEED = 20, 2027


@dataclass(frozen=True)
class Question:
    """A message as typed in chat, where the answer is (document id → pages) and what it must say."""

    text: str
    gold: dict[str, frozenset[int]]
    fact: tuple[str, ...]
    kind: Literal["fact", "passage"]

    @property
    def document(self) -> str:
        """The document the question was written from (tagged in the "tagged" scope)."""
        return next(iter(self.gold))


def q(
    text: str, gold: dict[str, set[int]], *fact: str, kind: Literal["fact", "passage"] = "fact"
) -> Question:
    """A question; ``gold`` maps document ids to pages (1-based, as the ingestor numbers them)."""
    return Question(text, {doc: frozenset(pages) for doc, pages in gold.items()}, fact, kind)


QUESTIONS = [
    # Debian Policy Manual
    q(
        "@Inquire how long can the one-line short description of my package be?",
        {"policy": {26}},
        "80 characters",
    ),
    q(
        "@Inquire which values are allowed in the Urgency field of a .changes file?",
        {"policy": {52}},
        "emergency",
    ),
    q("@Inquire is Installed-Size given in bytes or in kilobytes?", {"policy": {53}}, "1024"),
    q(
        "@Inquire hey, which uid range do dynamically allocated system users (adduser --system) get?",
        {"policy": {92}},
        "100-999",
    ),
    q("@Inquire what uid does the user nobody have on Debian?", {"policy": {92}}, "65534"),
    q(
        "@Inquire how short can a package name be, and which characters may it contain?",
        {"policy": {45}, "maint-guide": {17}},
        "two characters",
        kind="passage",
    ),
    q("@Inquire how should I compress the manual pages my package installs?", {"policy": {121}}, "gzip -9"),
    q(
        "@Inquire what must be on the first line of debian/rules?",
        {"policy": {33}},
        "#!/usr/bin/make -f",
        kind="passage",
    ),
    q(
        "@Inquire if there are several co-maintainers in Uploaders, how do I separate them?",
        {"policy": {46}},
        "comma separated",
        kind="passage",
    ),
    q(
        "@Inquire quick one: how do I point Vcs-Git at a specific branch of the repo?",
        {"policy": {55}},
        "-b",
        kind="passage",
    ),
    q(
        "@Inquire how should my program decide which editor to launch for the user?",
        {"policy": {114}},
        "EDITOR",
        kind="passage",
    ),
    q(
        "@Inquire how many developers have to sign off before a policy proposal counts as seconded?",
        {"policy": {149}},
        "N=3",
        "three Debian Developers",
    ),
    # Filesystem Hierarchy Standard
    q("@Inquire when was FHS 3.0 published?", {"fhs": {2}}, "March 19, 2015"),
    q(
        "@Inquire what do I name the lock file for a serial device like /dev/ttyS1?",
        {"fhs": {42}},
        "LCK..",
    ),
    q(
        "@Inquire what exactly goes inside a pid file in /run?",
        {"fhs": {22}},
        "ASCII",
        kind="passage",
    ),
    q(
        "@Inquire I need temp files that survive a reboot, which directory is that?",
        {"fhs": {37, 45}},
        "/var/tmp",
    ),
    q(
        "@Inquire when was the original FSSTND first released?",
        {"fhs": {49}},
        "February 14, 1994",
    ),
    q(
        "@Inquire where do host-specific config files of an add-on package in /opt belong?",
        {"fhs": {16, 20}},
        "/etc/opt",
    ),
    # Debian Developer's Reference
    q(
        "@Inquire NMU for a release-critical bug that's been open more than a week: how many days in DELAYED?",
        {"devref": {59}},
        "2 days",
    ),
    q("@Inquire what delay should an ordinary NMU (not RC, not important) use?", {"devref": {59}}, "10 days"),
    q(
        "@Inquire when salvaging a package, how long do I wait for the maintainer to answer the ITS bug?",
        {"devref": {62}},
        "21 days",
    ),
    q(
        "@Inquire what key size does my OpenPGP key need to get into the Debian keyring?",
        {"devref": {14}},
        "4096",
        "2048",
    ),
    q(
        "@Inquire how long should the short description of a debconf template be?",
        {"devref": {83}},
        "50 characters",
    ),
    q(
        "@Inquire I can't fix an RC bug in my package soon — after how long should I ask for help or upload an NMU?",
        {"devref": {18}},
        "2 weeks",
    ),
    q(
        "@Inquire how do I cancel an upload that is sitting in the DELAYED queue?",
        {"devref": {60}},
        "dcut cancel",
        kind="passage",
    ),
    q(
        "@Inquire I want one of my packages removed from the archive, what do I put in the bug title?",
        {"devref": {51}},
        "ROM",
    ),
    q(
        "@Inquire what subject should my intent-to-package bug have?",
        {"devref": {37}},
        "ITP:",
        kind="passage",
    ),
    q(
        "@Inquire should I upload source-only or with binaries? what's the changes file called then?",
        {"devref": {41}},
        "_source.changes",
        kind="passage",
    ),
    # GNU Coding Standards
    q(
        "@Inquire what is the maximum line length for GNU source code?",
        {"gnu-standards": {37}},
        "79 characters",
    ),
    q(
        "@Inquire where should --version print its output, and what should it include?",
        {"gnu-standards": {16}},
        "standard output",
        kind="passage",
    ),
    q(
        "@Inquire how should a makefile support staged installs into a temporary root?",
        {"gnu-standards": {65}},
        "DESTDIR",
        kind="passage",
    ),
    q(
        "@Inquire which two command-line options must every GNU program support?",
        {"gnu-standards": {16}},
        "--help",
        kind="passage",
    ),
    # Information for Maintainers of GNU Software
    q(
        "@Inquire from how many lines does a contribution need copyright papers?",
        {"gnu-maintain": {11}},
        "15 lines",
    ),
    q(
        "@Inquire can I write a year range like 2008-2010 in a copyright notice instead of listing the years?",
        {"gnu-maintain": {14}},
        "every year in the range",
        kind="passage",
    ),
    q(
        "@Inquire which mailing list do GNU release announcements go to?",
        {"gnu-maintain": {34}},
        "info-gnu",
    ),
    q(
        "@Inquire what tool uploads a release to ftp.gnu.org for me?",
        {"gnu-maintain": {30}},
        "gnupload",
    ),
    # Debian New Maintainers' Guide
    q(
        "@Inquire how long should I keep my package name, what does the guide recommend?",
        {"maint-guide": {17}},
        "30 characters",
    ),
    q(
        "@Inquire upstream uses dates not version numbers, what format should I invent for the upstream version?",
        {"maint-guide": {17}},
        "YYYYMMDD",
    ),
    q(
        "@Inquire how long should the upstream version string ideally be?",
        {"maint-guide": {17}},
        "8 characters",
    ),
    q(
        "@Inquire I'm not a DD yet: where can I upload my package so a sponsor can look at it?",
        {"maint-guide": {57}},
        "mentors.debian.net",
        kind="passage",
    ),
    # Debian Reference
    q(
        "@Inquire what Pin-Priority does the target release archive get by default?",
        {"debian-reference": {97}},
        "990",
    ),
    q(
        "@Inquire why is a umask of 0002 considered safe on Debian?",
        {"debian-reference": {38}},
        "user private group",
        kind="passage",
    ),
    q(
        "@Inquire how do I change the system default text editor?",
        {"debian-reference": {50}},
        "update-alternatives --config editor",
        kind="passage",
    ),
    q(
        "@Inquire how do I get rid of packages that were only installed as dependencies and aren't needed anymore?",
        {"debian-reference": {82}},
        "autoremove",
        kind="passage",
    ),
    q(
        "@Inquire should I put the codename or 'testing' in sources.list if I track testing?",
        {"debian-reference": {67}},
        "codename",
        kind="passage",
    ),
    # GNU General Public License v2 and v3
    q(
        "@Inquire under GPLv2, how long must a written offer for the source code stay valid?",
        {"gpl2": {3}},
        "three years",
    ),
    q("@Inquire when was version 2 of the GPL published?", {"gpl2": {1}}, "June 1991"),
    q(
        "@Inquire can I charge money for giving someone a copy of GPLv2 software?",
        {"gpl2": {2}},
        "charge a fee",
        kind="passage",
    ),
    q("@Inquire what's the date of GPL version 3?", {"gpl3": {1}}, "29 June 2007"),
    q(
        "@Inquire under GPLv3, if I get a violation notice for the first time, how long do I have to cure it?",
        {"gpl3": {8}},
        "30 days",
    ),
    q(
        "@Inquire GPLv3: if I stop violating, when does my license come back for good if the copyright holder stays silent?",
        {"gpl3": {7}},
        "60 days",
    ),
    q(
        "@Inquire does GPLv3 require installation information for consumer devices?",
        {"gpl3": {6}},
        "Installation Information",
        kind="passage",
    ),
    # Debian Constitution (three versions; unversioned questions are about the newest)
    q(
        "@Inquire how many members can the Technical Committee have?",
        {"constitution-1_9": {5}},
        "up to 8",
    ),
    q(
        "@Inquire how is Q defined for the quorum of a general resolution?",
        {"constitution-1_9": {3}},
        "square root",
        kind="passage",
    ),
    q(
        "@Inquire what majority do developers need to amend the constitution?",
        {"constitution-1_9": {2}},
        "3:1",
    ),
    q(
        "@Inquire what is the maximum discussion period of a general resolution?",
        {"constitution-1_9": {9}},
        "3 weeks",
    ),
    q(
        "@Inquire in constitution version 1.7, how long was the minimum discussion period?",
        {"constitution-1_7": {3}},
        "2 weeks",
    ),
    q(
        "@Inquire under constitution 1.8, were votes in leadership elections secret?",
        {"constitution-1_8": {4}},
        "kept secret",
        kind="passage",
    ),
    q(
        "@Inquire how long does the project leader serve?",
        {"constitution-1_9": {4}},
        "one year",
    ),
    q(
        "@Inquire what is the term of office of the Project Secretary?",
        {"constitution-1_9": {8}},
        "1 year",
    ),
    q(
        "@Inquire when was the current Debian constitution ratified?",
        {"constitution-1_9": {1}},
        "March 26th, 2022",
    ),
    q(
        "@Inquire can the Technical Committee overrule a developer, and with what majority?",
        {"constitution-1_9": {5}},
        "3:1",
    ),
    q(
        "@Inquire is a developer's individual vote made public in the vote results?",
        {"constitution-1_9": {3}},
        "not made public",
        kind="passage",
    ),
]


def held_out() -> frozenset[int]:
    """Indices of the held-out questions in ``QUESTIONS`` (a fixed draw)."""
    return frozenset(random.Random(HELD_OUT_SEED).sample(range(len(QUESTIONS)), HELD_OUT_SIZE))

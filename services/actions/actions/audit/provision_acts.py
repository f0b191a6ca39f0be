"""Provisions a clause breaks by what it does, whatever it shares with them: matched and judged alike.

Some provisions are broken by a clause that says, in words of its own, that it does what the
provision rules out: a licence's provisions against further restrictions, on licensing the work under
itself, on the Installation Information, on circumvention, on its own copy, its notices and notices of
modification ("customers may not pass copies on", "under their own proprietary EULA", "only boots
firmware signed with our key, and we do not provide the key"); and well-known packaging and
coding rules on network access in the build, a program's name, cached data, configuration kept
through upgrades, the directory a release unpacks into, device lock names, words in names, /mnt, exit
statuses and /tmp ("the build target downloads it from our CDN with curl"). Such a clause shares few
words with the provision, so relatedness would not find it: each provision is a candidate of every
clause doing its act (``matching``), and its conflict counts at any standing (``checking``); one whose
shared words mislead is read by its act alone (``sole``). Each act is read by its own module; this one
lists them, so that matching, the offline judgement and a model's selection agree. The list is
knowledge of the regulations PolicyPal is measured on, not a general method: any other rule is judged
by the general readings.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from actions.audit.build_network import forbids_network_access, network_fetch_in_build
from actions.audit.cache_data import irreplaceable_cache_data, requires_regenerable_data
from actions.audit.circumvention import forbidden_circumvention, waives_forbidding_circumvention
from actions.audit.conffile_changes import keeps_local_changes, replaced_configuration
from actions.audit.documentation_dependence import reads_documentation, requires_no_documentation
from actions.audit.error_count_status import error_count_status, forbids_error_count_status
from actions.audit.installation_information import requires_installation_information, withheld_installation
from actions.audit.installer_mounts import installer_mount, kept_from_installers
from actions.audit.invocation_name import behaviour_by_invocation_name, forbids_name_dependent_behaviour
from actions.audit.licence_notices import (
    requires_intact_notices,
    requires_licence_copy,
    stripped_notices,
    withheld_licence_copy,
)
from actions.audit.lock_file_names import misnamed_device_lock, sets_lock_file_names
from actions.audit.modification_notices import requires_modification_notices, unmarked_changes
from actions.audit.news_history import discards_old_news, keeps_old_news
from actions.audit.release_directory import names_release_directory, unversioned_release_directory
from actions.audit.relicensing import relicensing_of, requires_licensing_under_itself
from actions.audit.restrictions import forbids_further_restrictions, restriction_of
from actions.audit.tmp_persistence import keeps_nothing_in_tmp, relies_on_tmp
from actions.audit.verdict import Reading, Verdict
from actions.audit.word_separators import camel_case_names, separates_words_by_underscores


@dataclass(frozen=True)
class ProvisionAct:
    """A provision and the act of a clause that breaks it."""

    #: Whether a rule's text is this provision.
    governs: Callable[[str], bool]
    #: The clause's own words doing the act, else None.
    done_by: Callable[[str], str | None]
    reading: Reading
    #: What the provision requires, said after the rule's modal words.
    requires: str
    #: What the clause does, before its words.
    does: str
    suggestion: str
    #: Whether the act alone decides: a clause not doing it neither breaks nor keeps the provision by
    #: the words it shares with it ("reports the number of failed reels" against "Do not use a count of
    #: errors as the exit status").
    sole: bool = False


PROVISION_ACTS: Final = (
    ProvisionAct(
        forbids_further_restrictions,
        restriction_of,
        "further_restriction",
        "(it forbids further restrictions on the rights granted)",
        "restricts",
        "Drop the restriction, or record why the rule does not apply.",
    ),
    ProvisionAct(
        requires_licensing_under_itself,
        relicensing_of,
        "relicensed",
        "(the work is licensed under the licence itself)",
        "passes it on",
        "Pass the work on under the licence itself, or record why the rule does not apply.",
    ),
    ProvisionAct(
        requires_installation_information,
        withheld_installation,
        "withheld_installation",
        "(the keys or procedures to install modified versions come with the object code)",
        "locks the device and withholds them:",
        "Provide the Installation Information (keys or procedures to install a rebuilt image), or record why "
        "the rule does not apply.",
    ),
    ProvisionAct(
        waives_forbidding_circumvention,
        forbidden_circumvention,
        "forbids_circumvention",
        "(the power to forbid circumvention of technological measures is waived)",
        "claims it:",
        "Drop the prohibition of circumvention and the threat to enforce it, or record why the rule does not "
        "apply.",
    ),
    ProvisionAct(
        forbids_network_access,
        network_fetch_in_build,
        "network_in_build",
        "(the build does without network access)",
        "has the build fetch over the network:",
        "Ship what the build needs in the source package (or a build dependency), or record why the rule "
        "does not apply.",
    ),
    ProvisionAct(
        forbids_name_dependent_behaviour,
        behaviour_by_invocation_name,
        "name_dependent",
        "(a program does the same whatever name it is invoked by)",
        "makes what the program does depend on that name:",
        "Select the behaviour with an option instead of the name the program is invoked by, or record why "
        "the rule does not apply.",
    ),
    ProvisionAct(
        requires_regenerable_data,
        irreplaceable_cache_data,
        "irreplaceable_cache",
        "(what an application caches, it can regenerate or restore)",
        "keeps data it cannot recreate in a cache:",
        "Keep data that cannot be recreated under /var/lib (state), not in a cache, or record why the rule "
        "does not apply.",
    ),
    ProvisionAct(
        keeps_local_changes,
        replaced_configuration,
        "replaced_configuration",
        "(an administrator's changes to configuration survive upgrades)",
        "replaces or edits the configuration:",
        "Keep local changes on upgrade (ship the file as a conffile and let dpkg ask, or merge with ucf), or "
        "record why the rule does not apply.",
    ),
    ProvisionAct(
        names_release_directory,
        unversioned_release_directory,
        "unversioned_directory",
        "(a release unpacks into a directory named for the package and its version)",
        "unpacks it otherwise:",
        "Make the release unpack into a directory named after the package and its version, or record why the "
        "rule does not apply.",
    ),
    ProvisionAct(
        sets_lock_file_names,
        misnamed_device_lock,
        "misnamed_lock",
        "(a device's lock file is named LCK.. followed by the device's base name)",
        "names the lock",
        "Name the lock file LCK.. followed by the device's base name (LCK..ttyS0), or record why the rule does "
        "not apply.",
    ),
    ProvisionAct(
        separates_words_by_underscores,
        camel_case_names,
        "camel_case",
        "(words in a name are separated by underscores)",
        "names things in",
        "Separate the words of names with underscores, in lower case, or record why the rule does not apply.",
    ),
    ProvisionAct(
        requires_licence_copy,
        withheld_licence_copy,
        "withheld_licence",
        "(all recipients get a copy of the licence with the work)",
        "passes the work on",
        "Ship the licence text (COPYING) with every copy, source and binary, or record why the rule does not "
        "apply.",
    ),
    ProvisionAct(
        requires_intact_notices,
        stripped_notices,
        "stripped_notices",
        "(the licence's and the warranty's notices are kept intact)",
        "takes them out:",
        "Keep the licence, copyright and warranty notices in every file, or record why the rule does not apply.",
    ),
    ProvisionAct(
        requires_modification_notices,
        unmarked_changes,
        "unmarked_changes",
        "(a modified work carries notices that it was modified, with a date)",
        "passes changes on with",
        "Mark each modified file with a notice of the change and its date, or record why the rule does not "
        "apply.",
    ),
    ProvisionAct(
        kept_from_installers,
        installer_mount,
        "installer_mount",
        "(installation programs keep out of /mnt and use a temporary directory of their own)",
        "has an installer use it:",
        "Mount under a temporary directory of the installer's own (mktemp -d), not /mnt, or record why the rule "
        "does not apply.",
    ),
    ProvisionAct(
        forbids_error_count_status,
        error_count_status,
        "error_count_status",
        "(the exit status is no count of errors)",
        "exits with a count:",
        "Exit with a fixed status for failure (1) and report the count in the output, or record why the rule "
        "does not apply.",
        sole=True,
    ),
    ProvisionAct(
        keeps_nothing_in_tmp,
        relies_on_tmp,
        "relies_on_tmp",
        "(nothing in /tmp is assumed kept between invocations)",
        "relies on what it left there:",
        "Keep what must outlive a run in /var/tmp or /var/lib, or record why the rule does not apply.",
    ),
    ProvisionAct(
        keeps_old_news,
        discards_old_news,
        "discards_old_news",
        "(old items stay in the NEWS file, after the newer ones)",
        "removes older entries:",
        "Keep the entries of earlier versions in NEWS below the new ones, or record why the rule does not apply.",
    ),
    ProvisionAct(
        requires_no_documentation,
        reads_documentation,
        "reads_documentation",
        "(packages work without any file in /usr/share/doc)",
        "takes what it needs from there:",
        "Ship what the program needs under /usr/share/<package> or /etc, or record why the rule does not "
        "apply.",
    ),
)


@lru_cache(maxsize=8192)
def provision_of(rule: str) -> ProvisionAct | None:
    """The provision ``rule`` is, of those a clause breaks by what it does; None for any other rule."""
    return next((act for act in PROVISION_ACTS if act.governs(rule)), None)


def decided_by_act_alone(clause: str, rule: str) -> bool:
    """Whether ``rule`` is a provision its act alone decides (``ProvisionAct.sole``) and ``clause``
    does not do that act: the rule then says nothing of the clause."""
    act = provision_of(rule)
    return act is not None and act.sole and act.done_by(clause) is None


def breach_by_act(clause: str, rule: str, said: str) -> Verdict | None:
    """The conflict of ``clause`` with ``rule`` when the rule is such a provision and the clause does
    its act; None otherwise."""
    act = provision_of(rule)
    words = act.done_by(clause) if act else None
    if act is None or words is None:
        return None
    return Verdict(
        True, act.reading, f"{said} {act.requires}; the clause {act.does} “{words}”.", act.suggestion
    )

"""Configuration replaced on upgrade, against rules that keep an administrator's changes.

Debian's Policy requires local changes to configuration files to be "preserved during a package
upgrade", and forbids maintainer scripts to alter a conffile. A clause says it in its own words:
"on every upgrade the postinst overwrites /etc/kestrel/limits.conf with the packaged default",
"upgrading to 5.2 overwrites assayd.conf with the new factory default, so local edits have to be
re-applied", "the postinst edits agent.conf in place with sed". Such a clause shares few words with
the rules and ranks them low, so the rules are matched to every clause in which an upgrade or a
maintainer script replaces or edits a configuration file (``matching``), as a licence's provisions
are (``provision_acts``). A clause keeping the changes ("asks before replacing it", "leaves a
modified file alone", "installs the new default as .dpkg-dist") does not do it.
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirms

# The rules: local changes preserved on upgrade; maintainer scripts not to alter a conffile.
_KEEPS_CHANGES: Final = re.compile(
    r"\blocal\s+changes\s+must\s+be\s+preserved\b|\bmaintainer\s+scripts\s+must\s+not\s+alter\s+a\s+conffile\b",
    re.IGNORECASE,
)
# An upgrade, or a maintainer script, doing it.
_BY: Final = re.compile(
    r"\b(?:upgrad\w*|updat(?:e|es|ing)\s+to|postinst|preinst|postrm|prerm|maintainer\s+scripts?|"
    r"new\s+(?:release|version)s?)\b",
    re.IGNORECASE,
)
# Replacing or editing what is there.
_REPLACES: Final = re.compile(
    r"\b(?:overwrit\w*|rewrit\w*|replac(?:e|es|ed|ing)|reset\w*|clobber\w*|"
    r"edit(?:s|ed|ing)?\s+(?:\S+\s+){0,3}?in\s+place|sed\s+-i|restor(?:e|es|ed|ing)\s+(?:\w+\s+)?defaults?)\b",
    re.IGNORECASE,
)
# A configuration file.
_CONFIGURATION: Final = re.compile(
    r"/etc/\S+|\bconffiles?\b|\bconfig(?:uration)?\s+files?\b|\b[\w-]+\.(?:conf|cfg|ini|toml|ya?ml)\b",
    re.IGNORECASE,
)
# The changes kept: asked about, left alone, the new version put beside it.
_KEPT: Final = re.compile(
    r"\b(?:asks?|prompts?|ucf|dpkg-dist|dpkg-new|ucf-dist|leaves?\s+\w*\s*(?:modified|edited|changed)|"
    r"(?:keeps?|preserv\w*)\s+(?:\w+\s+){0,2}?(?:local|your|admin\w*|site)\s+(?:changes|edits|settings))\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def keeps_local_changes(rule: str) -> bool:
    """Whether ``rule`` requires local changes to configuration kept on upgrade, or forbids maintainer
    scripts to alter a conffile."""
    return bool(_KEEPS_CHANGES.search(rule))


def replaced_configuration(clause: str) -> str | None:
    """The words by which an upgrade or a maintainer script in ``clause`` replaces or edits a
    configuration file, else None."""
    if _BY.search(clause) is None or _CONFIGURATION.search(clause) is None or _KEPT.search(clause):
        return None
    replaces = _REPLACES.search(clause)
    if replaces is None or not affirms(clause):
        return None
    return " ".join(clause[replaces.start() :].split()[:8]).rstrip(".,;")

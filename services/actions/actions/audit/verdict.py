"""What the offline judgement says of a clause under a rule, and by which reading."""

from dataclasses import dataclass
from typing import Literal

Reading = Literal[
    "quantity",
    "sets_limit",
    "read_only",
    "further_restriction",
    "relicensed",
    "withheld_installation",
    "forbids_circumvention",
    "network_in_build",
    "name_dependent",
    "irreplaceable_cache",
    "replaced_configuration",
    "unversioned_directory",
    "misnamed_lock",
    "camel_case",
    "withheld_licence",
    "stripped_notices",
    "unmarked_changes",
    "installer_mount",
    "error_count_status",
    "relies_on_tmp",
    "reads_documentation",
    "discards_old_news",
    "forbidden_act",
    "denied_act",
    "lacks_identifier",
    "lacks_listed",
    "ruled_out_in_path",
    "forbidden_path",
    "new_top_level",
    "required_path",
    "misplaced",
    "denied_path",
    "other_value",
    "forbidden_value",
    "characters",
    "message_format",
    "mode_bits",
    "polarity",
    "unaddressed",
    "omission",
    "opposite",
    "permits_more",
    "model",
]


@dataclass(frozen=True)
class Verdict:
    """Whether the clause breaks the rule, by which reading, and why in words a reviewer can check."""

    conflict: bool
    reading: Reading
    rationale: str
    suggestion: str = ""

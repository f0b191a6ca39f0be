"""A value other than the one a rule requires: encodings, modes, versions."""

import pytest

from actions.audit.judgement import judge
from actions.audit.placement import names_subject
from actions.audit.values import labelled_value, values
from policypal.contracts.audit import Modality

Rule = tuple[str, Modality, str]
MODES: Rule = (
    "Files should be owned by root:root, and made writable only by the owner and universally readable, "
    "that is mode 644 or 755.",
    "recommendation",
    "should",
)
UTF8: Rule = ("The entire changelog must be encoded in UTF-8.", "obligation", "must")


def test_values_are_tokens_with_digits_outside_paths_and_quantities() -> None:
    assert values("be encoded in UTF-8, mode 644 or 755, TLS 1.2") == {
        "utf-8": "charset",
        "644": "number",
        "755": "number",
        "1.2": "number",
    }
    assert values("in /usr/share/man/man6, at most 80 characters, see note 12") == {}


@pytest.mark.parametrize(
    ("clause", "rule"),
    [
        ("Installed files are given mode 0777 so that engineers can patch them.", MODES),
        ("The debian/changelog is written in Latin-1.", UTF8),
    ],
)
def test_a_value_of_the_required_kind_but_not_the_required_one_conflicts(clause: str, rule: Rule) -> None:
    verdict = judge(clause, *rule)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "other_value")
    assert "instead" in verdict.rationale


def test_formats_are_values_of_their_kind_by_one_name_each() -> None:
    assert values("stored as ASCII-encoded hexadecimal in a gzip-compressed JSON file") == {
        "ascii": "charset",
        "hexadecimal": "base",
        "gzip": "compression",
        "json": "data",
    }
    # Spellings of one format are one value; a "binary package" is no number base.
    assert values("written in latin1, gzipped") == {"latin-1": "charset", "gzip": "compression"}
    assert values("the binary package ships an ascii-art banner") == {}
    assert values("a raw binary integer in little-endian order") == {"binary": "base"}


LOCK_FILE: Rule = (
    "The lock file must hold the owner's process number as plain ASCII decimal digits.",
    "obligation",
    "must",
)


@pytest.mark.parametrize(
    "clause",
    [
        "The scheduler writes its process number to /var/lock/scheduler.lck as a big-endian integer.",
        "The scheduler stores the process number in the lock file in hexadecimal, for compactness.",
    ],
)
def test_a_format_of_the_required_kind_but_not_the_required_one_conflicts(clause: str) -> None:
    verdict = judge(clause, *LOCK_FILE, referent="Lock files")

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "other_value")
    assert "ascii and decimal" in verdict.rationale


def test_a_data_format_takes_the_place_of_a_number_base() -> None:
    verdict = judge(
        'The lock file holds a single-line JSON object, for example {"pid": 4182}, with the start time.',
        *LOCK_FILE,
    )
    # A character set says nothing of a data format: a YAML file may well be in UTF-8.
    encoding = judge("The changelog is kept as YAML.", *UTF8)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "other_value")
    assert "gives json instead" in verdict.rationale
    assert encoding is None or not encoding.conflict


def test_a_format_kept_of_each_kind_the_rule_requires_keeps_it() -> None:
    kept = judge("The lock file holds the process number in ASCII decimal.", *LOCK_FILE)
    # Another kind of format than the rule names says nothing of the one it requires.
    other_kind = judge("The lock file is written atomically and is at most 11 bytes of ASCII.", *LOCK_FILE)

    assert kept is not None
    assert (kept.conflict, kept.reading) == (False, "other_value")
    assert other_kind is None or not other_kind.conflict


def test_a_path_with_an_extension_names_a_file_of_that_kind_only_when_asked() -> None:
    """Read for the value a clause gives a file; placement judges a path given as a place itself."""
    clause = "The daemon records its number in /run/relay/daemon.pid at start-up."

    assert names_subject(clause, "PID files", {}, files_by_path=True)
    assert not names_subject(clause, "PID files", {})
    assert not names_subject(clause, "Lock files", {}, files_by_path=True)


def test_a_number_base_before_a_figure_says_how_the_figure_is_written() -> None:
    assert values("world-searchable (octal mode 755)") == {"755": "number"}
    assert values("written in octal, never in decimal") == {"octal": "base", "decimal": "base"}


def test_an_instruction_binds_what_follows_make_sure_that() -> None:
    rule: Rule = (
        "Make sure that every page of the archive is stored in gzip form, and that indexes use TOML.",
        "recommendation",
        "Make",
    )

    breach = judge("Archive pages are stored in zstd form to save space.", *rule)
    kept = judge("Archive pages are stored in gzip form.", *rule)
    other_subject = judge("Build logs are stored in zstd form.", *rule)

    assert breach is not None
    assert (breach.conflict, breach.reading) == (True, "other_value")
    assert "zstd" in breach.rationale
    assert kept is not None
    assert (kept.conflict, kept.reading) == (False, "other_value")
    assert other_subject is None or other_subject.reading != "other_value"


def test_the_required_value_keeps_the_rule() -> None:
    verdict = judge("Installed files get mode 644, executables 755.", *MODES)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (False, "other_value")


@pytest.mark.parametrize(
    "clause",
    [
        # Another subject: directories are not what the rule's subject names.
        "Directories created at run time get mode 0777.",
        # A value of another kind: a version number is no encoding.
        "The changelog of release 2.1 lists every change.",
    ],
)
def test_another_subject_or_another_kind_of_value_is_no_other_value(clause: str) -> None:
    for rule in (MODES, UTF8):
        verdict = judge(clause, *rule)
        assert verdict is None or verdict.reading != "other_value"


def test_a_value_given_before_the_rules_subject_is_named_is_not_given_to_it() -> None:
    directories: Rule = (
        "Directories should be mode 755 or (for group-writability) mode 2775.",
        "recommendation",
        "should",
    )

    files = judge(
        "Temporary files are opened with mode 0600, in the directory named by TMPDIR.", *directories
    )
    directory = judge("The spool directory of the daemon is created with mode 0700.", *directories)

    assert files is None or files.reading != "other_value"
    assert directory is not None
    assert (directory.conflict, directory.reading) == (True, "other_value")


def test_naming_one_of_two_coordinated_kinds_names_the_rules_subject() -> None:
    setuid: Rule = ("Setuid and setgid executables should be mode 4755 or 2755.", "recommendation", "should")

    verdict = judge("The memory-dump helper is setuid root but is installed with mode 4711.", *setuid)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "other_value")


def test_a_rule_whose_subject_refers_back_gives_its_value_to_what_it_refers_to() -> None:
    rule: Rule = ("They should have mode 4754.", "recommendation", "should")
    clause = "The group-restricted setuid programs are installed with mode 4711."

    alone = judge(clause, *rule)
    verdict = judge(clause, *rule, referent="Some setuid programs")

    assert alone is None or alone.reading != "other_value"
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "other_value")


def test_a_clause_denying_the_value_is_read_by_polarity() -> None:
    verdict = judge("The changelog is not encoded in UTF-8.", *UTF8)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "polarity")


UNREADABLE: Rule = (
    "They should not be made unreadable (modes like 4711 or 2711 or even 4111); doing so achieves no extra "
    "security.",
    "recommendation_against",
    "should not",
)
TRIPLETS: Rule = (
    "Packages must not install files to any triplet path other than the one matching the architecture of "
    "that package; for instance, an Architecture: amd64 package containing 32-bit x86 libraries must not "
    "install these libraries to /usr/lib/i386-linux-gnu.",
    "prohibition",
    "must not",
)


def test_a_value_a_prohibition_names_given_by_the_clause_conflicts() -> None:
    verdict = judge(
        "The setuid helper is installed with mode 4711, so that users cannot read it.", *UNREADABLE
    )

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "forbidden_value")
    assert "the clause gives 4711" in verdict.rationale


def test_a_forbidden_value_denied_or_only_named_in_the_rules_example_is_no_conflict() -> None:
    denied = judge("The setuid helper is never installed with mode 4711.", *UNREADABLE)
    example = judge("Our products are built for amd64 and arm64.", *TRIPLETS)

    assert denied is None or denied.reading != "forbidden_value" or not denied.conflict
    assert example is None or example.reading != "forbidden_value"


def test_a_value_a_list_item_is_labelled_with_is_what_its_this_value_forbids() -> None:
    rule = "65535: This value must not be used, because it was the error return sentinel value."

    assert labelled_value("65535: This value") == "65535"
    assert labelled_value("This value") == ""
    verdict = judge("The service account gets UID 65535 on every host.", rule, "prohibition", "must not")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "forbidden_value")
    other = judge("The service account gets UID 6553 on every host.", rule, "prohibition", "must not")
    assert other is None or not other.conflict


def test_a_forbidden_value_is_given_by_what_the_clause_says_up_to_it() -> None:
    # The denial after the value is said of something else ("a number adduser never hands out").
    rule = "65535: This value must not be used, because it was the error return sentinel value."
    verdict = judge(
        "The shared group gets GID 65535 on every host, a number adduser never hands out.",
        rule,
        "prohibition",
        "must not",
    )

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "forbidden_value")


def test_a_mode_with_a_leading_zero_is_the_mode_without_it() -> None:
    kept = judge("Ordinary files are mode 0644 and executables mode 0755.", *MODES)
    broken = judge("Installed files are given mode 0777.", *MODES)

    assert kept is not None
    assert (kept.conflict, kept.reading) == (False, "other_value")
    assert broken is not None
    assert (broken.conflict, broken.reading) == (True, "other_value")


def test_a_number_labelling_the_expression_that_yields_it_is_what_the_item_forbids() -> None:
    rule = "4294967294: (uid_t)(-2) == (gid_t)(-2) must not be used, because NFS maps anonymous users to it."

    assert labelled_value("4294967294: (uid_t)(-2) == (gid_t)(-2)") == "4294967294"
    assert labelled_value("Section 3: (see above)") == ""
    verdict = judge(
        "The sandbox drops to UID and GID 4294967294 before parsing.", rule, "prohibition", "must not"
    )
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "forbidden_value")


def test_a_rule_forbidding_one_value_does_not_govern_a_clause_giving_none() -> None:
    # The shared words ("UID") are no act: the rule forbids the value alone.
    rule = "4294967294: (uid_t)(-2) == (gid_t)(-2) must not be used, because NFS maps anonymous users to it."

    assert (
        judge(
            "The service account gets a dynamic UID from adduser --system.", rule, "prohibition", "must not"
        )
        is None
    )

"""Where a clause puts things against where a rule requires or forbids them, by their paths.

An area a rule keeps free of writes is broken by a clause writing into it at run time (``read_only``).
Where both speak of placing things, a clause inside an area a prohibition names breaks it
(``forbidden_path``); a clause elsewhere than the areas an obligation's act names breaks it
(``required_path``), and more clearly when what it places is what the rule's subject names
(``misplaced``: "Daemons write their PID files to /var/tmp" for "PID files must be placed in /run").
A rule of a document's part about an area (FHS "3.13. /opt : Add-on application software packages")
binds only what belongs there, unless it is the part's own area it puts things in.
"""

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Final

from actions.audit.key_terms import key_terms
from actions.audit.polarity import (
    act_verbs,
    affirms,
    before_denial,
    denied_terms,
    rule_act,
    stance,
    without_purpose,
)
from actions.audit.quantities import holds, path_within, paths, same_area
from actions.audit.read_only import keeps_free_of_writes, keeps_people_from_writing, people_write, writes
from actions.audit.verdict import Verdict

# Placing things somewhere: only then do the paths of a rule and a clause speak of the same thing.
# "Writable" says who may write there, not that anything is put there.
_PLACING: Final = re.compile(
    r"\b(?:plac|install|put|unpack|creat|stor|writ(?!ab)|ship|includ|contain|locat|kept|keep|resid|live|sav|cop(?:y|ie)|mov|prefix|"
    r"record|default|go(?:es)?\b|log(?:s|ged)?\b)\w*",
    re.IGNORECASE,
)
_ALTERNATIVE: Final = re.compile(r"[:;]|\binstead\b|\brather\b|\bbut\b", re.IGNORECASE)


def places(clause: str) -> bool:
    """Whether ``clause`` speaks of placing things (installs, ships, writes, keeps, unpacks …)."""
    return bool(_PLACING.search(clause))


@lru_cache(maxsize=8192)
def forbidden_areas(rule: str, modal_words: str) -> tuple[str, ...]:
    """The areas a prohibition forbids placing things in, by the verb of its act ("packages must not
    place any files in /usr/local"), up to the alternative it points to ("…: place them in /etc")."""
    after = rule_act(rule, modal_words)
    if not _PLACING.search(" ".join(act_verbs(after)) or after):
        return ()
    return tuple(areas_named(_ALTERNATIVE.split(_NON_RESTRICTIVE.sub(" ", after), maxsplit=1)[0]))


def stated_paths(clause: str) -> list[tuple[str, bool]]:
    """Each path of ``clause`` in order, and whether the clause affirms it: neither turns away from it
    ("rather than /usr/local") nor denies or waives it up to there ("packages do not need to ship a
    /usr/share/doc/<package>/copyright file"; "… and ships nothing under /run")."""
    kept = set(paths(clause, affirmed_only=True))
    stated = []
    searched = 0
    for path in paths(clause):
        found = re.compile(re.escape(path) + r"/?(?![\w/-])").search(clause, searched)
        if found is None:
            stated.append((path, path in kept and affirms(clause)))
            continue
        searched = found.end()
        stated.append((path, path in kept and affirms(clause[: found.end()])))
    return stated


def affirmed_paths(clause: str) -> list[str]:
    """The paths ``clause`` affirms (``stated_paths``)."""
    return [path for path, affirmed in stated_paths(clause) if affirmed]


# A non-restrictive clause (", where <subdir> is the name of the subtree in /opt") adds a fact; the
# areas it names are not where the rule puts things.
_NON_RESTRICTIVE: Final = re.compile(r",\s*(?:which|who|whose|where)\b[^,]*(?:,|$)", re.IGNORECASE)


def by_read_only(clause: str, rule: str, said: str) -> Verdict | None:
    """A rule that keeps an area free of writes ("/usr … must not be written to", "/usr and /etc are
    read-only", "data that doesn't need to be modified should store that data in /usr/share"), against a
    clause that writes into it ("dashboards are saved at run time under /usr/share/acme")."""
    if not keeps_free_of_writes(rule) or not writes(without_purpose(clause)):
        return None
    if keeps_people_from_writing(rule) and not people_write(clause):
        return None
    # The rule's own negation ("must not modify /etc/group") names the area; it does not turn from it.
    areas = areas_named(rule)
    inside = [p for p in paths(clause, affirmed_only=True) if any(path_within(p, area) for area in areas)]
    if not inside or not affirms(clause):
        return None
    return Verdict(
        True,
        "read_only",
        f"{said}: {', '.join(areas)} is not to be written to; the clause writes to {', '.join(inside)}.",
        f"Leave {', '.join(areas)} as it is (write changing data elsewhere), or record why the rule does "
        "not apply.",
    )


_USING_AREA: Final = re.compile(
    r"\buse\s+(?:the\s+)?/[\w./<>-]*\s+(?:to|for)\s+(?P<verb>\w+)(?P<what>[^,;.]*)", re.IGNORECASE
)


def by_path(
    clause: str,
    rule: str,
    parts: tuple[str, str],
    negative: bool,
    said: str,
    context: tuple[Mapping[str, float], Sequence[str]],
    *,
    excepting: bool = False,
) -> Verdict | None:
    """Paths in both, where both speak of placing things; ``parts``: the rule's subject and act;
    ``context``: the rarity of the target's terms, and the headings the rule stands under;
    ``excepting``: a prohibition read as requiring its exception (not negative, yet what its paths
    name is forbidden but for the exception, so going without them is no breach)."""
    subject, after = parts
    weights, sections = context
    # A prohibition must forbid placing things ("must not place files in /usr/local"), by the verb of
    # its act: not merely locate its subject ("files located in /var/tmp must not be deleted"), nor
    # forbid another act of what is placed ("no program should rely on … data being stored in /srv").
    places = (" ".join(act_verbs(after)) or after) if negative else rule
    # "must not also use /usr/lib to store internal binaries": using an area to place things places them.
    # What it places is what the rule binds there: "shared plugins in /usr/lib/tidemark" store no binaries.
    if negative and (using := _USING_AREA.search(after)):
        if not key_terms(using.group("what")) & key_terms(clause):
            return None
        places = f"{places} {using.group('verb')}"
    if not (_PLACING.search(places) and _PLACING.search(clause)):
        return None
    # An obligation requires the areas it names, not those it turns away from ("rather than /usr").
    # Where its act places things in named areas, those are what it requires or forbids; an area its
    # subject names is only whom it binds ("Variable data of the packages in /opt | must be installed
    # in /var/opt/<subdir>, where <subdir> is …"): the clause's /opt/plugin/var is no compliance.
    act = _NON_RESTRICTIVE.sub(" ", after)
    # What a prohibition forbids ends where the alternative it points to begins ("must not install
    # files in /usr/etc: place them in /etc instead"); the areas before it are all forbidden ("must not
    # include files or directories under /run, or under the older /var/run and /var/lock paths").
    forbidden = _ALTERNATIVE.split(act, maxsplit=1)[0] if negative else act
    act_areas = areas_named(forbidden, affirmed_only=not negative) if _PLACING.search(forbidden) else []
    areas = act_areas or areas_named(rule, affirmed_only=not negative)
    used = paths(clause, affirmed_only=True)
    where = ", ".join(areas)
    # "The .deb does not include /usr/share/doc/acme/copyright" for "must be accompanied by … the file
    # /usr/share/doc/package/copyright": the clause goes without what the rule requires there. A
    # denial further from the path ("packages do not need to ship a …/copyright file") counts where the
    # clause speaks of what the rule binds: "nothing from this package is installed under /usr/local"
    # goes without nothing "locally installed software" needs.
    if (
        not negative
        and not excepting
        and areas
        and not (affirmed_paths(clause) if names_subject(before_denial(clause), subject, weights) else used)
    ):
        gone = [p for p in paths(clause) if any(same_area(p, area) for area in areas)]
        if gone:
            return Verdict(
                True,
                "denied_path",
                f"{said} {where}; the clause goes without {', '.join(gone)}.",
                f"Provide {where} as the rule requires, or record why it does not apply.",
            )
    # A prohibition naming several areas in no act of its own ("/usr/etc is not allowed: … place them
    # in /etc") does not say which one it forbids: polarity decides instead.
    if not areas or not used or (negative and len(areas) > 1 and not act_areas):
        return None
    # Several areas forbidden at once are forbidden to what the subject names ("Packages must not
    # include …"; "files which are modified … should not be stored in /usr or /etc"), not to all.
    if negative and len(areas) > 1 and not names_subject(clause, subject, weights):
        return None
    within = path_within if negative else same_area
    inside = [p for p in used if any(within(p, area) for area in areas)]
    # A rule of a part about an area binds what belongs there ("3.13. /opt : Add-on application
    # software packages" › "Host-specific configuration files must be installed in /etc/opt"): a clause
    # naming nothing inside that area, nor where the rule puts things, is not one it governs by path.
    scope = _section_scope(sections, areas)
    if scope and not inside and not any(path_within(p, area) for p in used for area in scope):
        return None
    if negative:
        # What the clause says up to each path decides ("unpacked by dpkg into /usr/local/bin, so they take
        # precedence … without anyone editing their PATH" denies nothing of the unpacking), unless it
        # denies the area too ("the socket lives in /run/acme/, and the package ships nothing under /run").
        stated = [(p, affirmed) for p, affirmed in stated_paths(clause) if any(within(p, a) for a in areas)]
        only_affirmed = bool(stated) and all(affirmed for _, affirmed in stated)
        if inside and (stance(clause) in ("does", "permits") or only_affirmed):
            return Verdict(
                True,
                "forbidden_path",
                f"{said} for {where}; the clause uses {', '.join(inside)}.",
                f"Keep out of {where}, as the rule says, or record why it does not apply.",
            )
        return Verdict(False, "forbidden_path", f"{said} for {where}; the clause keeps out of it.")
    if inside:
        return Verdict(False, "required_path", f"{said} {where}; the clause uses {', '.join(inside)}.")
    # Files the rule's subject names are what it binds ("The files /var/run/utmp, /var/log/wtmp … must
    # be installed writable by group utmp"), not where it puts things (as "The directory /var/cache/fonts
    # should be used to store …" does): a clause naming none of them places other things elsewhere.
    named_files = _NAMES_FILES.search(subject) and not _NAMES_DIRECTORY.search(subject)
    if named_files and not act_areas and not key_terms(clause) & key_terms(" ".join(_last_parts(areas))):
        return None
    # "The copyright file in /usr/share/doc/acme" for "…/usr/share/doc/package/copyright": the clause
    # names an area that holds the required one; it says too little to break the rule by path.
    if any(holds(p, area) and _names_rest(clause, p, area) for p in used for area in areas):
        return None
    # "If a certain job has to be executed at some other frequency …, the package should install a
    # file in /etc/cron.d": a rule for the other cases does not govern a clause using a sibling of its
    # area (/etc/cron.weekly), where the usual cases go: it neither keeps nor breaks it.
    siblings = [p for p in used if any(_sibling(p, area) for area in areas)]
    if _RESIDUAL.search(subject) and siblings:
        return Verdict(
            False,
            "unaddressed",
            f"{said} {where} for the cases other rules leave over; the clause uses {', '.join(siblings)}, "
            "where the usual cases go.",
        )
    return Verdict(
        True,
        "misplaced" if _places_subject(clause, subject, areas, weights) else "required_path",
        f"{said} {where}; the clause names {', '.join(used)} instead.",
        f"Use {where} as the rule requires, or record why it does not apply.",
    )


# A condition for the cases other rules leave over: "at some other frequency", "any other file", "otherwise".
_RESIDUAL: Final = re.compile(r"\b(?:some|any|an|every|all)\s+other\b|\botherwise\b", re.IGNORECASE)


def _sibling(path: str, area: str) -> bool:
    """Whether ``path`` lies in a sibling of ``area`` of the same family: the same parent and the same
    name before its dot (/etc/cron.weekly/x beside /etc/cron.d)."""
    inner = [s for s in path.split("/") if s]
    outer = [s for s in area.split("/") if s]
    if not outer or len(inner) < len(outer) or inner[: len(outer) - 1] != outer[:-1]:
        return False
    own, theirs = inner[len(outer) - 1], outer[-1]
    return "." in theirs and own != theirs and own.split(".", 1)[0] == theirs.split(".", 1)[0]


#: Share of the weight of a rule's subject terms a clause must affirm to place what the rule places.
SUBJECT_SHARE: Final = 0.5
# An opening adverbial is no part of the subject: "By default, it should be /usr/local/share" names no
# thing placed.
_OPENER: Final = re.compile(
    r"^\W*(?:by\s+default|in\s+general|in\s+particular|generally|usually|normally|typically|"
    r"for\s+(?:example|instance)|however|thus|therefore|similarly|otherwise|also)\s*,",
    re.IGNORECASE,
)


def _places_subject(clause: str, subject: str, areas: Sequence[str], weights: Mapping[str, float]) -> bool:
    """Whether the clause places what the rule's subject names ("PID files" in "Daemons write their PID
    files to /var/tmp" for "PID files … must be placed in /run"). A subject naming the required area
    is the place, not what is placed ("The directory /var/cache/fonts should be used to store …")."""
    named_areas = paths(_EXAMPLES.sub(" ", _NON_RESTRICTIVE.sub(" ", subject)))
    if any(same_area(p, area) for p in named_areas for area in areas):
        return False
    # "A package to be installed in /opt must locate its static files in /opt/<package>": a subject
    # named by its area is only that area's; a clause naming nothing there places something else.
    used = paths(clause, affirmed_only=True)
    if named_areas and not any(path_within(p, area) for p in used for area in named_areas):
        return False
    return names_subject(clause, subject, weights)


# Examples ("such as the lock files that were originally found in /usr/spool/locks") do not narrow.
_EXAMPLES: Final = re.compile(r",?\s*(?:such\s+as|e\.g\.|for\s+example)\b[^,]*(?:,|$)", re.IGNORECASE)


# An aside in parentheses, of more than one word, is no part of what the subject names: "Package names
# (both source and binary, see Package)"; "Process identifier (PID) files" keeps its abbreviation.
_ASIDE: Final = re.compile(r"\([^()]*\s[^()]*\)")
# Words that say how much of the subject is meant, not what it is: "The entire changelog".
_WHOLE: Final = re.compile(r"\b(?:entire|whole|complete)\b", re.IGNORECASE)


def names_subject(
    clause: str, subject: str, weights: Mapping[str, float], *, files_by_path: bool = False
) -> bool:
    """Whether the clause names what a rule's subject names: most of the weight of its key terms,
    an abbreviation the subject defines standing for its words; an opening adverbial ("By default,
    it…") or a non-restrictive clause is no part of it. ``files_by_path``: a path with an extension
    names a file of that kind ("/run/agent.pid", a PID file), where what the clause gives the file
    is no place (a value; a path given as a place is what placement judges)."""
    subject = _ASIDE.sub(" ", _WHOLE.sub(" ", _OPENER.sub(" ", _NON_RESTRICTIVE.sub(" ", subject))))
    named = key_terms(without_purpose(subject, opening_reason=False)) - key_terms(" ".join(paths(subject)))
    if not named:
        return False
    affirmed = key_terms(without_purpose(clause)) - denied_terms(clause)
    # "PID files" names what "Process identifier (PID) files" does.
    for short, long in defined_abbreviations(subject).items():
        if short in affirmed:
            affirmed |= long
    # "/run/agent.pid" is a PID file; it names no other kind of file ("Lock files").
    for path in paths(clause) if files_by_path else ():
        if (extension := _EXTENSION.search(path)) and key_terms(extension.group(1)) & named:
            affirmed |= key_terms(f"file {extension.group(1)}")
    # "Setuid and setgid executables" are setuid executables and setgid ones: naming one names the kind.
    for first, second in _COORDINATED.findall(subject):
        pair = key_terms(f"{first} {second}")
        if pair & affirmed:
            affirmed |= pair
    # "log files, lock files, backup files, … or any other files which …": naming one kind of a list
    # that shares its head names what the subject binds.
    if any(kind <= affirmed for kind in _enumerated_kinds(subject)):
        return True
    total = sum(weights.get(t, 1.0) for t in named)
    return sum(weights.get(t, 1.0) for t in named & affirmed) >= SUBJECT_SHARE * total


# One kind of a list of kinds: a modifier and its head, before a comma or a conjunction.
_KIND: Final = re.compile(r"\b([A-Za-z][\w-]*)\s+([A-Za-z][\w-]*)\s*(?=,|\b(?:or|and)\b)")


@lru_cache(maxsize=8192)
def _enumerated_kinds(subject: str) -> tuple[frozenset[str], ...]:
    """The kinds a subject lists under one head, three or more ("log files, lock files, backup files"),
    each as its key terms; none where no head is shared that often."""
    heads: dict[str, list[frozenset[str]]] = {}
    for modifier, head in _KIND.findall(subject):
        terms = key_terms(f"{modifier} {head}")
        if len(terms) == 2:
            heads.setdefault(head.lower(), []).append(terms)
    return tuple(kind for kinds in heads.values() if len(kinds) >= 3 for kind in kinds)


# A file name's extension ("agent.pid", "relay.conf"): what kind of file a path names.
_EXTENSION: Final = re.compile(r"(?<=[\w-])\.([A-Za-z]{2,5})$")


# Two modifiers of one noun, coordinated: "setuid and setgid (executables)", "source or binary (packages)".
_COORDINATED: Final = re.compile(r"\b([A-Za-z][\w-]*)\s+(?:and|or|and/or)\s+([A-Za-z][\w-]*)\s+(?=[A-Za-z])")


def names_what_is_placed(clause: str, rule: str) -> bool:
    """Whether ``clause`` shares a key term of ``rule`` outside its paths and its verbs of placing
    ("files" of "must not place any files in /usr/local"): what the rule forbids placing, not only where."""
    words = rule
    for path in paths(rule):
        words = words.replace(path, " ")
    named = {term for term in key_terms(words) if not _PLACING_STEM.match(term)}
    return bool(named & key_terms(clause))


# The stems of the verbs that place (narrower than ``_PLACING``: a rule's "contain" or "include" may
# name what is placed).
_PLACING_STEM: Final = re.compile(r"(?:plac|instal|put|locat|stor)")


def _names_rest(clause: str, path: str, area: str) -> bool:
    """Whether the clause names in words what ``area`` adds to ``path`` ("copyright" for
    "/usr/share/doc/<package>/copyright" below "/usr/share/doc/acme"); a placeholder it cannot."""
    rest = [s for s in area.split("/") if s][len([s for s in path.split("/") if s]) :]
    named = key_terms(" ".join(rest))
    return bool(named) and not any(s.startswith("<") for s in rest) and named <= key_terms(clause)


_NAMES_FILES: Final = re.compile(r"\bfiles?\b", re.IGNORECASE)
_NAMES_DIRECTORY: Final = re.compile(r"\bdirector(?:y|ies)\b", re.IGNORECASE)


def _last_parts(areas: Sequence[str]) -> list[str]:
    """The last part of each path ("/var/run/utmp" → "utmp")."""
    return [area.rstrip("/").rsplit("/", 1)[-1] for area in areas]


def _section_scope(sections: Sequence[str], areas: Sequence[str]) -> list[str]:
    """The areas the innermost heading naming any names, but those holding what the rule requires: the
    part of "/run" says what goes into /run, for everyone; the part of "/opt" says where the add-on
    packages of /opt put their configuration (/etc/opt), for them only."""
    for heading in reversed(sections):
        if named := areas_named(heading):
            return [p for p in named if not any(path_within(area, p) for area in areas)]
    return []


def areas_named(text: str, *, affirmed_only: bool = False) -> list[str]:
    """The areas ``text`` names, the root left aside (it contains everything)."""
    return sorted({p for p in paths(text, affirmed_only=affirmed_only) if p != "/"})


# Words and the abbreviation defined for them: "Process identifier (PID)", "data protection officer (DPO)".
_DEFINED: Final = re.compile(r"((?:[A-Za-z][\w-]*\s+){1,6})\(([A-Za-z]{2,8})\)")


def defined_abbreviations(text: str) -> dict[str, frozenset[str]]:
    """The abbreviations ``text`` defines, as key terms: each with the key terms of the words it stands
    for, the fewest words before it that start with its first letter and hold its letters in order."""
    defined: dict[str, frozenset[str]] = {}
    for match in _DEFINED.finditer(text):
        short = match.group(2).lower()
        words = match.group(1).split()
        for start in range(len(words) - 1, -1, -1):
            spelled = "".join(words[start:]).lower()
            if spelled[0] == short[0] and _in_order(short, spelled):
                if terms := key_terms(short):
                    defined[next(iter(terms))] = key_terms(" ".join(words[start:]))
                break
    return defined


def _in_order(letters: str, text: str) -> bool:
    """Whether ``letters`` occur in ``text`` in that order."""
    rest = iter(text)
    return all(letter in rest for letter in letters)

"""Team names: one canonical spelling per team, and hints for new aliases.

Teams write their own names into the records their programs save, and they
do not spell them the same way twice: "北京科技大学-沼泽" and "沼泽", "BaGe"
and "八哥", full-width "Ａ１" and "A1". The organiser lists aliases in
``site.toml`` (spelling -> canonical name); :class:`Teams` applies them, and
:func:`suggest_aliases` proposes the pairs that look like one team so that
the organiser only has to confirm them.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

# The key two spellings share when they differ only in width, case or spaces;
# shared with the metadata reader so both stages compare names alike.
from generator.i18n import N_, T
from generator.metadata import loose

__all__ = [
    "AFFIX_MAX", "PAIRS_MAX", "Suggestion", "Teams", "code_suggestions", "few_pairs", "loose", "placeholder",
    "suggest_aliases", "tidy",
]

_SPACE = re.compile(r"\s+")


def tidy(name: str) -> str:
    """A name as written, made comparable: NFKC width, trimmed, single spaces.

    NFKC turns full-width letters, digits and the ideographic space into
    their ASCII forms, so "Ａ１" and "A1" are one team without an alias.
    """
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", name)).strip()


class Teams:
    """Maps every spelling of a team name to its canonical name.

    ``aliases`` maps a spelling to its canonical name, as in ``site.toml``.
    """

    __slots__ = ("_exact", "_loose", "_seen")

    def __init__(self, aliases: Mapping[str, str]) -> None:
        self._exact: dict[str, str] = {}
        for spelling, canonical in aliases.items():
            self._exact[spelling] = canonical
            self._exact.setdefault(spelling.strip(), canonical)
        # Loose keys of spellings and of canonical names. A key that leads to
        # two different canonical names is ambiguous and left out: guessing
        # would silently merge two teams.
        candidates: dict[str, set[str]] = {}
        for spelling, canonical in aliases.items():
            for form in (spelling, canonical):
                candidates.setdefault(loose(form), set()).add(canonical)
        self._loose = {key: next(iter(names)) for key, names in candidates.items() if len(names) == 1}
        self._seen: dict[str, str] = {}  # an archive names each team thousands of times

    def canonical(self, name: str) -> str:
        """The canonical name of a spelling.

        An exact alias first; then a loose match (width, case and spaces
        ignored) against alias spellings and canonical names; otherwise the
        name as written, tidied by :func:`tidy`.
        """
        seen = self._seen.get(name)
        if seen is None:
            seen = self._seen[name] = self._canonical(name)
        return seen

    def _canonical(self, name: str) -> str:
        exact = self._exact.get(name)
        if exact is None:
            exact = self._exact.get(name.strip())
        if exact is not None:
            return exact
        found = self._loose.get(loose(name))
        if found is not None:
            return found
        return tidy(name)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """Two spellings that are probably one team, and why we think so.

    ``canonical``: the name to keep, where the evidence says which (a group
    code stands for a team); ``template`` and ``args``: the evidence said in
    full, a message template (``N_``) ending in ``{line}``, where ``reason``
    alone would not say it.
    """

    names: tuple[str, str]  # sorted
    reason: str
    canonical: str = ""
    template: str = ""
    args: tuple[tuple[str, str], ...] = ()

    def pair(self) -> tuple[str, str]:
        """(canonical, variant): the name to keep and the spelling that joins it.

        The evidence decides where it can (a group code stands for its team);
        otherwise the core name of a school-prefixed spelling, and the Chinese
        one of a transliteration. The organiser has the last word.
        """
        a, b = self.names
        if self.canonical:
            canonical = self.canonical
        elif "prefix" in self.reason or "suffix" in self.reason or "added" in self.reason:
            canonical = min((a, b), key=len)
        else:
            canonical = max((a, b), key=lambda n: (sum(1 for c in n if ord(c) > 0x2E7F), -len(n)))
        return canonical, b if canonical == a else a


# -- names programs write by default --------------------------------------------

# What a program writes when nobody typed the team's name: its game's name and
# a number (苏拉卡尔塔2队), "unknown", "enemy", a side. Never a team: never merged.
_PLACEHOLDER_WORDS = (
    "未知队伍", "未知队名", "未知", "无名", "敌人", "敌方", "对手", "对方", "电脑", "玩家", "队伍", "参赛队",
    "先手方", "后手方", "先手", "后手", "黑方", "白方", "红方", "蓝方",
    "unknown", "noname", "player", "team", "enemy", "opponent", "computer", "ai", "bot", "none", "null",
)  # fmt: skip
_PLACEHOLDER: re.Pattern[str] | None = None


def _placeholder_pattern() -> re.Pattern[str]:
    global _PLACEHOLDER
    if _PLACEHOLDER is None:
        from generator import games  # the game names, once: a program names its teams after its game

        stems = {name for g in games.GAMES.values() for name in (g.name_zh, g.name_zh.removesuffix("棋")) if "（" not in name}
        words = sorted({*_PLACEHOLDER_WORDS, *stems}, key=len, reverse=True)
        alternatives = "|".join(re.escape(w) for w in words)
        _PLACEHOLDER = re.compile(rf"(?:{alternatives})\s*[0-9一二两三四五六七八九十]*\s*(?:队|号|方)?")
    return _PLACEHOLDER


def placeholder(name: str) -> bool:
    """Whether ``name`` is one programs write by default (苏拉卡尔塔2队, 未知队伍, 敌人, Player 1), not a team's."""
    plain = tidy(name).strip(" -_:;：；|").casefold()
    return bool(plain) and _placeholder_pattern().fullmatch(plain) is not None


# -- group codes -----------------------------------------------------------------

# A folder of one group pairing, as organisers name them: "A1A2", "B3B5".
_PAIRING_FOLDER = re.compile(r"(?:[A-Za-z][0-9]+){2,}")
_CODE = re.compile(r"[A-Za-z][0-9]+")


def code_suggestions(records: Iterable[tuple[str, str | None, str | None]]) -> list[Suggestion]:
    """A group code written as a team's name (``A1``), tied to the team that plays in every pairing folder of it.

    ``records`` are one event's: (folder below the event, first team, second
    team), teams by canonical name. Group A's pairing folders ``A1A2``,
    ``A1A3``, ``A1A4`` each hold the games of two teams: the one team found
    in all three is A1. A code tied to no team, or to more than one (a
    single folder), is not suggested; nor is a name programs write by default.
    """
    teams_in: dict[str, set[str]] = {}  # pairing folder -> the teams of its records
    written: set[str] = set()
    for folder, *sides in records:
        top = unicodedata.normalize("NFKC", folder.split("/", 1)[0]).strip().upper()
        names = [name for name in sides if name]
        written.update(names)
        if _PAIRING_FOLDER.fullmatch(top):
            found = teams_in.setdefault(top, set())
            found.update(n for n in names if not _CODE.fullmatch(tidy(n).upper()) and not placeholder(n))
    folders_of: dict[str, list[str]] = {}
    for folder in sorted(teams_in):
        for code in dict.fromkeys(_CODE.findall(folder)):
            folders_of.setdefault(code, []).append(folder)
    suggestions = []
    for name in sorted(written):
        code = tidy(name).upper()
        folders = folders_of.get(code, []) if _CODE.fullmatch(code) else []
        if len(folders) < 2:
            continue
        common = set.intersection(*(teams_in[f] for f in folders))
        if len(common) != 1:
            continue
        team = common.pop()
        template = N_(
            "{code} plays in every pairing folder named with it ({folders}), and {team} is the only team in all "
            "of them: {line} under [aliases]?"
        )
        args = (("code", name), ("folders", ", ".join(folders)), ("team", team))
        suggestions.append(Suggestion((min(name, team), max(name, team)), T("group code"), team, template, args))
    return suggestions


# Separators between a school name and a team name, after NFKC (so the
# full-width forms "－" and "＿" are covered too).
_SEPARATORS = ("-", "_", " ")
# Words that make an affix joined without a separator look like a school name
# rather than part of the team's own name ("哈理工苏拉卡尔塔" vs "苏拉卡尔塔").
_SCHOOL_WORDS = (
    "大学", "学院", "学校", "中学", "理工", "科大", "工大", "师大", "农大", "交大",
    "university", "college", "school", "institute", "univ",
)  # fmt: skip


def _difference(a: str, b: str) -> str | None:
    """Why two spellings with the same loose key differ, or None if they don't."""
    if loose(a) != loose(b) or a == b:
        return None
    if unicodedata.normalize("NFKC", a) == unicodedata.normalize("NFKC", b):
        return T("differ only in width")
    if _SPACE.sub("", a) == _SPACE.sub("", b) or tidy(a) == tidy(b):
        return T("differ only in spaces")
    if a.casefold() == b.casefold():
        return T("differ only in case")
    return T("differ only in spaces, case or width")


def _school_like(affix: str, separated: bool) -> bool:
    """Whether an affix looks like a school name, not a team number or a letter.

    With a separator, anything of two characters or more that is not a bare
    number will do ("北理工-苏拉卡尔塔"); joined directly, the affix must hold a
    school word, or "A1" and "A11" would be one team.
    """
    affix = affix.strip(" -_")
    if not affix or affix.isdigit():
        return False
    folded = affix.casefold()
    if any(word in folded for word in _SCHOOL_WORDS):
        return True
    return separated and len(affix) >= 2


# A school name with its separator fits in this many characters: the long
# English names of Chinese universities are about 50 ("Beijing University of
# Posts and Telecommunications"). A name is split only this close to either
# end: every split costs a slice of the whole name, so splitting a name
# everywhere costs the square of its length (for 100,000 characters, minutes
# and gigabytes), while no school name needs a split further in.
AFFIX_MAX = 100


def _splits(length: int) -> list[int]:
    """Where to split a name of ``length`` characters: at most ``AFFIX_MAX`` from either end, in order."""
    near_start = range(1, min(length, AFFIX_MAX + 1))
    near_end = range(max(near_start.stop, length - AFFIX_MAX), length)
    return [*near_start, *near_end]


def _separated(affix: str, core: str, kind: str) -> bool:
    """Whether a prefix is joined to its core by a separator (a suffix never counts as separated)."""
    return kind == "prefix" and (affix[-1] in _SEPARATORS or core[0] in _SEPARATORS)


def _affixed(name: str, known: Container[str]) -> list[tuple[str, str]]:
    """(core, reason) for every way ``name`` splits into a school affix and a core in ``known``.

    The cores are looked up before the affix is judged: most splits give no
    known name, and the reason is only worth writing for those that do.
    """
    found: list[tuple[str, str]] = []
    for i in _splits(len(name)):
        head, tail = name[:i], name[i:]
        # Prefix: "北京科技大学-沼泽" -> "沼泽"; suffix: "沼泽-北京科技大学" -> "沼泽".
        for affix, core, kind in ((head, tail, "prefix"), (tail, head, "suffix")):
            if len(affix) > AFFIX_MAX:
                continue
            core_clean = core.strip(" -_")
            # A suffix must name a school outright: "北京科技大学" and
            # "北京科技大学-沼泽" are more likely two teams of one school.
            if core_clean and core_clean in known and _school_like(affix, _separated(affix, core, kind)):
                found.append((core_clean, f"same name with the {kind} '{affix.strip(' -_')}'"))
    bracketed = _bracketed(name)
    if bracketed is not None and bracketed[0] in known:
        found.append(bracketed)
    return found


_BRACKETED = re.compile(r"(.+?)\s*\((.+)\)")


def _bracketed(name: str) -> tuple[str, str] | None:
    """(core, reason) for "沼泽(北京科技大学)" and "沼泽（北京科技大学）" (NFKC makes the brackets ASCII).

    Only a name ending in ")" is matched: on any other the pattern would
    try every "(" against the whole rest of the name.
    """
    if not name.endswith(")"):
        return None
    bracket = _BRACKETED.fullmatch(name)
    if bracket is None or len(bracket.group(2)) > AFFIX_MAX or not _school_like(bracket.group(2), True):
        return None
    return bracket.group(1).strip(), f"same name with '({bracket.group(2)})' added"


# Beyond this many spellings that look alike, suggesting every pair of them
# helps nobody and grows with the square of their number (a damaged archive
# can hold thousands): each is then paired with the first one only, which is
# enough to see that they are one team. Real archives have two or three.
PAIRS_MAX = 8


def few_pairs(names: Sequence[str]) -> Iterator[tuple[str, str]]:
    """Every pair of a few names, in order; for more than ``PAIRS_MAX``, each name with the first."""
    if len(names) <= PAIRS_MAX:
        return itertools.combinations(names, 2)
    return ((names[0], other) for other in names[1:])


def suggest_aliases(names: Iterable[str], shared_games: Iterable[tuple[str, str]] = ()) -> list[Suggestion]:
    """Pairs of different spellings that are probably one team.

    Three signs, checked in this order (a pair is suggested once, with the
    first reason found):

    - the names differ only in spaces, case or width;
    - one is the other with a school name before it, joined by ``-``, ``_``
      or a space ("北理工-苏拉卡尔塔"), or before or after it, joined by any of
      these, in brackets or directly, when the affix contains a school word
      (大学, 学院, 理工, University, ...);
    - the names stand on the same side of the same game in two copies of one
      record (``shared_games``, from :mod:`generator.archive.duplicates`).

    The result is sorted by the pair of names. The work grows with the
    names' total length, not its square: an affix is at most
    :data:`AFFIX_MAX` characters, and more than :data:`PAIRS_MAX` spellings
    that look alike are each paired with the first of them only.
    """
    pool = sorted(set(names))
    shared = [(a, b) for a, b in shared_games if a != b]
    pool = sorted(set(pool).union(*shared) if shared else pool)
    found: dict[tuple[str, str], str] = {}

    def add(a: str, b: str, reason: str) -> None:
        if a != b:
            found.setdefault((min(a, b), max(a, b)), reason)

    by_loose: dict[str, list[str]] = {}
    for name in pool:
        by_loose.setdefault(loose(name), []).append(name)
    for group in by_loose.values():
        for a, b in few_pairs(group):
            reason = _difference(a, b)
            if reason:
                add(a, b, reason)

    # Index by tidy form so that "沼泽" matches the core of "北京科技大学 - 沼泽".
    by_tidy: dict[str, list[str]] = {}
    for name in pool:
        by_tidy.setdefault(tidy(name), []).append(name)
    for name in pool:
        for core, reason in _affixed(tidy(name), by_tidy):
            others = by_tidy[core]
            # Many spellings of the core are paired with each other above;
            # the first of them stands for all.
            for other in others if len(others) <= PAIRS_MAX else others[:1]:
                add(name, other, reason)

    for a, b in shared:
        add(a, b, T("same game in two files"))
    return [Suggestion(pair, found[pair]) for pair in sorted(found)]

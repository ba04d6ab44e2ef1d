"""Team names: one canonical spelling per team, and hints for new aliases.

Teams write their own names into the records their programs save, and they
do not spell them the same way twice: "北京科技大学-沼泽" and "沼泽", "BaGe"
and "八哥", full-width "Ａ１" and "A1". The organiser lists aliases in
``site.toml`` (spelling -> canonical name); :class:`Teams` applies them, and
:func:`suggest_aliases` proposes the pairs that look like one team so that
the organiser only has to confirm them.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Mapping

# The key two spellings share when they differ only in width, case or spaces;
# shared with the metadata reader so both stages compare names alike.
from generator.metadata import loose

__all__ = ["Suggestion", "Teams", "loose", "suggest_aliases", "tidy"]

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
    """Two spellings that are probably one team, and why we think so."""

    names: tuple[str, str]  # sorted
    reason: str


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
        return "differ only in width"
    if _SPACE.sub("", a) == _SPACE.sub("", b) or tidy(a) == tidy(b):
        return "differ only in spaces"
    if a.casefold() == b.casefold():
        return "differ only in case"
    return "differ only in spaces, case or width"


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


def _affixed(name: str) -> list[tuple[str, str]]:
    """(core, reason) for every way ``name`` splits into a school affix and a core."""
    found: list[tuple[str, str]] = []
    for i in range(1, len(name)):
        head, tail = name[:i], name[i:]
        # Prefix: "北京科技大学-沼泽" -> "沼泽"; suffix: "沼泽-北京科技大学" -> "沼泽".
        for affix, core, kind in ((head, tail, "prefix"), (tail, head, "suffix")):
            core_clean = core.strip(" -_")
            if not core_clean:
                continue
            separated = (kind == "prefix" and (affix[-1] in _SEPARATORS or core[0] in _SEPARATORS)) or (
                kind == "suffix" and (affix[0] in _SEPARATORS or core[-1] in _SEPARATORS)
            )
            # A suffix must name a school outright: "北京科技大学" and
            # "北京科技大学-沼泽" are more likely two teams of one school.
            if _school_like(affix, separated and kind == "prefix"):
                found.append((core_clean, f"same name with the {kind} '{affix.strip(' -_')}'"))
    # "沼泽(北京科技大学)" and "沼泽（北京科技大学）" (NFKC makes the brackets ASCII).
    bracket = re.fullmatch(r"(.+?)\s*\((.+)\)", name)
    if bracket and _school_like(bracket.group(2), True):
        found.append((bracket.group(1).strip(), f"same name with '({bracket.group(2)})' added"))
    return found


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

    The result is sorted by the pair of names.
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
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                reason = _difference(a, b)
                if reason:
                    add(a, b, reason)

    # Index by tidy form so that "沼泽" matches the core of "北京科技大学 - 沼泽".
    by_tidy: dict[str, list[str]] = {}
    for name in pool:
        by_tidy.setdefault(tidy(name), []).append(name)
    for name in pool:
        for core, reason in _affixed(tidy(name)):
            for other in by_tidy.get(core, ()):
                add(name, other, reason)

    for a, b in shared:
        add(a, b, "same game in two files")
    return [Suggestion(pair, found[pair]) for pair in sorted(found)]

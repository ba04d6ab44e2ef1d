"""Groups and stages: what the folders inside an event folder say.

A real archive is kept the way the tournament ran (the 2018 CCGC Surakarta
archive, for one): a folder per group pairing (``A1A2/``, ``A1A3/``), per
group (``B3/``, ``B1/4/``), and one for the final stage with dates and
pairings below it (``决赛/8.4/A1-C5/``); some records lie loose in the event
folder. The first folder below the event decides:

- a group code: one letter, alone or followed by team numbers, all of the
  same letter (``A``, ``A1A2``, ``B3``, ``A组``, ``Group A``): group A;
- any other name (``决赛``, ``Final``, ``第一轮``): a stage of that name;
- no folder: a loose record. When the event has groups and both its teams
  play in exactly one and the same group, it belongs there (the organiser
  put it in the wrong place, not in another stage); otherwise it stays in
  "other games".

Deeper folders (``8.4/A1-C5``) are rounds and pairings inside their stage
and are shown on the game page, not as parts of their own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

_GROUP = re.compile(r"(?:group\s*|第)?(?P<letter>[A-Za-z])(?:\s*组|\s*group)?", re.IGNORECASE)
_PAIRING = re.compile(r"(?:[A-Za-z]\d+)+")


@dataclass(frozen=True, slots=True, order=True)
class Part:
    """Where a record's folder puts it: ``kind`` is "group", "stage" or "other"."""

    order: int  # groups first (by letter), then stages (as first met), then other
    kind: str
    name: str  # the group letter ("A"), the stage folder ("决赛"), "" for other


OTHER = Part(99_999, "other", "")


def folder_part(group_path: str) -> Part | None:
    """The part a folder path below the event names; None for a record at the top."""
    top = group_path.split("/", 1)[0].strip()
    if not top:
        return None
    plain = unicodedata.normalize("NFKC", top)
    m = _GROUP.fullmatch(plain)
    if m:
        letter = m["letter"].upper()
        return Part(ord(letter), "group", letter)
    if _PAIRING.fullmatch(plain):
        letters = {c.upper() for c in plain if c.isalpha()}
        if len(letters) == 1:
            letter = letters.pop()
            return Part(ord(letter), "group", letter)
    return Part(1000, "stage", top)


def assign(records: Iterable[tuple[str, str, str | None, str | None]]) -> dict[str, Part]:
    """The part of every record: ``(source, group path, first team, second team)`` in, source -> part out.

    Stages are ordered as their folders sort (the order organisers number
    them in); an event without any folder gets no parts at all (empty dict).
    """
    records = list(records)
    found: dict[str, Part | None] = {src: folder_part(path) for src, path, _, _ in records}
    if not any(found.values()):
        return {}
    stages = sorted({p.name for p in found.values() if p is not None and p.kind == "stage"})
    stage_order = {name: 1000 + i for i, name in enumerate(stages)}
    members: dict[str, set[str]] = {}
    for (_, _, first, second), part in zip(records, found.values()):
        if part is not None and part.kind == "group":
            for team in (first, second):
                if team:
                    members.setdefault(team, set()).add(part.name)
    out: dict[str, Part] = {}
    for src, _, first, second in records:
        part = found[src]
        if part is None:
            part = _loose(first, second, members)
        elif part.kind == "stage":
            part = Part(stage_order[part.name], "stage", part.name)
        out[src] = part
    return out


def _loose(first: str | None, second: str | None, members: dict[str, set[str]]) -> Part:
    """A record at the top of the event: the group both its teams play in, if there is one."""
    if first and second:
        groups = members.get(first, set()) & members.get(second, set())
        if len(groups) == 1 and len(members[first]) == 1 and len(members[second]) == 1:
            letter = next(iter(groups))
            return Part(ord(letter), "group", letter)
    return OTHER

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

from generator.archive.standings import Played

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


# -- knockout stages ------------------------------------------------------------

# A stage's kind, as site.toml may set it (``stages = { "决赛" = "knockout" }``).
KNOCKOUT = "knockout"
ROUND_ROBIN = "round-robin"
STAGE_KINDS = (KNOCKOUT, ROUND_ROBIN)


@dataclass(slots=True, eq=False)  # compared by identity: two ties are never the same tie
class Bout:
    """One tie of a knockout: every game two teams played in the stage, and who went through.

    ``points`` are the games each won (a draw counts half), in the order of
    ``teams`` (the first game's); ``winner`` None where they are level and
    no later tie tells who went on. ``level`` 1 is the first round;
    ``places`` the places at stake (1, 2: the final; 3, 4: the match for
    third place), from :func:`knockout`.
    """

    teams: tuple[str, str]
    games: list[Played]
    points: tuple[float, float] = (0.0, 0.0)
    winner: str | None = None
    level: int = 1
    places: tuple[int, int] = (0, 0)

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.teams[1] if self.winner == self.teams[0] else self.teams[0]


@dataclass(slots=True)
class Bracket:
    """A knockout stage: its rounds (main bracket, by level), its placement ties, and the places it decides.

    ``regular``: every tie's teams came through the same path (each won, or
    each lost, the same earlier ties); only then are ``placings`` known.
    """

    rounds: list[list[Bout]]  # rounds[0] the first round; the last, the final; in bracket order
    placement: list[Bout]  # ties between teams that lost earlier (third place), by the places at stake
    placings: list[tuple[int, str, bool]]  # (place, team, shared), best first
    regular: bool


def _share(game: Played, team: str) -> float:
    if game.result == "draw":
        return 0.5
    return 1.0 if (game.first if game.result == "first" else game.second) == team else 0.0


def _bouts(games: Iterable[Played]) -> list[Bout] | None:
    """The ties of the games (by pair of teams, in the order of their first game); None if a game has more seats."""
    by_pair: dict[frozenset[str], Bout] = {}
    for game in games:
        if game.more or game.first == game.second:
            return None
        pair = frozenset((game.first, game.second))
        bout = by_pair.get(pair)
        if bout is None:
            bout = by_pair[pair] = Bout((game.first, game.second), [])
        bout.games.append(game)
    for bout in by_pair.values():
        a, b = bout.teams
        bout.points = (sum(_share(g, a) for g in bout.games), sum(_share(g, b) for g in bout.games))
        if bout.points[0] != bout.points[1]:
            bout.winner = a if bout.points[0] > bout.points[1] else b
    return list(by_pair.values())


def knockout(games: Iterable[Played], forced: bool = False) -> Bracket | None:
    """The stage as a knockout bracket, if its pairings form one; ``forced`` (site.toml says so): drawn anyway.

    The games come in the order they were played. Each pair of teams is one
    tie (a single game or a match of several); a tie's round is one more
    than the latest round either team played before. The pairings form a
    knockout when the two teams of every tie played the same number of
    earlier ties with the same outcomes: winners meet winners (the final),
    losers meet losers (the match for third place). A round robin fails
    this at its second round, where a team meets one it has not yet
    caught up with. A stage of one round (a single match, or ties side by
    side) shows no bracket: it is a knockout only where ``forced``.
    """
    bouts = _bouts(games)
    if not bouts:
        return None
    history: dict[str, list[Bout]] = {}
    regular = True
    for bout in bouts:
        before = [history.get(team, []) for team in bout.teams]
        bout.level = 1 + max(len(b) for b in before)
        if len(before[0]) != len(before[1]):
            regular = False
        for team in bout.teams:
            history.setdefault(team, []).append(bout)
    _infer_winners(history)
    paths = {team: [_outcome(b, team) for b in ties] for team, ties in history.items()}
    for bout in bouts:
        a, b = bout.teams
        k = bout.level - 1
        if not regular or not _same_path(paths[a][:k], paths[b][:k]):
            regular = False
            break
    if not forced and (not regular or max(bout.level for bout in bouts) < 2):
        return None
    placings = _place(bouts, regular)
    main = [bout for bout in bouts if bout.places[0] == 1 or not regular]
    levels = max(bout.level for bout in bouts)
    rounds = _bracket_order([[b for b in main if b.level == level] for level in range(1, levels + 1)], history)
    placement = sorted((b for b in bouts if b not in main), key=lambda b: (b.places, b.level))
    return Bracket([r for r in rounds if r], placement, placings, regular)


def _outcome(bout: Bout, team: str) -> str:
    return "?" if bout.winner is None else "W" if bout.winner == team else "L"


def _same_path(a: list[str], b: list[str]) -> bool:
    return len(a) == len(b) and all(x == y or "?" in (x, y) for x, y in zip(a, b))


def _infer_winners(history: dict[str, list[Bout]]) -> None:
    """A tie level on games (decided by a game not recorded, as happens) went to whoever met a winner next."""
    for team, ties in history.items():
        for k, bout in enumerate(ties[:-1]):
            if bout.winner is not None:
                continue
            nxt = ties[k + 1]
            other = nxt.teams[1] if nxt.teams[0] == team else nxt.teams[0]
            earlier = [b for b in history[other] if b.level == bout.level]
            if earlier and earlier[0].winner is not None:
                won = earlier[0].winner == other
                bout.winner = team if won else (bout.teams[1] if bout.teams[0] == team else bout.teams[0])


def _place(bouts: list[Bout], regular: bool) -> list[tuple[int, str, bool]]:
    """The places a regular knockout decides: winners above losers, round by round, teams not separated sharing."""
    if not regular:
        return []
    by_level: dict[int, list[Bout]] = {}
    for bout in bouts:
        by_level.setdefault(bout.level, []).append(bout)
    places: dict[str, tuple[int, bool]] = {}

    def place(teams: set[str], lo: int, level: int) -> None:
        here = [b for b in by_level.get(level, []) if set(b.teams) <= teams]
        if not here:
            for team in teams:
                places[team] = (lo, len(teams) > 1)
            return
        for bout in here:
            bout.places = (lo, lo + len(teams) - 1)
        won = {b.winner for b in here if b.winner is not None}
        lost = {b.loser for b in here if b.loser is not None}
        rest = teams - won - lost
        if won:
            place(won, lo, level + 1)
        if lost:
            place(lost, lo + len(won), level + 1)
        for team in rest:
            places[team] = (lo + len(won) + len(lost), len(rest) > 1)

    place({t for b in by_level[1] for t in b.teams}, 1, 1)
    return sorted(((p, team, shared) for team, (p, shared) in places.items()), key=lambda x: (x[0], x[1]))


def _bracket_order(rounds: list[list[Bout]], history: dict[str, list[Bout]]) -> list[list[Bout]]:
    """Each round ordered so that the two ties feeding a tie of the next round stand next to each other."""
    for k in range(len(rounds) - 1, 0, -1):
        earlier = set(rounds[k - 1])
        ordered: dict[Bout, None] = {}
        for bout in rounds[k]:
            for team in bout.teams:
                ordered.update((b, None) for b in history[team] if b.level == k and b in earlier)
        rounds[k - 1] = [*ordered, *(b for b in rounds[k - 1] if b not in ordered)]
    return rounds

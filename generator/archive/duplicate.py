"""Duplicate events: the same board played at several tables, each result judged against the others.

In bridge the cards of a board are dealt once and played at several tables,
so a result is good or bad only beside the other results of the same board.
Organisers score it one of two ways:

* **A team match** (two teams of four): each board at two tables, each team
  North-South at one and East-West at the other. The two North-South scores
  of a board give IMPs (their difference on the game's IMP scale, to the team
  that did better); the match's IMPs become victory points on the scale the
  event names (site.toml ``vp_scale``), and the standings add up VPs.
* **A pairs event**: each board at many tables. Each North-South score earns
  matchpoints against the board's other North-South scores (2 per score
  beaten, 1 per tie), shown as a percentage of the top; East-West pairs get
  the rest. A pair's result is its mean percentage over its boards.

A board is a team board when it was played at exactly two tables, by the
same two teams, seated the other way round; its number may repeat in other
matches (every match deals its own board 1), so tables are grouped by board
number and by their teams. Any other board is scored by matchpoints.

The numbers (the IMP table, the VP scale, matchpoints) are the game's: its
rules module defines ``imps``, ``victory_points`` and
``matchpoint_percentages``; nothing here knows a card.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.archive import standings

# The partnerships of a four-seat game, keyed as results and scores are.
NORTH_SOUTH, EAST_WEST = "first+third", "second+fourth"


@dataclass(frozen=True, slots=True)
class Sitting:
    """One table's result of a board: who sat where, and North-South's score."""

    game_id: str  # the game page's url, as Played.game_id
    board: str
    room: str  # "Open", "Closed", a table number; "" where the record names none
    north_south: str
    east_west: str
    score: float  # North-South's; East-West's is its negative


@dataclass(frozen=True, slots=True)
class TeamBoard:
    """A board of a team match: its two tables, the first with the match's first team North-South."""

    board: str
    tables: tuple[Sitting, Sitting]
    imps: int  # to the match's first team; negative: to the second


@dataclass(frozen=True, slots=True)
class TeamMatch:
    key: str
    first: str
    second: str
    boards: tuple[TeamBoard, ...]
    imps: tuple[int, int]  # each team's IMPs won
    vps: tuple[float, float] | None  # None where the event keeps IMPs (vp_scale = "none")

    @property
    def result(self) -> str:
        """ "first", "second" or "draw": by VPs, else by IMPs."""
        a, b = self.vps if self.vps is not None else self.imps
        return "draw" if a == b else "first" if a > b else "second"


@dataclass(frozen=True, slots=True)
class PairBoard:
    """A board of a pairs event: every table's result and its North-South matchpoint percentage."""

    board: str
    tables: tuple[Sitting, ...]
    percentages: tuple[float, ...]  # North-South's at each table; East-West's is 100 minus it


@dataclass(slots=True)
class Duplicate:
    """What a duplicate section shows: its team matches, its pairs boards, and the standings they give."""

    matches: list[TeamMatch] = field(default_factory=list)
    boards: list[PairBoard] = field(default_factory=list)
    rows: list[standings.Row] = field(default_factory=list)
    imps: dict[str, int] = field(default_factory=dict)  # each team's IMPs, won minus lost
    kind: str = "teams"  # "teams": ranked by VPs (or IMPs); "pairs": by mean matchpoint percentage


@dataclass(frozen=True, slots=True)
class Scoring:
    """The game's numbers (from its rules module) and the event's choice of VP scale."""

    imps: Callable[[int], int]
    victory_points: Callable[[float, int], tuple[float, float]] | None  # None: no VPs, IMPs rank
    matchpoint_percentages: Callable[[Sequence[int]], list[float]]


def sitting(
    game_id: str, board: str, room: str, players: Sequence[str | None], score: Iterable[tuple[str, float]]
) -> Sitting | None:
    """One table's result from a game's summary, or None when it cannot be compared (no teams, no score)."""
    scores = dict(score)
    if len(players) < 4 or not board or NORTH_SOUTH not in scores:
        return None
    north_south, east_west = _pair(players[0], players[2]), _pair(players[1], players[3])
    if not north_south or not east_west:
        return None
    return Sitting(game_id, board, room, north_south, east_west, scores[NORTH_SOUTH])


def _pair(one: str | None, partner: str | None) -> str | None:
    """The name a partnership is known by: its team (one program, or a team's name, at both seats) or its two players."""
    if not one:
        return None
    return one if partner in (None, "", one) else f"{one} – {partner}"


def compare(tables: Iterable[Sitting], scoring: Scoring) -> Duplicate:
    """Team matches and pairs boards from every table's result, and the standings they give."""
    by_board: dict[str, list[Sitting]] = defaultdict(list)
    for table in tables:
        by_board[table.board].append(table)
    team_boards: dict[tuple[str, str], list[TeamBoard]] = defaultdict(list)
    pair_boards: list[PairBoard] = []
    for board in sorted(by_board, key=_board_order):
        for teams, group in _by_teams(by_board[board]).items():
            pair = _team_board(board, group, teams, scoring)
            if pair is not None:
                team_boards[teams].append(pair)
            else:
                scores = [int(t.score) for t in group]
                pair_boards.append(PairBoard(board, tuple(group), tuple(scoring.matchpoint_percentages(scores))))
    found = Duplicate()
    for (first, second), boards in team_boards.items():
        won = (sum(max(b.imps, 0) for b in boards), sum(max(-b.imps, 0) for b in boards))
        vps = scoring.victory_points(won[0] - won[1], len(boards)) if scoring.victory_points else None
        found.matches.append(TeamMatch(f"{first}\x00{second}", first, second, tuple(boards), won, vps))
        found.imps[first] = found.imps.get(first, 0) + won[0] - won[1]
        found.imps[second] = found.imps.get(second, 0) + won[1] - won[0]
    found.boards = pair_boards
    if found.matches or not pair_boards:
        found.kind, found.rows = "teams", _team_rows(found)
    else:
        found.kind, found.rows = "pairs", _pair_rows(pair_boards)
    return found


def _board_order(board: str) -> tuple[int, str]:
    return (int(board), "") if board.isdigit() else (1 << 30, board)


def _by_teams(tables: list[Sitting]) -> dict[tuple[str, str], list[Sitting]]:
    """The tables of one board number by the two teams at them; a board at many tables of many teams stays whole."""
    groups: dict[tuple[str, str], list[Sitting]] = defaultdict(list)
    for table in tables:
        teams = sorted((table.north_south, table.east_west))
        groups[teams[0], teams[1]].append(table)
    if all(len(group) == 2 for group in groups.values()):
        return groups
    # Not two tables per pairing: one board of a pairs event, all its tables compared.
    return {("", ""): tables}


def _team_board(board: str, group: list[Sitting], teams: tuple[str, str], scoring: Scoring) -> TeamBoard | None:
    if not teams[0] or len(group) != 2:
        return None
    a, b = group
    if not (a.north_south == b.east_west and a.east_west == b.north_south and a.north_south != a.east_west):
        return None
    first = teams[0]
    ours, theirs = (a, b) if a.north_south == first else (b, a)
    # The first team's North-South score at one table, and its East-West score (the negative of the other's) at the other.
    return TeamBoard(board, (ours, theirs), scoring.imps(int(ours.score - theirs.score)))


def _team_rows(found: Duplicate) -> list[standings.Row]:
    """Standings of team matches: each match a game won on VPs (or IMPs), ranked by their sum."""
    played = []
    for m in found.matches:
        a, b = m.vps if m.vps is not None else (float(m.imps[0] - m.imps[1]), float(m.imps[1] - m.imps[0]))
        played.append(standings.Played(m.key, m.first, m.second, m.result, score=(("first", a), ("second", b))))
    teams = sorted({t for m in found.matches for t in (m.first, m.second)})
    return standings.standings(teams, played, standings.Points(), ("head-to-head",), rank_by="score")


def _pair_rows(boards: list[PairBoard]) -> list[standings.Row]:
    """Standings of a pairs event: each pair's mean matchpoint percentage over the boards it played."""
    results: dict[str, list[float]] = defaultdict(list)
    for board in boards:
        for table, percentage in zip(board.tables, board.percentages):
            results[table.north_south].append(percentage)
            results[table.east_west].append(100 - percentage)
    means = {pair: round(sum(values) / len(values), 2) for pair, values in results.items()}
    rows: list[standings.Row] = []
    ordered = sorted(means, key=lambda pair: (-means[pair], pair))
    for pair in ordered:
        rank = 1 + sum(1 for other in ordered if means[other] > means[pair])
        tied = sum(1 for other in ordered if means[other] == means[pair]) > 1
        rows.append(standings.Row(rank, pair, len(results[pair]), 0, 0, 0, means[pair], {}, tied, means[pair]))
    return rows


def scoring_of(rules_module: Any, vp_scale: str) -> Scoring:
    """The game's scoring functions, with the event's VP scale (``"none"``: IMPs rank, no VPs)."""
    return Scoring(
        imps=rules_module.imps,
        victory_points=None if vp_scale == "none" else rules_module.victory_points,
        matchpoint_percentages=rules_module.matchpoint_percentages,
    )

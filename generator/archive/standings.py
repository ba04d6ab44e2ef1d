"""Standings with tie-breaks, and crosstables, for round-robin events.

The input is the list of decided games of one event (:class:`Played`); a game
whose result is unknown is not passed in, so it counts for nothing. Points per
win, draw and loss come from ``site.toml`` (:class:`Points`). Teams level on
points are separated by the tie-breaks named in :data:`TIEBREAKS`, applied in
the configured order and hierarchically, as tournament regulations do:

1. sort by points;
2. inside each group still level, compute the first tie-break and split the
   group by it; only the sub-groups still level go on to the next tie-break;
3. teams level after every tie-break share their rank (1, 2, 2, 4) and are
   listed by name, for display only.

Head-to-head is a mini-league recomputed inside each group still level at the
moment it is applied, so it means "points earned against the teams I am tied
with", as organisers expect. As FIDE applies it (direct encounter), it breaks
a tie only among teams that all played each other: where two of the tied
teams never met, it is skipped for that group and the next tie-break decides
(:attr:`Row.skipped`). Every step is kept (:attr:`Ranking.ties`, one
:class:`Tie` each), so that the page can say how each tie was broken.

Where pairings play matches of several games (EinStein, or any game whose
event says so), :func:`matches` gathers the games of each match and the
standings count matches instead of games: a match is won by the team that
won more of its games (a draw counts half), its points come from
:class:`Points`, and the tie-break ``game-points`` (局分) is the games won
over all matches. Head-to-head, Sonneborn-Berger and wins then count
matches too.

A game may have more than two seats (Dou Dizhu three, bridge four): its
result names every seat that won (``"second+third"``, see
:func:`generator.model.winner_of`), and each team in it wins, draws or loses
once, however many seats it holds. A game won on score (boxes, chips, bridge
points) also adds each team's score to its row (:attr:`Row.score`): the sum
of the scores of the seats and partnerships it sat in. Sonneborn-Berger
takes the mean of the opponents' points where a game has several; a
crosstable cell holds every game the two teams played in, whoever else did.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter

from generator.model import SEATS, seats_of, winner_of

__all__ = [
    "CHOSEN_TIEBREAKS",
    "GAME_POINTS",
    "MATCH_TIEBREAKS",
    "SCORE",
    "TIEBREAKS",
    "CrossGame",
    "Match",
    "Played",
    "Points",
    "Ranking",
    "Row",
    "Tie",
    "crosstable",
    "match_crosstable",
    "match_points",
    "matches",
    "share",
    "standings",
]

# The names used in site.toml (``tiebreaks = ["head-to-head", ...]``).
TIEBREAKS: tuple[str, ...] = ("head-to-head", "sonneborn-berger", "wins", "second-wins")
# Not a default: the sum of the scores (Row.score), for the games whose results are scores.
SCORE = "score"
# The games won over all matches (a draw counts half): the first tie-break where pairings play matches.
GAME_POINTS = "game-points"
# The tie-breaks an event may name (site.toml, generator.config): the defaults, the score and the game points.
CHOSEN_TIEBREAKS: tuple[str, ...] = (*TIEBREAKS, SCORE, GAME_POINTS)
# The default tie-breaks of an event whose pairings play matches ("second-wins" means nothing for a match).
MATCH_TIEBREAKS: tuple[str, ...] = (GAME_POINTS, "head-to-head", "sonneborn-berger", "wins")

# Comparisons of derived floats are done on rounded values, so that a
# configuration like ``win = 0.1`` cannot split teams by rounding noise.
_DIGITS = 9


@dataclass(frozen=True, slots=True)
class Points:
    """Points for a win, a draw and a loss (2/1/0 by default; 3/1/0 is common)."""

    win: float = 2.0
    draw: float = 1.0
    loss: float = 0.0


@dataclass(frozen=True, slots=True)
class Played:
    """One decided game: ``first`` moved first; ``result`` is from that order.

    ``result`` is "first", "second", "draw", or in a game of more seats the
    seats that won ("third", "second+third"); ``more`` the teams of seats
    three and on; ``score`` a game won on score: (seat or partnership, score) pairs;
    ``match`` the match the game belongs to, where pairings play matches
    ("" for a game that stands alone).
    """

    game_id: str
    first: str
    second: str
    result: str
    more: tuple[str, ...] = ()
    score: tuple[tuple[str, float], ...] = ()
    match: str = ""

    @property
    def players(self) -> tuple[str, ...]:
        return (self.first, self.second, *self.more)

    def teams(self) -> list[str]:
        """The distinct teams of the game, in seat order."""
        return list(dict.fromkeys(self.players)) if self.more else [self.first, self.second]

    def score_of(self, team: str) -> float:
        """The team's score in the game: of every seat or partnership it sat in, once each."""
        seats = {seat for seat, player in enumerate(self.players) if player == team}
        return sum(value for key, value in self.score if seats.intersection(seats_of(key)))


@dataclass(frozen=True, slots=True)
class Match:
    """The games some teams played as one match (a session of Dou Dizhu, a hold'em match), and its score.

    ``points`` holds each team's, in the order of ``teams`` (the seats of
    its first game): the games it won (a draw counts half), or where the
    games are won on score (chips, Dou Dizhu points) the sum of its scores.
    """

    key: str  # Played.match of its games
    teams: tuple[str, ...]  # two or more, in the seat order of the first game
    games: tuple[Played, ...]
    points: tuple[float, ...]
    scored: bool = False

    @property
    def first(self) -> str:
        return self.teams[0]

    @property
    def second(self) -> str:
        return self.teams[1]

    @property
    def first_points(self) -> float:
        return self.points[0]

    @property
    def second_points(self) -> float:
        return self.points[1]

    @property
    def result(self) -> str:
        """The match's result as a game's, by the teams' order: who has the most points ("first", "third", "draw")."""
        best = max(self.points)
        won = [i for i, value in enumerate(self.points) if round(value - best, _DIGITS) == 0]
        return "draw" if len(won) == len(self.teams) else winner_of(won)

    def running(self) -> list[tuple[float, ...]]:
        """Each team's total after each game, in the order of ``teams``: what a chart of the match draws."""
        totals = [0.0] * len(self.teams)
        after = []
        for game in self.games:
            for i, team in enumerate(self.teams):
                totals[i] += game.score_of(team) if self.scored else _fraction(game, team)
            after.append(tuple(totals))
        return after


def matches(games: Iterable[Played]) -> list[Match]:
    """The matches of the games that belong to one (:attr:`Played.match`), in the order of the games given.

    A game between other teams than the first game's (a mislabelled
    record) is not part of the match: it stays a game. A match whose games
    hold scores is won on score: each team's is the sum of its scores.
    """
    by_key: dict[str, list[Played]] = defaultdict(list)
    for game in games:
        if game.match and len(game.teams()) > 1:
            by_key[game.match].append(game)
    found = []
    for key, members in by_key.items():
        teams = tuple(members[0].teams())
        own = tuple(g for g in members if sorted(g.teams()) == sorted(teams))
        scored = any(g.score for g in own)
        points = tuple(
            sum(g.score_of(team) if scored else _fraction(g, team) for g in own) for team in teams
        )
        found.append(Match(key, teams, own, points, scored))
    return found


def _by_match(played: list[Played]) -> tuple[list[Played], dict[str, float]]:
    """The games as matches (each match one Played, keyed by its match), and each team's game points.

    A match won on score carries its teams' totals as its score, so the
    standings add up the chips or points of every match.
    """
    found = matches(played)
    in_match = {id(game) for match in found for game in match.games}
    game_points: dict[str, float] = defaultdict(float)
    for match in found:
        for game in match.games:
            for team in match.teams:
                game_points[team] += _fraction(game, team)
    as_matches = [
        Played(
            m.key,
            m.teams[0],
            m.teams[1],
            m.result,
            more=m.teams[2:],
            score=tuple((SEATS[i], value) for i, value in enumerate(m.points)) if m.scored else (),
            match=m.key,
        )
        for m in found
    ]
    return as_matches + [g for g in played if id(g) not in in_match], game_points


@dataclass(slots=True)
class Row:
    """One line of the standings table.

    ``tiebreaks`` holds a value for every tie-break in the order used, in that
    order. ``tied`` is true when the team shares its rank with another after
    every tie-break.
    """

    rank: int
    team: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    tiebreaks: dict[str, float]
    tied: bool
    score: float = 0.0  # the sum of its scores, in games won on score
    # The tie-breaks that did not apply to the tie it was in (head-to-head
    # among teams that did not all meet): its value there is 0 and means nothing.
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Tie:
    """One tie-break applied to teams level at that point: what the legend says of it.

    ``outcome`` is "split" (it separated them, at least in part), "level"
    (it left them all level) or "skipped" (head-to-head among teams that did
    not all meet; ``unmet`` names two of them); ``groups`` are the teams
    after it, best first, each group by name.
    """

    level: float  # the points (or the score, ``rank_by="score"``) they were level on
    teams: tuple[str, ...]  # by name
    tiebreak: str
    outcome: str
    groups: tuple[tuple[str, ...], ...]
    unmet: tuple[str, str] | None = None


class Ranking(list[Row]):
    """The rows of a standings table, best first, and how each tie among them was broken (:class:`Tie`)."""

    __slots__ = ("ties",)

    def __init__(self, rows: Iterable[Row] = (), ties: Iterable[Tie] = ()) -> None:
        super().__init__(rows)
        self.ties: list[Tie] = list(ties)


@dataclass(frozen=True, slots=True)
class CrossGame:
    """One game in a crosstable cell, seen from the row team."""

    game_id: str
    score: str  # "1", "½" or "0"
    as_first: bool


@dataclass(slots=True)
class _Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    second_wins: int = 0
    points: float = 0.0
    score: float = 0.0


def _fraction(game: Played, team: str) -> float:
    """The share of the game ``team`` won: 1, ½ or 0."""
    if game.result == "draw":
        return 0.5
    if not game.more:
        winner = game.first if game.result == "first" else game.second
        return 1.0 if winner == team else 0.0
    players = game.players
    return 1.0 if any(players[seat] == team for seat in seats_of(game.result) if seat < len(players)) else 0.0


def share(game: Played, team: str) -> float:
    """The share of the game ``team`` won: 1, ½ or 0 (a match's games, shown one by one)."""
    return _fraction(game, team)


def _points_of(fraction: float, points: Points) -> float:
    if fraction == 1.0:
        return points.win
    if fraction == 0.5:
        return points.draw
    return points.loss


def _tally(teams: Iterable[str], games: list[Played], points: Points) -> dict[str, _Tally]:
    table: dict[str, _Tally] = {team: _Tally() for team in teams}
    for game in games:
        seated = ((game.first, False), (game.second, True)) if not game.more else _seated(game)
        for team, as_second in seated:
            row = table.get(team)
            if row is None:  # not setdefault: that would make a _Tally for every game
                row = table[team] = _Tally()
            fraction = _fraction(game, team)
            row.games += 1
            row.points += _points_of(fraction, points)
            if game.score:
                row.score += game.score_of(team)
            if fraction == 1.0:
                row.wins += 1
                row.second_wins += as_second
            elif fraction == 0.5:
                row.draws += 1
            else:
                row.losses += 1
    return table


def _seated(game: Played) -> list[tuple[str, bool]]:
    """Each distinct team of a game of more seats, and whether it sat second (for "second-wins")."""
    return [(team, team == game.second) for team in game.teams()]


def _sonneborn_berger(games: list[Played], table: dict[str, _Tally]) -> dict[str, float]:
    """Sum over a team's games of the opponent's final points times the share won.

    In a game of several opponents, the mean of their points.
    """
    sb: dict[str, float] = defaultdict(float)
    for game in games:
        if not game.more:
            sb[game.first] += table[game.second].points * _fraction(game, game.first)
            sb[game.second] += table[game.first].points * _fraction(game, game.second)
            continue
        teams = game.teams()
        for team in teams:
            others = [table[other].points for other in teams if other != team]
            sb[team] += sum(others) / len(others) * _fraction(game, team)
    return sb


def _games_of(games: list[Played]) -> dict[str, list[Played]]:
    """Each team's games, in the order of ``games``."""
    by_team: dict[str, list[Played]] = defaultdict(list)
    for game in games:
        for team in game.teams():
            by_team[team].append(game)
    return by_team


def _head_to_head(group: list[str], games_of: dict[str, list[Played]], points: Points) -> dict[str, float]:
    """Mini-league points of each team from the games among ``group``.

    If the tied teams have not all played each other equally often (an
    unfinished event), the mini-league is still computed from the games that
    exist: a team simply has fewer chances to score in it. Organisers who want
    otherwise can order another tie-break first.

    Only the group's own games are read (``games_of``, see :func:`_games_of`):
    reading every game of the event for every tied group would cost the
    number of groups times the number of games. Each team's points are added
    in the order of the event's games, so that a float sum (``win = 0.1``)
    does not depend on how the games were found.
    """
    members = set(group)
    scores = dict.fromkeys(group, 0.0)
    for team in group:
        for game in games_of.get(team, ()):
            if not game.more:
                met = (game.second if game.first == team else game.first) in members
            else:
                met = any(other in members for other in game.teams() if other != team)
            if met:
                scores[team] += _points_of(_fraction(game, team), points)
    return scores


def _unmet(group: list[str], games_of: dict[str, list[Played]]) -> tuple[str, str] | None:
    """Two teams of the group that never played each other (in a game, or a match), or None if all met.

    Each team's opponents are read once and only until one is missing: a
    large group level on nothing (thousands of teams of a damaged archive)
    costs one team's games, not the square of the group.
    """
    members = set(group)
    ordered = sorted(group)
    for team in ordered:
        met = {other for game in games_of.get(team, ()) for other in game.teams() if other != team}
        if len(members & met) < len(members) - 1:
            missing = next(other for other in ordered if other != team and other not in met)
            return (team, missing) if team < missing else (missing, team)
    return None


def _split(group: list[str], key: dict[str, float]) -> list[list[str]]:
    """Split a group by a value, best first; members keep their relative order."""
    buckets: dict[float, list[str]] = defaultdict(list)
    for team in group:
        buckets[round(key[team], _DIGITS)].append(team)
    return [buckets[value] for value in sorted(buckets, reverse=True)]


def standings(
    teams: Iterable[str],
    games: Iterable[Played],
    points: Points,
    order: Sequence[str] = TIEBREAKS,
    by_match: bool = False,
    rank_by: str = "points",
) -> Ranking:
    """The standings table of one event, best first.

    Every team in ``teams`` appears, with zero games if it played none; a team
    that appears only in ``games`` is added too. A game of a team against
    itself (a self-play test record) is ignored. ``order`` names the
    tie-breaks to apply, from :data:`TIEBREAKS`; an unknown name is a
    programming error (the configuration validates names) and raises
    :class:`ValueError`.

    The head-to-head value shown for a team is its mini-league score inside
    the group it was level with when head-to-head was applied; a team that
    was already alone at that point shows 0. Where two teams of that group
    never met, head-to-head is skipped for the group (FIDE's direct
    encounter): each of its teams shows 0 and names it in :attr:`Row.skipped`.

    The rows come as a :class:`Ranking`: a list, with ``ties`` saying how
    each tie-break was applied to each group of teams level at that point.

    ``by_match``: the games of a match (see :func:`matches`) count as one
    match; its points, wins, draws and losses, and every tie-break but
    ``game-points``, are then the matches'. Without it, ``game-points`` is
    the games won (a draw counts half).

    ``rank_by="score"``: the sum of each team's scores ranks (Dou Dizhu's
    points across sessions), before any tie-break; points from results do not.
    """
    for name in order:
        if name not in CHOSEN_TIEBREAKS:
            raise ValueError(f"unknown tie-break {name!r}; expected one of {', '.join(CHOSEN_TIEBREAKS)}")
    played = sorted(
        (g for g in games if g.first != g.second or (g.more and len(g.teams()) > 1)),
        key=attrgetter("game_id", "first", "second", "result"),
    )
    game_points: dict[str, float] = defaultdict(float)
    if by_match:
        played, game_points = _by_match(played)
    else:
        for game in played:
            for team in game.teams():
                game_points[team] += _fraction(game, team)
    table = _tally(sorted(set(teams)), played, points)
    sb = _sonneborn_berger(played, table)
    games_of = _games_of(played)
    fixed: dict[str, dict[str, float]] = {
        "sonneborn-berger": {team: sb.get(team, 0.0) for team in table},
        "wins": {team: float(row.wins) for team, row in table.items()},
        "second-wins": {team: float(row.second_wins) for team, row in table.items()},
        SCORE: {team: row.score for team, row in table.items()},
        GAME_POINTS: {team: game_points.get(team, 0.0) for team in table},
    }
    values: dict[str, dict[str, float]] = {team: {} for team in table}
    skipped: dict[str, tuple[str, ...]] = {}
    ties: list[Tie] = []

    def resolve(group: list[str], remaining: Sequence[str], level: float) -> list[list[str]]:
        # Depth-first: each sub-group is settled before the next, so the
        # final list of groups is already in rank order.
        if not remaining:
            return [group]
        name, rest = remaining[0], remaining[1:]
        unmet = _unmet(group, games_of) if name == "head-to-head" and len(group) > 1 else None
        if unmet is not None:
            # Not every two of them met: a mini-league would favour whoever met more of the others.
            for team in group:
                values[team][name] = 0.0
                skipped[team] = (*skipped.get(team, ()), name)
            everyone = tuple(sorted(group))
            ties.append(Tie(level, everyone, name, "skipped", (everyone,), unmet))
            return resolve(group, rest, level)
        if name == "head-to-head":
            key = _head_to_head(group, games_of, points) if len(group) > 1 else {group[0]: 0.0}
        else:
            key = fixed[name]
        for team in group:
            values[team][name] = key[team]
        if len(group) == 1:
            return [group] if not rest else resolve(group, rest, level)
        subs = _split(group, key)
        after = tuple(tuple(sorted(sub)) for sub in subs)
        ties.append(Tie(level, tuple(sorted(group)), name, "split" if len(subs) > 1 else "level", after))
        return [settled for sub in subs for settled in resolve(sub, rest, level)]

    ranked = {team: (row.score if rank_by == "score" else row.points) for team, row in table.items()}
    by_points = _split(sorted(table), ranked)
    rows = Ranking()
    for level in by_points:
        for group in resolve(level, list(order), ranked[level[0]]):
            rank = len(rows) + 1
            for team in sorted(group):
                t = table[team]
                rows.append(
                    Row(
                        rank=rank,
                        team=team,
                        games=t.games,
                        wins=t.wins,
                        draws=t.draws,
                        losses=t.losses,
                        points=t.points,
                        tiebreaks={name: values[team][name] for name in order},
                        tied=len(group) > 1,
                        score=t.score,
                        skipped=skipped.get(team, ()),
                    )
                )
    rows.ties = ties
    return rows


_SCORES = {1.0: "1", 0.5: "½", 0.0: "0"}


class _CrossRow(dict[str, list[CrossGame]]):
    """A crosstable row: the opponents met, with their games; any other listed team reads as [].

    A full row for every team would hold the square of the number of teams
    in empty lists: gigabytes for the thousands of teams of a damaged or
    generated archive, which ``qipu check`` indexes without drawing a table.
    """

    __slots__ = ("listed",)

    def __init__(self, listed: frozenset[str]) -> None:
        super().__init__()
        self.listed = listed

    def __missing__(self, column: str) -> list[CrossGame]:
        if column in self.listed:
            return []  # a new list, not stored: the row stays as small as the games
        raise KeyError(column)


def match_crosstable(teams: Sequence[str], found: Iterable[Match]) -> dict[str, dict[str, list[CrossGame]]]:
    """As :func:`crosstable`, a cell per match: its score seen from the row team (``2½:1½``, ``+1200:-1200``).

    ``CrossGame.game_id`` is the match's key. A match of three teams fills
    the cell of every two of them.
    """
    listed = frozenset(teams)
    table: dict[str, dict[str, list[CrossGame]]] = {row: _CrossRow(listed) for row in teams}
    for match in found:
        shown = [match_points(value, match.scored) for value in match.points]
        for i, row in enumerate(match.teams):
            for j, column in enumerate(match.teams):
                if i != j and row in listed and column in listed and row != column:
                    table[row].setdefault(column, []).append(CrossGame(match.key, f"{shown[i]}:{shown[j]}", i < j))
    return table


def match_points(value: float, scored: bool) -> str:
    """A team's points in a match as its score writes them: games won (``2½``) or a signed score (``+1200``)."""
    if not scored:
        return games_won(value)
    rounded = round(value, 2)
    text = str(int(rounded)) if float(rounded).is_integer() else f"{rounded:g}"
    return f"+{text}" if rounded > 0 else text


def games_won(value: float) -> str:
    """Games won as a match score writes them: 3, ½, 2½."""
    whole = int(value)
    return f"{whole if whole or value == 0 else ''}{'½' if value - whole else ''}"


def crosstable(teams: Sequence[str], games: Iterable[Played]) -> dict[str, dict[str, list[CrossGame]]]:
    """Row team -> column team -> the games between them, seen from the row team.

    Every listed team has a row, and every listed team can be looked up in
    every row (the diagonal and pairs that never met give an empty list), so
    templates can index without checks; a row holds only the pairs that
    met, and ``row.get(column, [])`` is the same. In a double round robin a
    cell holds two games; games are sorted by ``game_id``. Games involving a
    team not listed, or a team against itself, are left out.
    """
    listed = frozenset(teams)
    table: dict[str, dict[str, list[CrossGame]]] = {row: _CrossRow(listed) for row in teams}
    for game in sorted(games, key=attrgetter("game_id", "first", "second")):
        if game.more:
            _cross_several(table, listed, game)
            continue
        if game.first == game.second or game.first not in listed or game.second not in listed:
            continue
        table[game.first].setdefault(game.second, []).append(
            CrossGame(game.game_id, _SCORES[_fraction(game, game.first)], True)
        )
        table[game.second].setdefault(game.first, []).append(
            CrossGame(game.game_id, _SCORES[_fraction(game, game.second)], False)
        )
    return table


def _cross_several(table: dict[str, dict[str, list[CrossGame]]], listed: frozenset[str], game: Played) -> None:
    """A game of more than two teams, in the cell of every two of them (each seen from its row)."""
    teams = [team for team in game.teams() if team in listed]
    for row in teams:
        score = _SCORES[_fraction(game, row)]
        for column in teams:
            if column != row:
                table[row].setdefault(column, []).append(CrossGame(game.game_id, score, row == game.first))

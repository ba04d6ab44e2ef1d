"""Page models: the context each template receives.

Each function turns archive values into plain dicts and lists for one page.
Links are made relative here (``href``), so templates never compute paths.
"""

from __future__ import annotations

import functools
import secrets
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from generator import __version__, boards, diagnostics, games, i18n
from generator.archive import standings
from generator.archive.stages import Part
from generator.diagnostics import Diagnostic
from generator.model import game_id, seats_of
from generator.pipeline import Processed
from generator.render import chart, urls
from generator.render.rows import format_number
from generator.render.viewer import HTML_PARTS, ui_strings, viewer_parts

if TYPE_CHECKING:  # the index is not needed to render a game page (a quick rebuild)
    from generator.archive.compare import Comparison
    from generator.archive.index import Archive, Event, GameEntry, Team


class Attrs:
    """Values that templates read as attributes (``{{ game.first }}``), or by
    key where the key is no name (``t["severity." ~ d.severity]``).

    Jinja looks an attribute up before an item. The values are the object's
    own attributes, so that lookup succeeds at once: on a dict, even one with
    a ``__getattr__``, it first fails and builds an AttributeError, which made
    up a fifth of rendering a game page.
    """

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.__dict__.update(values)

    def __getitem__(self, key: str) -> Any:
        return self.__dict__[key]


@dataclass(frozen=True, slots=True)
class Link:
    title: str
    url: str  # path from the site root


@dataclass(frozen=True, slots=True)
class SiteInfo:
    """What every page shows around its content: title, language, navigation.

    Every page depends on it, so it holds nothing that changes with a single
    record (such as how many records have problems): a change here re-renders
    the whole site.
    """

    title: str
    language: str
    strings: Mapping[str, str]
    events: tuple[Link, ...]
    pages: tuple[Link, ...]
    base_url: str | None = None


@dataclass(frozen=True, slots=True)
class GameJob:
    """Everything a worker needs to render one game page besides the cached record."""

    url: str
    source: str
    key: str
    event_name: str
    event_url: str
    first: str | None
    second: str | None
    first_url: str | None
    second_url: str | None
    duplicates: tuple[str, ...]
    diagnostics: tuple[Diagnostic, ...]
    group: str = ""
    # Games of more seats: the teams of seats three and on, and their pages.
    more: tuple[str | None, ...] = ()
    more_urls: tuple[str | None, ...] = ()
    # A game of a file of several (a match): every game of that file as
    # (its number in the file, the page that shows it), this one included.
    siblings: tuple[tuple[int, str], ...] = ()
    game: int = 0  # its number in a file of several games (Summary.game)
    # Where pairings play matches: the page of the game's match (its score and chart).
    match_url: str | None = None

    @property
    def id(self) -> str:
        """The game's id in the archive (Summary.id)."""
        return game_id(self.source, self.game)

    def __reduce__(self) -> tuple[type, tuple]:
        # As a plain tuple: the build state pickles ten thousand of these, and
        # the slots-dataclass default (a dict per object) is several times slower.
        return (GameJob, tuple(getattr(self, name) for name in GameJob.__slots__))


def game_job(
    entry: GameEntry, event_name: str, event_url: str, archive: Archive, match_url: str | None = None
) -> GameJob:
    """The job of one game page: its teams' pages, its copies, the other games of its file, its match's page."""
    teams = archive.teams

    def url(team: str | None) -> str | None:
        return teams[team].url if team in teams else None

    return GameJob(
        url=entry.url,
        source=entry.source,
        key=entry.summary.key,
        event_name=event_name,
        event_url=event_url,
        first=entry.first,
        second=entry.second,
        first_url=url(entry.first),
        second_url=url(entry.second),
        duplicates=tuple(entry.duplicates),
        diagnostics=tuple(entry.diagnostics),
        group=entry.summary.group,
        more=entry.more,
        more_urls=tuple(url(team) for team in entry.more),
        siblings=match_games(entry, archive),
        game=entry.summary.game,
        match_url=match_url,
    )


def match_games(entry: GameEntry, archive: Archive) -> tuple[tuple[int, str], ...]:
    """Every game of the file ``entry`` is a game of, as (number, url of the page that shows it).

    Empty for a file of one game. A game of the file that is a copy of
    another file's game links to the page that shows that game.
    """
    if not entry.summary.game:
        return ()
    found = []
    number = 1
    while (shown := archive.by_id.get(game_id(entry.source, number))) is not None:
        found.append((number, shown.url))
        number += 1
    return tuple(found)


def base(site: SiteInfo, page: str, title: str) -> dict[str, Any]:
    def link(target: str) -> str:
        return urls.href(page, target)

    return {
        "site": site,
        "t": _site_strings(site)[0],
        "lang": site.language,
        "page": page,
        "root": urls.root_of(page),
        "link": link,
        "title": title,
        "version": __version__,
        "home_href": link(urls.HOME),
        "teams_href": link(urls.TEAMS),
        "problems_href": link(urls.PROBLEMS),
        "diag_title": functools.partial(diagnostics.title, language=site.language),
    }


def result_word(strings: Mapping[str, str], result: str | None, game: games.GameType | None = None) -> str:
    """A result in the page's words: 先手胜 in a two-seat game; in a game of more seats
    the winning seats by their names (甲方胜, 甲方、丙方胜), as ``game`` names them.
    """
    if not result:
        return strings["result.none"]
    if game is None or not game.more_seats or result in ("draw", "unknown"):
        word = strings.get(f"result.{result}")
        if word is not None:
            return word
    seats = seats_of(result)
    if game is None or not seats or seats[-1] >= len(game.seats):
        return result  # a result that names no seat of the game: shown as written, never a crash
    names = seat_names(strings, game, seats)
    if len(names) == 1:
        return strings["result.seat"].format(side=names[0])
    return strings["result.seats"].format(sides=strings["result.and"].join(names))


def seat_names(strings: Mapping[str, str], game: games.GameType, seats: Sequence[int]) -> list[str]:
    """The names of these seats of ``game`` (甲方, Player A) in the page's language."""
    language = strings.get("language", "en")
    sides = game.seats
    return [sides[seat].name.said(language) for seat in seats if seat < len(sides)]


def _zh(site: SiteInfo) -> bool:
    return site.language.lower().startswith("zh")


def game_type_name(site: SiteInfo, code: str | None) -> str:
    game = games.get(code)
    if game is None:
        return code or "?"
    return game.name_zh if _zh(site) else game.name_en


def game_row(entry: GameEntry, page: str, site: SiteInfo, team_href: Mapping[str, str]) -> dict[str, Any]:
    """One line of a game list; ``team_href``: links from ``page`` to the team pages.

    A plain dict, read by key in the templates (``g['href']``): an event or
    team page shows hundreds of rows, and Jinja's attribute syntax tries
    getattr() first, which fails at a cost on every read of a dict.
    """
    s = entry.summary
    diagnostics = entry.diagnostics
    return {
        "href": urls.href(page, entry.url),
        "code": s.code,
        "game_type": game_type_name(site, s.code),
        "first": entry.first or "?",
        "second": entry.second or "?",
        "first_href": team_href.get(entry.first) if entry.first else None,
        "second_href": team_href.get(entry.second) if entry.second else None,
        "result": s.result,
        "result_word": result_word(site.strings, s.result, games.get(s.code)),
        "by_rules": s.computed is not None,
        "date": s.date or "",
        "time": s.time or "",
        "plies": s.plies,
        "group": s.group,
        "errors": sum(1 for d in diagnostics if d.severity == "error") if diagnostics else 0,
        "warnings": sum(1 for d in diagnostics if d.severity == "warning") if diagnostics else 0,
        "counted": entry.counted,
        "sides": _sides(entry, team_href) if entry.more else None,
    }


def _sides(entry: GameEntry, team_href: Mapping[str, str]) -> tuple[tuple[tuple[str, str | None], ...], ...]:
    """A game of more seats in a game list's two columns: the first seat and its partners, then the others.

    Each a tuple of (team, link); a team that plays two seats of one side
    (a bridge pair's two hands) is named once.
    """
    game = games.get(entry.summary.code)
    players = entry.players
    ours = game.partners(0) if game is not None else (0,)

    def named(seats: Sequence[int]) -> tuple[tuple[str, str | None], ...]:
        teams = dict.fromkeys(players[seat] or "?" for seat in seats)
        return tuple((team, team_href.get(team)) for team in teams)

    return named(ours), named([seat for seat in range(len(players)) if seat not in ours])


def home(archive: Archive, site: SiteInfo) -> dict[str, Any]:
    page = urls.HOME
    ctx = base(site, page, site.title)
    code_counts: dict[str, int] = {}
    for entry in archive.games:
        code = entry.summary.code or "?"
        code_counts[code] = code_counts.get(code, 0) + 1
    recent = sorted(archive.games, key=lambda e: (e.summary.date or "", e.summary.time or "", e.source), reverse=True)
    del recent[20:]  # the latest twenty are listed
    named = {t for e in recent for t in (e.first, e.second) if t in archive.teams}
    team_href = {t: urls.href(page, archive.teams[t].url) for t in named}
    ctx.update(
        events=[
            {
                "name": e.name,
                "href": urls.href(page, e.url),
                "dates": e.config.dates,
                "place": e.config.place,
                "game_types": [game_type_name(site, s.code) for s in e.sections],
                "games": len(e.games),
                "teams": len({t for s in e.sections for t in s.teams}),
            }
            for e in archive.events
        ],
        game_types=[
            {"code": code, "name": game_type_name(site, code), "games": count}
            for code, count in sorted(code_counts.items())
        ],
        recent=[game_row(e, page, site, team_href) for e in recent],
        counts={
            "records": len(archive.summaries),
            "games": len(archive.games),
            "teams": len(archive.teams),
            "events": len(archive.events),
            # Files that need the organiser: notes alone (normalised punctuation ...) do not.
            "problems": sum(1 for found in archive.problems.values() if any(d.severity != "note" for d in found)),
        },
    )
    return ctx


def event(ev: Event, archive: Archive, site: SiteInfo) -> dict[str, Any]:
    page = ev.url
    strings = site.strings
    ctx = base(site, page, ev.name)
    # Links to every team the page names, made once for all its tables and game rows.
    named = {t for e in ev.games for t in (e.first, e.second) if t in archive.teams}
    named.update(t for section in ev.sections for t in section.teams if t in archive.teams)
    team_href = {t: urls.href(page, archive.teams[t].url) for t in named}
    match_href = {key: urls.href(page, found.url) for key, found in ev.matches.items()}
    sections = []
    for section in ev.sections:
        tiebreaks = section.rules.tiebreaks
        sections.append(
            {
                "code": section.code,
                "name": game_type_name(site, section.code),
                # A game won on score: its standings add each team's up (unless a tie-break
                # shows it already, or it ranks the teams and takes the points' column).
                "score_sum": _scored(section.code) and "score" not in tiebreaks and section.rules.rank_by != "score",
                "rank_by_score": section.rules.rank_by == "score",
                "by_match": section.rules.matches,
                "points_rule": strings[_points_rule(section.rules)].format(
                    win=_num(section.rules.points.win),
                    draw=_num(section.rules.points.draw),
                    loss=_num(section.rules.points.loss),
                ),
                "tiebreaks": [
                    {"key": tb, "label": strings[f"tb.{tb}"], "help": strings[f"tb_help.{tb}"]} for tb in tiebreaks
                ],
                # Teams of different groups and stages did not play the same games: no table ranks them together.
                "overall": _overall(section, page, team_href, strings),
                "duplicate": _duplicate(section, page, team_href, site) if section.duplicate else None,
                # With groups or stages, each lists its own matches: the overall crosstable links a match's first game.
                **_table(section, tiebreaks, page, team_href, site, None if section.divisions else section.code, match_href),
                "divisions": [
                    {
                        "id": (division_id := f"{section.code}-{division.part.kind}-{urls.slug(division.part.name) or 'other'}"),
                        "name": _division_name(division.part, strings),
                        "kind": division.kind,
                        "placed": len(division.placed),
                        **_table(division.table, tiebreaks, page, team_href, site, division_id, match_href),
                        "bracket": _bracket(division.bracket, page, team_href, strings) if division.bracket else None,
                    }
                    for division in section.divisions
                ],
            }
        )
    ctx.update(event={"name": ev.name, "dates": ev.config.dates, "place": ev.config.place}, sections=sections)
    return ctx


def _overall(section: Any, page: str, team_href: Mapping[str, str], strings: Mapping[str, str]) -> dict[str, Any] | None:
    """The overall ranking site.toml defines for an event with groups and stages, and what placed each team."""
    if not section.overall:
        return None
    parts = [strings["overall.groups"] if name == "groups" else name for name in section.rules.overall]
    rows = []
    for p in section.overall:
        if p.by is None:
            how = strings["overall.by_group"].format(group=_division_name(Part(0, "group", p.group), strings), rank=p.rank)
        else:
            how = p.by
        rows.append({"place": p.place, "shared": p.shared, "team": p.team, "href": team_href.get(p.team), "how": how})
    return {"rows": rows, "rule": strings["overall_rule"].format(parts=strings["overall.then"].join(parts))}


def _bracket(bracket: Any, page: str, team_href: Mapping[str, str], strings: Mapping[str, str]) -> dict[str, Any]:
    """A knockout stage as its bracket: each round's ties, each with its games and who went through."""

    def bout(b: Any) -> dict[str, Any]:
        return {
            "teams": [
                {
                    "name": team,
                    "href": team_href.get(team),
                    "points": standings.games_won(points),
                    "won": b.winner == team,
                }
                for team, points in zip(b.teams, b.points)
            ],
            "games": [
                {
                    "href": urls.href(page, g.game_id),
                    "score": f"{_SHARE[standings.share(g, b.teams[0])]}:{_SHARE[standings.share(g, b.teams[1])]}",
                }
                for g in b.games
            ],
            "label": _bout_name(b, bracket.regular, strings),
        }

    rounds = bracket.rounds
    return {
        "rounds": [
            {
                "name": _bout_name(r[0], bracket.regular, strings),
                # Two ties of a round feed one of the next: drawn as a pair, with a bracket line.
                "pairs": [[bout(b) for b in r[i : i + 2]] for i in range(0, len(r), 2)],
                "last": k == len(rounds) - 1,
            }
            for k, r in enumerate(rounds)
        ],
        "placement": [bout(b) for b in bracket.placement],
        "placings": [
            {"place": place, "team": team, "href": team_href.get(team), "shared": shared}
            for place, team, shared in bracket.placings
        ],
    }


_SHARE = {1.0: "1", 0.5: "½", 0.0: "0"}


def _bout_name(b: Any, regular: bool, strings: Mapping[str, str]) -> str:
    """What the tie is called: 决赛, 半决赛, 三四名决赛 ... by the places at stake; round n where the bracket is irregular."""
    low, high = b.places
    if not regular or not low:
        return strings["round.n"].format(n=b.level)
    size = high - low + 1
    if low == 1:
        named = {2: "round.final", 4: "round.semi", 8: "round.quarter"}
        return strings[named[size]] if size in named else strings["round.of"].format(n=size)
    if low == 3 and size == 2:
        return strings["round.third"]
    return strings["round.places"].format(a=low, b=high)


def _tie_notes(rows: Any, strings: Mapping[str, str]) -> list[str]:
    """How each tie was broken, for the legend: every tie-break applied to every group of level teams, in order.

    One line per group of teams level on points: each tie-break and what it
    did (split them, left them level, or was skipped because two of them
    never met), then the teams still sharing a place.
    """
    listed = strings["tie.list"]
    steps: dict[float, list[str]] = {}
    level_teams: dict[float, tuple[str, ...]] = {}
    for tie in getattr(rows, "ties", ()):
        level_teams.setdefault(tie.level, tie.teams)  # the first tie-break is applied to the whole group
        name = strings[f"tb.{tie.tiebreak}"]
        if tie.outcome == "skipped":
            a, b = tie.unmet
            step = strings["tie.skipped"].format(tiebreak=name, a=a, b=b)
        elif tie.outcome == "level":
            step = strings["tie.level"].format(tiebreak=name, teams=listed.join(tie.teams))
        else:
            step = strings["tie.split"].format(tiebreak=name, order=strings["tie.ahead"].join(listed.join(g) for g in tie.groups))
        steps.setdefault(tie.level, []).append(step)
    shared: dict[int, list[str]] = defaultdict(list)
    for row in rows:
        if row.tied:
            shared[row.rank].append(row.team)
    notes = []
    for level, said in steps.items():
        teams = set(level_teams[level])
        said += [strings["tie.shared"].format(rank=r, teams=listed.join(t)) for r, t in shared.items() if set(t) <= teams]
        head = strings["tie.group"].format(points=format_number(level), teams=listed.join(level_teams[level]))
        notes.append(head + strings["tie.steps"].join(said))
    covered = {team for teams in level_teams.values() for team in teams}
    # Level teams where no tie-break is set at all.
    notes += [strings["tie.shared"].format(rank=r, teams=listed.join(t)) for r, t in shared.items() if not covered & set(t)]
    return notes


def _points_rule(rules: Any) -> str:
    """The key of the sentence that says what ranks the teams."""
    if rules.rank_by == "score":
        return "points_rule_score"
    return "points_rule_match" if rules.matches else "points_rule"


def _duplicate(section: Any, page: str, team_href: Mapping[str, str], site: SiteInfo) -> dict[str, Any]:
    """A game played in duplicate (bridge): each team match board by board with its two tables side by side, or
    each pairs board with all its tables; every table's contract and result, its score, and what it earned."""
    found = section.duplicate
    by_url = {e.url: e for e in section.games}

    def table(t: Any, percentage: float | None = None) -> dict[str, Any]:
        entry = by_url.get(t.game_id)
        reason, args = entry.summary.decided if entry is not None else ("", ())
        return {
            "href": urls.href(page, t.game_id),
            "room": t.room,
            "north_south": t.north_south,
            "east_west": t.east_west,
            "outcome": i18n.say(reason, args, site.language) if reason else "",
            "score": standings.match_points(t.score, True) if t.score else "0",
            "percentage": _num(percentage) if percentage is not None else None,
        }

    matches = []
    for m in found.matches:
        matches.append({
            "first": m.first,
            "first_href": team_href.get(m.first),
            "second": m.second,
            "second_href": team_href.get(m.second),
            "imps": f"{m.imps[0]} : {m.imps[1]}",
            "vps": f"{_num(m.vps[0])} : {_num(m.vps[1])}" if m.vps is not None else None,
            "boards": [
                {
                    "board": b.board,
                    "tables": [table(t) for t in b.tables],
                    "first_imps": b.imps if b.imps > 0 else "",
                    "second_imps": -b.imps if b.imps < 0 else "",
                }
                for b in m.boards
            ],
        })  # fmt: skip
    boards = [
        {"board": b.board, "tables": [table(t, pct) for t, pct in zip(b.tables, b.percentages)]} for b in found.boards
    ]
    return {
        "kind": found.kind,
        "vp_scale": found.matches[0].vps is not None if found.matches else False,
        "rows": [
            _standing(row, team_href) | {"score": _num(round(row.score, 2)), "imps": found.imps.get(row.team, 0)}
            for row in found.rows
        ],
        "matches": matches,
        "boards": boards,
    }


def _standing(row: standings.Row, team_href: Mapping[str, str]) -> dict[str, Any]:
    """What every standings row shows of a team: its rank, its name and link, and its games won, drawn and lost."""
    return {
        "rank": row.rank,
        "tied": row.tied,
        "team": row.team,
        "href": team_href.get(row.team),
        "games": row.games,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
    }


def match(ev: Event, key: str, archive: Archive, site: SiteInfo) -> dict[str, Any]:
    """The page of one match: its teams and score, a chart of the running totals, and every game with its result."""
    found = ev.matches[key]
    page, code, m = found.url, found.code, found.match
    strings = site.strings
    title = " vs ".join(m.teams)
    ctx = base(site, page, title)
    team_href = {t: urls.href(page, archive.teams[t].url) for t in m.teams if t in archive.teams}
    totals = m.running()
    what = strings["match_score_word" if m.scored else "match_games_word"]
    rows = []
    for n, (game, entry, after) in enumerate(zip(m.games, found.entries, totals), 1):
        cells = []
        for i, team in enumerate(m.teams):
            value = game.score_of(team) if m.scored else standings.share(game, team)
            shown = standings.match_points(value, True) if m.scored else (standings.games_won(value) or "0")
            cells.append({"value": shown, "total": standings.match_points(after[i], m.scored)})
        rows.append({"n": n, "href": urls.href(page, game.game_id), "cells": cells, "date": _entry_time(entry)})
    winners = [m.teams[seat] for seat in seats_of(m.result)]
    series = [chart.Series(team, tuple(after[i] for after in totals)) for i, team in enumerate(m.teams)]
    label = strings["match_chart_label"].format(what=what, teams=title)
    ctx.update(
        match={
            "title": title,
            "teams": [
                {
                    "name": t,
                    "href": team_href.get(t),
                    "total": standings.match_points(m.points[i], m.scored),
                    "colour": chart.COLOURS[i % len(chart.COLOURS)],
                }
                for i, t in enumerate(m.teams)
            ],
            "score": " : ".join(standings.match_points(value, m.scored) for value in m.points),
            "winners": winners,
            "event": ev.name,
            "event_href": urls.href(page, ev.url),
            "game_type": game_type_name(site, code),
            "code": code,
            "what": what,
            "games": len(m.games),
        },
        chart=Markup(chart.running_chart(series, label, strings["match_chart_x"])) if m.games else None,
        rows=rows,
    )
    return ctx


def _entry_time(entry: GameEntry | None) -> str:
    if entry is None:
        return ""
    return " ".join(part for part in (entry.summary.date, entry.summary.time) if part)


def _scored(code: str | None) -> bool:
    game = games.get(code)
    return game is not None and game.scored


def _division_name(part: Any, strings: Mapping[str, str]) -> str:
    if part.kind == "group":
        return strings["division.group"].format(name=part.name)
    if part.kind == "stage":
        return part.name
    return strings["division.other"]


# A crosstable has a cell for every pair of teams: beyond this many teams
# (an open Swiss event is far below it, a damaged archive can be far above)
# the page would weigh megabytes for a table nobody can read.
CROSSTABLE_MOST_TEAMS = 200


def _table(
    table: Any,
    tiebreaks: tuple[str, ...],
    page: str,
    team_href: Mapping[str, str],
    site: SiteInfo,
    anchor: str | None = "",
    match_href: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Standings rows, crosstable and game rows of a section or of one of its groups or stages.

    The crosstable's games are dicts read by key, as game rows are (see
    :func:`game_row`): a table of sixteen teams holds hundreds of them.
    Where pairings play matches, the matches too, each with the id
    ``<anchor>-match-<n>`` that its crosstable cells link to (``anchor``
    None: the page does not list them, the cells link their first game).
    """
    strings = site.strings
    games = [game_row(e, page, site, team_href) for e in table.games]
    game_href = {e.url: row["href"] for e, row in zip(table.games, games)}  # the crosstable links them again
    matches = _matches(table.matches, anchor or "", game_href, team_href, match_href)
    for m in matches:
        # A crosstable cell of a match leads to its page, else to its row or its first game.
        game_href[m["key"]] = m["href"] or ("#" + m["id"] if anchor is not None else m["games"][0]["href"])
    crossed = table.teams if len(table.teams) <= CROSSTABLE_MOST_TEAMS else []
    side = {True: strings["first"], False: strings["second"]}
    return {
        "rows": [
            _standing(row, team_href) | {
                "points": row.points,
                "score": row.score,
                # A tie-break skipped for its tie (head-to-head among teams that did not all meet): "–".
                "tiebreaks": ["–" if tb in row.skipped else row.tiebreaks.get(tb, 0) for tb in tiebreaks],
            }
            for row in table.rows
        ],
        "tie_notes": _tie_notes(table.rows, strings),
        "team_count": len(table.teams),
        "cross_teams": [{"name": t, "href": team_href.get(t), "index": i + 1} for i, t in enumerate(crossed)],
        "cross": [
            [
                {
                    "diagonal": col_team == row_team,
                    "games": [
                        {
                            "href": game_href.get(g.game_id) or urls.href(page, g.game_id),
                            "score": g.score,
                            "as_first": g.as_first,
                            "side": side[g.as_first],
                        }
                        for g in table.cross.get(row_team, {}).get(col_team, [])
                    ],
                }
                for col_team in crossed
            ]
            for row_team in crossed
        ],
        "games": games,
        "matches": matches,
    }


def _matches(
    found: list[standings.Match],
    anchor: str,
    game_href: Mapping[str, str],
    team_href: Mapping[str, str],
    match_href: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The matches of a table as the event page lists them: teams, score, each game from the first team's side, and its page."""
    rows = []
    for n, match in enumerate(found, 1):
        played = []
        for i, game in enumerate(match.games, 1):
            if match.scored:
                shown = standings.match_points(game.score_of(match.first), True)
            else:
                shown = standings.games_won(standings.share(game, match.first)) or "0"
            played.append({"n": i, "href": game_href.get(game.game_id, ""), "score": shown})
        rows.append({
            "key": match.key,
            "id": f"{anchor}-match-{n}",
            "first": match.first,
            "first_href": team_href.get(match.first),
            "second": match.second,
            "second_href": team_href.get(match.second),
            # A match of three teams or more (a Dou Dizhu session) lists them all in one cell.
            "teams": [{"name": team, "href": team_href.get(team)} for team in match.teams],
            "more": len(match.teams) > 2,
            "score": " : ".join(standings.match_points(value, match.scored) for value in match.points),
            "result": match.result,
            "games": played,
            "href": (match_href or {}).get(match.key),
        })  # fmt: skip
    return rows


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def team(tm: Team, archive: Archive, site: SiteInfo) -> dict[str, Any]:
    page = tm.url
    strings = site.strings
    ctx = base(site, page, tm.name)
    # What every row looks up, made once per page.
    named = {t for e in tm.games for t in e.players if t in archive.teams}
    team_href = {t: urls.href(page, archive.teams[t].url) for t in named}
    event_names = {e.key: e.name for e in archive.events}
    outcome_words = {"win": strings["wins"], "loss": strings["losses"], "draw": strings["draws"], "none": ""}
    rows = []
    for entry in sorted(tm.games, key=lambda e: e.sort_key()):
        row = game_row(entry, page, site, team_href)
        if entry.more:
            row.update(_team_seats(tm.name, entry, strings, team_href))
        else:
            as_first = entry.first == tm.name
            opponent = entry.second if as_first else entry.first
            result = entry.summary.result
            if result == "draw":
                outcome = "draw"
            elif result in ("first", "second"):
                outcome = "win" if (result == "first") == as_first else "loss"
            else:
                outcome = "none"
            row.update(
                as_first=as_first,
                side=strings["first"] if as_first else strings["second"],
                opponent=opponent,
                opponent_href=team_href.get(opponent) if opponent else None,
                outcome=outcome,
            )
        row.update(outcome_word=outcome_words[row["outcome"]], event=event_names.get(entry.event_key, entry.event_key))
        rows.append(row)
    ctx.update(
        team={"name": tm.name, "spellings": [s for s in tm.spellings if s != tm.name]},
        results=[
            {
                "event": r.event.name,
                "event_href": urls.href(page, r.event.url),
                "game_type": game_type_name(site, r.code),
                # In an event with groups and stages: the overall place site.toml defines, else the group rank.
                "rank": r.rank or "–",
                "tied": r.tied,
                "group": _division_name(Part(0, "group", r.group), site.strings) if r.group else "",
                "games": r.row.games,
                # Where pairings played matches the row counts matches: said so ("2 场").
                "by_match": any(s.rules.matches for s in r.event.sections if s.code == r.code),
                "wins": r.row.wins,
                "draws": r.row.draws,
                "losses": r.row.losses,
                "points": r.row.points,
            }
            for r in tm.results
        ],
        games=rows,
    )
    return ctx


def _team_seats(team: str, entry: GameEntry, strings: Mapping[str, str], team_href: Mapping[str, str]) -> dict[str, Any]:
    """A team's row for a game of more seats: the seats it played, its opponents, won or lost.

    Won when a seat it played is among the winners (a partnership wins
    together; the landlord alone, or both farmers).
    """
    game = games.get(entry.summary.code)
    players = entry.players
    mine = [seat for seat, player in enumerate(players) if player == team]
    # Partners are not opponents: the team's own seats and, by the game's partnerships, theirs.
    ours = {seat for own in mine for seat in game.partners(own)} if game is not None else set(mine)
    others = dict.fromkeys(player or "?" for seat, player in enumerate(players) if seat not in ours)
    result = entry.summary.result
    won = seats_of(result)
    if result == "draw":
        outcome = "draw"
    elif won:
        outcome = "win" if any(seat in won for seat in mine) else "loss"
    else:
        outcome = "none"
    names = seat_names(strings, game, mine) if game is not None else []
    return {
        "as_first": 0 in mine,
        "side": strings["result.and"].join(names),
        "opponent": strings["players.and"].join(others),
        "opponent_href": None,
        "opponents": tuple((other, team_href.get(other)) for other in others),  # each linked
        "outcome": outcome,
    }


def teams_index(archive: Archive, site: SiteInfo) -> dict[str, Any]:
    page = urls.TEAMS
    ctx = base(site, page, site.strings["all_teams"])
    ctx.update(
        teams=[
            {
                "name": t.name,
                "href": urls.href(page, t.url),
                "games": len(t.games),
                "events": len({r.event.key for r in t.results}),
            }
            for t in archive.teams.values()
        ]
    )
    return ctx


def problems(archive: Archive, site: SiteInfo, comparisons: Sequence[Comparison] = ()) -> dict[str, Any]:
    page = urls.PROBLEMS
    ctx = base(site, page, site.strings["problems"])
    files = []
    unpublished = {s.source for s in archive.summaries if not s.sha256}  # refused unread (generator.scan)
    for source, found in archive.problems.items():
        entry = archive.by_source.get(source)
        files.append(
            {
                "source": source,
                "download": None if source in unpublished else urls.href(page, urls.record_file(source)),
                "game_href": urls.href(page, entry.url) if entry else None,
                "errors": sum(1 for d in found if d.severity == "error"),
                "warnings": sum(1 for d in found if d.severity == "warning"),
                "diagnostics": found,
            }
        )
    totals = {
        sev: sum(1 for f in archive.problems.values() for d in f if d.severity == sev)
        for sev in ("error", "warning", "note")
    }
    ctx.update(
        files=files,
        totals=totals,
        by_team=_problems_by_team(archive, page, site.language),
        comparisons=[_comparison(c, archive, page, site) for c in comparisons],
    )
    return ctx


def _problems_by_team(archive: Archive, page: str, language: str) -> list[dict[str, Any]]:
    """The organiser's view: per team, its records that are inconsistent, and why.

    A record counts for both teams it names (which program wrote it is not
    known); "inconsistent" means at least one error or warning.
    """
    records: dict[str, set[str]] = defaultdict(set)
    bad: dict[str, set[str]] = defaultdict(set)
    reasons: dict[str, Counter[str]] = defaultdict(Counter)
    for source, entry in archive.by_source.items():
        found = [d for d in archive.problems.get(source, ()) if d.path == source and d.severity != "note"]
        for name in (n for n in {entry.first, entry.second} if n is not None):
            records[name].add(source)
            if found:
                bad[name].add(source)
                reasons[name].update({d.code for d in found})
    rows = []
    for name in sorted(bad, key=lambda n: (-len(bad[n]), n)):
        team = archive.teams.get(name)
        rows.append(
            {
                "team": name,
                "href": urls.href(page, team.url) if team else None,
                "records": len(records[name]),
                "inconsistent": len(bad[name]),
                "reasons": [
                    {"code": code, "count": count, "title": diagnostics.title(code, language)}
                    for code, count in sorted(reasons[name].items(), key=lambda item: (-item[1], item[0]))
                ],
            }
        )
    return rows


def _comparison(c: Comparison, archive: Archive, page: str, site: SiteInfo) -> dict[str, Any]:
    from generator.archive import compare

    strings = site.strings

    def side(copy: Any) -> dict[str, Any]:
        entry = archive.by_source.get(copy.source)
        return {
            "source": copy.source,
            "download": urls.href(page, urls.record_file(copy.source)),
            "game_href": urls.href(page, entry.url) if entry else None,
            "teams": f" {strings['vs']} ".join(player or "?" for player in copy.players),
            "result": result_word(strings, copy.declared, games.get(copy.code))
            + (f" “{copy.result_text}”" if copy.result_text else ""),
            "when": " ".join(v for v in (copy.date, copy.time) if v),
            "moves": len(copy.moves),
        }

    return {
        "id": f"compare-{urls.slug(c.a.source)}",
        "a": side(c.a),
        "b": side(c.b),
        "differs": [strings[f"compare.{key}"] for key in c.differs_in],
        "first_difference": c.first_difference,
        "rows": compare.shown_rows(c.rows),
    }


def markdown(title: str, html: str, url: str, site: SiteInfo) -> dict[str, Any]:
    ctx = base(site, url, title)
    ctx.update(body=html)
    return ctx


def game_view(processed: Processed, site: SiteInfo) -> dict[str, Any]:
    """The part of a game page that depends on the record alone, not on the index.

    The build computes it right after the replay, in the same worker, and
    caches it: it holds the heavy parts (board, viewer data, move list) as
    finished strings, so rendering the page later is cheap.
    """
    strings = site.strings
    gtype = games.get(processed.code)
    assert gtype is not None and processed.replay is not None
    gtype = gtype.ordered(processed.replay.first_letter)  # SU: red may move first
    meta = processed.meta
    decision = processed.replay.decision
    rule = None
    if decision is not None:
        rule = decision.said(site.language)
    type_name = game_type_name(site, gtype.code)
    players = meta.players
    vs = f" {strings['vs']} "
    label = f"{type_name}: {vs.join(p or '?' for p in players)}"
    # The board's static drawing and the UI strings are the same on every page:
    # left out here, put back by game_page() and game() (the view is cached per record).
    side_names = (gtype.first.name_zh, gtype.second.name_zh) if _zh(site) else (gtype.first.name_en, gtype.second.name_en)
    # Every seat's name, for notes that name a third or fourth seat (two-seat games: the two above).
    names = tuple(seat_names(strings, gtype, range(len(gtype.seats)))) if gtype.more_seats else side_names
    viewer = viewer_parts(
        gtype, processed.replay, strings=strings, label=label, static=False, side_names=names, entries=False
    )
    return {
        "code": gtype.code,
        "variant": processed.replay.variant,
        "game_type": type_name,
        "first_side": side_names[0],
        "second_side": side_names[1],
        "first_colour": gtype.first.colour,
        "second_colour": gtype.second.colour,
        "date": meta.date,
        "time": meta.time,
        "place": meta.place,
        "header_event": meta.event,
        "declared": processed.declared,
        "declared_word": result_word(strings, processed.declared, gtype),
        "declared_header": result_word(strings, processed.declared_header, gtype),
        "declared_name": result_word(strings, processed.declared_name, gtype),
        "result_text": meta.result_text,
        "computed": processed.computed,
        "computed_word": result_word(strings, processed.computed, gtype) if processed.computed else None,
        "rule": rule,
        # Go's area count; a game won on score shows its score per seat instead ("scores").
        "score": _score(strings, side_names, decision.score) if decision and decision.score and not gtype.scored else None,
        "decided_at": decision.ply if decision else None,
        "result": processed.result,
        "result_word": result_word(strings, processed.result, gtype),
        # Every seat, in the order of play: its side's name and colour, and its player as written.
        "seats": [
            {"side": name, "colour": side.colour, "player": players[seat] if seat < len(players) else None}
            for seat, (side, name) in enumerate(zip(gtype.seats, names))
        ],
        "more_seats": bool(gtype.more_seats),
        "scores": _scores(strings, gtype, processed.score, processed.result, players) if gtype.scored else [],
        "game_number": processed.game,
        "plies": processed.plies,
        "moves": len(processed.record.moves) if processed.record else 0,
        # Only what _viewer.html reads. The finished HTML parts (most of a page)
        # as UTF-8 bytes, encoded once here: they are pickled, cached, kept and
        # spliced into the encoded page as they are (see game_page()).
        "viewer": {key: viewer[key].encode("utf-8") if key in HTML_PARTS else viewer[key] for key in _VIEWER_KEYS},
    }


def _score(strings: Mapping[str, str], side_names: tuple[str, str], score: Mapping[str, float]) -> str:
    """The area count behind a computed Go result, in the page language."""
    a, b, komi = (format_number(score.get(key, 0)) for key in ("first", "second", "komi"))  # 45.0 -> 45
    return strings["area_count"].format(first=side_names[0], a=a, second=side_names[1], b=b, komi=komi)


def _scores(
    strings: Mapping[str, str],
    game: games.GameType,
    score: Mapping[str, float] | None,
    result: str | None,
    players: Sequence[str | None],
) -> list[dict[str, Any]]:
    """The score of a game won on score, one line per seat or partnership in the order of play.

    Each line: the seats' names (甲方、丙方), their players as written, the
    score, and whether they won. Empty where no score is known.
    """
    if not score:
        return []
    won = set(seats_of(result))
    lines = []
    for key in sorted(score, key=lambda key: seats_of(key)):
        seats = seats_of(key)
        sat = dict.fromkeys(players[seat] or "?" for seat in seats if seat < len(players))
        lines.append(
            {
                "seats": strings["result.and"].join(seat_names(strings, game, seats)),
                "players": " / ".join(sat),
                "value": format_number(score[key]),
                "won": bool(seats) and set(seats) <= won,
            }
        )
    return lines


_VIEWER_KEYS = (
    "svg", "data", "count", "moves_html", "not_replayed", "views", "counters", "final_notes", "final_mark", "marked",
)

_SITE_STRINGS: list[Any] = [None, None]  # the last site, and its strings as _site_strings() gives them


def _site_strings(site: SiteInfo) -> tuple[Attrs, dict[str, str]]:
    """The page strings as templates read them (``t``) and the viewer's strings.

    The same for every page of a build, so made once per site rather than
    copied for each page; the viewer's controls (render/env.py) are then
    found without sorting their strings. Shared by all pages: not to be changed.
    """
    if _SITE_STRINGS[0] is not site:
        _SITE_STRINGS[:] = [site, (Attrs(site.strings), ui_strings(site.strings))]
    return _SITE_STRINGS[1]


# What stands for each finished HTML part of a view in the page Jinja renders:
# the prefix, then the part's key and a NUL. game_page() puts the part's bytes
# in its place. Unguessable (a record could hold any fixed text) and never in
# the output, which stays deterministic.
_PREFIX = f"\x00{secrets.token_hex(12)}:"
_MARKERS = {key: f"{_PREFIX}{key}\x00" for key in HTML_PARTS}
_PREFIX_BYTES = _PREFIX.encode("ascii")


def game_page(template: Any, job: GameJob, view: Mapping[str, Any], site: SiteInfo) -> bytes:
    """A game page rendered with ``template`` (game.html), as UTF-8 bytes.

    The view's board, move list and viewer data are three quarters of a
    page. Jinja renders the rest around markers, and the parts' bytes go
    where the markers are: they are not copied through the template's
    output, nor encoded once per page (strings holding a Chinese MARK word
    are two bytes a character, and encoding them was a tenth of a cold build).
    A template that leaves a part out, or shows it twice, gets it as often.
    """
    pieces = template.render(game(job, view, site)).encode("utf-8").split(_PREFIX_BYTES)
    if len(pieces) == 1:
        return pieces[0]
    out: list[Any] = [pieces[0]]
    for piece in pieces[1:]:  # each: the key, NUL, then the page up to the next marker
        end = piece.index(b"\x00")
        key = piece[:end].decode("ascii")
        out.append(_shown(view, key))
        out.append(memoryview(piece)[end + 1 :])  # not copied before the join
    return b"".join(out)


_STATIC_MARK = boards.STATIC_MARK.encode("ascii")


def _shown(view: Mapping[str, Any], key: str) -> bytes:
    """An HTML part of the view as it is on the page (the board with its static drawing)."""
    html = view["viewer"][key]
    return html.replace(_STATIC_MARK, _static_bytes(view), 1) if key == "svg" else html


def _static_bytes(view: Mapping[str, Any]) -> bytes:
    """The static drawing of the view's board (the same on every page of it), encoded."""
    key = (view["code"], view["variant"])
    cached = _STATIC.get(key)
    if cached is None:
        gtype = games.GAMES[view["code"]]
        board = gtype.module("board").board_for(gtype, view["variant"])
        cached = _STATIC[key] = board.static_markup.encode("utf-8")
    return cached


_STATIC: dict[tuple[str, Any], bytes] = {}


def game(job: GameJob, view: Mapping[str, Any], site: SiteInfo) -> dict[str, Any]:
    """The whole context of a game page: the cached view plus the index's links.

    The finished HTML parts of the view are markers here: see :func:`game_page`.
    """
    page = job.url
    strings = site.strings
    seats = view.get("seats", ())
    # The index's team names where it knows them (seats one and two always; the others where the job names them).
    players = [job.first, job.second, *job.more] if len(job.more) >= len(seats) - 2 else None
    if players is None:  # a job that does not name the seats after the second: the record's names
        players = [job.first, job.second, *(seat["player"] for seat in seats[2:])]
    # A partnership of one team (bridge's North and South played by one program) is named once.
    game_type = games.get(view.get("code"))
    shown = [
        i
        for i in range(len(players))
        if not (game_type and any(players[j] == players[i] for j in game_type.partners(i) if j < i))
    ]
    title = f" {strings['vs']} ".join(players[i] or "?" for i in shown)
    ctx = base(site, page, title)
    info = {key: value for key, value in view.items() if key != "viewer"}
    team_urls = [job.first_url, job.second_url, *job.more_urls]
    team_urls += [None] * (len(seats) - len(team_urls))
    info.update(
        players=[
            {
                "side": seat["side"],
                "colour": seat["colour"],
                "name": players[i] or "?",
                "href": urls.href(page, url) if url else None,
            }
            for i, (seat, url) in enumerate(zip(seats, team_urls))
            if i in shown
        ],
        match=[
            {"number": number, "href": urls.href(page, url), "current": url == job.url} for number, url in job.siblings
        ],
        match_href=urls.href(page, job.match_url) if job.match_url else None,
        title=title,
        event=job.event_name,
        event_href=urls.href(page, job.event_url),
        first=job.first or "?",
        second=job.second or "?",
        first_href=urls.href(page, job.first_url) if job.first_url else None,
        second_href=urls.href(page, job.second_url) if job.second_url else None,
        group=job.group,
        source=job.source,
        download=urls.href(page, urls.record_file(job.source)),
        duplicates=[{"source": d, "download": urls.href(page, urls.record_file(d))} for d in job.duplicates],
    )
    viewer = dict(view["viewer"])
    for key in HTML_PARTS:
        viewer[key] = Markup(_MARKERS[key])
    viewer["strings"] = _site_strings(site)[1]
    ctx.update(game=Attrs(info), diagnostics=list(job.diagnostics), viewer=Attrs(viewer))
    return ctx

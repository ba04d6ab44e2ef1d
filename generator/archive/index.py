"""The index stage: from per-record summaries to events, teams and standings.

Input is one :class:`Summary` per record file (small, cached); output is an
:class:`Archive` with everything the pages show. Pure: no file access.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from generator import games
from generator.archive import duplicates, stages, standings
from generator.archive.duplicate import Duplicate, compare, scoring_of, sitting
from generator.archive.summary import Summary
from generator.archive.teams import Suggestion, Teams, code_suggestions, placeholder, suggest_aliases
from generator.config import Config, EventConfig, GameRules
from generator.diagnostics import Diagnostic
from generator.model import decided, game_id
from generator.render import urls


@dataclass(slots=True)
class GameEntry:
    summary: Summary
    slug: str
    url: str
    event_key: str
    first: str | None  # canonical team names
    second: str | None
    duplicates: list[str] = field(default_factory=list)  # other files holding this game
    diagnostics: list[Diagnostic] = field(default_factory=list)  # of this file and its copies
    more: tuple[str | None, ...] = ()  # canonical team names of seats three and on
    # The game this record is another, disagreeing copy of (both programs
    # saved it; the problems page compares them): the game counts once.
    copy_of: str = ""

    @property
    def source(self) -> str:
        return self.summary.source

    @property
    def id(self) -> str:
        """The game's name in the archive: its file, with ``#n`` for game n of a file of several."""
        return self.summary.id

    @property
    def players(self) -> tuple[str | None, ...]:
        """The canonical team of every seat, in the order of play."""
        return (self.first, self.second, *self.more)

    @property
    def counted(self) -> bool:
        s = self.summary
        if self.copy_of:
            return False
        if self.more:
            return all(self.players) and decided(s.result)
        return bool(self.first and self.second and s.result in ("first", "second", "draw"))

    def sort_key(self) -> tuple[str, str, str, int]:
        return (self.summary.date or "", self.summary.time or "", self.summary.source, self.summary.game)


@dataclass(slots=True)
class Table:
    """Standings and crosstable of some games: a whole section, or one group or stage of it."""

    teams: list[str]  # in standings order
    rows: list[standings.Row]
    cross: dict[str, dict[str, list[standings.CrossGame]]]
    games: list[GameEntry]
    # Where pairings play matches: each match, its games' Played.game_id the entries' url.
    matches: list[standings.Match] = field(default_factory=list)


@dataclass(slots=True)
class Division:
    """A group or stage of a section, as the event's folders make it.

    ``kind``: "group", "round-robin" (a stage whose teams all play each
    other, or any stage that is not a knockout), "knockout" (then
    ``bracket`` draws it) or "other" (loose records of no group).
    """

    part: stages.Part
    table: Table
    placed: list[str]  # loose records placed here by their teams (sources)
    kind: str = "group"
    bracket: stages.Bracket | None = None


@dataclass(frozen=True, slots=True)
class Placing:
    """A team's place in the overall ranking of an event with groups and stages, and what decided it.

    ``by`` is the stage that placed it, or None for its group rank
    (``rank``, in group ``group``); teams placed alike share the place.
    """

    place: int
    team: str
    shared: bool
    by: str | None
    rank: int
    group: str = ""


@dataclass(slots=True)
class Section:
    """One game type within an event: its standings, crosstable and games.

    ``divisions`` are its groups and stages when the event has folders for
    them (empty otherwise). The section's own table counts every game of
    the event together: the event page shows it only where there are no
    divisions (teams of different groups and stages did not play the same
    games); ``overall`` is the ranking site.toml defines for them instead
    (``overall = ["决赛", "groups"]``), empty when it defines none.
    """

    code: str
    rules: GameRules
    teams: list[str]
    rows: list[standings.Row]
    cross: dict[str, dict[str, list[standings.CrossGame]]]
    games: list[GameEntry]
    divisions: list[Division] = field(default_factory=list)
    matches: list[standings.Match] = field(default_factory=list)
    overall: list[Placing] = field(default_factory=list)
    # A game played in duplicate (bridge): its team matches or pairs boards,
    # which then make the standings (see generator.archive.duplicate).
    duplicate: Duplicate | None = None


@dataclass(frozen=True, slots=True)
class MatchPage:
    """A match of an event and its page: the game type's code, and the entry of each of its games."""

    url: str
    code: str
    match: standings.Match
    entries: tuple[GameEntry | None, ...]


@dataclass(slots=True)
class Event:
    key: str
    slug: str
    url: str
    name: str
    config: EventConfig
    sections: list[Section]
    games: list[GameEntry]
    # Where pairings play matches: each match with its page (by its key), and
    # the match page of each of its games (by the game's url).
    matches: dict[str, MatchPage] = field(default_factory=dict)
    match_page_of: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class TeamResult:
    """A team's result in one event: its games over the whole event (``row``) and its place.

    In an event with groups and stages the place is its overall one where
    site.toml defines it, else its rank in its group (``group``).
    """

    event: Event
    code: str
    row: standings.Row
    rank: int = 0
    tied: bool = False
    group: str = ""


@dataclass(slots=True)
class Team:
    name: str
    slug: str
    url: str
    games: list[GameEntry]
    results: list[TeamResult] = field(default_factory=list)
    spellings: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Archive:
    events: list[Event]
    teams: dict[str, Team]
    games: list[GameEntry]  # one per game (duplicates folded), sorted by event then source
    # Every record file that became (part of) a game; a file of several
    # games (a match): the entry of its first game. by_id has every game.
    by_source: dict[str, GameEntry]
    problems: dict[str, list[Diagnostic]]  # every file with a diagnostic -> its errors, warnings and notes
    summaries: list[Summary]
    compared: list[tuple[str, str]] = field(default_factory=list)  # copies of one game that disagree
    shared: list[tuple[str, str]] = field(default_factory=list)  # spellings met on one side of one game
    by_id: dict[str, GameEntry] = field(default_factory=dict)  # every game (and copy) by its id (Summary.id)


@dataclass(slots=True)
class _EventIndex:
    """One event indexed on its own: its games, duplicates and standings."""

    event: Event
    by_source: dict[str, GameEntry]
    problems: dict[str, list[Diagnostic]]  # its files with errors or warnings
    teams: dict[str, list[GameEntry]]  # canonical name -> its games here, in order
    spellings: dict[str, set[str]]  # canonical name -> spellings written here
    compared: list[tuple[str, str]]  # copies of one game that disagree: to show side by side
    shared: list[tuple[str, str]]  # team spellings found on one side of one game
    by_id: dict[str, GameEntry] = field(default_factory=dict)  # every game by its id (Summary.id)


class Indexer:
    """Builds the :class:`Archive`, event by event, remembering each event.

    Events are independent (standings, crosstables, duplicates are all
    within one event folder), so when one record changes only its event is
    indexed again: ``qipu serve`` keeps one Indexer across rebuilds.
    """

    def __init__(self) -> None:
        self._memo: dict[str, tuple[tuple, _EventIndex]] = {}

    def index(self, summaries: list[Summary], config: Config) -> Archive:
        names = Teams(config.aliases)
        per_event: dict[str, list[Summary]] = defaultdict(list)
        for s in summaries:
            if s.code is not None:
                per_event[s.index_event()].append(s)
        event_slugs = urls.unique_slugs(list(per_event))
        settings = config.site_fingerprint()
        memo: dict[str, tuple[tuple, _EventIndex]] = {}
        events: list[Event] = []
        entries: list[GameEntry] = []
        by_source: dict[str, GameEntry] = {}
        by_id: dict[str, GameEntry] = {}
        problems: dict[str, list[Diagnostic]] = {}
        done_events: list[_EventIndex] = []
        # Events in the order site.toml lists them; folders it does not name after, by name.
        listed = {key: event.position for key, event in config.events.items()}
        for key in sorted(per_event, key=lambda k: (listed.get(k, len(listed)), k)):
            members = per_event[key]
            # A summary's key digests its record's bytes and settings: same keys, same event.
            signature = (settings, event_slugs[key], tuple((s.source, s.key) for s in members))
            known = self._memo.get(key)
            if known is not None and known[0] == signature:
                done = known[1]
            else:
                done = _index_event(key, event_slugs[key], members, config, names)
            memo[key] = (signature, done)
            done_events.append(done)
            events.append(done.event)
            entries += done.event.games
            by_source.update(done.by_source)
            by_id.update(done.by_id)
            problems.update(done.problems)
        self._memo = memo
        for s in summaries:
            if s.code is None and s.diagnostics:
                problems[s.source] = list(s.diagnostics)  # not a game: unreadable, unknown code
        teams = _teams(done_events)
        compared = [pair for done in done_events for pair in done.compared]
        shared = sorted({pair for done in done_events for pair in done.shared})
        return Archive(
            events, teams, entries, by_source, dict(sorted(problems.items())), summaries, compared, shared, by_id
        )


def alias_suggestions(archive: Archive, config: Config) -> list[Suggestion]:
    """Spellings that look like one team and that no alias joins yet (for ``qipu check``).

    Group codes written as names (``A1``) come first, tied to their team by
    the event's pairing folders; a name programs write by default
    (:func:`placeholder`) is never merged with anything.
    """
    names = Teams(config.aliases)
    written = {w for team in archive.teams.values() for w in team.spellings}
    by_name = [
        s for s in suggest_aliases(written, archive.shared)
        if names.canonical(s.names[0]) != names.canonical(s.names[1]) and not any(map(placeholder, s.names))
    ]
    # The group codes are read with those suggestions taken: "北京科技大学-沼泽" in A1A2 and
    # "沼泽" in A1A3 are one team there, as they will be once the organiser confirms it.
    taken = dict(s.pair()[::-1] for s in by_name)
    codes = [
        s for event in archive.events
        for s in code_suggestions(
            (e.summary.group, taken.get(e.first or "", e.first), taken.get(e.second or "", e.second))
            for e in event.games if not e.more
        )
        if names.canonical(s.names[0]) != names.canonical(s.names[1])
    ]
    coded = {name for s in codes for name in s.names if name != s.canonical}
    return codes + [s for s in by_name if not coded.intersection(s.names)]


def placeholders(archive: Archive) -> list[tuple[str, list[str]]]:
    """Names programs write by default (苏拉卡尔塔2队, 未知队伍), each with the files that write it, for ``qipu check``."""
    found: dict[str, list[str]] = {}
    for summary in archive.summaries:  # every record, copies too: a copy is where the placeholder hides
        for name in summary.players if summary.code is not None else ():
            if name and placeholder(name):
                found.setdefault(name, []).append(summary.source)
    return [(name, sorted(set(files))) for name, files in sorted(found.items())]


def build_index(summaries: list[Summary], config: Config) -> Archive:
    """Index an archive from scratch."""
    return Indexer().index(summaries, config)


def _index_event(key: str, slug: str, members: list[Summary], config: Config, names: Teams) -> _EventIndex:
    # Each record's teams by canonical name (spellings covered by an alias are
    # one team), looked up once for the steps below.
    canonical = names.canonical
    sides = [(canonical(s.first) if s.first else None, canonical(s.second) if s.second else None) for s in members]
    # Seats three and on (Dou Dizhu, bridge); () for every two-seat game.
    mores = [tuple(canonical(n) if n else None for n in s.more) if s.more else () for s in members]
    # Duplicates are looked for within an event: two teams' programs save the
    # same game into the same event folder. The copy shown is the one whose
    # team names the other records use most: its spellings are the team's.
    # Keyed by str | None so that a side without a team counts 0 when the copies are compared.
    named: Counter[str | None] = Counter(name for pair in sides for name in pair if name is not None)
    named.update(name for more in mores for name in more if name is not None)
    groups, dup_diags = duplicates.group(
        (duplicates.Entry(
            s.id,
            s.code or "",
            s.moves_key,
            first,
            second,
            s.date,
            s.time,
            s.declared,
            s.plies,
            s.opening,
            s.group,
            s.source if s.game else "",
        )
        for s, (first, second) in zip(members, sides)),
        prefer=lambda e: -(named[e.first] + named[e.second]),
    )
    compared, near = duplicates.near_copies(groups)
    dup_diags = sorted(dup_diags + near)
    by_path = {s.id: s for s in members}  # by game id: a file's path, unless it holds several games
    more_of = {s.id: more for s, more in zip(members, mores)}
    extra: dict[str, list[Diagnostic]] = defaultdict(list)
    for d in dup_diags:
        said = by_path[d.path]
        if said.game:  # said of one game of a file of several: at that file, on the line the game starts
            d = dataclasses.replace(d, path=said.source, line=said.line)
        extra[said.id].append(d)
    within = [_within_event(by_path[group[0].path], key) for group in groups]  # each game's page name
    game_slugs = urls.unique_slugs(within)
    games_: list[GameEntry] = []
    by_source: dict[str, GameEntry] = {}
    by_id: dict[str, GameEntry] = {}
    first_game: dict[str, int] = {}
    for group, path in zip(groups, within):
        shown = group[0]  # its teams are canonical already
        summary = by_path[shown.path]
        copies = [e.path for e in group[1:]]
        page_slug = game_slugs[path]
        diags = list(summary.diagnostics) + extra.get(summary.id, [])
        for copy in copies:
            diags += list(by_path[copy].diagnostics) + extra.get(copy, [])
        entry = GameEntry(
            summary,
            page_slug,
            urls.game_page(slug, page_slug),
            key,
            shown.first,
            shown.second,
            # The files of its copies (a game of a match file is copied by a game of another match file).
            list(dict.fromkeys(by_path[copy].source for copy in copies)),
            sorted(set(diags)),
            more_of[summary.id],
        )
        games_.append(entry)
        for game in (summary.id, *copies):
            by_id[game] = entry
            said = by_path[game]
            # A file of several games leads to its first.
            if not said.game or by_source.get(said.source) is None or said.game < first_game[said.source]:
                by_source[said.source] = entry
                first_game[said.source] = said.game
    games_.sort(key=GameEntry.sort_key)
    problems: dict[str, list[Diagnostic]] = {}
    spellings: dict[str, set[str]] = defaultdict(set)
    for s in members:
        found = s.diagnostics
        more = extra.get(s.id)
        if more:
            found = tuple(sorted(set(found) | set(more)))
        if s.game and s.source in problems:  # another game of the same file said something too
            found = tuple(sorted(set(found) | set(problems[s.source])))
        if found:
            problems[s.source] = list(found)
        for written in s.players:
            if written:
                spellings[canonical(written)].add(written)
    teams: dict[str, list[GameEntry]] = defaultdict(list)
    for entry in games_:
        for name in {entry.first, entry.second, *entry.more}:
            if name:
                teams[name].append(entry)
    shared = set(duplicates.shared_names(groups))
    for a, b in compared:
        if _one_game(by_id[a], by_id[b]):
            by_id[b].copy_of = by_id[a].id  # one game saved twice, with different moves: counted once
        for side in ("first", "second"):
            x, y = getattr(by_path[a], side), getattr(by_path[b], side)
            if x and y and x != y:
                shared.add((min(x, y), max(x, y)))
    for s in members:
        shared.update((min(x, y), max(x, y)) for x, y in s.spellings)
    # Copies that disagree are read again to be shown side by side, file by
    # file: a game of a file of several is not one of them (yet).
    compared = [(a, b) for a, b in compared if not (by_path[a].game or by_path[b].game)]
    return _EventIndex(
        _event(key, slug, games_, config),
        by_source,
        problems,
        dict(teams),
        dict(spellings),
        compared,
        sorted(shared),
        by_id,
    )


def _one_game(a: GameEntry, b: GameEntry) -> bool:
    """Two records that disagree but are surely one game: the same pairing, in the same order, at the same time.

    Records that only share an opening and a team may be two games of one
    day (programs play their openings alike): both count.
    """
    if a is b or a.copy_of or b.copy_of or a.more or b.more:
        return False
    x, y = a.summary, b.summary
    return (a.first, a.second) == (b.first, b.second) and bool(x.date and x.time) and (x.date, x.time) == (y.date, y.time)


def _within_event(summary: Summary, key: str) -> str:
    """The game's path inside its event folder, without a record suffix (for its page name).

    Game n of a file of several games: the file's, then ``#n``.
    """
    stem = summary.source
    dot = stem.rfind(".")
    if dot > stem.rfind("/") and stem[dot:].lower() in games.record_suffixes():
        stem = stem[:dot]
    prefix = key + "/"
    within = stem[len(prefix):] if stem.startswith(prefix) else stem
    return game_id(within, summary.game)


def _event(key: str, slug: str, entries: list[GameEntry], config: Config) -> Event:
    event_config = config.event(key)
    name = event_config.name
    if key not in config.events:
        header_names = Counter(e.summary.event_name for e in entries if e.summary.event_name)
        if header_names:
            name = sorted(header_names.items(), key=lambda item: (-item[1], item[0]))[0][0]
    sections: list[Section] = []
    by_code: dict[str, list[GameEntry]] = defaultdict(list)
    for entry in entries:
        by_code[entry.summary.code or ""].append(entry)
    for code in sorted(by_code, key=lambda c: (games.codes().index(c) if c in games.GAMES else 99, c)):
        rules = config.rules_for(key, code)
        section_games = by_code[code]
        whole = _table(section_games, rules)
        section = Section(code, rules, whole.teams, whole.rows, whole.cross, section_games, matches=whole.matches)
        section.divisions = _divisions(section_games, rules)
        section.overall = overall(section.divisions, rules.overall)
        game_type = games.get(code)
        if game_type is not None and game_type.duplicate:
            _compare_tables(section, game_type, rules)
        sections.append(section)
    event = Event(key, slug, urls.event_page(slug), name, event_config, sections, entries)
    by_url = {e.url: e for e in entries}
    for section in sections:
        for match in [*section.matches, *(m for d in section.divisions for m in d.table.matches)]:
            if match.key in event.matches:  # the same match in the section's table and in its group's
                continue
            page = urls.match_page(slug, match.teams, match.key)
            event.matches[match.key] = MatchPage(page, section.code, match, tuple(by_url.get(g.game_id) for g in match.games))
            for game in match.games:
                event.match_page_of.setdefault(game.game_id, page)
    return event


def _played(entries: list[GameEntry], match_of: dict[str, str]) -> list[standings.Played]:
    """The decided games, in the order given (the order they were played)."""
    return [
        standings.Played(
            e.url, e.first, e.second, e.summary.result, e.more, e.summary.score, match_of.get(e.id, "")  # type: ignore[arg-type]
        )
        for e in entries
        if e.counted
    ]


def _table(entries: list[GameEntry], rules: GameRules) -> Table:
    team_names = sorted({t for e in entries for t in e.players if t})
    match_of = _match_keys(entries) if rules.matches else {}
    played = _played(entries, match_of)
    rows = standings.standings(team_names, played, rules.points, rules.tiebreaks, by_match=rules.matches, rank_by=rules.rank_by)
    order = [row.team for row in rows]
    if not rules.matches:
        return Table(order, rows, standings.crosstable(order, played), entries)
    found = standings.matches(played)
    return Table(order, rows, standings.match_crosstable(order, found), entries, found)


def _compare_tables(section: Section, game: games.GameType, rules: GameRules) -> None:
    """A game played in duplicate: its standings from the boards compared across tables, not from each table alone."""
    tables = []
    for e in section.games:
        if e.counted:
            found = sitting(e.url, e.summary.board, e.summary.room, e.players, e.summary.score)
            if found is not None:
                tables.append(found)
    compared = compare(tables, scoring_of(game.module("rules"), str(rules.options.get("vp_scale", "wbf"))))
    section.duplicate = compared
    section.rows = compared.rows
    section.teams = [row.team for row in compared.rows]
    section.cross = {}
    section.divisions = []


def _match_keys(entries: list[GameEntry]) -> dict[str, str]:
    """The match of each game, by game id: where pairings play matches.

    A file of several games is one match (EinStein's files are); games of
    one game per file are one match per pair of teams in the table (the two
    games of a xiangqi pairing, red and black).
    """
    per_file = Counter(e.source for e in entries)
    keys = {}
    for e in entries:
        teams = [team for team in e.players if team]
        if len(teams) < len(e.players):
            continue
        if per_file[e.source] > 1:
            keys[e.id] = f"file:{e.source}"
        else:
            keys[e.id] = "pair:" + "\x00".join(sorted(set(teams)))
    return keys


def _divisions(entries: list[GameEntry], rules: GameRules) -> list[Division]:
    """Groups and stages from the folders, each with its own standings."""
    parts = stages.assign((e.id, e.summary.group, e.first, e.second) for e in entries)
    if not parts:
        return []
    by_part: dict[stages.Part, list[GameEntry]] = defaultdict(list)
    for entry in entries:
        by_part[parts[entry.id]].append(entry)
    found = []
    for part, members in sorted(by_part.items()):
        placed = list(dict.fromkeys(e.source for e in members if part.kind == "group" and not e.summary.group))
        division = Division(part, _table(members, rules), placed, part.kind)
        if part.kind == "stage":
            # A knockout where site.toml says so, or where its pairings form one (unless it says otherwise).
            kind = rules.stages.get(part.name, "")
            if kind != stages.ROUND_ROBIN:
                division.bracket = stages.knockout(_played(members, {}), forced=kind == stages.KNOCKOUT)
            division.kind = stages.KNOCKOUT if division.bracket is not None else stages.ROUND_ROBIN
        found.append(division)
    return found


def overall(divisions: list[Division], parts: tuple[str, ...]) -> list[Placing]:
    """The overall ranking site.toml defines: each named stage places the teams not placed yet, in order.

    A knockout places by its bracket (the final's winner first, semi-final
    losers third, shared where no match for third place was played), a
    round-robin stage by its standings, ``"groups"`` by the teams' ranks in
    their groups (every group's second shares a place). A stage not found,
    or a knockout whose places its pairings do not settle, places nobody.
    """
    placings: list[Placing] = []
    placed: set[str] = set()
    for name in parts:
        ranked: list[tuple[int, str, bool, str]] = []  # (rank within the part, team, shared, group)
        if name == "groups":
            for division in divisions:
                if division.kind == "group":
                    ranked += [(row.rank, row.team, False, division.part.name) for row in division.table.rows]
        else:
            for division in divisions:
                if division.part.kind != "stage" or division.part.name != name:
                    continue
                if division.bracket is not None:
                    ranked += [(place, team, shared, "") for place, team, shared in division.bracket.placings]
                else:
                    ranked += [(row.rank, row.team, row.tied, "") for row in division.table.rows]
        ranked = sorted((r for r in ranked if r[1] not in placed), key=lambda r: (r[0], r[1]))
        # Places continue after the teams already placed; equal ranks share one.
        counts = Counter(rank for rank, *_ in ranked)
        start = len(placings)
        for rank, team, shared, group in ranked:
            place = start + 1 + sum(n for r, n in counts.items() if r < rank)
            placings.append(Placing(place, team, shared or counts[rank] > 1, None if name == "groups" else name, rank, group))
            placed.add(team)
    return placings


def _teams(done: list[_EventIndex]) -> dict[str, Team]:
    """Every team across events: its games, its spellings, its result in each event."""
    by_team: dict[str, list[GameEntry]] = defaultdict(list)
    spellings: dict[str, set[str]] = defaultdict(set)
    for part in done:
        for name, games_ in part.teams.items():
            by_team[name] += games_
        for name, written in part.spellings.items():
            spellings[name] |= written
    slugs = urls.unique_slugs(list(by_team))
    teams = {
        name: Team(name, slugs[name], urls.team_page(slugs[name]), by_team[name], [], sorted(spellings[name]))
        for name in sorted(by_team)
    }
    for part in done:
        event = part.event
        for section in event.sections:
            places = _places(section)
            for row in section.rows:
                if row.team in teams:
                    rank, tied, group = places.get(row.team, (row.rank, row.tied, ""))
                    teams[row.team].results.append(TeamResult(event, section.code, row, rank, tied, group))
    return teams


def _places(section: Section) -> dict[str, tuple[int, bool, str]]:
    """Each team's place where the section has groups and stages: overall if defined, else in its group.

    A team of no group and no overall place has none (0): no rank of the
    whole event's table, which mixes games of different groups and stages.
    """
    if not section.divisions:
        return {}
    places = {p.team: (p.place, p.shared, "") for p in section.overall}
    for division in section.divisions:
        if division.kind == "group":
            for row in division.table.rows:
                places.setdefault(row.team, (row.rank, row.tied, division.part.name))
    return {team: places.get(team, (0, False, "")) for team in section.teams}

"""The EinStein würfelt nicht notation of the CCGC university standard (WTN).

The standard (``specs/000_…txt``, 爱恩斯坦棋棋谱格式说明文档)::

    #[WTN][先手参赛队 R][后手参赛队 B][后手胜][2017.07.29 14:00 重庆][2017 CCGC];
    R:A5-1;B5-2;C5-3;A4-4;B4-5;A3-6       red's set-up: square-number, red always first
    B:E3-1;D2-2;E2-3;C1-4;D1-5;E1-6       blue's set-up
    1:5;(R5,C3)                           move 1: the die shows 5, red's piece 5 goes to C3
    2:1;(B1,D4)MARK[3]                    MARK 1 (大劣) to 5 (大好)

Columns A-E, rows 1-5 from the bottom. The letter after each team's name is
the colour it plays: red (R) or blue (B) may move first, and the first field
is always the team that moves first.

A pairing plays a match of several games, and a writer may append them all
to one file: every header line, or a set-up line after moves, starts a new
game (:func:`parse_games`: one record per game, in the file's order, with
the line it starts on).

Real writers (``corpus/SOURCES.md`` and the programs teams published) differ,
and this reader takes them as they are: no ``[WTN]`` code in the header;
colour-named fields (``[红方:钝角][蓝方:X][红方先手][红方胜]…``); ``[None]``
where the file name says the result; a leading space in a team name;
``R: A5-1;…;`` with a space and a trailing ``;``; set-ups listed in another
order, and numbers shuffled per game; moves written as ``(from,to)`` squares
instead of ``(R5,C3)`` (the mover is then the side whose turn it is, and the
piece is the one on the square); no header at all but the writer's own file
path on the first line (``./chess_log/WTN-human-alphazero-alphazero-Thu-Aug-2-
20:27:55-2018-2018CCGC``: first team, second team, winner, date, event).

MARK values run 1-5 here (the game's ``marks`` parameter) and are kept on
the common scale of the pages, -2 to 2 (大劣 … 大好), so a page says the same
word for them as for every other game.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from generator import games, metadata
from generator.diagnostics import Diagnostic, define, make
from generator.formats import NARROW
from generator.games import GameType
from generator.i18n import N_, T, Term
from generator.model import Metadata, Move, Record, Text

# Codes of this family: the 6xx block of FMT-.
BAD_MOVE = define(
    "FMT-E601",
    "error",
    "An EinStein move cannot be read",
    "Write a move as number, die and move: 1:5;(R5,C3) (red's piece 5 to C3) or 1:5;(B4,C3) "
    "(from square to square). The moves of this game from here on are shown as not replayed.",
)
BAD_SETUP = define(
    "FMT-E602",
    "error",
    "A set-up line does not place six pieces numbered 1 to 6",
    "Write each side's set-up as R:A5-1;B5-2;C5-3;A4-4;B4-5;A3-6 (square, then number); "
    "the standard's set-up was used for that side, so the replay may differ from the game.",
)
NO_SETUP = define(
    "FMT-W601",
    "warning",
    "A side's set-up line is missing",
    "Write both lines, R:… and B:…, after the header; the standard's set-up (pieces 1 to 6 "
    "in order) was used for the missing side.",
)
SETUP_OUTSIDE = define(
    "FMT-W602",
    "warning",
    "A piece is set up outside its side's corner",
    "Red sets up on A5 B5 C5 A4 B4 A3, blue on E3 D2 E2 C1 D1 E1; the set-up was used as written.",
)
NO_MOVES = define(
    "FMT-W603",
    "warning",
    "The game has no moves",
    "Check that the file was written completely; the declared result stands.",
)
NO_DIE = define(
    "FMT-W604",
    "warning",
    "A move does not give the die",
    "Write the die before the move: 1:5;(R5,C3). Without it, which piece the die allowed "
    "cannot be checked.",
)
MOVE_NUMBER = define(
    "FMT-W605",
    "warning",
    "A move's number is not the next one",
    "Number the moves 1, 2, 3 … in each game; the moves were read in the order written.",
)
BAD_MARK = define(
    "FMT-W606",
    "warning",
    "A MARK value is outside the game's range",
    "EinStein marks run from MARK[1] (大劣) to MARK[5] (大好); the mark was left out.",
)
FIRST_DIFFERS = define(
    "FMT-W607",
    "warning",
    "The header and the first move disagree about which colour moves first",
    "The colour letter after the first team's name (R or B) must be the colour of the first "
    "move; the moves were read as the first move says.",
)
TRAILER_RESULT = define(
    "FMT-W608",
    "warning",
    "The result after the moves differs from the header's",
    "Correct one of them; the header's result is used.",
)
OTHER_LINE = define(
    "FMT-N601",
    "note",
    "A line that is neither header, set-up nor move was kept as a comment",
    "Nothing to do if it is a comment; the header starts with #[, the set-ups with R: and B:.",
)
FULL_WIDTH = define(
    "FMT-N602",
    "note",
    "Full-width characters were read as ASCII",
    "Nothing to do; writing programs should use ASCII for the syntax.",
)
NONE_RESULT = define(
    "FMT-N603",
    "note",
    "The header's result is a placeholder",
    "The writer left the result out ([None]); the file name's result, if any, is used, and the "
    "rules decide the game where it was played to the end.",
)

RED, BLUE = "R", "B"  # the side letters records write
OTHER = {RED: BLUE, BLUE: RED}
# The standard's set-up: square -> number, in the order the standard lists them.
START = {
    RED: (("A5", 1), ("B5", 2), ("C5", 3), ("A4", 4), ("B4", 5), ("A3", 6)),
    BLUE: (("E3", 1), ("D2", 2), ("E2", 3), ("C1", 4), ("D1", 5), ("E1", 6)),
}
CORNER = {side: frozenset(square for square, _ in start) for side, start in START.items()}
_COLOUR_WORDS = {"R": RED, "B": BLUE, "红": RED, "红方": RED, "蓝": BLUE, "蓝方": BLUE, "RED": RED, "BLUE": BLUE}

# Full-width ASCII as ASCII, the ideographic space as a space; × is no WTN syntax.
_FIELD = re.compile(r"\[([^\[\]]*)\]")
_HEADER = re.compile(r"\s*#?\s*\[")
_SETUP = re.compile(r"\s*(?P<side>[RrBb]|红方?|蓝方?)\s*:\s*(?P<body>.*)")
# Numbers of at most nine digits everywhere: a damaged file's run of thousands is no number to read.
_ENTRY = re.compile(r"(?P<square>[A-Za-z]\s*[0-9]{1,9})\s*-\s*(?P<number>[0-9]{1,9})(?![0-9])")
_MOVE = re.compile(
    r"\s*(?:(?P<n>[0-9]{1,9})\s*:)?\s*(?:(?P<die>[0-9]{1,9})\s*;?)?\s*\(\s*(?P<a>[A-Za-z]\s*[0-9]{1,9})\s*,"
    r"\s*(?P<b>[A-Za-z]\s*[0-9]{1,9})\s*\)"
    r"\s*(?:(?i:MARK)\s*\[\s*(?P<mark>[^\]]*)\]\s*)?;?\s*(?P<rest>.*)"
)
_TOKEN = re.compile(r"(?P<letter>[A-Za-z])\s*(?P<digits>[0-9]{1,9})")
_COLOUR_TEAM = re.compile(r"(?P<colour>红方?|蓝方?|[Rr]ed|[Bb]lue)\s*[:：]\s*(?P<name>.*)")
_FIRST_COLOUR = re.compile(r"(?:(?P<a>红方?|蓝方?)\s*先手?|先手\s*[:：]?\s*(?P<b>红方?|蓝方?))")
_NONE_WORDS = frozenset({"none", "null", "nil", ""})
# The General-Zero writer's first line: its own path, "…/WTN-first-second-winner-Thu-Aug-2-20:27:55-2018-event".
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_PATH_HEADER = (
    r"(?:.*/)?{code}-(?P<first>[^-/]+)-(?P<second>[^-/]+)-(?P<winner>[^-/]+)-(?:[A-Za-z]{{3}})-(?P<month>[A-Za-z]{{3}})"
    r"-(?P<day>[0-9]{{1,2}})-(?P<hour>[0-9]{{1,2}}):(?P<minute>[0-9]{{2}})(?::[0-9]{{2}})?-(?P<year>[0-9]{{4}})(?:-(?P<event>.*))?"
)


def _codes() -> list[str]:
    return [game.code for game in games.of_format(__name__)]


@functools.cache
def _path_pattern(code: str) -> re.Pattern[str]:
    return re.compile(_PATH_HEADER.format(code=re.escape(code)))


def sniff(text: str) -> str | None:
    """The family's game when a header names it (``#[WTN]``) or the first lines are its set-ups or path line."""
    codes = _codes()
    for line in text[:2000].lstrip("\ufeff").splitlines()[:8]:
        plain = line.translate(NARROW).strip()
        if not plain:
            continue
        m = re.match(r"#?\s*\[\s*([A-Za-z0-9]+)\s*\]", plain)
        if m:
            code = m[1].upper()
            return code if code in codes else None
        if len(codes) == 1 and (s := _SETUP.fullmatch(plain)) and len(_ENTRY.findall(s["body"])) >= 3:
            return codes[0]
        for code in codes:
            if _path_pattern(code).fullmatch(plain):
                return code
    return None


def parse_games(text: Text, game: GameType | None) -> list[Record]:
    """Every game of the file, in order. Never raises; problems become diagnostics of their game."""
    return _Reader(text, game).read()


@dataclass(slots=True)
class _Written:
    """A move as written, before the sides are known (they follow from the whole game)."""

    line: int
    column: int
    number: int | None  # the move number written before the colon
    die: int | None
    first: tuple[str, int] | None  # a piece (R, 5) or a start square (B, 4); None: unreadable
    second: tuple[str, int] | None  # the target square
    mark: int | None


@dataclass(slots=True)
class _Game:
    """One game while it is read."""

    line: int
    meta: Metadata
    diagnostics: list[Diagnostic] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    written: list[_Written] = field(default_factory=list)  # one per move, in order
    headed: bool = False
    # side -> (line, column, [(square, number, line, column)])
    setups: dict[str, tuple[int, int, list[tuple[str, int, int, int]]]] = field(default_factory=dict)
    teams: list[tuple[str, str | None]] = field(default_factory=list)  # (name, colour letter) in the header's order
    by_colour: dict[str, str] = field(default_factory=dict)  # colour -> team, from fields like 红方:钝角
    said_first: str | None = None  # the colour the header says moves first (红方先手, a team's letter)
    result_words: str | None = None
    result_line: int = 0
    trailer: tuple[int, str] | None = None
    winner_name: str | None = None  # the path line's winner
    stopped: bool = False  # an unreadable move: the rest of this game is not read as moves


class _Reader:
    def __init__(self, text: Text, game: GameType | None) -> None:
        self.source = text
        self.game = game
        self.code = game.code if game else None
        self.params = game.params if game else {}
        self.games: list[_Game] = []
        self.full_width: tuple[int, _Game] | None = None  # the first line written full-width, and its game

    # -- lines ------------------------------------------------------------------------

    def read(self) -> list[Record]:
        for number, raw in enumerate(self.source.lines(), 1):
            if raw.strip():
                self._line(number, raw)
        if not self.games:
            self._new(1)
        if self.full_width is not None:
            number, g = self.full_width
            self._report(g, number, 1, FULL_WIDTH, N_("full-width characters were read as ASCII"))
        records = [self._finish(g, n + 1) for n, g in enumerate(self.games)]
        if len(records) == 1:
            records[0].game, records[0].line = 0, 1
        return records

    def _new(self, number: int) -> _Game:
        g = _Game(number, Metadata(code=self.code))
        self.games.append(g)
        return g

    def _current(self, number: int, starts_game: bool) -> _Game:
        """The game a line belongs to; a new one where ``starts_game`` and the current one is under way."""
        if not self.games or (starts_game and self.games[-1].moves) or (starts_game and self.games[-1].headed):
            return self._new(number)
        return self.games[-1]

    def _report(self, g: _Game, line: int, column: int, code: str, template: str, /, **args: object) -> None:
        g.diagnostics.append(make(self.source.path, line, column, code, template, **args))

    def _line(self, number: int, raw: str) -> None:
        plain = raw.translate(NARROW)
        self._dispatch(number, plain)
        if plain != raw and self.full_width is None:
            self.full_width = (number, self.games[-1])

    def _dispatch(self, number: int, plain: str) -> None:
        stripped = plain.strip()
        indent = len(plain) - len(plain.lstrip()) + 1
        if _HEADER.match(plain) and len(_FIELD.findall(plain)) >= 2:
            self._header(self._current(number, True), number, plain)
        elif (s := _SETUP.fullmatch(plain)) and _ENTRY.search(s["body"]):
            side = _COLOUR_WORDS[s["side"].upper() if s["side"].isascii() else s["side"]]
            current = self.games[-1] if self.games else None
            # A set-up after moves, or a second one for the same side, starts the next game.
            if current is None or current.moves or side in current.setups:
                current = self._new(number)
            self._setup(current, number, side, plain, s.start("body"))
        elif m := _MOVE.fullmatch(plain):
            self._move(self._current(number, False), number, indent, m)
        elif (m := self._path_header(stripped)) is not None:
            self._from_path(self._current(number, True), number, m)
        elif stripped.startswith("#") and self.games and self.games[-1].moves:
            g = self.games[-1]
            g.trailer = (number, stripped.lstrip("#").strip())
        else:
            g = self._current(number, False)
            # A line that starts like a move ("12:", "12;", "(") but is none: a move gone wrong.
            if (g.moves or g.setups) and not g.stopped and re.match(r"[0-9]+\s*[:;(]|\(", stripped):
                self._bad_move(g, number, indent, stripped)
            else:
                self._report(g, number, indent, OTHER_LINE, N_("line {text!r} kept as a comment"), text=stripped[:40])

    def _path_header(self, text: str) -> re.Match[str] | None:
        for code in _codes():
            m = _path_pattern(code).fullmatch(text)
            if m:
                return m
        return None

    # -- header -----------------------------------------------------------------------

    def _header(self, g: _Game, number: int, plain: str) -> None:
        g.headed = True
        fields = [f.strip() for f in _FIELD.findall(plain)]
        if fields and games.get(fields[0]) is not None:
            g.meta.code = fields[0].upper()
            fields = fields[1:]
        plain_fields = not any(_COLOUR_TEAM.fullmatch(f) or _FIRST_COLOUR.fullmatch(f) for f in fields)
        if plain_fields and len(fields) == 5:
            # The standard's fields, in its order.
            self._team(g, fields[0])
            self._team(g, fields[1])
            g.result_words, g.result_line = fields[2], number
            self._when(g, number, fields[3])
            g.meta.event = fields[4] or None
            return
        for value in fields:
            if m := _COLOUR_TEAM.fullmatch(value):
                g.by_colour[_colour(m["colour"])] = m["name"].strip()
            elif m := _FIRST_COLOUR.fullmatch(value):
                g.said_first = _colour(m["a"] or m["b"])
            elif len(g.teams) < 2 and not g.by_colour and g.result_words is None:
                self._team(g, value)
            elif g.result_words is None and (value.lower() in _NONE_WORDS or metadata.parse_result(value, None)[1]):
                g.result_words, g.result_line = value, number
            elif g.meta.date is None and metadata.parse_when(value)[0] is not None:
                self._when(g, number, value)
            elif g.meta.event is None and value:
                g.meta.event = value

    def _team(self, g: _Game, value: str) -> None:
        """A team field: the name, and the colour letter after it (``先手参赛队 R``), if any."""
        name = value.strip()
        for letter in (RED, BLUE):
            stripped = metadata.strip_colour(name, letter)
            if stripped != name:
                g.teams.append((stripped, letter))
                return
        g.teams.append((name, None))

    def _when(self, g: _Game, number: int, value: str) -> None:
        date, clock, place = metadata.parse_when(value)
        if date is not None:
            g.meta.date, g.meta.time, g.meta.place = date, clock, place
        elif value:
            self._report(g, number, 1, metadata.DATE_UNREADABLE, N_("date {text!r} cannot be read"), text=value[:40])

    def _from_path(self, g: _Game, number: int, m: re.Match[str]) -> None:
        """The General-Zero writer's path line: teams, winner, date and event (its only header)."""
        g.headed = True
        g.teams = [(m["first"].strip(), None), (m["second"].strip(), None)]
        g.winner_name, g.result_line = m["winner"].strip(), number
        month = _MONTHS.index(m["month"].lower()) + 1 if m["month"].lower() in _MONTHS else 0
        date, _, _ = metadata.parse_when(f"{m['year']}-{month}-{m['day']}")
        if date is not None:
            g.meta.date, g.meta.time = date, f"{int(m['hour']):02d}:{m['minute']}"
        g.meta.event = (m["event"] or "").strip() or None

    # -- set-ups and moves -------------------------------------------------------------

    def _setup(self, g: _Game, number: int, side: str, plain: str, body: int) -> None:
        entries: list[tuple[str, int, int, int]] = []
        for m in _ENTRY.finditer(plain, body):
            square = _square(m["square"])
            entries.append((f"{square[0]}{square[1]}", int(m["number"]), number, m.start() + 1))
        g.setups[side] = (number, body + 1, entries)

    def _move(self, g: _Game, number: int, column: int, m: re.Match[str]) -> None:
        if g.stopped:
            return
        if m["rest"].strip():
            rest = m["rest"].strip()
            template = N_("text {text!r} after a move kept as a comment")
            self._report(g, number, m.start("rest") + 1, OTHER_LINE, template, text=rest[:40])
        n = int(m["n"]) if m["n"] else None
        die = int(m["die"]) if m["die"] else None
        a, b = _square(m["a"]), _square(m["b"])
        mark = self._mark(g, number, m)
        text = f"({a[0]}{a[1]},{b[0]}{b[1]})" if die is None else f"{die};({a[0]}{a[1]},{b[0]}{b[1]})"
        g.written.append(_Written(number, column, n, die, a, b, mark))
        g.moves.append(Move("", text, None, number, column))  # placeholder: sides are read at the end

    def _mark(self, g: _Game, number: int, m: re.Match[str]) -> int | None:
        if m["mark"] is None:
            return None
        low, high = self.params.get("marks", (1, 5))
        written = m["mark"].strip()
        if re.fullmatch(r"[+-]?[0-9]{1,3}", written) and low <= int(written) <= high:
            return int(written) - (low + high) // 2
        self._report(
            g, number, m.start("mark") + 1, BAD_MARK, N_("MARK[{value}] is not between {low} and {high}; left out"),
            value=written[:12], low=low, high=high,
        )
        return None

    def _bad_move(self, g: _Game, number: int, column: int, text: str) -> None:
        self._report(g, number, column, BAD_MOVE, N_("move {ply}: cannot read {text!r}"), ply=len(g.moves) + 1, text=text[:40])
        g.moves.append(Move("?", text[:24], None, number, column))
        g.written.append(_Written(number, column, None, None, None, None, None))
        g.stopped = True

    # -- after all lines ----------------------------------------------------------------

    def _finish(self, g: _Game, index: int) -> Record:
        setup = self._setups(g)
        squares = {square: (side, n) for side, line in setup.items() for square, n in _entries(line)}
        first = self._first(g, self._moves(g, squares))
        self._teams_and_result(g, first)
        if not g.moves:
            self._report(g, g.line, 1, NO_MOVES, N_("the game has no moves"))
        # The set-up as the engine reads it: red's line, then blue's (the first mover is the first move's side).
        lines = [setup[RED], setup[BLUE]]
        return Record(
            self.source.path, g.meta.code, g.meta, g.moves, g.diagnostics, setup=lines,
            setup_line=min((v[0] for v in g.setups.values()), default=g.line), game=index, line=g.line,
        )

    def _setups(self, g: _Game) -> dict[str, str]:
        """Each side's set-up as ``R:A5-1;B5-2;…``, checked; the standard's where missing or unusable."""
        out: dict[str, str] = {}
        for side in (RED, BLUE):
            standard = f"{side}:" + ";".join(f"{sq}-{n}" for sq, n in START[side])
            written = g.setups.get(side)
            name = T("red") if side == RED else T("blue")
            if written is None:
                self._report(
                    g, g.line, 1, NO_SETUP, N_("no set-up line for {side}: the standard's {standard} is used"),
                    side=name, standard=standard,
                )
                out[side] = standard
                continue
            line, column, entries = written
            problem = _setup_problem(entries)
            if problem is not None:
                template, args = problem
                self._report(g, line, column, BAD_SETUP, template, side=name, standard=standard, **args)
                out[side] = standard
                continue
            for square, n, at_line, at_column in entries:
                if square not in CORNER[side]:
                    self._report(
                        g, at_line, at_column, SETUP_OUTSIDE,
                        N_("{side}'s piece {number} is set up on {square}, outside its corner; used as written"),
                        side=name, number=n, square=square,
                    )
            out[side] = f"{side}:" + ";".join(f"{sq}-{n}" for sq, n, _, _ in entries)
        return out

    def _moves(self, g: _Game, squares: dict[str, tuple[str, int]]) -> str | None:
        """The moves made: sides, points and die. The first mover's letter, if the moves say it."""
        written = [w for w in g.written if w.first is not None]
        # Pieces (R5, B1) or squares (A5, B4)? A record writes one way: any first token whose
        # letter is no side letter settles it; the standard's pieces otherwise.
        by_squares = any(w.first[0] not in (RED, BLUE) for w in written if w.first)
        first: str | None = None
        if written and written[0].first:
            a = written[0].first
            first = squares.get(f"{a[0]}{a[1]}", (None, 0))[0] if by_squares else a[0]
        first = first or RED
        expected = 1
        for i, (move, w) in enumerate(zip(g.moves, g.written, strict=True)):
            if w.first is None:
                continue  # unreadable: reported already
            if w.number is not None and w.number != expected:
                self._report(
                    g, w.line, w.column, MOVE_NUMBER, N_("move number {written} where {expected} was expected"),
                    written=w.number, expected=expected,
                )
            expected = (w.number if w.number is not None else expected) + 1
            if w.die is None:
                template = N_("move {ply} gives no die: which piece it allowed is not checked")
                self._report(g, w.line, w.column, NO_DIE, template, ply=i + 1)
            move.mark, move.to = w.mark, w.second
            if by_squares:
                move.side = first if i % 2 == 0 else OTHER[first]
                move.point, move.parts = w.first, (w.die, None)
            else:
                move.side, move.parts = w.first[0], (w.die, w.first[1])
        return first if written else None

    def _first(self, g: _Game, by_moves: str | None) -> str:
        """The first mover's colour: the moves', checked against the header's (the moves win)."""
        said = g.said_first
        if said is None and g.teams and g.teams[0][1] is not None:
            said = g.teams[0][1]
        if by_moves is None:
            return said or RED
        if said is not None and said != by_moves:
            self._report(
                g, g.line, 1, FIRST_DIFFERS,
                N_("the header says {said} moves first, but the first move {move} is {moved}'s; read as the move says"),
                said=_name(said), move=g.moves[0].text, moved=_name(by_moves),
            )
        return by_moves

    def _teams_and_result(self, g: _Game, first: str) -> None:
        meta = g.meta
        if g.by_colour:
            meta.first, meta.second = g.by_colour.get(first), g.by_colour.get(OTHER[first])
        else:
            names = [name or None for name, _ in g.teams] + [None, None]
            meta.first, meta.second = names[0], names[1]
        game = self.game.ordered(first) if self.game else None
        if g.winner_name is not None:
            result, recognised = metadata.parse_result(g.winner_name + "胜", game, meta.first, meta.second)
            meta.result, meta.result_text = (result, g.winner_name) if recognised else (None, None)
        words = g.result_words
        if words is not None:
            if words.strip().lower() in _NONE_WORDS:
                template = N_("result [{words}] is a placeholder: no result declared")
                self._report(g, g.result_line, 1, NONE_RESULT, template, words=words)
            else:
                result, recognised = metadata.parse_result(words, game, meta.first, meta.second)
                if recognised:
                    meta.result, meta.result_text = result, words
                else:
                    template = N_("result words {words!r} are not recognised")
                    self._report(g, g.result_line, 1, metadata.RESULT_UNREADABLE, template, words=words)
        if g.trailer is not None:
            number, body = g.trailer
            result, recognised = metadata.parse_result(body, game, meta.first, meta.second)
            if recognised and meta.result is None:
                meta.result, meta.result_text = result, body
            elif recognised and result is not None and result != meta.result:
                self._report(
                    g, number, 1, TRAILER_RESULT,
                    N_("the result after the moves is {trailer!r}, the header says {header!r}; using the header"),
                    trailer=body, header=meta.result_text,
                )


def _square(text: str) -> tuple[str, int]:
    m = _TOKEN.fullmatch(text.strip())
    assert m is not None  # the patterns that call this matched a letter and digits
    return m["letter"].upper(), int(m["digits"])


def _colour(word: str) -> str:
    return RED if word[:1] in ("红", "R", "r") else BLUE


def _name(letter: str) -> Term:
    return T("red") if letter == RED else T("blue")


def _entries(line: str) -> list[tuple[str, int]]:
    """The (square, number) pairs of a set-up line as :meth:`_Reader._setups` writes it."""
    _, _, body = line.partition(":")
    out = []
    for item in body.split(";"):
        square, _, number = item.partition("-")
        out.append((square, int(number)))
    return out


def _setup_problem(entries: list[tuple[str, int, int, int]]) -> tuple[str, dict[str, object]] | None:
    """Why a side's set-up cannot be used (template and arguments), or None."""
    numbers = [n for _, n, _, _ in entries]
    squares = [sq for sq, _, _, _ in entries]
    if sorted(numbers) != [1, 2, 3, 4, 5, 6]:
        return N_("{side}'s set-up numbers its pieces {numbers}, not 1 to 6 once each; the standard's {standard} is used"), {
            "numbers": ",".join(str(n) for n in numbers)
        }
    off = [sq for sq in squares if not re.fullmatch(r"[A-E][1-5]", sq)]
    if off or len(set(squares)) != len(squares):
        return N_(
            "{side}'s set-up puts pieces on {squares}: off the board or twice on one square; the standard's {standard} is used"
        ), {
            "squares": ",".join(off or sorted({sq for sq in squares if squares.count(sq) > 1}))
        }
    return None

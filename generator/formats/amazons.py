"""The Amazons notation of the CCGC university standard (AM): a header line, then numbered turns.

The standard (``specs/000_…txt``, 亚马逊棋棋谱规范说明书)::

    #[AM][北理工马爷 666][知于行][后手胜][2017/7/28 19:28:23 重庆][国赛];
    1 d1d8(b6) g10g3(i5)          turn, the first player's move, the second's
    2 j4f4(c7) a7a5(g5)           a move: queen from, queen to, (arrow)

Columns a-j, rows 1-10 from the bottom; the first player holds white (the
registry's first side), so a turn's first move gets the side letter of the
first side and its second move that of the second side.

One file may hold several games, each starting with its own ``#[AM]`` header
line (:func:`parse_games`: one record per game, in the file's order, with
the line it starts on). Real writers (``corpus/SOURCES.md``) also put free text after the
header's ``;`` (``知于行执白先手``: which team held white), write coordinates
in upper case (``G1G9(F9)``) and with double spaces, leave a turn number with
no moves at the end of a truncated game, keep the standard's placeholders
(``[先手队]``, ``[先后手胜]``, ``[时间 地点]``), write the result outside the
brackets (``[后手未定]后手胜[时间 地点]``), or write a header and no moves at
all. This reader takes them as they are; every oddity is a diagnostic at its
line and column, and one unreadable move ends only its own game's moves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from generator import games, metadata
from generator.diagnostics import Diagnostic, define, make
from generator.formats import NARROW
from generator.games import GameType
from generator.i18n import N_, T
from generator.model import Metadata, Move, Record, Text

# Codes of this family: the 4xx block of FMT-.
BAD_MOVE = define(
    "FMT-E401",
    "error",
    "An Amazons move cannot be read",
    "Write a move as the queen's square, where it lands and the arrow in brackets: d1d8(b6). "
    "The moves of this game from here on are shown as not replayed.",
)
NO_MOVES = define(
    "FMT-W401",
    "warning",
    "The game has no moves",
    "Check that the file was written completely; the declared result stands.",
)
HEADER_FIELDS = define(
    "FMT-W402",
    "warning",
    "The header line does not have the standard's six fields",
    "Write the header as #[AM][first team][second team][result][time place][event]; "
    "the fields that are there were read in order.",
)
RESULT_OUTSIDE = define(
    "FMT-W403",
    "warning",
    "The result is written outside the header's brackets",
    "Write it as its own field: #[AM][first][second][后手胜][time place][event]; it was read all the same.",
)
NO_HEADER = define(
    "FMT-W404",
    "warning",
    "The game has no header line",
    "Start each game with #[AM][first team][second team][result][time place][event]; "
    "teams and result are taken from the file name where it has them.",
)
TURN_NUMBER = define(
    "FMT-W405",
    "warning",
    "A turn number is out of order",
    "Number the turns 1, 2, 3 ...; the moves were read in the order written.",
)
TRAILER_RESULT = define(
    "FMT-W406",
    "warning",
    "A result after the moves differs from the header's",
    "Correct one of them; the header's result is used.",
)
FREE_TEXT = define(
    "FMT-N401",
    "note",
    "Text after the header was kept as a remark",
    "Nothing to do; the standard ends the header line with its ';'.",
)
PLACEHOLDER = define(
    "FMT-N402",
    "note",
    "A header field holds the standard's placeholder, not a value",
    "Fill in the team names, the time and place and the event; the field was read as empty.",
)
OTHER_LINE = define(
    "FMT-N403",
    "note",
    "A line that is neither a header nor moves was kept as a remark",
    "Nothing to do if it is a comment; a move line is a turn number and one or two moves.",
)
FULL_WIDTH = define(
    "FMT-N404",
    "note",
    "Full-width characters were read as ASCII",
    "Nothing to do; writing programs should use ASCII for the header's brackets and the moves.",
)

# A header: "#" (or none) and a bracketed first field. Fields and the text between them are read by _header().
_HEADER = re.compile(r"\s*#?\s*\[")
_FIELD = re.compile(r"\[([^\[\]]*)\]?")
# A move: queen from, queen to, the arrow in brackets; an optional "-" between the squares
# (d1-d8(b6)) and spaces anywhere between the parts. Rows are ASCII digits (int() would read others).
_MOVE = re.compile(
    r"(?P<c1>[A-Za-z])\s*(?P<r1>[0-9]{1,2})\s*-?\s*(?P<c2>[A-Za-z])\s*(?P<r2>[0-9]{1,2})\s*"
    r"\(\s*(?P<c3>[A-Za-z])\s*(?P<r3>[0-9]{1,2})\s*\)"
)
# Between two moves of a line, besides spaces (ASCII: the line is made narrow first).
_SEPARATORS = frozenset(",;|/")
_TURN = re.compile(r"\s*(?P<n>[0-9]{1,9})\s*[.:、]?(?=\s|$|[A-Za-z])")
# "知于行执白先手": a team and the colour it held, free text after a real writer's header.
_HELD = re.compile(r"(?P<team>\S.*?)\s*执\s*(?P<colour>[白黑])\s*(?:先手|后手)?")
# The standard's placeholders, in metadata.loose() form: the example's words kept by a writer.
_PLACEHOLDERS = frozenset(
    {
        "先手队", "后手队", "先手参赛队", "后手参赛队", "先手未定", "后手未定", "先手方", "后手方",
        "时间地点", "比赛时间地点", "比赛时间及地点", "比赛名称", "赛事名称", "竞赛名称",
    }
)
_FIELDS = ("code", "first", "second", "result", "when", "event")


def _codes() -> frozenset[str]:
    """The codes of the games this family reads (from the registry)."""
    return frozenset(game.code for game in games.of_format(__name__))


def sniff(text: str) -> str | None:
    """The code of the first header line (``#[AM]…``) among the first lines, if it names a game of this family."""
    codes = _codes()
    for line in text[:2000].lstrip("\ufeff").splitlines()[:8]:
        plain = line.translate(NARROW).strip().lstrip("\ufeff")
        if not plain:
            continue
        m = re.match(r"#?\s*\[\s*([A-Za-z0-9]+)\s*\]", plain)
        if m:
            code = m[1].upper()
            return code if code in codes else None
        if not plain.startswith("#"):
            return None
    return None


def parse_games(text: Text, game: GameType | None) -> list[Record]:
    """Every game of the file, in order. Never raises; problems become diagnostics of their game."""
    return _Reader(text, game).read()


@dataclass(slots=True)
class _Game:
    """One game as it is read: its header line, moves and diagnostics."""

    line: int  # where it starts
    meta: Metadata
    moves: list[Move] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stopped: bool = False  # an unreadable move was met: the rest of the game is not read as moves
    turns: int = 0  # the last turn number read
    seat: int = 0  # the seat of the next move on the current line
    trailer: str | None = None  # a result written after the moves
    trailer_line: int = 0


class _Reader:
    def __init__(self, text: Text, game: GameType | None) -> None:
        self.source = text
        self.game = game
        self.code = game.code if game is not None else None
        self.letters = (game.first.letter, game.second.letter) if game is not None else ("W", "B")
        self.games: list[_Game] = []
        self.full_width_at: tuple[_Game, int] | None = None

    def report(self, game: _Game, line: int, column: int, code: str, template: str, /, **args: object) -> None:
        """A diagnostic of one game; ``template`` is written with N_() where this is called."""
        game.diagnostics.append(make(self.source.path, line, column, code, template, **args))

    def read(self) -> list[Record]:
        for number, line in enumerate(self.source.lines(), 1):
            self._line(number, line)
        if not self.games:
            self.games.append(self._new_game(1))
        return [self._record(n, game) for n, game in enumerate(self.games, 1)]

    def _new_game(self, line: int) -> _Game:
        return _Game(line, Metadata(code=self.code))

    # -- one line ---------------------------------------------------------------

    def _line(self, number: int, raw: str) -> None:
        if not raw.strip():
            return
        plain = raw.translate(NARROW)
        if _HEADER.match(plain):
            game = self._new_game(number)
            self.games.append(game)
            self._note_width(game, number, raw, plain)
            self._header(game, number, plain, raw)
            return
        if not self.games:
            self.games.append(self._new_game(number))
            self.report(
                self.games[-1], number, 1, NO_HEADER,
                N_("no header line #[AM][first][second][result][time place][event] before the moves"),
            )
        game = self.games[-1]
        self._note_width(game, number, raw, plain)
        self._body(game, number, plain)

    def _note_width(self, game: _Game, number: int, raw: str, plain: str) -> None:
        if plain != raw and self.full_width_at is None:
            self.full_width_at = (game, number)

    def _body(self, game: _Game, number: int, plain: str) -> None:
        """A line after the header: a turn of moves, a result, or a remark."""
        turn = _TURN.match(plain)
        rest = turn.end() if turn else 0
        first_move = _MOVE.search(plain, rest)
        if turn is None and first_move is None:
            self._remark(game, number, 1, plain)
            return
        if turn is not None:
            self._turn_number(game, number, turn)
            game.seat = 0
        if game.stopped:
            return
        if turn is None and first_move is not None and plain[: first_move.start()].strip():
            # "第3回合 d1d8(b6) …": the words before the first move are no move.
            rest = first_move.start()
            template = N_("text {text!r} before the moves of the line kept as a remark")
            self.report(game, number, 1, OTHER_LINE, template, text=plain[:rest].strip()[:40])
        pos = rest
        while pos < len(plain):
            while pos < len(plain) and (plain[pos].isspace() or plain[pos] in _SEPARATORS):
                pos += 1
            if pos >= len(plain):
                break
            m = _MOVE.match(plain, pos)
            if m is None:
                self._unreadable(game, number, pos, plain)
                return
            game.moves.append(self._move(m, number, game.seat))
            game.seat = 1 - game.seat
            pos = m.end()

    def _turn_number(self, game: _Game, number: int, turn: re.Match[str]) -> None:
        written = int(turn["n"])
        expected = game.turns + 1
        if written != expected and not game.stopped:
            self.report(
                game, number, turn.start("n") + 1, TURN_NUMBER,
                N_("turn {written} where turn {expected} was expected; the moves are read in the order written"),
                written=written, expected=expected,
            )
        game.turns = written

    def _move(self, m: re.Match[str], line: int, seat: int) -> Move:
        c1, r1, c2, r2, c3, r3 = m.groups()
        c1, c2, c3, n1, n2, n3 = c1.lower(), c2.lower(), c3.lower(), int(r1), int(r2), int(r3)
        text = f"{c1}{n1}{c2}{n2}({c3}{n3})"
        return Move(self.letters[seat], text, (c1, n1), line, m.start() + 1, to=(c2, n2), parts=((c3, n3),))

    def _unreadable(self, game: _Game, number: int, pos: int, plain: str) -> None:
        written = plain[pos:].split()[0]
        if not re.search(r"[0-9]", written):
            # Words, not a move gone wrong ("认输", "(超时)"): a remark kept with the move before them.
            self._remark(game, number, pos + 1, plain[pos:])
            return
        self.report(
            game, number, pos + 1, BAD_MOVE, N_("move {ply}: cannot read {text!r}"), ply=len(game.moves) + 1, text=written[:40]
        )
        game.moves.append(Move(self.letters[game.seat], written[:24], None, number, pos + 1))
        game.stopped = True

    def _remark(self, game: _Game, number: int, column: int, plain: str) -> None:
        """Text that is no move: a result after the moves (``# 先手胜``), or a remark kept with the last move."""
        text = plain.strip().lstrip("#").strip()
        _, recognised = metadata.parse_result(text, self.game, game.meta.first, game.meta.second)
        if recognised and text:
            game.trailer, game.trailer_line = text, number
            return
        self.report(game, number, column, OTHER_LINE, N_("line {text!r} kept as a remark"), text=plain.strip()[:60])
        if game.moves:
            last = game.moves[-1]
            last.comment = f"{last.comment}\n{plain.strip()}" if last.comment else plain.strip()

    # -- the header ---------------------------------------------------------------

    def _header(self, game: _Game, number: int, plain: str, raw: str) -> None:
        """Read ``#[AM][first][second][result][time place][event];`` and what follows it on the line."""
        pos = plain.index("[")
        fields: list[tuple[str, int]] = []  # value, column of its "["
        loose: list[tuple[str, int, int]] = []  # text between fields, its column, the fields before it
        end = len(plain)
        while pos < end:
            ch = plain[pos]
            if ch == "[":
                m = _FIELD.match(plain, pos)
                assert m is not None  # "[" then anything: always matches
                fields.append((raw[m.start(1) : m.end(1)].strip(), pos + 1))
                pos = m.end()
            elif ch in ";；":
                pos += 1
                break
            elif ch.isspace():
                pos += 1
            else:
                stop = min([i for i in (plain.find("[", pos), plain.find(";", pos)) if i >= 0] or [end])
                loose.append((raw[pos:stop].strip(), pos + 1, len(fields)))
                pos = stop
        self._fill(game, number, fields, loose)
        rest = plain[pos:].strip()
        if rest:
            if _TURN.match(plain, pos) and _MOVE.search(plain, pos):
                # The first turn on the header's line: read in place, so that columns stay true.
                self._body(game, number, " " * pos + plain[pos:])
            else:
                self._free_text(game, number, pos + 1 + (len(plain[pos:]) - len(plain[pos:].lstrip())), raw[pos:].strip())

    def _fill(self, game: _Game, number: int, fields: list[tuple[str, int]], loose: list[tuple[str, int, int]]) -> None:
        values = [value for value, _ in fields]
        columns = [column for _, column in fields]
        # "[先手未定][后手未定]后手胜[时间 地点][比赛名称]": five fields and the result between them.
        for text, column, before in loose:
            result, recognised = metadata.parse_result(text, self.game)
            if recognised and len(values) < len(_FIELDS) and before == 3:
                self.report(
                    game, number, column, RESULT_OUTSIDE,
                    N_("the result {words!r} is written outside the header's brackets; read as the result field"),
                    words=text,
                )
                values.insert(3, text)
                columns.insert(3, column)
            else:
                template = N_("text {text!r} between the header's fields ignored")
                self.report(game, number, column, HEADER_FIELDS, template, text=text[:40])
        if len(values) != len(_FIELDS):
            self.report(
                game, number, 1, HEADER_FIELDS,
                N_("the header has {count} fields, the standard six: [code][first team][second team][result][time place][event]"),
                count=len(values),
            )
        named = dict(zip(_FIELDS, values))
        at = dict(zip(_FIELDS, columns))
        meta = game.meta
        for key in ("first", "second", "when", "event"):
            value = named.get(key, "")
            if value and metadata.loose(value) in _PLACEHOLDERS:
                self.report(
                    game, number, at[key], PLACEHOLDER,
                    N_("the {field} field {text!r} is the standard's placeholder; read as empty"),
                    field=_FIELD_NAMES[key], text=value,
                )
                named[key] = ""
        meta.first, meta.second = named.get("first") or None, named.get("second") or None
        words = named.get("result", "")
        if words:
            result, recognised = metadata.parse_result(words, self.game, meta.first, meta.second)
            meta.result, meta.result_text = result, words
            if recognised and result is None:  # 先(后)手胜 as the standard's example writes it
                self.report(
                    game, number, at["result"], PLACEHOLDER,
                    N_("the {field} field {text!r} is the standard's placeholder; read as empty"),
                    field=T("result"), text=words,
                )
            if not recognised:
                self.report(
                    game, number, at["result"], metadata.RESULT_UNREADABLE,
                    N_("result {words!r} not recognised; write 先手胜, 后手胜, 平局 or 未决胜"), words=words,
                )
        when = named.get("when", "")
        if when:
            date, clock, place = metadata.parse_when(when)
            meta.date, meta.time, meta.place = date, clock, place
            if date is None and when[:1].isdigit():
                template = N_("no date could be read in {when!r}")
                self.report(game, number, at["when"], metadata.DATE_UNREADABLE, template, when=when)
        meta.event = named.get("event") or None

    def _free_text(self, game: _Game, number: int, column: int, text: str) -> None:
        """Text after the header's ';': kept as a remark; "<team>执白先手" names the team of a side left empty."""
        self.report(game, number, column, FREE_TEXT, N_("text after the header kept as a remark: {text!r}"), text=text[:60])
        held = _HELD.fullmatch(text)
        if held is None:
            return
        team = held["team"].strip()
        meta = game.meta
        if held["colour"] == "白" and meta.first is None:
            meta.first = team
        elif held["colour"] == "黑" and meta.second is None:
            meta.second = team

    # -- after all lines ------------------------------------------------------------

    def _record(self, n: int, game: _Game) -> Record:
        if self.full_width_at is not None and self.full_width_at[0] is game:
            self.report(game, self.full_width_at[1], 1, FULL_WIDTH, N_("full-width characters were read as ASCII"))
        if not game.moves:
            if len(self.games) > 1:
                self.report(game, game.line, 1, NO_MOVES, N_("game {game} of the file has no moves"), game=n)
            else:
                self.report(game, game.line, 1, NO_MOVES, N_("the record has no moves"))
        self._trailer(game)
        game.diagnostics.sort(key=lambda d: (d.line, d.column))
        several = len(self.games) > 1
        return Record(
            self.source.path, self.code, game.meta, game.moves, game.diagnostics,
            game=n if several else 0, line=game.line if several else 1,
        )

    def _trailer(self, game: _Game) -> None:
        """A result written on a line of its own after the moves: used where the header has none."""
        if game.trailer is None:
            return
        meta = game.meta
        result, _ = metadata.parse_result(game.trailer, self.game, meta.first, meta.second)
        if meta.result is None and not meta.result_text:
            meta.result, meta.result_text = result, game.trailer
        elif result is not None and meta.result not in (None, "unknown") and result != meta.result:
            self.report(
                game, game.trailer_line, 1, TRAILER_RESULT,
                N_("the result {trailer!r} after the moves differs from the header's {header!r}; the header's is used"),
                trailer=game.trailer, header=meta.result_text,
            )


_FIELD_NAMES = {"first": T("first team"), "second": T("second team"), "when": T("time and place"), "event": T("event")}

"""The JSON record of dots and boxes (the university standard, ``specs/000_…txt``, 点格棋).

The standard's record is one JSON object::

    {"R": "红方队", "B": "蓝方队", "winner": "R", "RScore": 19, "BScore": 6,
     "Date": "2018-04-23", "Event": "大学生计算机博弈大赛",
     "game": [{"piece": "r(b4,h)", "annotation": "注释"}, {"piece": "b(d3,v)"}, ...]}

``R`` and ``B`` are the teams of red and blue, ``winner`` names the winning
colour, ``RScore``/``BScore`` the boxes each took. A piece is the mover
(``r`` or ``b``), a dot (column a-f, row 1-6 from the bottom) and the edge's
direction from that dot: ``h`` to the right, ``v`` upwards. Which colour
moves first is not fixed (轮流先手): the first piece says.

Real writers vary, and this reader takes what they write: keys in any case
(``winner`` or ``Winner``), scores as numbers or strings, dates without
leading zeros, upper-case pieces, full-width brackets, and a mover letter that
is neither ``r`` nor ``b`` (the standard's own example writes ``n``): a
warning, and the engine takes the mover from the turn order. An aborted game
of three moves is a game like any other. A file that is not valid JSON (the
standard's example itself is cut off) is an error at the place the JSON
breaks, and every key and piece that can still be found is read. A file
whose JSON is a list of such objects holds several games.

The reader gives moves in the order of play with ``Move.point`` the named
dot and ``Move.to`` the dot at the edge's other end (``("B", 4)`` and
``("C", 4)`` for ``(b4,h)``), side letters ``R`` and ``B`` (``""`` where the
mover is unknown), and the metadata in the order of play: ``first`` is the
team of the colour that moved first, the declared score is keyed
``first``/``second`` the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from generator import games, metadata
from generator.diagnostics import Diagnostic, define, make
from generator.formats import NARROW
from generator.games import GameType
from generator.i18n import N_, T
from generator.model import Metadata, Move, Record, Result, Text

# Codes of this family: the 9xx block of FMT-.
BAD_JSON = define(
    "FMT-E901",
    "error",
    "The dots and boxes record is not valid JSON",
    "The message gives the line and column where the JSON breaks (a missing comma, quote or bracket, a "
    "file cut off). The keys and pieces that could still be found were read; correct the file to be sure "
    "nothing is missing.",
)
BAD_PIECE = define(
    "FMT-E902",
    "error",
    "A dots and boxes piece cannot be read",
    'Write a piece as the mover, a dot and the direction: "r(b4,h)" (red, the edge from b4 to the right) '
    'or "b(c2,v)" (blue, the edge from c2 upwards). The moves from here on are shown as not replayed.',
)
UNKNOWN_MOVER = define(
    "FMT-W901",
    "warning",
    "A piece names a mover that is neither r nor b",
    "The piece was read, and its mover is the player whose turn it was (the sides alternate, and "
    "completing a box gives the same player another move). Write r for red, b for blue.",
)
NO_MOVES = define(
    "FMT-W902",
    "warning",
    "The record has no moves",
    'Check that the file was written completely: the pieces go in the list under the key "game".',
)
BAD_SCORE = define(
    "FMT-W903",
    "warning",
    "A declared score is not a number of boxes",
    "Write RScore and BScore as whole numbers from 0 to 25 (a number or a string of digits); this one "
    "is ignored.",
)
NOT_A_RECORD = define(
    "FMT-W904",
    "warning",
    "A part of the JSON is not where the record standard puts it",
    'The record is one object with the keys R, B, winner, RScore, BScore, Date, Event and game; "game" '
    'is a list of objects each with a "piece". The part named was skipped.',
)
OTHER_KEY = define(
    "FMT-N901",
    "note",
    "The record has a key the standard does not name",
    "Nothing to do; the key is shown here and otherwise ignored.",
)
FULL_WIDTH = define(
    "FMT-N902",
    "note",
    "Full-width characters in pieces were read as ASCII",
    "Nothing to do; writing programs should use ASCII for pieces.",
)

RED, BLUE = "R", "B"  # the side letters moves are given
KNOWN_KEYS = frozenset(("r", "b", "winner", "rscore", "bscore", "date", "event", "game"))
# A piece once full-width characters are ASCII: mover, dot, direction.
_PIECE = re.compile(r"\s*(?P<mover>[^\s(]?)\s*\(\s*(?P<column>[A-Za-z])\s*(?P<row>[0-9]{1,2})\s*,\s*(?P<dir>[hHvV])\s*\)\s*")
# Where each piece is written, in the order of the file (for lines and columns).
_PIECE_AT = re.compile(r'"piece"\s*:\s*"((?:[^"\\]|\\.)*)"', re.IGNORECASE)
# For a file that is not valid JSON: "key": "string" or "key": number, anywhere.
_PAIR = re.compile(r'"(?P<key>[A-Za-z]+)"\s*:\s*(?:"(?P<text>(?:[^"\\]|\\.)*)"|(?P<number>-?[0-9]+(?:\.[0-9]+)?))')
# What the json module says where a file breaks, in words an organiser reads (and a translator translates).
_JSON_ERRORS = {
    "Expecting ',' delimiter": T("a comma is missing"),
    "Expecting ':' delimiter": T("a colon is missing after a key"),
    "Expecting property name enclosed in double quotes": T("a key in double quotes is expected (a comma too many?)"),
    "Expecting value": T("a value is missing (or the file is empty)"),
    "Unterminated string starting at": T("a string is not closed (the file may be cut off)"),
    "Invalid control character at": T("a line ends inside a string (the file may be cut off)"),
    "Extra data": T("there is more text after the record's closing brace"),
}
_CUT_OFF = T("the file ends before the record is closed (it may be cut off)")
_KEY_NAMES = {"rscore": "RScore", "bscore": "BScore"}
_WINNER_WORDS = {"r": RED, "red": RED, "红": RED, "红方": RED, "b": BLUE, "blue": BLUE, "蓝": BLUE, "蓝方": BLUE}
# Full-width ASCII and the ideographic space as ASCII.
_NARROW = {**NARROW, 0xFF08: ord("("), 0xFF09: ord(")"), 0xFF0C: ord(",")}


def _code() -> str | None:
    """The game code this family reads (from the registry)."""
    family = games.of_format(__name__)
    return family[0].code if family else None


def sniff(text: str) -> str | None:
    """The family's game when the text is JSON with pieces, the red and blue scores, or a winner and a team."""
    head = text[:4000].lstrip("\ufeff \t\r\n")
    if not head.startswith(("{", "[")):
        return None
    if re.search(r'"(?:piece|rscore|bscore)"\s*:', head, re.IGNORECASE):
        return _code()
    if re.search(r'"winner"\s*:', head, re.IGNORECASE) and re.search(r'"[RB]"\s*:', head, re.IGNORECASE):
        return _code()  # no moves and no score, but the standard's keys
    return None


def parse_games(text: Text, game: GameType | None) -> list[Record]:
    """Every game of a file: one per JSON object (a file whose JSON is a list of records holds several)."""
    return _Reader(text, game).read()


@dataclass(slots=True)
class _Found:
    """What the JSON says of one game, before it is turned into a record."""

    values: dict[str, Any] = field(default_factory=dict)  # lower-case key -> value as parsed
    lines: dict[str, int] = field(default_factory=dict)  # lower-case key -> line it is written on
    pieces: list[tuple[Any, int, int, str | None]] = field(default_factory=list)  # value, line, column, annotation
    line: int = 1  # where the game's object starts


class _Reader:
    def __init__(self, text: Text, game: GameType | None) -> None:
        self.source = text
        self.game = game
        self.code = game.code if game is not None else _code()
        self.diagnostics: list[Diagnostic] = []
        # Pieces of the game being read whose mover is unknown: number, line, column, text, letter.
        self.unknown: list[tuple[int, int, int, str, str]] = []

    def report(self, line: int, column: int, code: str, template: str, /, **args: object) -> None:
        """A diagnostic; ``template`` is written with N_() where this is called."""
        self.diagnostics.append(make(self.source.path, line, column, code, template, **args))

    def read(self) -> list[Record]:
        body = self.source.text.lstrip("\ufeff")
        shift = len(self.source.text) - len(body)
        try:
            data = json.loads(body)
        except json.JSONDecodeError as e:
            line, column = self.source.position(e.pos + shift)
            error = _CUT_OFF if not body[e.pos :].strip() else _JSON_ERRORS.get(e.msg)
            self.report(line, column, BAD_JSON, N_("the JSON breaks here: {error}; what could be found was read"),
                        error=error if error is not None else e.msg)
            found = [self._salvage()]
        except RecursionError:
            # Brackets nested thousands deep: no record, and nothing the salvage could trust more.
            self.report(1, 1, BAD_JSON, N_("the JSON breaks here: {error}; what could be found was read"),
                        error=T("brackets are nested too deeply"))
            found = [self._salvage()]
        else:
            found = self._games(data)
        records = []
        for n, one in enumerate(found):
            records.append(self._record(one, n + 1 if len(found) > 1 else 0))
        # What concerns the file as a whole goes with its first game.
        records[0].diagnostics[:0] = self.diagnostics
        return records

    # -- from valid JSON ----------------------------------------------------------

    def _games(self, data: Any) -> list[_Found]:
        objects = data if isinstance(data, list) and data and all(isinstance(x, dict) for x in data) else [data]
        where = iter(_PIECE_AT.finditer(self.source.text))
        starts = self._object_lines(len(objects)) if len(objects) > 1 else [1]
        found = []
        for obj, start in zip(objects, starts, strict=True):
            if not isinstance(obj, dict):
                self.report(1, 1, NOT_A_RECORD, N_("the JSON is not an object of keys and values; nothing to read"))
                found.append(_Found())
                continue
            found.append(self._object(obj, where, start))
        return found

    def _object_lines(self, count: int) -> list[int]:
        """The line each of the top-level objects of a list starts on (by depth, strings skipped)."""
        lines, depth, text = [], 0, self.source.text
        for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[{}\[\]]', text):
            token = m.group()
            if token in "{[":
                if token == "{" and depth == 1:
                    lines.append(self.source.position(m.start())[0])
                depth += 1
            elif token in "}]":
                depth -= 1
        return lines if len(lines) == count else [1] * count

    def _object(self, obj: dict[str, Any], where: Iterator[re.Match[str]], start: int) -> _Found:
        one = _Found(line=start)
        for key, value in obj.items():
            low = key.strip().lower()
            line = self._line_of_key(key, start)
            if low not in KNOWN_KEYS:
                shown = value if isinstance(value, (str, int, float)) else type(value).__name__
                self.report(line, 1, OTHER_KEY, N_("key {key!r} (value {value!r}) is not one of the record's keys"),
                            key=key, value=str(shown)[:40])
                continue
            one.values[low], one.lines[low] = value, line
        moves = one.values.pop("game", None)
        if moves is None:
            return one
        if not isinstance(moves, list):
            self.report(one.lines["game"], 1, NOT_A_RECORD, N_('"game" is not a list of pieces; it was skipped'))
            return one
        for entry in moves:
            piece, note = self._entry(entry)
            if piece is None:
                self.report(one.lines["game"], 1, NOT_A_RECORD,
                            N_('an entry of "game" has no "piece": {entry!r}; it was skipped'), entry=str(entry)[:40])
                continue
            m = next(where, None) if isinstance(piece, str) else None
            if m is not None and json.loads(f'"{m.group(1)}"') == piece:
                line, column = self.source.position(m.start(1) - 1)
            else:
                line, column = one.lines["game"], 1
            one.pieces.append((piece, line, column, note))
        return one

    @staticmethod
    def _entry(entry: Any) -> tuple[Any, str | None]:
        """An entry of the "game" list: its piece and annotation (a bare string is a piece)."""
        if isinstance(entry, str):
            return entry, None
        if not isinstance(entry, dict):
            return None, None
        piece = note = None
        for key, value in entry.items():
            low = key.strip().lower()
            if low == "piece":
                piece = value
            elif low in ("annotation", "comment", "note") and value not in (None, ""):
                note = str(value)
        return piece, note

    def _line_of_key(self, key: str, start: int) -> int:
        """The line a key is written on: the first ``"key":`` from the game's start (as written, or escaped)."""
        text, offset = self.source.text, self.source.line_starts[start - 1]
        for written in dict.fromkeys((json.dumps(key, ensure_ascii=False), json.dumps(key))):
            m = re.compile(re.escape(written) + r"\s*:").search(text, offset)
            if m is not None:
                return self.source.position(m.start())[0]
        return start

    # -- from broken JSON -----------------------------------------------------------

    def _salvage(self) -> _Found:
        """Every ``"key": value`` the text holds, the pieces in order: the most a broken file still says."""
        one = _Found()
        text = self.source.text
        for m in _PAIR.finditer(text):
            low = m["key"].lower()
            line, column = self.source.position(m.start())
            value: Any = m["number"] if m["text"] is None else _unescape(m["text"])
            if low == "piece":
                one.pieces.append((value, *self.source.position(m.start("text") - 1), None))
            elif low in ("annotation", "comment", "note") and one.pieces and value:
                piece, pline, pcolumn, _ = one.pieces[-1]
                one.pieces[-1] = (piece, pline, pcolumn, value)
            elif low in KNOWN_KEYS and low != "game" and low not in one.values:
                one.values[low] = float(value) if m["number"] is not None else value
                one.lines[low] = line
        return one

    # -- one game ---------------------------------------------------------------------

    def _record(self, one: _Found, number: int) -> Record:
        mark = len(self.diagnostics)
        self.unknown = []
        moves = [self._move(n + 1, *entry) for n, entry in enumerate(one.pieces)]
        self._unknown_movers()
        meta = Metadata(code=self.code)
        first = next((m.side for m in moves[:1] if m.side in (RED, BLUE)), RED)
        teams = {RED: _text(one.values.get("r")), BLUE: _text(one.values.get("b"))}
        other = BLUE if first == RED else RED
        meta.first, meta.second = teams[first], teams[other]
        game = self.game.ordered(first) if self.game is not None else None
        scores = {letter: self._score(one, key) for letter, key in ((RED, "rscore"), (BLUE, "bscore"))}
        red, blue = scores[RED], scores[BLUE]
        if red is not None and blue is not None:
            meta.score = {"first": red, "second": blue} if first == RED else {"first": blue, "second": red}
        winner = one.values.get("winner")
        if winner not in (None, ""):
            meta.result, meta.result_text = self._winner(str(winner), one.lines.get("winner", one.line), first, teams, game)
        self._when(one, meta)
        event = _text(one.values.get("event"))
        meta.event = event
        if not moves:
            self.report(one.line, 1, NO_MOVES, N_("the record has no moves"))
        found = self.diagnostics[mark:]
        del self.diagnostics[mark:]
        return Record(self.source.path, self.code, meta, moves, found, game=number, line=one.line)

    def _move(self, number: int, piece: Any, line: int, column: int, note: str | None) -> Move:
        written = str(piece)
        plain = written.translate(_NARROW)
        m = _PIECE.fullmatch(plain) if isinstance(piece, str) else None
        if m is None:
            template = N_("move {number}: piece {text!r} cannot be read")
            self.report(line, column, BAD_PIECE, template, number=number, text=written[:40])
            return Move("?", written[:24], None, line, column, comment=note)
        if plain != written:
            template = N_("full-width characters in piece {text!r} were read as ASCII")
            self.report(line, column, FULL_WIDTH, template, text=written[:40])
        mover = m["mover"].lower()
        side = {"r": RED, "b": BLUE}.get(mover, "")
        if not side:
            self.unknown.append((number, line, column, written[:40], m["mover"]))
        column_letter, row, direction = m["column"].upper(), int(m["row"]), m["dir"].lower()
        to = (chr(ord(column_letter) + 1), row) if direction == "h" else (column_letter, row + 1)
        text = f"{mover}({column_letter.lower()}{row},{direction})"
        return Move(side, text, (column_letter, row), line, column, comment=note, to=to)

    def _unknown_movers(self) -> None:
        """One warning, at the first piece whose mover is neither r nor b, for all of them."""
        if not self.unknown:
            return
        number, line, column, text, letter = self.unknown[0]
        more = len(self.unknown) - 1
        if not letter:
            template = N_(
                "move {number}: piece {text!r} names no mover (r for red, b for blue), and {more} more pieces name none "
                "or another letter; their movers are the players whose turn it was"
            ) if more else N_("move {number}: piece {text!r} names no mover (r for red, b for blue); the mover is the "
                              "player whose turn it was")
        elif more:
            template = N_(
                "move {number}: piece {text!r} names the mover {letter!r}, neither r (red) nor b (blue), and so do "
                "{more} more pieces; their movers are the players whose turn it was"
            )
        else:
            template = N_(
                "move {number}: piece {text!r} names the mover {letter!r}, neither r (red) nor b (blue); the mover "
                "is the player whose turn it was"
            )
        self.report(line, column, UNKNOWN_MOVER, template, number=number, text=text, letter=letter, more=more)

    def _score(self, one: _Found, key: str) -> float | None:
        value = one.values.get(key)
        if value is None or value == "":
            return None
        try:
            number = float(str(value).strip()) if not isinstance(value, bool) else None
        except ValueError:
            number = None
        if number is None or not number.is_integer() or number < 0:
            self.report(one.lines.get(key, one.line), 1, BAD_SCORE, N_("{key} {value!r} is not a number of boxes; ignored"),
                        key=_KEY_NAMES[key], value=str(value)[:20])
            return None
        return number

    def _winner(
        self, words: str, line: int, first: str, teams: dict[str, str | None], game: GameType | None
    ) -> tuple[Result | None, str]:
        """The declared result in the order of play: a colour letter or word, result words, or a team's name."""
        plain = words.strip().translate(_NARROW)
        letter = _WINNER_WORDS.get(plain.lower())
        if letter is None:
            named = [colour for colour, team in teams.items() if team and plain == team]
            letter = named[0] if len(named) == 1 else None
        if letter is not None:
            return ("first" if letter == first else "second"), words
        result, recognised = metadata.parse_result(plain, game, teams[first], teams[RED if first == BLUE else BLUE])
        if not recognised:
            self.report(line, 1, metadata.RESULT_UNREADABLE, N_("result words {words!r} are not recognised"), words=words)
            return None, words
        return result, words

    def _when(self, one: _Found, meta: Metadata) -> None:
        value = _text(one.values.get("date"))
        if value is None:
            return
        date, clock, place = metadata.parse_when(value)
        if date is None:
            self.report(one.lines.get("date", one.line), 1, metadata.DATE_UNREADABLE, N_("date {text!r} cannot be read"),
                        text=value[:40])
            return
        meta.date, meta.time, meta.place = date, clock, place


def _text(value: Any) -> str | None:
    """A header value as text: strings stripped, numbers as written, nothing for empty or missing."""
    if value is None or isinstance(value, (dict, list)):
        return None
    text = (f"{value:g}" if isinstance(value, float) else str(value)).strip()
    return text or None


def _unescape(text: str) -> str:
    try:
        return str(json.loads(f'"{text}"'))
    except json.JSONDecodeError:
        return text


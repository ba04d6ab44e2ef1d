"""The army chess record of the CCGC university standard (AC2, ``specs/000_…txt``, 军棋棋谱格式说明文档).

The standard's example::

    (
    ;INFO[1.0]PA[先手玩家]PB[后手玩家]TL[1800]SL[31]
    ;AA[abccddeeffggghhhiiijjkklj]        the first player's layout
    ;AB[jlkkjjiiihhhgggffeeddccba]        the second player's layout
    ;MA[G0F0]RA[1]FB[00]                  a move, its outcome, a flag shown
    ;MARK[先手仅移动]                       a comment
    ;EA[0]EB[1]                           who lost (0) and won (1); 2: abnormal end
    )

Groups of ``NAME[value]`` properties separated by ``;``. Cells are a row
letter A-L (top to bottom) and a column digit 0-4. ``RA``/``RB`` is the
outcome of the move (0 the mover lost, 1 won, 2 both removed, 3 moved only);
``FA``/``FB`` where a flag stands once its commander fell (``00``: not shown).
The piece table of ``000_…txt`` is garbled: the codes are those of the
referee protocol (``003_…txt``): a 司令 … i 工兵, j 地雷, k 炸弹, l 军旗.

A layout lists a side's 25 pieces row by row over its half's stations (camps
left out). The standard puts the first player below, writes ``AA`` in board
order (G0 … L4) and ``AB`` reversed, so that it too reads in board order
(A0 … F4). Real files (``corpus/SOURCES.md``) differ: they write both
layouts as the players sent them (not reversed), and their moves put the
first player at the top (the referee tool wrote every cell as the second
player sees the board). So the reading is found, not assumed: each way of
placing the two layouts is tried (the first player below or above, each
string as written or reversed), kept if it follows the layout rules (flag in
a headquarters, mines in the last two rows, no bomb in the front row, the
right counts) and if each side's first move starts from one of its pieces;
where several fit, the standard's comes first, and a note says which was
taken. Real files also write the flag property with the mover's own letter
(``MA[…]…FA[…]``) and close with `` )``: both are read.

:func:`parse` gives the :class:`Record` the engine (``rules/armychess.py``)
replays: ``setup`` is the board, 12 rows of 5 (``.`` empty, the first
player's codes in upper case, the second's in lower case), then ``SL``, then
where each layout was written (``"line:column"``), then ``"same"`` where
both layouts are one string (one of them is not the real one); each move's ``parts`` are
its recorded outcome (an int or None) and its flag property (letter and
value: ``"B00"``, ``"AA1"``) or None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator import games
from generator.diagnostics import define
from generator.formats import NARROW, LineReader
from generator.games import GameType
from generator.i18n import N_, T
from generator.model import Metadata, Move, Record, Text
from generator.rules.armychess import CAMPS, COLUMNS, COUNTS, ROWS, layout_problems

# Codes of this family: block 10 of FMT-.
BAD_MOVE = define(
    "FMT-E1001",
    "error",
    "An army chess move cannot be read",
    "Write a move as four characters, from and to: MA[G0F0] (row A-L, column 0-4). The moves from here on are "
    "shown as not replayed.",
)
BAD_LAYOUT = define(
    "FMT-E1002",
    "error",
    "A layout cannot be read",
    "Write a layout as 25 piece codes a-l, row by row over the side's stations: AA[abccddeeffggghhhiiijjkklj].",
)
BAD_VALUE = define(
    "FMT-W1001",
    "warning",
    "A property's value cannot be read",
    "RA/RB take 0, 1, 2 or 3; FA/FB a cell or 00; EA/EB 0, 1 or 2; SL a number. The value was left out.",
)
NO_LAYOUT = define(
    "FMT-W1002",
    "warning",
    "A layout is missing",
    "Write both layouts, AA[…] and AB[…], before the moves; without them the game cannot be replayed.",
)
RESULT_CLASH = define(
    "FMT-W1003",
    "warning",
    "EA and EB do not say one result",
    "One side wins (1) and the other loses (0), or both are 2 (abnormal end); the declared result is left open.",
)
LAYOUT_READING = define(
    "FMT-N1001",
    "note",
    "The layouts were read another way than the standard's",
    "Nothing to do if the board looks right: the reading that follows the layout rules and the first moves was "
    "taken. The standard puts the first player below and writes AB reversed.",
)
READINGS_TIE = define(
    "FMT-N1005",
    "note",
    "Another reading of the layouts fits as well",
    "Nothing to do if the board looks right: the standard's reading (the first player below, AB reversed) was "
    "taken; check the layouts if the battles' outcomes disagree with it.",
)
OTHER_TEXT = define(
    "FMT-N1002",
    "note",
    "Text or a property the standard does not have was kept as a remark",
    "Nothing to do if it is a comment; MARK[…] is the standard's comment.",
)
FULL_WIDTH = define(
    "FMT-N1003",
    "note",
    "Full-width characters were read as ASCII",
    "Nothing to do; writing programs should use ASCII for brackets, semicolons and cells.",
)
SAME_LAYOUTS = define(
    "FMT-W1004",
    "warning",
    "Both layouts are the same string",
    "A referee tool that copies one player's layout into both AA and AB leaves the other layout unknown; the replay "
    "shows that side's pieces face down and follows the record's outcomes for them. Write each side's own layout.",
)
FLAG_LETTER = define(
    "FMT-N1004",
    "note",
    "The flag property carries the mover's own letter",
    "Nothing to do: real referee tools write FA on the first player's lines (the standard writes FB there); "
    "the value is read all the same.",
)

_PROPERTY = re.compile(r"([A-Za-z]+)\s*\[([^\]]*)\]?")
_CELL_MOVE = re.compile(r"\s*([A-La-l])\s*([0-4])\s*-?\s*([A-La-l])\s*([0-4])\s*")
_CELL = re.compile(r"[A-La-l][0-4]")
_LAYOUT = re.compile(r"[a-l]{25}")


def _codes() -> tuple[str, ...]:
    return tuple(game.code for game in games.of_format(__name__))


def sniff(text: str) -> str | None:
    """The family's game if the text opens like an army chess record (``(;INFO[…]`` or a layout ``AA[…]``)."""
    head = text[:600].lstrip("\ufeff").translate(NARROW)
    if re.match(r"\s*\(?\s*;?\s*INFO\s*\[", head) or re.search(r";\s*AA\s*\[[a-lA-L]{10}", head):
        codes = _codes()
        return codes[0] if codes else None
    return None


@dataclass(slots=True)
class _Property:
    name: str
    value: str
    line: int
    column: int
    group: int  # which ;-group it belongs to


def parse(text: Text, game: GameType | None) -> Record:
    """The record of one game. Never raises; problems become diagnostics."""
    return _Reader(text, game).read()


class _Reader(LineReader):
    def __init__(self, text: Text, game: GameType | None) -> None:
        super().__init__(text)
        self.game = game
        self.code = game.code if game is not None else (_codes() or (None,))[0]
        self.letters = (game.first.letter, game.second.letter) if game is not None else ("A", "B")
        self.meta = Metadata(code=self.code)
        self.moves: list[Move] = []
        self.layouts: dict[str, _Property] = {}
        self.sl = ""
        self.stopped = False
        self.flag_letter_noted = False

    def read(self) -> Record:
        props = self._properties()
        groups: dict[int, list[_Property]] = {}
        for prop in props:
            groups.setdefault(prop.group, []).append(prop)
        for prop in props:
            self._property(prop, groups[prop.group])
        setup, setup_line = self._setup()
        self.diagnostics.sort(key=lambda d: (d.line, d.column))
        return Record(self.source.path, self.code, self.meta, self.moves, self.diagnostics, setup=setup, setup_line=setup_line)

    # -- tokens -------------------------------------------------------------------------

    def _properties(self) -> list[_Property]:
        raw = self.source.text
        text = raw.translate(NARROW)
        if text != raw:
            offset = next(i for i, (a, b) in enumerate(zip(raw, text)) if a != b)
            line, column = self.source.position(offset)
            self.report(line, column, FULL_WIDTH, N_("full-width characters were read as ASCII"))
        props: list[_Property] = []
        group, pos, end = 0, 0, len(text)
        while pos < end:
            ch = text[pos]
            if ch == ";":
                group += 1
                pos += 1
            elif ch.isspace() or ch in "()\ufeff":
                pos += 1
            else:
                m = _PROPERTY.match(text, pos)
                if m is None:
                    stop = pos
                    while stop < end and text[stop] not in ";[\n":
                        stop += 1
                    line, column = self.source.position(pos)
                    self.report(line, column, OTHER_TEXT, N_("text {text!r} kept as a remark"), text=text[pos:stop].strip()[:40])
                    pos = max(stop, pos + 1)
                    continue
                line, column = self.source.position(m.start())
                props.append(_Property(m[1].upper(), raw[m.start(2) : m.end(2)].strip(), line, column, group))
                pos = m.end()
        return props

    # -- one property ---------------------------------------------------------------------

    def _property(self, prop: _Property, group: list[_Property]) -> None:
        """One property; ``group``: the properties of its ;-group (a move's outcome and flag are there)."""
        name, value = prop.name, prop.value
        meta = self.meta
        if name == "PA":
            meta.first = value or None
        elif name == "PB":
            meta.second = value or None
        elif name in ("AA", "AB"):
            self.layouts[name] = prop
        elif name == "SL":
            if value.isdigit():
                self.sl = value
            else:
                self._bad_value(prop)
        elif name in ("MA", "MB"):
            self._move(prop, group)
        elif name in ("RA", "RB", "FA", "FB"):
            if not any(p.name in ("MA", "MB") for p in group):
                self._remark(prop)
        elif name == "MARK":
            if self.moves and not self.stopped:
                last = self.moves[-1]
                last.comment = f"{last.comment}\n{value}" if last.comment else value
        elif name in ("EA", "EB"):
            if name == "EA":
                self._result(prop, group)
        elif name in ("INFO", "TL"):
            pass  # the protocol's version and the time limit: nothing to replay
        else:
            self._remark(prop)

    def _remark(self, prop: _Property) -> None:
        template = N_("property {name}[{value}] kept as a remark")
        self.report(prop.line, prop.column, OTHER_TEXT, template, name=prop.name, value=prop.value[:40])

    def _bad_value(self, prop: _Property) -> None:
        template = N_("{name}[{value}]: the value cannot be read and was left out")
        self.report(prop.line, prop.column, BAD_VALUE, template, name=prop.name, value=prop.value[:40])

    def _move(self, prop: _Property, group: list[_Property]) -> None:
        if self.stopped:
            return
        seat = 0 if prop.name == "MA" else 1
        m = _CELL_MOVE.fullmatch(prop.value)
        if m is None:
            self.report(
                prop.line, prop.column, BAD_MOVE, N_("move {ply}: cannot read {text!r}"),
                ply=len(self.moves) + 1, text=prop.value[:24],
            )
            self.moves.append(Move(self.letters[seat], prop.value[:24], None, prop.line, prop.column))
            self.stopped = True
            return
        start, to = f"{m[1].upper()}{m[2]}", f"{m[3].upper()}{m[4]}"
        outcome: int | None = None
        flag: str | None = None
        for other in group:
            if other.name in ("RA", "RB"):
                if other.value in ("0", "1", "2", "3"):
                    outcome = int(other.value)
                else:
                    self._bad_value(other)
            elif other.name in ("FA", "FB"):
                value = other.value.upper()
                if value == "00" or _CELL.fullmatch(value):
                    flag = other.name[1] + value
                    if other.name[1] == prop.name[1] and not self.flag_letter_noted:
                        self.flag_letter_noted = True
                        self.report(
                            other.line, other.column, FLAG_LETTER,
                            N_("{name}[{value}] on a move of the same side: read as the flag the referee has shown"),
                            name=other.name, value=other.value,
                        )
                else:
                    self._bad_value(other)
        battle = outcome in (0, 1, 2)
        point, goal = (start[0], int(start[1])), (to[0], int(to[1]))
        move = Move(self.letters[seat], start + to, point, prop.line, prop.column, to=goal, capture=battle, parts=(outcome, flag))
        self.moves.append(move)

    def _result(self, prop: _Property, group: list[_Property]) -> None:
        ea = prop.value
        eb = next((p.value for p in group if p.name == "EB"), None)
        meta = self.meta
        meta.result_text = f"EA[{ea}]" + (f"EB[{eb}]" if eb is not None else "")
        pair = (ea, eb)
        if pair in (("1", "0"), ("1", None)):
            meta.result = "first"
        elif pair in (("0", "1"), ("0", None)):
            meta.result = "second"
        elif "2" in pair:
            meta.result = "unknown"  # abnormal end: the record says nobody won by the rules
        else:
            meta.result = None
            self.report(
                prop.line, prop.column, RESULT_CLASH,
                N_("EA[{ea}] and EB[{eb}] do not say one result; the declared result is left open"), ea=ea, eb=eb or "",
            )

    # -- the layouts ----------------------------------------------------------------------

    def _setup(self) -> tuple[list[str] | None, int]:
        written: list[str] = []
        places: list[str] = []
        for name in ("AA", "AB"):
            prop = self.layouts.get(name)
            if prop is None:
                line = self.moves[0].line if self.moves else 1
                self.report(line, 1, NO_LAYOUT, N_("the layout {name}[…] is missing"), name=name)
                return None, 0
            value = prop.value.lower() if prop.value.isupper() else prop.value
            if not _LAYOUT.fullmatch(value):
                self.report(
                    prop.line, prop.column, BAD_LAYOUT,
                    N_("{name}[{value}]: a layout is 25 piece codes a-l"), name=name, value=prop.value[:40],
                )
                return None, 0
            written.append(value)
            places.append(f"{prop.line}:{prop.column}")
        rows, reading = self._orient(written[0], written[1])
        if reading:
            prop = self.layouts["AA"]
            self.report(prop.line, prop.column, reading[0], reading[1], **reading[2])
        same = ""
        if written[0] == written[1]:
            same = "same"
            prop = self.layouts["AB"]
            self.report(
                prop.line, prop.column, SAME_LAYOUTS,
                N_("AB[…] is the same string as AA[…]: one side's real layout is not in the record"),
            )
        return [*rows, self.sl, *places, same], self.layouts["AA"].line

    def _orient(self, aa: str, ab: str) -> tuple[list[str], tuple[str, str, dict[str, object]] | None]:
        """The board the two layouts make, read the way that fits the rules and the first moves best."""
        firsts: dict[str, tuple[str, int]] = {}
        for move in self.moves:
            if move.point is not None:
                firsts.setdefault(move.side, move.point)
        scored = []
        for order, (first_top, aa_reversed, ab_reversed) in enumerate(_READINGS):
            rows = _board(aa[::-1] if aa_reversed else aa, ab[::-1] if ab_reversed else ab, first_top)
            score = sum(not layout_problems(rows, seat, first_top if seat == 0 else not first_top) for seat in (0, 1))
            for seat, letter in enumerate(self.letters):
                start = firsts.get(letter)
                if start is not None:
                    code = rows[ROWS.index(start[0])][int(start[1])]
                    score += code != "." and code.isupper() == (seat == 0)
            scored.append((-score, order, rows))
        scored.sort(key=lambda item: (item[0], item[1]))
        best_score, order, rows = scored[0]
        tied = [item for item in scored if item[0] == best_score]
        if order == 0:
            if len(tied) == 1:
                return rows, None
            return rows, (
                READINGS_TIE,
                N_("{count} other readings of the layouts fit the layout rules and the first moves as well; the "
                   "standard's was taken"),
                {"count": len(tied) - 1},
            )
        first_top, aa_reversed, ab_reversed = _READINGS[order]
        return rows, (
            LAYOUT_READING,
            N_("the layouts were read with the first player {half}, AA {aa} and AB {ab}: the reading that follows the "
               "layout rules and the first moves ({count} of 8 readings fit as well)"),
            {
                "half": T("above") if first_top else T("below"), "aa": T("reversed") if aa_reversed else T("as written"),
                "ab": T("reversed") if ab_reversed else T("as written"), "count": len(tied) - 1,
            },
        )


# The ways of placing the layouts: (first player above, AA reversed, AB reversed); the standard's first.
_READINGS = (
    (False, False, False), (False, False, True), (True, True, False), (True, False, False),
    (False, True, False), (False, True, True), (True, True, True), (True, False, True),
)


def _stations(top: bool) -> list[tuple[int, int]]:
    rows = range(0, 6) if top else range(6, 12)
    return [(r, c) for r in rows for c in range(COLUMNS) if r * COLUMNS + c not in CAMPS]


def _board(first: str, second: str, first_top: bool) -> list[str]:
    """12 rows of 5: the first player's codes upper case, the second's lower case, '.' empty."""
    grid = [["."] * COLUMNS for _ in ROWS]
    for (r, c), code in zip(_stations(first_top), first):
        grid[r][c] = code.upper()
    for (r, c), code in zip(_stations(not first_top), second):
        grid[r][c] = code.lower()
    return ["".join(row) for row in grid]


assert sum(COUNTS.values()) == 25

"""Two-player army chess (二人军棋) under the CCGC referee protocol 1.0 (``specs/003_…txt``).

The board has 12 rows (A-L, top to bottom) of 5 columns (0-4); a cell is
named ``"G0"``. Each half holds 25 stations for a side's pieces, five camps
(行营: C1 C3 D2 E1 E3 and H1 H3 I2 J1 J3) where no piece is laid out and
none may be attacked, and two headquarters (大本营: A1 A3, L1 L3). Roads join
neighbouring cells (not across the mountains between F1-G1 and F3-G3) and
each camp with its four diagonal neighbours; railways run along rows B, F,
G and K, down columns 0 and 4 from B to K, and across the front at F2-G2.

Pieces are the protocol's codes a-l: 司令 a, 军长 b, 师长 c, 旅长 d, 团长 e,
营长 f, 连长 g, 排长 h, 工兵 i, 地雷 j, 炸弹 k, 军旗 l. A piece steps one cell
along a road, or runs any distance along one straight railway line over
empty stations; the engineer also turns corners on the railways. Mines, the
flag and any piece in a headquarters never move. A battle follows the
protocol's table (:func:`battle`). The referee tells both players only its
outcome, which the record writes after the move (``RA``/``RB``: 0 the mover
lost, 1 the mover won, 2 both removed, 3 moved only).

The record holds both layouts, so Qipu knows the whole game: the replay
checks every recorded outcome against the table and shows the game three
ways (the referee's view with every piece; each player's with the
opponent's pieces face down, but the flag once its commander has fallen).

What the rules decide, in the protocol's order (``003_…txt``, 和棋或胜负判定规则):

1. an illegal move loses (the replay stops there with an error);
2. the side to move with no legal move loses; if its opponent has none
   either, the game is drawn. (The protocol says "only one side has no
   move: that side loses" without saying when it is asked; the referee
   asks the side to move for a move, so that is when this replay asks.)
3. the side whose flag is taken (by any piece, or blown up by a bomb) loses;
4. (time is not in the record);
5. ``SL`` plies in a row without a battle: the side to move loses.

Where a recorded outcome disagrees with the table, the replay reports it
(naming both pieces) and goes on as the record says the referee decided:
the outcome is what the players were told, and what followed was played on
it. Where the record's outcome cannot be followed at all (a battle with no
piece to fight, a plain move onto an enemy piece), the replay stops.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

from generator import scene
from generator.diagnostics import Diagnostic, define, make
from generator.games import GameType
from generator.i18n import N_, T, Term
from generator.model import Decision, Move, Op, Ply, Record, Replay
from generator.rules.engine import SEATS, Engine, Message, OffBoard

# Codes of this family: block 10 of RULE-, from 10 on.
NO_PIECE = define(
    "RULE-E1010",
    "error",
    "The move does not start from a piece of the side to move",
    "The first cell of a move is where one of the mover's pieces stands; check the cell and the order of the moves.",
)
CANNOT_MOVE = define(
    "RULE-E1011",
    "error",
    "The piece cannot move",
    "Mines, the flag and any piece in a headquarters never move.",
)
BAD_ROUTE = define(
    "RULE-E1012",
    "error",
    "The piece cannot go there",
    "A piece steps one cell along a road, or runs along one straight railway line over empty stations; only the "
    "engineer turns corners on the railways. It may not land on a piece of its own side.",
)
CAMP_ATTACKED = define(
    "RULE-E1013",
    "error",
    "A piece in a camp was attacked",
    "Nothing may attack a piece in a camp (行营); check the move and the positions before it.",
)
WRONG_OUTCOME = define(
    "RULE-E1014",
    "error",
    "The recorded outcome of a battle disagrees with the battle table",
    "The referee's table (003, 碰子规则) decides every battle; the message names both pieces and what the table "
    "says. The replay goes on as the record says; check the layouts (a copied or turned layout gives such errors).",
)
IMPOSSIBLE_OUTCOME = define(
    "RULE-E1015",
    "error",
    "The recorded outcome cannot be followed",
    "A battle needs a piece on the cell attacked and a plain move an empty cell; the replay stops here.",
)
BAD_LAYOUT = define(
    "RULE-E1016",
    "error",
    "A layout breaks the layout rules",
    "25 pieces a side (司令, 军长, 军旗 one each; 师长, 旅长, 团长, 营长, 炸弹 two; 连长, 排长, 工兵, 地雷 three), "
    "the flag in a headquarters, mines in the last two rows, no bomb in the front row, nothing in a camp.",
)
FLAG_REVEAL = define(
    "RULE-E1017",
    "error",
    "The record's flag position disagrees with the game",
    "After a commander falls the referee shows where that side's flag is (FA/FB); before that, 00. The message "
    "says what the rules reveal at this point.",
)

UNKNOWN_LAYOUT = define(
    "RULE-N1010",
    "note",
    "One side's layout is unknown",
    "Both layouts of the record are one string, so one is not the real one; the replay keeps the reading that "
    "meets fewer errors and shows the other side's pieces face down.",
)

KINDS = "abcdefghijkl"
_MOVERS = frozenset("abcdefghik")  # what a piece that moves may be
# The scene's name of each code, and the Chinese name the board draws (specs/003, 表1).
NAMES = {
    "a": "commander", "b": "general", "c": "major-general", "d": "brigadier", "e": "colonel", "f": "major",
    "g": "captain", "h": "lieutenant", "i": "engineer", "j": "mine", "k": "bomb", "l": "flag",
}
CHINESE = {
    "a": "司令", "b": "军长", "c": "师长", "d": "旅长", "e": "团长", "f": "营长",
    "g": "连长", "h": "排长", "i": "工兵", "j": "地雷", "k": "炸弹", "l": "军旗",
}
COUNTS = {"a": 1, "b": 1, "c": 2, "d": 2, "e": 2, "f": 2, "g": 3, "h": 3, "i": 3, "j": 3, "k": 2, "l": 1}
# What a message names a piece: its Chinese name and code ("司令 (a)"), the same in every language.
HIDDEN = "hidden"  # the scene's kind of a face-down piece

LOST, WON, BOTH, MOVED = 0, 1, 2, 3
OUTCOMES: dict[int, Term] = {
    LOST: T("the mover lost"), WON: T("the mover won"), BOTH: T("both removed"), MOVED: T("moved only"),
}
# The move list's sign of each outcome after the move (G0F0×): the words are in the ply's notes.
SIGNS = {LOST: "−", WON: "×", BOTH: "=", MOVED: ""}

ROWS = "ABCDEFGHIJKL"
COLUMNS = 5
CELLS = tuple(f"{ROWS[i // COLUMNS]}{i % COLUMNS}" for i in range(len(ROWS) * COLUMNS))
INDEX = {name: i for i, name in enumerate(CELLS)}
CAMPS = frozenset(INDEX[c] for c in ("C1", "C3", "D2", "E1", "E3", "H1", "H3", "I2", "J1", "J3"))
HEADQUARTERS = frozenset(INDEX[c] for c in ("A1", "A3", "L1", "L3"))
# The railway lines, each a straight run of cells: a piece that is no engineer rides one of them.
RAIL_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX[c] for c in line)
    for line in (
        ("B0", "B1", "B2", "B3", "B4"), ("F0", "F1", "F2", "F3", "F4"),
        ("G0", "G1", "G2", "G3", "G4"), ("K0", "K1", "K2", "K3", "K4"),
        tuple(f"{r}0" for r in "BCDEFGHIJK"), tuple(f"{r}4" for r in "BCDEFGHIJK"), ("F2", "G2"),
    )
)


def cell_index(point: Any) -> int | None:
    """The index of a cell as the reader gives it (``("G", 0)``), None if it is off the board."""
    return INDEX.get(f"{point[0]}{point[1]}") if isinstance(point, tuple) and len(point) == 2 else None


def row_of(at: int) -> int:
    return at // COLUMNS


@functools.cache
def _roads() -> tuple[tuple[int, ...], ...]:
    """Per cell, the cells one road step away: orthogonal neighbours (not across the mountains
    at columns 1 and 3 between F and G), and the diagonal neighbours of a camp (both ways)."""
    steps: list[set[int]] = [set() for _ in CELLS]
    for i in range(len(CELLS)):
        r, c = divmod(i, COLUMNS)
        for dr, dc in ((1, 0), (0, 1)):
            rr, cc = r + dr, c + dc
            if rr >= len(ROWS) or cc >= COLUMNS:
                continue
            if dr == 1 and r == 5 and c in (1, 3):  # F1-G1, F3-G3: the mountains
                continue
            j = rr * COLUMNS + cc
            steps[i].add(j)
            steps[j].add(i)
        if i in CAMPS:
            for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                j = (r + dr) * COLUMNS + c + dc
                steps[i].add(j)
                steps[j].add(i)
    return tuple(tuple(sorted(s)) for s in steps)


@functools.cache
def _rails() -> tuple[tuple[int, ...], ...]:
    """Per cell, its neighbours along the railways (the engineer's graph)."""
    near: list[set[int]] = [set() for _ in CELLS]
    for line in RAIL_LINES:
        for a, b in zip(line, line[1:]):
            near[a].add(b)
            near[b].add(a)
    return tuple(tuple(sorted(s)) for s in near)


ROADS = _roads()
RAILS = _rails()
ON_RAIL = frozenset(i for i, near in enumerate(RAILS) if near)


def battle(attacker: str, defender: str) -> int:
    """The outcome for the attacker (WON, LOST, BOTH) by the protocol's table (003, 碰子规则).

    Equal ranks both go; the bomb goes with anything it meets; the engineer
    takes a mine, any other attacker dies on it (a bomb goes with it); any
    attacker takes the flag (a bomb goes with it).
    """
    if attacker == "k" or defender == "k":
        return BOTH
    if defender == "j":
        return WON if attacker == "i" else LOST
    if defender == "l":
        return WON
    if attacker == defender:
        return BOTH
    return WON if attacker < defender else LOST  # a (司令) is the highest rank, i (工兵) the lowest


UNKNOWN = "?"  # a piece of a layout the record does not hold (both layouts one string): face down everywhere


def _said(kind: str) -> str:
    """A piece's name in a message: its Chinese name, "?" for a piece of an unknown layout."""
    return CHINESE.get(kind, "?")


def movable(kind: str, at: int) -> bool:
    """Whether a piece may move at all: not a mine, not the flag, not in a headquarters."""
    return kind not in "jl" and at not in HEADQUARTERS


class Position:
    """Who stands where: per cell None, or (seat, code, piece id)."""

    __slots__ = ("cells",)

    def __init__(self) -> None:
        self.cells: list[tuple[int, str, str] | None] = [None] * len(CELLS)

    def copy(self) -> Position:
        other = Position()
        other.cells = list(self.cells)
        return other

    def targets(self, start: int, as_kind: str | None = None) -> list[int]:
        """Every cell the piece on ``start`` may move to (empty, or an enemy piece outside a camp).

        ``as_kind``: where it could go if it were of that kind (what a player learns from a move).
        """
        piece = self.cells[start]
        if piece is None or not movable(as_kind or piece[1], start):
            return []
        seat, kind = piece[0], as_kind or piece[1]
        cells = self.cells
        found: set[int] = set()

        def open_to(j: int) -> bool:
            other = cells[j]
            return other is None or (other[0] != seat and j not in CAMPS)

        for j in ROADS[start]:
            if open_to(j):
                found.add(j)
        if start in ON_RAIL:
            if kind in ("i", UNKNOWN):  # an unknown piece may be an engineer
                found.update(self._engineer(start, seat))
            else:
                for line in RAIL_LINES:
                    if start not in line:
                        continue
                    k = line.index(start)
                    for step in (1, -1):
                        n = k + step
                        while 0 <= n < len(line):
                            j = line[n]
                            if cells[j] is None:
                                found.add(j)
                            else:
                                if open_to(j):
                                    found.add(j)
                                break
                            n += step
        return sorted(found)

    def _engineer(self, start: int, seat: int) -> set[int]:
        """The engineer's railway cells: a breadth-first search over empty stations, corners allowed."""
        cells = self.cells
        seen = {start}
        found: set[int] = set()
        queue = deque([start])
        while queue:
            at = queue.popleft()
            for j in RAILS[at]:
                if j in seen:
                    continue
                seen.add(j)
                other = cells[j]
                if other is None:
                    found.add(j)
                    queue.append(j)
                elif other[0] != seat and j not in CAMPS:
                    found.add(j)  # a battle ends the run
        return found

    def moves(self, seat: int) -> Iterator[tuple[int, int]]:
        """Every legal move of a seat, as (from, to)."""
        for at, piece in enumerate(self.cells):
            if piece is not None and piece[0] == seat:
                for to in self.targets(at):
                    yield at, to

    def can_move(self, seat: int) -> bool:
        return next(self.moves(seat), None) is not None


def layout_problems(rows: list[str], seat: int, top: bool) -> list[Message]:
    """What is wrong with one side's layout on the board (``rows``: 12 rows of 5, see the format)."""
    problems: list[Message] = []
    half = range(0, 6) if top else range(6, 12)
    found: dict[str, int] = {}
    for r in range(len(ROWS)):
        for c in range(COLUMNS):
            code = rows[r][c] if r < len(rows) and c < len(rows[r]) else "."
            if code == "." or (code.isupper() != (seat == 0)):
                continue
            kind, cell, at = code.lower(), f"{ROWS[r]}{c}", r * COLUMNS + c
            found[kind] = found.get(kind, 0) + 1
            back = r <= 1 if top else r >= 10
            front = r == 5 if top else r == 6
            if r not in half:
                template = N_("{side}'s layout: {piece} on {cell} stands outside its side's half")
                problems.append((template, {"piece": CHINESE[kind], "cell": cell}))
            elif at in CAMPS:
                template = N_("{side}'s layout: {piece} on {cell}: nothing may be laid out in a camp")
                problems.append((template, {"piece": CHINESE[kind], "cell": cell}))
            elif kind == "l" and at not in HEADQUARTERS:
                problems.append((N_("{side}'s layout: the flag on {cell} is not in a headquarters"), {"cell": cell}))
            elif kind == "j" and not back:
                problems.append((N_("{side}'s layout: the mine on {cell} is not in the last two rows"), {"cell": cell}))
            elif kind == "k" and front:
                problems.append((N_("{side}'s layout: the bomb on {cell} is in the front row"), {"cell": cell}))
    for kind, count in COUNTS.items():
        if found.get(kind, 0) != count:
            problems.append((
                N_("{side}'s layout: {count} × {piece} where the rules give {expected}"),
                {"count": found.get(kind, 0), "piece": CHINESE[kind], "expected": count},
            ))
    return problems


def layout_place(record: Record, seat: int) -> tuple[int, int]:
    """Line and column of a seat's layout in the record (``setup[13 + seat]``, "line:column", see the format)."""
    setup = record.setup or []
    written = setup[13 + seat] if len(setup) > 13 + seat else ""
    line, _, column = written.partition(":")
    if line.isdigit() and column.isdigit():
        return int(line), int(column)
    return record.setup_line or 1, 1


def half_of(rows: list[str], seat: int) -> bool | None:
    """Whether a seat's pieces are in the top half (True), the bottom (False), or None if it has none."""
    for r, row in enumerate(rows[:12]):
        for code in row:
            if code != "." and code.isupper() == (seat == 0):
                return r < 6
    return None


class ArmyChessEngine(Engine):
    """One army chess replay: the position, each piece's id, what each player has been shown."""

    __slots__ = (
        "deduced", "flags", "layout_rows", "may_be", "position", "quiet", "revealed", "sl", "start_hidden", "tops", "unknown",
    )

    def __init__(
        self, game: GameType, options: Mapping[str, Any] | None = None, record: Record | None = None, unknown: int | None = None
    ) -> None:
        super().__init__(game, options)
        self.unknown = unknown  # the seat whose layout the record does not hold, if any
        self.position = Position()
        rows = list(record.setup[:12]) if record is not None and record.setup and len(record.setup) >= 12 else []
        self.layout_rows = rows
        sl = record.setup[12] if record is not None and record.setup and len(record.setup) > 12 else ""
        self.sl = int(sl) if sl.isdigit() and int(sl) > 0 else int(game.params.get("steps", 31))
        self.quiet = 0  # plies in a row without a battle
        # Per player: what the opponent's pieces may still be, by id (see _deduce()); the ones shown as deduced.
        self.may_be: tuple[dict[str, set[str]], dict[str, set[str]]] = ({}, {})
        self.deduced: set[tuple[int, str]] = set()
        self.flags: list[int | None] = [None, None]  # per seat, where its flag stands
        self.revealed = [False, False]  # per seat: its commander fell, its flag is shown
        self.tops = [half_of(rows, 0), half_of(rows, 1)] if rows else [None, None]
        for r, row in enumerate(rows):
            for c, code in enumerate(row[:COLUMNS]):
                if code == ".":
                    continue
                seat = 0 if code.isupper() else 1
                at = r * COLUMNS + c
                kind = UNKNOWN if seat == unknown else code.lower()
                self.position.cells[at] = (seat, kind, f"p{at}")
                if kind == "l":
                    self.flags[seat] = at
        # Made before the replay moves anything: the set-up is the start.
        self.start_hidden: list[tuple[tuple[str, ...], list[Op]]] = [
            (
                (SEATS[seat],),
                [
                    scene.set_kind(piece[2], HIDDEN)
                    for piece in self.position.cells
                    if piece is not None and piece[0] == 1 - seat and piece[1] != UNKNOWN
                ],
            )
            for seat in (0, 1)
        ]

    # -- the set-up -----------------------------------------------------------------------

    def setup(self) -> list[Op]:
        """Every piece face up (the referee's view); the players' views turn the opponent's down
        (:meth:`setup_hidden`)."""
        return [
            scene.add(piece[2], NAMES.get(piece[1], HIDDEN), self.colours[piece[0]], CELLS[at])
            for at, piece in enumerate(self.position.cells)
            if piece is not None
        ]

    def setup_hidden(self) -> list[tuple[tuple[str, ...], list[Op]]]:
        """Each player's view of the set-up: the opponent's pieces face down (:attr:`Replay.setup_hidden`)."""
        return self.start_hidden

    def layout_diagnostics(self, record: Record) -> list[Diagnostic]:
        """The layout rules, checked for both sides at the layouts' line."""
        found = []
        for seat in (0, 1):
            top = self.tops[seat]
            if top is None or seat == self.unknown:
                continue
            for template, args in layout_problems(self.layout_rows, seat, top):
                found.append(self._layout_error(record, seat, template, args))
        return found

    def _layout_error(self, record: Record, seat: int, template: str, args: Mapping[str, Any]) -> Diagnostic:
        line, column = layout_place(record, seat)
        return make(record.path, line, column, BAD_LAYOUT, template, side=self.names[seat], **args)

    # -- a move ---------------------------------------------------------------------------

    def read(self, move: Move) -> Any:
        if move.point is None or move.to is None:
            return None
        # Not locate(): the parts are the recorded outcome and flag, not points.
        start, to = cell_index(move.point), cell_index(move.to)
        if start is None:
            return OffBoard(move.point)
        if to is None:
            return OffBoard(move.to)
        return start, to

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        start, to = at[0], at[1]
        recorded, flag_text = (move.parts + (None, None))[:2]
        cells = self.position.cells
        piece = cells[start]
        if piece is None or piece[0] != seat:
            return self._illegal(self._no_piece(move, number, seat, start), seat, number)
        kind = piece[1]
        if not movable(kind, start):
            template = (
                N_("move {number}, {move}: {piece} on {cell} stands in a headquarters and never moves")
                if kind not in "jl" else N_("move {number}, {move}: {piece} on {cell} never moves")
            )
            args = {"piece": _said(kind), "cell": CELLS[start]}
            return self._illegal(self.error(CANNOT_MOVE, move, number, template, args), seat, number)
        target = cells[to]
        if target is not None and target[0] != seat and to in CAMPS:
            return self._illegal(self.error(CAMP_ATTACKED, move, number, N_(
                "move {number}, {move}: {defender} on {cell} stands in a camp; nothing may attack it"
            ), {"defender": _said(target[1]), "cell": CELLS[to]}), seat, number)
        if to not in self.position.targets(start):
            return self._illegal(self._bad_route(move, number, kind, start, to), seat, number)
        if target is None:
            outcome = MOVED
        elif UNKNOWN in (kind, target[1]):  # the record's outcome is all there is to know
            outcome = recorded if recorded is not None and recorded != MOVED else BOTH
        else:
            outcome = battle(kind, target[1])
        told = outcome
        if recorded is not None and recorded != outcome:
            if (recorded == MOVED) != (outcome == MOVED):
                return self._impossible(move, number, recorded, kind, target, to)
            told = recorded
            self.found.append(self.error(WRONG_OUTCOME, move, number, N_(
                "move {number}, {move}: {attacker} attacks {defender} on {cell}: the table says {expected}, the record "
                "says {recorded}; the replay follows the record"
            ), {
                "attacker": _said(kind), "defender": _said(target[1]) if target else "", "cell": CELLS[to],
                "expected": OUTCOMES[outcome], "recorded": OUTCOMES[recorded],
            }))
        # What the opponent learns from the move itself: the piece moves (no mine, no flag); a turn on the railway
        # or a run no other piece could make: an engineer.
        learnt = set(_MOVERS)
        if kind in ("i", UNKNOWN) and to not in self.position.targets(start, as_kind="b"):
            learnt = {"i"}
        deduced = self._narrow(1 - seat, piece, learnt)
        return self._apply(move, number, seat, start, to, told, flag_text, deduced)

    def _apply(
        self, move: Move, number: int, seat: int, start: int, to: int, outcome: int, flag_text: Any, deduced: list[Op]
    ) -> Ply:
        cells = self.position.cells
        piece, target = cells[start], cells[to]
        assert piece is not None
        learnt: list[tuple[int, list[Op]]] = [(1 - seat, deduced)]
        if target is not None:
            learnt += self._battle_lessons(seat, piece, target, outcome)
        names, side = CELLS, SEATS[seat]
        public: list[Op] = [scene.mark(names[start], "from"), scene.mark(names[to], "last")]
        referee: list[Op] = []
        fallen: list[tuple[int, str, str]] = []
        cells[start] = None
        if outcome == MOVED:
            cells[to] = piece
            public.insert(0, scene.move(piece[2], names[to]))
            self.quiet += 1
        else:
            assert target is not None
            self.quiet = 0
            if outcome == WON:
                public[:0] = [scene.remove(target[2]), scene.move(piece[2], names[to])]
                cells[to] = piece
                fallen.append(target)
            elif outcome == LOST:
                public.insert(0, scene.remove(piece[2]))
                fallen.append(piece)
            else:
                public[:0] = [scene.remove(target[2]), scene.remove(piece[2])]
                cells[to] = None
                fallen += [piece, target]
            public.append(scene.note(_OUTCOME_NOTES[outcome], side=side, cell=names[to]))
            referee.append(scene.note(
                N_("{attacker} attacks {defender}"), attacker=_said(piece[1]), defender=_said(target[1])
            ))
        groups: list[tuple[tuple[str, ...], list[Op]]] = [(("referee",), referee)] if referee else []
        survivors = {p[2] for p in cells if p is not None}
        for viewer, ops in learnt:
            kept = [op for op in ops if op[1] in survivors]  # a piece that fell is not drawn any more
            if kept:
                views = (SEATS[viewer], "referee") if self.unknown == 1 - viewer else (SEATS[viewer],)
                groups.append((views, kept))
        for lost in fallen:
            if lost[1] == "a" and not self.revealed[lost[0]]:
                groups += self._reveal(lost[0])
        public += self._check_flag(move, number, seat, flag_text)
        self.turn = 1 - seat
        self._decide(number, seat, fallen, public)
        label = f"{move.text}{SIGNS[outcome]}"
        ply = Ply(number, side, self.colours[seat], label, public, move.mark, move.line, move.column)
        if groups:
            ply.hidden = [(views, ops) for views, ops in groups if ops]
        return ply

    def _battle_lessons(
        self, seat: int, piece: tuple[int, str, str], target: tuple[int, str, str], outcome: int
    ) -> list[tuple[int, list[Op]]]:
        """What each player learns of the other's piece from a battle's outcome, knowing its own piece."""
        lessons = []
        attacker, defender = piece[1], target[1]
        if attacker != UNKNOWN:  # the mover knows its attacker: which defenders give this outcome
            allowed = {d for d in KINDS if battle(attacker, d) == outcome}
            lessons.append((seat, self._narrow(seat, target, allowed)))
        if defender != UNKNOWN:  # the defender's owner knows it: which attackers give this outcome
            allowed = {a for a in _MOVERS if battle(a, defender) == outcome}
            lessons.append((1 - seat, self._narrow(1 - seat, piece, allowed)))
        return lessons

    def _narrow(self, viewer: int, piece: tuple[int, str, str], allowed: set[str]) -> list[Op]:
        """A player learns that an opponent's piece is one of ``allowed``: the op that shows it, once it is one kind.

        What a piece may be starts from the layout rules (no bomb in the front
        row, mines in the last two rows, the flag in a headquarters). An
        outcome the table cannot give (a record against the table) teaches
        nothing.
        """
        if piece[0] == viewer:
            return []
        known = self.may_be[viewer]
        pid = piece[2]
        may = known.get(pid)
        if may is None:
            may = known[pid] = self._could_be(piece)
        narrowed = may & allowed
        if not narrowed or narrowed == may:
            return []
        known[pid] = narrowed
        if len(narrowed) != 1 or (viewer, pid) in self.deduced:
            return []
        self.deduced.add((viewer, pid))
        (code,) = narrowed
        return [scene.set_kind(pid, f"deduced-{NAMES[code]}")]

    def _could_be(self, piece: tuple[int, str, str]) -> set[str]:
        """What a piece may be by where it was laid out (its id names its start cell)."""
        at = int(piece[2][1:])
        top = self.tops[piece[0]]
        r = row_of(at)
        back = r <= 1 if top else r >= 10
        front = r == 5 if top else r == 6
        may = set(KINDS)
        if not back:
            may.discard("j")
        if front:
            may.discard("k")
        if at not in HEADQUARTERS:
            may.discard("l")
        return may

    def _reveal(self, owner: int) -> list[tuple[tuple[str, ...], list[Op]]]:
        """The owner's commander fell: the referee shows the opponent where the owner's flag stands."""
        self.revealed[owner] = True
        flag = self.flags[owner]
        if flag is None or self.position.cells[flag] is None:
            return []
        piece = self.position.cells[flag]
        assert piece is not None
        shown = [scene.set_kind(piece[2], NAMES["l"])]
        note = scene.note(N_("{owner}'s commander has fallen: the flag stands on {cell}"), owner=SEATS[owner], cell=CELLS[flag])
        return [((SEATS[1 - owner],), shown), (("referee", "first", "second"), [note])]

    def _check_flag(self, move: Move, number: int, seat: int, flag_text: Any) -> list[Op]:
        """The record's flag property (FA/FB): 00, or where a revealed flag stands.

        Where a side's layout is unknown, the record's flag position is how
        the replay learns where that side's flag is: the ops that show it.
        """
        if not flag_text:
            return []
        letter, value = flag_text[0], flag_text[1:]
        unknown = self.unknown
        if value != "00" and unknown is not None and self.flags[unknown] is None and value in INDEX:
            piece = self.position.cells[INDEX[value]]
            if piece is not None and piece[0] == unknown and piece[1] == UNKNOWN:
                at = INDEX[value]
                self.position.cells[at] = (unknown, "l", piece[2])
                self.flags[unknown], self.revealed[unknown] = at, True
                return [
                    scene.set_kind(piece[2], NAMES["l"]),
                    scene.note(N_("the record shows {owner}'s flag on {cell}"), owner=SEATS[unknown], cell=value),
                ]
        shown = {CELLS[f] for s, f in enumerate(self.flags) if f is not None and self.revealed[s]}
        if value == "00":
            # The standard writes the opponent's flag on the mover's line (MA ... FB): once it is shown, 00 is wrong.
            opponent = 1 - seat
            if letter == self.letters_of(opponent) and self.revealed[opponent] and self.flags[opponent] is not None:
                self.found.append(self.error(FLAG_REVEAL, move, number, N_(
                    "move {number}, {move}: the record writes 00 for {owner}'s flag, but {owner}'s commander has fallen "
                    "and the flag stands on {cell}"
                ), {"owner": self.names[opponent], "cell": CELLS[self.flags[opponent]]}))  # type: ignore[index]
            return []
        if value not in shown:
            if shown:
                template = N_("move {number}, {move}: the record shows a flag on {written}; the flag shown stands on {cells}")
            else:
                template = N_("move {number}, {move}: the record shows a flag on {written}, but no commander has fallen")
            args = {"written": value, "cells": ", ".join(sorted(shown))}
            self.found.append(self.error(FLAG_REVEAL, move, number, template, args))
        return []

    def letters_of(self, seat: int) -> str:
        return (self.game.first.letter, self.game.second.letter)[seat]

    # -- the end --------------------------------------------------------------------------

    def _decide(self, number: int, seat: int, fallen: list[tuple[int, str, str]], public: list[Op]) -> None:
        """The end rules after a ply, in the protocol's order (see the module's text)."""
        mover, waiting = seat, 1 - seat
        position = self.position
        if not position.can_move(waiting):
            if not position.can_move(mover):
                public.append(scene.note(N_("neither side can move: the game is drawn")))
                self.decision = Decision("draw", "no-move", number, reason=N_("neither side could move"))
            else:
                public.append(scene.note(N_("{loser} cannot move: {winner} wins"), loser=SEATS[waiting], winner=SEATS[mover]))
                self.decision = Decision(SEATS[mover], "no-move", number, reason=N_("the opponent could not move"))
            return
        for lost in fallen:
            if lost[1] == "l":
                loser = lost[0]
                winner = SEATS[1 - loser]
                public.append(scene.note(N_("{loser}'s flag is taken: {winner} wins"), loser=SEATS[loser], winner=winner))
                cells = (CELLS[self.flags[loser] or 0],)
                self.decision = Decision(winner, "flag", number, cells, reason=N_("the flag was taken"))
                return
        if self.quiet >= self.sl:
            public.append(scene.note(
                N_("{steps} moves without a battle: {loser}, to move, loses"), steps=self.sl, loser=SEATS[waiting]
            ))
            self.decision = Decision(
                SEATS[mover], "no-battle", number, reason=N_("{steps} moves without a battle"), reason_args=(("steps", self.sl),)
            )

    def ended(self) -> Message:
        decision = self.decision
        end = decision.ply if decision else 0
        if decision is not None and decision.rule == "illegal":
            return N_("move {number}, {move}: the game was lost by the illegal move {end}; no move may follow"), {"end": end}
        return N_("move {number}, {move}: the game was already over at move {end}; no move may follow"), {"end": end}

    # -- what the diagnostics say -------------------------------------------------------

    def _illegal(self, problem: Diagnostic, seat: int, number: int) -> Diagnostic:
        """An illegal move loses (the protocol's first end rule): the opponent wins, the replay stops.

        Without the layouts (a record that lacks them) nothing can be judged: no decision.
        """
        if self.layout_rows:
            self.decision = Decision(SEATS[1 - seat], "illegal", number, reason=N_("an illegal move loses"))
        return problem

    def _no_piece(self, move: Move, number: int, seat: int, start: int) -> Diagnostic:
        piece = self.position.cells[start]
        if piece is None:
            template = N_("move {number}, {move}: there is no piece on {cell}")
            return self.error(NO_PIECE, move, number, template, {"cell": CELLS[start]})
        template = N_("move {number}, {move}: the piece on {cell} is {owner}'s; {side} is to move")
        return self.error(NO_PIECE, move, number, template, {
            "cell": CELLS[start], "owner": self.names[piece[0]], "side": self.names[seat],
        })

    def _bad_route(self, move: Move, number: int, kind: str, start: int, to: int) -> Diagnostic:
        target = self.position.cells[to]
        args = {"piece": _said(kind), "start": CELLS[start], "end": CELLS[to]}
        if target is not None and target[0] == self.position.cells[start][0]:  # type: ignore[index]
            template = N_("move {number}, {move}: {piece} cannot go from {start} to {end}: its own {other} stands there")
            args["other"] = _said(target[1])
        elif start == to:
            template = N_("move {number}, {move}: {piece} must leave {start}")
        elif kind == "i":
            template = N_(
                "move {number}, {move}: {piece} cannot go from {start} to {end}: no road step and no clear railway leads there"
            )
        else:
            template = N_(
                "move {number}, {move}: {piece} cannot go from {start} to {end}: no road step and no clear straight railway "
                "leads there (only the engineer turns corners)"
            )
        return self.error(BAD_ROUTE, move, number, template, args)

    def _impossible(self, move: Move, number: int, recorded: int, kind: str, target: Any, to: int) -> Diagnostic:
        if recorded == MOVED:
            return self.error(IMPOSSIBLE_OUTCOME, move, number, N_(
                "move {number}, {move}: the record says {recorded}, but {defender} stands on {cell}: {attacker} attacks it"
            ), {"recorded": OUTCOMES[recorded], "defender": _said(target[1]), "cell": CELLS[to], "attacker": _said(kind)})
        return self.error(IMPOSSIBLE_OUTCOME, move, number, N_(
            "move {number}, {move}: the record says {recorded}, but {cell} is empty: there is no battle"
        ), {"recorded": OUTCOMES[recorded], "cell": CELLS[to]})

    def off_board(self, move: Move, point: Any) -> Message:
        written = f"{point[0]}{point[1]}" if isinstance(point, tuple) and len(point) == 2 else str(point)
        return N_("move {number}, {move}: {point} is off the board (rows A-L, columns 0-4)"), {"point": written}



_OUTCOME_NOTES = {
    LOST: N_("battle on {cell}: {side}'s piece lost"),
    WON: N_("battle on {cell}: {side}'s piece won"),
    BOTH: N_("battle on {cell}: both pieces removed"),
}


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay an army chess record: the layouts, then every move; stop at the first illegal one.

    Where both layouts are one string (a referee tool's copy, see the
    format), one of them is not the real one: the game is replayed twice,
    once with each side's pieces unknown, and the replay that meets fewer
    errors is kept (the first player's pieces unknown where both meet as many).
    """
    same = record.setup is not None and len(record.setup) > 15 and record.setup[15] == "same"
    if not same:
        return _replay(record, game, options, None)
    tries = [_replay(record, game, options, seat) for seat in (0, 1)]
    errors = [sum(d.severity == "error" for d in r.diagnostics) for r in tries]
    seat = min((0, 1), key=lambda s: (errors[s], -len(tries[s].plies), s))
    chosen = tries[seat]
    line, column = layout_place(record, seat)
    chosen.diagnostics.insert(0, make(
        record.path, line, column, UNKNOWN_LAYOUT,
        N_("{side}'s layout is taken as unknown: its pieces are shown face down ({errors} errors with it, {other} "
           "with the other side's unknown)"),
        side=game.seats[seat].name, errors=errors[seat], other=errors[1 - seat],
    ))
    return chosen


def _replay(record: Record, game: GameType, options: Mapping[str, Any] | None, unknown: int | None) -> Replay:
    engine = ArmyChessEngine(game, options, record, unknown)
    engine.path = record.path
    engine.found.extend(engine.layout_diagnostics(record))
    result = engine.replay(record)
    result.setup_hidden = engine.setup_hidden()
    return result

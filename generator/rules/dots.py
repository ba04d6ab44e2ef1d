"""Dots and boxes: 6x6 dots (25 boxes), an edge per move, a completed box moves again.

The registry entry gives the dots (``game.columns`` x ``game.rows``, 6 x 6)
and the sides (red and blue). The rules (specs/README.md, DB):

* a move draws one edge between two neighbouring dots, written from its
  left or lower dot: ``(b4,h)`` joins b4 and c4, ``(b4,v)`` joins b4 and b5
  (origin bottom-left). An edge already drawn cannot be drawn again;
* a move that completes one box, or two at once, takes them and gives the
  same player another move; any other move passes the turn;
* when every edge is drawn the game is over: the score is the boxes each
  side took, and the side with more wins (25 boxes: no draw).

Which colour moves first is the record's (轮流先手): the first piece's mover,
red where the first piece names none. A piece whose mover is neither ``r``
nor ``b`` (the reader warned) is played by the side whose turn it is.

A record that stops before the last edge (an aborted game, a resignation)
leaves the result to the declaration; its declared score must still be
reachable from the boxes already taken. A game played out decides its own
result, and a declared score that differs from the boxes counted is an
error, as a declared winner that differs is (pipeline: RES-E001).

Coordinates are 0-based here: ``x`` the column of the dot (a = 0), ``y`` its
row from the bottom (1 = 0). Scene cells are named as the record writes
them, lower case: an edge ``b4h`` / ``b4v`` (its centre), a box ``b4`` (the box
whose lower-left dot is b4, its centre).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator import diagnostics, scene
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.i18n import N_
from generator.model import Decision, Move, Ply, Record, Replay, winner_by_score
from generator.rules.engine import SEATS, Engine, Message, OffBoard

# Codes of this family: the 9xx block of RULE-.
DRAWN_TWICE = diagnostics.define(
    "RULE-E901",
    "error",
    "An edge that was already drawn is drawn again (dots and boxes)",
    "The message names the move that drew it first; the record probably repeats or mistypes a move.",
)
SCORE_DIFFERS = diagnostics.define(
    "RULE-E902",
    "error",
    "The declared score differs from the boxes each side took (dots and boxes)",
    "The game was played to its last edge, so the boxes counted are the score; correct RScore and BScore. "
    "The page and the standings use the counted score.",
)
SCORE_UNREACHABLE = diagnostics.define(
    "RULE-E903",
    "error",
    "The declared score cannot be reached from the boxes already taken (dots and boxes)",
    "A box once taken stays taken, and there are 25 in all: check RScore and BScore, and whether the "
    "record lost moves.",
)

H, V = 0, 1  # an edge's direction from its dot: to the right, upwards
DIRECTIONS = "hv"


def dot_name(x: int, y: int) -> str:
    """A dot as records write it: ``b4``."""
    return f"{chr(ord('a') + x)}{y + 1}"


def edge_cell(direction: int, x: int, y: int) -> str:
    """The scene cell of an edge: its dot and direction, ``b4h``."""
    return f"{dot_name(x, y)}{DIRECTIONS[direction]}"


def edge_name(direction: int, x: int, y: int) -> str:
    """An edge as players say it, by its two dots: ``a5-b5`` (to the right), ``a5-a6`` (upwards)."""
    return f"{dot_name(x, y)}-{dot_name(x + 1, y) if direction == H else dot_name(x, y + 1)}"


def box_cell(x: int, y: int) -> str:
    """The scene cell of the box whose lower-left dot is (x, y): ``b4``."""
    return dot_name(x, y)


class DotsState:
    """A position: the edges drawn (with the ply that drew each) and the boxes taken (with their seat)."""

    __slots__ = ("boxes", "columns", "drawn", "owner", "rows", "taken")

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows  # dots
        self.drawn: dict[tuple[int, int, int], int] = {}  # (direction, x, y) -> ply
        self.owner: dict[tuple[int, int], int] = {}  # box (x, y) -> seat
        self.boxes = (columns - 1) * (rows - 1)
        self.taken = [0, 0]  # boxes per seat

    @property
    def edges(self) -> int:
        """How many edges the board has: 60 on 6 x 6 dots."""
        return (self.columns - 1) * self.rows + self.columns * (self.rows - 1)

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.columns and 0 <= y < self.rows

    def sides_of(self, direction: int, x: int, y: int) -> list[tuple[int, int]]:
        """The boxes an edge is a side of (one on the border, two inside), as their lower-left dots."""
        if direction == H:
            candidates = [(x, y), (x, y - 1)]  # above, below
        else:
            candidates = [(x, y), (x - 1, y)]  # right, left
        return [(bx, by) for bx, by in candidates if 0 <= bx < self.columns - 1 and 0 <= by < self.rows - 1]

    def complete(self, bx: int, by: int) -> bool:
        drawn = self.drawn
        return (H, bx, by) in drawn and (H, bx, by + 1) in drawn and (V, bx, by) in drawn and (V, bx + 1, by) in drawn

    def draw(self, edge: tuple[int, int, int], ply: int, seat: int) -> list[tuple[int, int]]:
        """Draw an edge for ``seat``; the boxes it completes (now the seat's)."""
        self.drawn[edge] = ply
        won = [box for box in self.sides_of(*edge) if self.complete(*box)]
        for box in won:
            self.owner[box] = seat
        self.taken[seat] += len(won)
        return won

    @property
    def over(self) -> bool:
        return len(self.drawn) == self.edges


class DotsEngine(Engine):
    """The replay of a dots and boxes record, edge by edge.

    Seats follow the record: seat 0 is the colour of the first piece's mover.
    :meth:`read` gives an edge as (direction, x, y).
    """

    __slots__ = ("again", "state")

    def __init__(self, game: GameType, options: Mapping[str, Any] | None, first_letter: str | None) -> None:
        super().__init__(game, options)
        self.state = DotsState(game.columns, game.rows)
        self.again = 0  # the move that completed a box and so gave its player this turn too; 0: none
        sides = (game.first, game.second)
        order = sides if first_letter != game.second.letter else sides[::-1]
        self.first_letter = order[0].letter
        self.letters = {}
        for seat, side in enumerate(order):
            self.letters[side.letter.upper()] = self.letters[side.letter.lower()] = seat
        self.colours = tuple(side.colour for side in order)
        self.names = tuple(side.name for side in order)

    def seat_of(self, letter: str) -> int | None:
        # A mover the reader could not name (it warned): whoever's turn it is.
        return self.turn if not letter else self.letters.get(letter.upper())

    def read(self, move: Move) -> Any:
        if move.point is None or move.to is None:
            return None
        state = self.state
        ends = []
        for point in (move.point, move.to):
            x, y = _xy(point)
            if not state.on_board(x, y):
                return OffBoard(point)
            ends.append((x, y))
        (x, y), (tx, ty) = ends
        return (H if ty == y else V), x, y

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        state = self.state
        earlier = state.drawn.get(at)
        if earlier is not None:
            return self.error(
                DRAWN_TWICE, move, number,
                N_("move {number}, {move}: the edge {edge} was already drawn at move {earlier}"),
                {"edge": edge_cell(*at), "earlier": earlier},
            )
        won = state.draw(at, number, seat)
        colour = self.colours[seat]
        cell = edge_cell(*at)
        ops = [scene.add(f"e{cell}", "edge-" + DIRECTIONS[at[0]], colour, cell), scene.mark(cell, "last")]
        if number == 1:
            ops += [scene.counter("boxes.first", 0), scene.counter("boxes.second", 0)]
        if won:
            ops += [scene.add(f"b{box_cell(*box)}", "box", colour, box_cell(*box)) for box in won]
            ops.append(scene.counter(f"boxes.{SEATS[seat]}", state.taken[seat]))
        if state.over:
            score = {"first": float(state.taken[0]), "second": float(state.taken[1])}
            self.decision = Decision(
                winner_by_score(score), "boxes", number, (), score,
                reason=N_("every edge drawn: {first} took {a} boxes, {second} {b}"),
                reason_args=(("first", self.names[0]), ("a", state.taken[0]), ("second", self.names[1]), ("b", state.taken[1])),
            )
            ops.append(scene.note(N_("every edge is drawn: {first} {a} boxes, {second} {b}"),
                                  first="first", a=state.taken[0], second="second", b=state.taken[1]))
        elif won:
            template = N_("{side} completes a box and moves again") if len(won) == 1 else N_(
                "{side} completes two boxes and moves again"
            )
            ops.append(scene.note(template, side=SEATS[seat]))
        self.turn = seat if won else 1 - seat
        self.again = number if won else 0
        # The move list names the line by its two dots (a5-b5), as players draw it; the record's r(a5,h) on hover.
        return self.ply(move, number, seat, ops, label=edge_name(*at), alt=move.text)

    def finish(self, record: Record, replay: Replay) -> None:
        declared = record.header.score
        if not declared or "first" not in declared or "second" not in declared:
            return
        state = self.state
        a, b = state.taken
        da, db = int(declared["first"]), int(declared["second"])
        args = {"first": self.names[0], "second": self.names[1], "da": da, "db": db, "a": a, "b": b}
        where = (self.path, record.line, 1)
        if state.over:
            if (da, db) != (a, b):
                replay.diagnostics.append(diagnostics.make(
                    *where, SCORE_DIFFERS,
                    N_("the record declares {first} {da}, {second} {db}, but the boxes taken are {first} {a}, "
                       "{second} {b}"),
                    **args,
                ))
        elif da < a or db < b or da + db > state.boxes:
            replay.diagnostics.append(diagnostics.make(
                *where, SCORE_UNREACHABLE,
                N_("the record declares {first} {da}, {second} {db}, which cannot be reached: after the last move "
                   "{first} has {a} boxes, {second} {b}, of {boxes}"),
                **args, boxes=state.boxes,
            ))

    # -- what the driver's diagnostics say ------------------------------------------

    def ended(self) -> Message:
        end = self.decision.ply if self.decision else 0
        return N_("move {number}, {move}: every edge was drawn by move {end}; no move may follow"), {"end": end}

    def wrong_side(self, move: Move, expected: int, found: int | None) -> Message:
        if found is None:
            return super().wrong_side(move, expected, found)
        if self.again:
            return N_(
                "move {number}, {move}: wrong side to move: {expected} completed a box with move {again} and "
                "moves again, found {found}"
            ), {"expected": self.names[expected], "found": self.names[found], "again": self.again}
        return N_(
            "move {number}, {move}: wrong side to move: expected {expected} to move, found {found} (the sides "
            "alternate unless a move completes a box)"
        ), {"expected": self.names[expected], "found": self.names[found]}

    def off_board(self, move: Move, point: Any) -> Message:
        return N_("move {number}, {move}: the edge reaches {dot}, off the board (the dots run from a1 to {corner})"), {
            "dot": f"{str(point[0]).lower()}{point[1]}",
            "corner": dot_name(self.state.columns - 1, self.state.rows - 1),
        }


def _xy(point: tuple[str, int]) -> tuple[int, int]:
    """A point as the reader gives it (``("B", 4)``) as 0-based (x, y); off the board where it is not a dot."""
    letter, row = point
    x = ord(letter.upper()) - ord("A") if len(letter) == 1 and letter.isalpha() else -1
    return x, row - 1


def first_letter(record: Record, game: GameType) -> str | None:
    """The colour that moves first: the first piece's mover (None where it names none)."""
    for move in record.moves[:1]:
        letter = move.side.upper()
        if letter in (game.first.letter, game.second.letter):
            return letter
    return None


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay a dots and boxes record edge by edge; stop at the first move that cannot be played.

    The decision (rule ``"boxes"``, its score the boxes per seat) comes when
    the last edge is drawn; a record that stops before leaves it None.
    """
    return DotsEngine(game, options, first_letter(record, game)).replay(record)

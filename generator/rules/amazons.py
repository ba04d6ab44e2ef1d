"""Amazons (AM): queens that move like chess queens and shoot an arrow that burns a square.

The board has ``columns`` x ``rows`` squares (10 x 10), columns a-j from the
left, rows 1-10 from the bottom; cells are named as the records write them,
in lower case (``"d1"``). Each seat starts with four queens on the squares
its ``start`` param names: the first player (white, below) on a4 d1 g1 j4,
the second (black, above) on a7 d10 g10 j7.

A turn is one ply of three squares: a queen of the mover leaves its square,
moves like a chess queen (any distance along a row, a column or a diagonal)
over empty squares to an empty square, and from where it landed shoots an
arrow the same way, over empty squares, onto an empty square, which stays
burnt for the rest of the game. The square the queen left is empty by then,
so the arrow may fly over it or land on it.

The player who cannot move on their turn loses; there are no draws and no
passes. A side can move exactly when one of its queens has an empty square
next to it (it steps there and shoots back onto the square it left), so the
end is cheap to see; still, the driver asks only where it matters
(``unsettled``, :meth:`AmazonsEngine.settle`): after the last move, or
before a move it cannot play.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from generator import scene
from generator.diagnostics import Diagnostic, define
from generator.games import GameType
from generator.i18n import N_, T, Term
from generator.model import Decision, Move, Op, Ply, Record, Replay
from generator.rules.engine import SEATS, Engine, Message

# Codes of this family: the 4xx block of RULE- (RULE-E403 is Hex's), from 410 on.
NO_QUEEN = define(
    "RULE-E410",
    "error",
    "The move does not start from a queen of the side to move",
    "The first square of a move is where one of the mover's queens stands; check it and the order of the moves.",
)
QUEEN_MOVE = define(
    "RULE-E411",
    "error",
    "The queen cannot move there",
    "A queen moves any distance along a row, a column or a diagonal, over empty squares, to an empty square; "
    "the message says what is in the way.",
)
ARROW_SHOT = define(
    "RULE-E412",
    "error",
    "The arrow cannot be shot there",
    "The arrow flies like a queen from the square the queen landed on, over empty squares (the square the queen "
    "left is empty), to an empty square; the message says what is in the way.",
)

EMPTY, ARROW = 0, 3  # a square: empty, a burnt square; 1 + seat: a queen of that seat
NO_LINE = -1  # Board.blocked(): the two squares are on no common line
# The eight directions a queen moves in, as (column, row) steps.
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
WHAT: dict[int, Term] = {ARROW: T("a burnt square"), 1: T("a queen"), 2: T("a queen")}


def cell_name(column: int, row: int) -> str:
    """``"d1"``: the column letter from the left (from 0), the row from the bottom (from 1)."""
    return f"{chr(97 + column)}{row}"


@functools.cache
def _geometry(columns: int, rows: int) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...], dict[tuple[str, int], int]]:
    """Per square of a board: its name, the squares next to it (whether a queen can still move), and
    the square of each point as the reader gives it (``("d", 1)``).

    Made once per size: a replay would otherwise spend half its time here.
    """
    names = tuple(cell_name(i % columns, i // columns + 1) for i in range(columns * rows))
    at = {(chr(97 + i % columns), i // columns + 1): i for i in range(columns * rows)}
    neighbours = []
    for i in range(columns * rows):
        c, r = i % columns, i // columns
        neighbours.append(tuple(
            (r + dr) * columns + c + dc for dc, dr in DIRECTIONS if 0 <= c + dc < columns and 0 <= r + dr < rows
        ))
    return names, tuple(neighbours), at


class Board:
    """The squares of one position: a flat list, index ``(row - 1) * columns + column``."""

    __slots__ = ("at", "columns", "rows", "squares", "names", "neighbours")

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.squares = [EMPTY] * (columns * rows)
        self.names, self.neighbours, self.at = _geometry(columns, rows)

    def index(self, point: tuple[str, int] | None) -> int | None:
        """The index of a point as read (``("d", 1)``), None if it is off the board."""
        if point is None:
            return None
        known = self.at.get(point)
        if known is not None:
            return known
        letter, row = point
        column = ord(letter.lower()) - 97 if len(letter) == 1 else -1
        if 0 <= column < self.columns and 1 <= row <= self.rows:
            return (row - 1) * self.columns + column
        return None

    def blocked(self, start: int, end: int) -> int | None:
        """Along the line from ``start`` to ``end``: the first square that is not empty (``end`` included).

        None when the way is clear; :data:`NO_LINE` when the two squares are
        not on one row, column or diagonal (or are the same square).
        """
        columns = self.columns
        dc = end % columns - start % columns
        dr = end // columns - start // columns
        if (dc == 0 and dr == 0) or (dc != 0 and dr != 0 and abs(dc) != abs(dr)):
            return NO_LINE
        step = (dr > 0) - (dr < 0)
        step = step * columns + (dc > 0) - (dc < 0)
        squares = self.squares
        at = start
        while at != end:
            at += step
            if squares[at] != EMPTY:
                return at
        return None

    def can_move(self, queens: list[int]) -> bool:
        """Whether a side with queens on these squares has a legal turn: a queen with an empty neighbour."""
        squares, neighbours = self.squares, self.neighbours
        return any(squares[n] == EMPTY for q in queens for n in neighbours[q])


class AmazonsEngine(Engine):
    """One Amazons replay: the board, each seat's queens, and the ids the viewer knows them by."""

    __slots__ = ("board", "ids", "queens")

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, options)
        self.board = board = Board(game.columns, game.rows)
        self.queens: list[list[int]] = []  # per seat: the squares of its queens
        self.ids: dict[int, str] = {}  # square -> id of the queen on it
        for seat, squares in enumerate(game.params["start"]):
            mine = []
            for k, name in enumerate(squares):
                at = board.index((name[0], int(name[1:])))
                assert at is not None, f"start square {name} is off the board"
                board.squares[at] = 1 + seat
                self.ids[at] = f"q{seat}{k}"
                mine.append(at)
            self.queens.append(mine)

    def setup(self) -> list[Op]:
        names, colours = self.board.names, self.colours
        return [
            scene.add(self.ids[at], "queen", colours[seat], names[at])
            for seat, squares in enumerate(self.queens)
            for at in squares
        ]

    def read(self, move: Move) -> Any:
        if move.point is None or move.to is None or len(move.parts) != 1:
            return None
        return self.locate(move, self.board.index)

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        start, to, arrow = at
        board = self.board
        squares, names = board.squares, board.names
        if squares[start] != 1 + seat:
            return self._no_queen(move, number, seat, start)
        problem = self._way(board, start, to, QUEEN_MOVE, move, number)
        if problem is not None:
            return problem
        # The queen leaves its square before the arrow flies: it may pass over it or land on it.
        squares[start] = EMPTY
        problem = self._way(board, to, arrow, ARROW_SHOT, move, number)
        if problem is not None:
            squares[start] = 1 + seat
            return problem
        squares[to], squares[arrow] = 1 + seat, ARROW
        queens = self.queens[seat]
        queens[queens.index(start)] = to
        queen_id = self.ids.pop(start)
        self.ids[to] = queen_id
        ops = [
            scene.move(queen_id, names[to]),
            scene.add(f"x{number}", "arrow", self.colours[seat], names[arrow]),
            scene.path([names[start], names[to]], "queen"),
            scene.path([names[to], names[arrow]], "arrow"),
            scene.mark(names[start], "from"),
            scene.mark(names[to], "last"),
        ]
        self.turn = 1 - seat
        self.unsettled = True  # whether the opponent can still move: settle()
        return self.ply(move, number, seat, ops)

    def _no_queen(self, move: Move, number: int, seat: int, start: int) -> Diagnostic:
        board = self.board
        piece, cell = board.squares[start], board.names[start]
        if piece == EMPTY:
            template = N_("move {number}, {move}: there is no queen on {cell}")
            return self.error(NO_QUEEN, move, number, template, {"cell": cell})
        if piece == ARROW:
            template = N_("move {number}, {move}: {cell} is a burnt square, not a queen")
            return self.error(NO_QUEEN, move, number, template, {"cell": cell})
        template = N_("move {number}, {move}: the queen on {cell} is {owner}'s; {side} is to move")
        args = {"cell": cell, "owner": self.names[piece - 1], "side": self.names[seat]}
        return self.error(NO_QUEEN, move, number, template, args)

    def _way(self, board: Board, start: int, end: int, code: str, move: Move, number: int) -> Diagnostic | None:
        """The error of a queen's move or an arrow from ``start`` to ``end``, or None if it may go there."""
        found = board.blocked(start, end)
        if found is None:
            return None
        names = board.names
        args: dict[str, Any] = {"start": names[start], "end": names[end]}
        if found == NO_LINE:
            if code == QUEEN_MOVE and start == end:
                template = N_("move {number}, {move}: the queen must leave {start}")
            elif code == QUEEN_MOVE:
                template = N_(
                    "move {number}, {move}: the queen cannot go from {start} to {end}: not along a row, a column or a diagonal"
                )
            elif start == end:
                template = N_("move {number}, {move}: the arrow cannot land on {start}, where the queen stands")
            else:
                template = N_(
                    "move {number}, {move}: the arrow cannot fly from {start} to {end}: not along a row, a column or a diagonal"
                )
            return self.error(code, move, number, template, args)
        args |= {"cell": names[found], "what": WHAT[board.squares[found]]}
        if code == QUEEN_MOVE:
            template = N_("move {number}, {move}: the queen cannot go from {start} to {end}: {what} stands on {cell}")
        else:
            template = N_("move {number}, {move}: the arrow cannot fly from {start} to {end}: {what} stands on {cell}")
        return self.error(code, move, number, template, args)

    # -- the end ------------------------------------------------------------------------

    def settle(self, last: Ply) -> None:
        """After a turn: the opponent who cannot move has lost."""
        loser = self.turn
        if self.board.can_move(self.queens[loser]):
            return
        winner = 1 - loser
        last.ops.append(scene.note(N_("{loser} cannot move: {winner} wins"), loser=SEATS[loser], winner=SEATS[winner]))
        self.decision = Decision(SEATS[winner], "no-move", last.number, reason=N_("the opponent could not move"))

    def ended(self) -> Message:
        return N_("move {number}, {move}: the game was already over at move {end}: {loser} could not move; no move may follow"), {
            "end": self.decision.ply if self.decision else 0, "loser": self.names[self.turn]
        }

    def off_board(self, move: Move, point: Any) -> Message:
        board = self.board
        return N_("move {number}, {move}: {point} is off the board (columns a-{last}, rows 1-{rows})"), {
            "point": f"{point[0]}{point[1]}", "last": chr(96 + board.columns), "rows": board.rows
        }


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay an Amazons record turn by turn; stop at the first illegal one."""
    return AmazonsEngine(game, options).replay(record)

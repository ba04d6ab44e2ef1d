"""Hex engine: 11x11 rhombus, red first, no swap move.

Everything game-specific comes from the registry entry: the board size
(``game.columns`` x ``game.rows``), the sides (red first, blue second) and the
event option ``red_joins`` (``site.toml``, default in ``game.options``):

``"rows"`` (the standard's default)
    Red wins by joining the row-1 and the row-11 edges with a chain of red
    stones, blue by joining column A and column K.
``"columns"``
    The other way round: red joins A and K, blue rows 1 and 11.

Coordinates are 0-based here: ``x`` is the column (A = 0), ``y`` the row from
the bottom (row 1 = 0), as the records write them with the origin bottom-left.

Adjacency: a cell (x, y) touches the six cells

    (x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1), (x - 1, y + 1), (x + 1, y - 1)

that is, the diagonal pair is up-left / down-right. This is the usual Hex
board: A1 and K11 are the acute corners (two neighbours each), K1 and A11 the
obtuse ones (three). The drawing in :mod:`generator.boards.hex` agrees: each
row is shifted half a hexagon to the right of the row below it, so (x, y + 1)
sits up-right of (x, y) and (x - 1, y + 1) up-left of it, and the six
neighbours above are exactly the six hexagons sharing a side with (x, y).

A game ends when a stone joins the mover's two edges. The decision's cells
are the winning chain: the shortest chain of the winner's stones, within the
group that touches both edges, that runs from one edge to the other (from row
1 or column A towards row 11 or column K). Hex cannot be drawn, and a full
board always holds a winner, so there is no other ending.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any, Literal

from generator import diagnostics, scene
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.i18n import N_
from generator.model import Decision, Move, Ply, Record, Replay, Result
from generator.rules.engine import SEATS, Engine, Message, OffBoard
from generator.rules.placement import EMPTY, OnGrid, PlacesStones, occupied, point_xy

Side = Literal["first", "second"]

OCCUPIED = diagnostics.define(
    "RULE-E403",
    "error",
    "Stone placed on an occupied cell (Hex)",
    "The message names the move that occupied the cell; the record probably "
    "repeats or mistypes a move.",
)
DEFAULT_JOINS = "rows"
JOINS = ("rows", "columns")

# The six neighbours of (x, y) as (dx, dy); see the module docstring.
NEIGHBOURS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1))

FIRST, SECOND = 1, 2  # stones (placement.EMPTY: none)


def red_joins(options: Mapping[str, Any] | None, game: GameType | None = None) -> str:
    """The event's ``red_joins`` value, "rows" unless it is a known other choice."""
    default = (game.options.get("red_joins", DEFAULT_JOINS) if game is not None else DEFAULT_JOINS)
    value = (options or {}).get("red_joins", default)
    return value if value in JOINS else DEFAULT_JOINS


def cell_name(x: int, y: int) -> str:
    """The scene cell id of a point (``E7``)."""
    return scene.grid_cell(x, y + 1)


class HexState(PlacesStones):
    """A Hex position, played stone by stone.

    ``board[y][x]`` holds EMPTY, FIRST (red) or SECOND (blue); ``placed[y][x]``
    the 1-based ply that filled the cell.
    """

    __slots__ = ("board", "columns", "game", "joins", "placed", "ply", "rows", "winner", "winning_cells")

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None) -> None:
        self.game = game
        self.columns = game.columns
        self.rows = game.rows
        self.joins = red_joins(options, game)
        self.ply = 0
        self.winner: Result | None = None
        self.winning_cells: tuple[str, ...] = ()
        self.board = [[EMPTY] * self.columns for _ in range(self.rows)]
        self.placed = [[0] * self.columns for _ in range(self.rows)]

    # -- turn order and edges ---------------------------------------------------

    @property
    def to_move(self) -> Side:
        return "first" if self.ply % 2 == 0 else "second"

    @property
    def over(self) -> bool:
        return self.winner is not None

    def joins_rows(self, side: Side) -> bool:
        """True if ``side`` joins the row-1 and row-11 edges (else columns A and K)."""
        return (side == "first") == (self.joins == "rows")

    # -- cells -------------------------------------------------------------------

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.columns and 0 <= y < self.rows

    def at(self, x: int, y: int) -> Side | None:
        value = self.board[y][x] if self.on_board(x, y) else EMPTY
        return "first" if value == FIRST else "second" if value == SECOND else None

    def placed_at(self, x: int, y: int) -> int:
        return self.placed[y][x] if self.on_board(x, y) else 0

    def neighbours(self, x: int, y: int) -> list[tuple[int, int]]:
        """The on-board neighbours of (x, y), in :data:`NEIGHBOURS` order."""
        return [(x + dx, y + dy) for dx, dy in NEIGHBOURS if self.on_board(x + dx, y + dy)]

    def empty_cells(self) -> list[tuple[int, int]]:
        """Every empty cell as (x, y), bottom row first."""
        return [(x, y) for y in range(self.rows) for x in range(self.columns) if self.board[y][x] == EMPTY]

    def copy(self) -> HexState:
        other = object.__new__(HexState)
        for name in HexState.__slots__:
            setattr(other, name, getattr(self, name))
        other.board = [list(row) for row in self.board]
        other.placed = [list(row) for row in self.placed]
        return other

    # -- playing -----------------------------------------------------------------

    def _stone_at(self, x: int, y: int) -> int | None:
        return self.board[y][x] if self.on_board(x, y) else None

    def _put(self, x: int, y: int) -> None:
        """The mover's stone on the empty point (x, y): ``play`` (placement.PlacesStones) checked it."""
        side = self.to_move
        self.board[y][x] = FIRST if side == "first" else SECOND
        self.ply += 1
        self.placed[y][x] = self.ply
        chain = self.winning_chain(x, y)
        if chain is not None:
            self.winner = side
            self.winning_cells = tuple(cell_name(cx, cy) for cx, cy in chain)

    def winning_chain(self, x: int, y: int) -> list[tuple[int, int]] | None:
        """The shortest edge-to-edge chain in the group of the stone on (x, y), or None.

        Found by a breadth-first search from every stone of the group on the
        near edge (row 1 or column A), neighbours in :data:`NEIGHBOURS` order,
        so the answer is the same on every run.
        """
        colour = self.board[y][x]
        if colour == EMPTY:
            return None
        rows = self.joins_rows("first" if colour == FIRST else "second")
        board = self.board
        # The group of (x, y).
        group = {(x, y)}
        todo = [(x, y)]
        while todo:
            cx, cy = todo.pop()
            for n in self.neighbours(cx, cy):
                if n not in group and board[n[1]][n[0]] == colour:
                    group.add(n)
                    todo.append(n)
        far = (self.rows if rows else self.columns) - 1

        def edge(cell: tuple[int, int]) -> int:
            return cell[1] if rows else cell[0]

        starts = sorted((c for c in group if edge(c) == 0), key=lambda c: (c[1], c[0]))
        if not starts or not any(edge(c) == far for c in group):
            return None
        previous: dict[tuple[int, int], tuple[int, int] | None] = {c: None for c in starts}
        queue = deque(starts)
        while queue:
            cell = queue.popleft()
            if edge(cell) == far:
                chain = []
                at: tuple[int, int] | None = cell
                while at is not None:
                    chain.append(at)
                    at = previous[at]
                chain.reverse()
                return chain
            for n in self.neighbours(*cell):
                if n in group and n not in previous:
                    previous[n] = cell
                    queue.append(n)
        return None  # not reached: the group is connected


# -- replay -------------------------------------------------------------------


class HexEngine(OnGrid, Engine):
    """The replay of a Hex record, stone by stone, on :class:`HexState`.

    :meth:`read` gives the point as 0-based (x, y).
    """

    __slots__ = ("columns", "rows", "state")

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, options)
        self.state = state = HexState(game, options)
        self.columns, self.rows = state.columns, state.rows
        self.variant = state.joins if state.joins != DEFAULT_JOINS else None

    def read(self, move: Move) -> Any:
        if move.point is None:
            return None
        xy = point_xy(move.point)
        if xy is None or not self.state.on_board(*xy):
            return OffBoard(move.point)
        return xy

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        state, (x, y) = self.state, at
        if state.board[y][x] != EMPTY:
            return occupied(self, OCCUPIED, move, number, cell_name(x, y), state.placed[y][x], state.board[y][x] - 1)
        side = SEATS[seat]
        state._put(x, y)
        self.turn = state.ply % 2
        cell = cell_name(*at)
        ops = [scene.add(f"s{number}", "stone", self.colours[seat], cell), scene.mark(cell, "last")]
        if state.winner is not None:
            self.decision = Decision(
                state.winner, "connection", state.ply, state.winning_cells, reason=N_("joined both edges")
            )
            ops.extend(scene.mark(c, "win") for c in state.winning_cells)
            if state.joins_rows(side):  # type: ignore[arg-type]
                ops.append(scene.note(N_("{side} joins rows 1 and {last}"), side=side, last=str(state.rows)))
            else:
                last = scene.COLUMN_LETTERS[state.columns - 1]
                ops.append(scene.note(N_("{side} joins columns A and {last}"), side=side, last=last))
        # The move list names the cell as players write it (B2), not the record's R(B,2).
        return self.ply(move, number, seat, ops, label=cell)

    def ended(self) -> Message:
        state = self.state
        winner = 0 if state.winner == "first" else 1
        args = {"winner": self.names[winner], "end": state.ply}
        if state.joins_rows(SEATS[winner]):  # type: ignore[arg-type]
            return N_(
                "move {number}, {move}: the game was already won by {winner} at move {end} ({winner} joined "
                "rows 1 and {last}); no move may follow"
            ), {**args, "last": state.rows}
        return N_(
            "move {number}, {move}: the game was already won by {winner} at move {end} ({winner} joined "
            "columns A and {last}); no move may follow"
        ), {**args, "last": scene.COLUMN_LETTERS[state.columns - 1]}

    def wrong_side(self, move: Move, expected: int, found: int | None) -> Message:
        if found is None:
            return super().wrong_side(move, expected, found)
        return N_(
            "move {number}, {move}: wrong side to move: expected {expected} to move, found {found} "
            "(the sides alternate, {first} first)"
        ), {"expected": self.names[expected], "found": self.names[found], "first": self.names[0]}


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay a Hex record stone by stone; stop at the first illegal move.

    Returns the plies up to the first illegal move, the moves from there on
    as ``not_replayed``, the rules' decision (rule ``"connection"``, its cells
    the winning chain) or None when the record stops before a chain is made.
    ``variant`` is the event's ``red_joins`` when it is not the default.
    """
    return HexEngine(game, options).replay(record)

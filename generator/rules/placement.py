"""What the placement engines (k-in-a-row, Go, Hex) say alike about where a stone may go.

Each engine keeps its own diagnostic codes; the wording of "off the board"
and "already occupied" is shared so an organiser reads the same sentence for
every game.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from generator import scene
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.model import Move


# The padded boards of the k-in-a-row and Go engines: an empty point, and the
# border around the board (the engines number their stones 1 and 2).
EMPTY, EDGE = 0, 3


class PlacesStones:
    """``check`` and ``play`` of the games that put one stone on an empty point (k-in-a-row, Hex).

    An engine says what stands on a point (``_stone_at``: EMPTY, a stone, or
    None off the board) and puts the mover's stone on one (``_put``); its
    board is its own. ``placement_error`` reads ``check`` for the diagnostics.
    """

    __slots__ = ()
    winner: Any

    def _stone_at(self, x: int, y: int) -> int | None:
        raise NotImplementedError

    def _put(self, x: int, y: int) -> None:
        raise NotImplementedError

    def check(self, x: int, y: int) -> str | None:
        """None if the next stone may go on (x, y), else "game-over", "off-board" or "occupied"."""
        if self.winner is not None:
            return "game-over"
        stone = self._stone_at(x, y)
        if stone is None:
            return "off-board"
        if stone != EMPTY:
            return "occupied"
        return None

    def play(self, x: int, y: int) -> None:
        """Place the next stone; raise ValueError with the reason key if illegal."""
        reason = self.check(x, y)
        if reason is not None:
            raise ValueError(reason)
        self._put(x, y)


@functools.cache
def padded_board(columns: int, rows: int) -> tuple[bytes, tuple[str | None, ...], tuple[int, ...]]:
    """The empty padded board of a size, each index's cell id, and the on-board indices.

    Row y (0-based from the bottom) lives at ``(y + 1) * stride``, column x at
    offset ``x + 1``, with ``stride = columns + 1``: offset 0 of every row and
    the rows below and above the board are EDGE, so a walk along any line meets
    EDGE before it can wrap into another row or leave the array.
    """
    stride = columns + 1
    size = (rows + 3) * stride
    board = bytearray([EDGE]) * size
    cells: list[str | None] = [None] * size
    for y in range(rows):
        for x in range(columns):
            i = (y + 1) * stride + x + 1
            board[i] = EMPTY
            cells[i] = scene.grid_cell(x, y + 1)
    return bytes(board), tuple(cells), tuple(i for i in range(size) if board[i] == EMPTY)


# Column letters as written (either case) -> 0-based column.
COLUMN_INDEX = {
    **{c: i for i, c in enumerate(scene.COLUMN_LETTERS)},
    **{c.lower(): i for i, c in enumerate(scene.COLUMN_LETTERS)},
}


def point_xy(point: tuple[str, int] | None) -> tuple[int, int] | None:
    """0-based (x, y) of a parsed point like ("J", 10); None if it names no column."""
    if point is None:
        return None
    letter, row = point
    letter = letter.strip().upper()
    if len(letter) != 1 or letter not in scene.COLUMN_LETTERS:
        return None
    return scene.COLUMN_LETTERS.index(letter), row - 1


def bounds_text(columns: int, rows: int) -> str:
    """``the board is 9x9, columns A-I, rows 1-9``."""
    return f"the board is {columns}x{rows}, columns A-{scene.COLUMN_LETTERS[columns - 1]}, rows 1-{rows}"


def placement_error(
    state: Any,
    game: GameType,
    move: Move,
    xy: tuple[int, int] | None,
    error: Callable[[str, str], Diagnostic],
    codes: tuple[str, str],
    cell: Callable[[int, int], str],
) -> Diagnostic | None:
    """The off-board or occupied error for a stone at ``xy``, or None if the point is free.

    ``state`` offers ``check(x, y)`` (None, "off-board", "occupied" …),
    ``placed_at(x, y)`` and ``at(x, y)`` ("first"/"second"), and ``columns``
    and ``rows``; ``codes`` are the engine's (off-board, occupied) codes.
    """
    off_board, occupied = codes
    bounds = bounds_text(state.columns, state.rows)
    if xy is None:
        assert move.point is not None
        return error(off_board, f"column {move.point[0]!r} is off the board ({bounds})")
    reason = state.check(*xy)
    if reason == "off-board":
        assert move.point is not None
        return error(off_board, f"{move.point[0].strip().upper()}{move.point[1]} is off the board ({bounds})")
    if reason == "occupied":
        owner = game.first if state.at(*xy) == "first" else game.second
        return error(occupied, f"{cell(*xy)} is already occupied by move {state.placed_at(*xy)} ({owner.name_en})")
    return None

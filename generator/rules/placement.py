"""What the games that place stones on a lettered grid (k-in-a-row, Go, Hex) share.

The padded board of the k-in-a-row and Go engines, the parsing of a point
like ``("J", 10)``, the driver's board hooks (:class:`OnGrid`) and the
wording of "already occupied", so an organiser reads the same sentences for
every game. Each engine keeps its own code for an occupied point.
"""

from __future__ import annotations

import functools
from typing import Any

from generator import scene
from generator.diagnostics import Diagnostic
from generator.i18n import N_
from generator.model import Move
from generator.rules.engine import Engine, Message

# The padded boards of the k-in-a-row and Go engines: an empty point, and the
# border around the board (the engines number their stones 1 and 2).
EMPTY, EDGE = 0, 3


class PlacesStones:
    """``check`` and ``play`` of the games that put one stone on an empty point (k-in-a-row, Hex).

    An engine says what stands on a point (``_stone_at``: EMPTY, a stone, or
    None off the board) and puts the mover's stone on one (``_put``); its
    board is its own.
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


class OnGrid:
    """The driver's board hooks for a lettered grid of ``columns`` x ``rows`` points (k-in-a-row, Go, Hex).

    A point is as the formats parse it, ``("J", 10)``: a column letter (either
    case, spaces around it allowed) and the row number from 1 at the bottom.
    """

    __slots__ = ()
    columns: int
    rows: int

    def off_board(self, move: Move, point: Any) -> Message:
        """``P3 is off the board (the board is 15x15, columns A-O, rows 1-15)``."""
        letter, row = point
        sizes = {"columns": self.columns, "rows": self.rows, "last": scene.COLUMN_LETTERS[self.columns - 1]}
        column = str(letter).strip().upper()
        if len(column) != 1 or column not in scene.COLUMN_LETTERS:
            return N_(
                "move {number}, {move}: column '{column}' is off the board "
                "(the board is {columns}x{rows}, columns A-{last}, rows 1-{rows})"
            ), {"column": letter, **sizes}
        return N_(
            "move {number}, {move}: {point} is off the board "
            "(the board is {columns}x{rows}, columns A-{last}, rows 1-{rows})"
        ), {"point": f"{column}{row}", **sizes}


def occupied(engine: Engine, code: str, move: Move, number: int, cell: str, by: int, owner: int) -> Diagnostic:
    """``H8 is already occupied by move 1 (Black)``: ``by`` is the move that put the stone there, ``owner`` its seat."""
    return engine.error(
        code, move, number, N_("move {number}, {move}: {cell} is already occupied by move {by} ({owner})"),
        {"cell": cell, "by": by, "owner": engine.names[owner]},
    )

"""What the placement engines (k-in-a-row, Go, Hex) say alike about where a stone may go.

Each engine keeps its own diagnostic codes; the wording of "off the board"
and "already occupied" is shared so an organiser reads the same sentence for
every game.
"""

from __future__ import annotations

from typing import Any, Callable

from generator import scene
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.model import Move


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

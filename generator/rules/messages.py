"""How every engine words a problem with one move, so an organiser reads the same sentences.

``move 12, B[D5]: <why>`` at the move's line and column; a side named as the
game names it, or as an unknown letter with the game's own letters listed.
"""

from __future__ import annotations

from collections.abc import Callable

from generator import diagnostics
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.model import Move


def move_error(path: str, move: Move, number: int, code: str, why: str) -> Diagnostic:
    """A diagnostic at the move, its message ``move 12, B[D5]: why``."""
    return diagnostics.make(path, move.line, move.column, code, f"move {number}, {move.text}: {why}")


def reporter(path: str, move: Move, number: int) -> Callable[[str, str], Diagnostic]:
    """``error(code, why)`` for one move (see :func:`move_error`)."""

    def error(code: str, why: str) -> Diagnostic:
        return move_error(path, move, number, code, why)

    return error


def side_found(game: GameType, letter: str) -> str:
    """The side a move's letter names: ``White``, or ``unknown side 'X' (B = Black, W = White)``."""
    side = game.side_of(letter)
    if side is None:
        return (
            f"unknown side {letter!r} ({game.first.letter} = {game.first.name_en}, "
            f"{game.second.letter} = {game.second.name_en})"
        )
    return (game.first if side == "first" else game.second).name_en

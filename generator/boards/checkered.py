"""The checkered board of draughts (DR10, DR8): light and dark squares, the dark ones numbered.

Cells are the square numbers as records write them (``"1"`` to ``"50"`` on
10x10, ``"1"`` to ``"32"`` on 8x8), from the top-left, on the dark squares:
:func:`generator.rules.draughts.geometry` places them, so the board draws
exactly the squares the engine plays on. Each dark square shows its number
in its top-left corner, small enough to stay readable beside a piece.

Men are discs with a ring, kings the same disc with a crown: four drawings
declared once (:class:`generator.boards.symbols.Symbols`) and placed with
``<use>``. A crowning is the engine's ``set(id, "king")``, so the viewer
swaps the drawing at that ply; a capture is drawn as its path through the
landing squares (``path`` style ``capture``), the taken pieces' squares
ringed (``mark`` style ``taken``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board, num
from generator.games import GameType
from generator.rules.draughts import geometry

SQUARE = 56  # side of a square, SVG user units
MARGIN = 14  # the frame round the squares
PIECE_RADIUS = 22
NUMBER_SIZE = 12
LIGHT, DARK = "#f3e3c3", "#a8744f"
MARK_RADIUS = {"last": 7, "from": 10, "taken": 18, "*": 24}
# A crown, drawn over the disc of a king (points relative to the centre).
CROWN: list[tuple[float, float]] = [(-11, 6), (-13, -7), (-6, -1), (0, -10), (6, -1), (13, -7), (11, 6)]


def pieces(colours: tuple[str, ...] = ("black", "white")) -> sym.Symbols:
    """Men and kings of both colours: a disc with a ring; a king adds a crown."""
    drawings: dict[str, str] = {}
    table: dict[str, dict[str, str]] = {"man": {}, "king": {}}
    for colour in colours:
        fill, stroke = sym.STONE_COLOURS.get(colour, ("#888", "#333"))
        ring_colour = "#666" if colour == "black" else "#bbb"
        ring = sym.disc("q-ring", PIECE_RADIUS * 0.62, fill="none", stroke=ring_colour, stroke_width=2)
        drawings[f"man-{colour}"] = sym.stone("man", colour, PIECE_RADIUS) + ring
        drawings[f"king-{colour}"] = (
            sym.stone("king", colour, PIECE_RADIUS)
            + sym.polygon("q-crown", CROWN, fill="#e8b730", stroke=stroke if colour != "black" else fill, stroke_width=1.5)
        )
        table["man"][colour] = f"man-{colour}"
        table["king"][colour] = f"king-{colour}"
    return sym.Symbols("q-dr-", drawings, table)


@dataclass(slots=True)
class CheckeredBoard(Board):
    """A draughts board of ``size`` x ``size`` squares."""

    kind: ClassVar[str] = "checkered"
    css_class: ClassVar[str] = "q-board q-board-checkered"
    radius: ClassVar[float] = PIECE_RADIUS
    mark_radius: ClassVar[Mapping[str, float]] = MARK_RADIUS

    size: int = 10
    symbols: sym.Symbols = field(default=pieces(), kw_only=True)

    def __post_init__(self) -> None:
        geo = geometry(self.size)
        self.width = self.height = 2 * MARGIN + self.size * SQUARE
        half = SQUARE / 2
        self.cells = {
            geo.cells[sq]: (MARGIN + geo.columns[sq] * SQUARE + half, MARGIN + geo.rows[sq] * SQUARE + half)
            for sq in range(1, geo.count + 1)
        }
        self._place()

    def _draw_static(self) -> str:
        """The frame, the squares (light ones as one path, dark ones as another) and the numbers."""
        n, side = self.size, self.size * SQUARE
        light: list[str] = []
        dark: list[str] = []
        for row in range(n):
            for column in range(n):
                d = f"M{MARGIN + column * SQUARE} {MARGIN + row * SQUARE}h{SQUARE}v{SQUARE}h-{SQUARE}z"
                (dark if (row + column) % 2 else light).append(d)
        parts = [
            f'<rect class="q-board-bg" width="{num(self.width)}" height="{num(self.height)}" fill="#5b3a22"/>',
            f'<path class="q-square-light" d="{"".join(light)}" fill="{LIGHT}"/>',
            f'<path class="q-square-dark" d="{"".join(dark)}" fill="{DARK}"/>',
            f'<rect class="q-grid q-edge" x="{MARGIN}" y="{MARGIN}" width="{side}" height="{side}" fill="none" stroke="{INK}"/>',
        ]
        numbers = []
        for cell, (x, y) in self.cells.items():
            numbers.append(
                f'<text x="{num(x - SQUARE / 2 + 3)}" y="{num(y - SQUARE / 2 + NUMBER_SIZE)}">{cell}</text>'
            )
        parts.append(
            f'<g class="q-coords q-square-numbers" font-size="{NUMBER_SIZE}" fill="#fff3dc" '
            f'font-family="sans-serif">{"".join(numbers)}</g>'
        )
        return "".join(parts)


_BOARDS: dict[str, CheckeredBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> CheckeredBoard:
    """The board of a game type, drawn once and shared by every page (the rules change no drawing)."""
    board = _BOARDS.get(game.code)
    if board is None:
        board = _BOARDS[game.code] = CheckeredBoard(int(game.params["size"]))
    return board

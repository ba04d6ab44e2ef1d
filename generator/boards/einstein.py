"""The EinStein würfelt nicht board (WTN): 5x5 squares, numbered pieces in two colours.

Cells are named as WTN records write them (:data:`generator.rules.einstein.CELLS`):
the column letter A-E from the left, the row 1-5 from the bottom. The two
starting corners are tinted in the colour of the side that sets up there
(red top-left, blue bottom-right), so that each side's goal, the far corner
square, is plain to see. A piece is a rounded square in its side's colour
with its number on it: twelve drawings declared once
(:class:`generator.boards.symbols.Symbols`) and placed with ``<use>``.

The die is not part of the drawing: the engine sets a ``die`` counter at
every move, shown beside the board by the viewer, and says the die in the
move's note (see rules/einstein.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board, background, coordinate_labels, num
from generator.games import GameType
from generator.rules.einstein import CELLS, SIZE, STANDARD

SQUARE = 64
MARGIN = 34  # room for the coordinate labels
PIECE = 48  # side of a piece
PIECE_RADIUS = PIECE / 2  # move numbers are sized to fit in it
MARK_RADIUS = {"from": 12, "moved": 31, "win": 34, "*": 28}
TINT = {"red": "#f4c7bf", "blue": "#c6d4f2"}
COLOURS = ("blue", "red")


def pieces() -> sym.Symbols:
    """Pieces 1-6 of both colours: a rounded square with the number in white."""
    drawings: dict[str, str] = {}
    table: dict[str, dict[str, str]] = {}
    for n in range(1, 7):
        table[f"n{n}"] = {}
        for colour in COLOURS:
            fill, stroke = sym.STONE_COLOURS[colour]
            drawings[f"n{n}-{colour}"] = sym.box(
                f"q-piece q-{colour}", PIECE, PIECE, 8, fill=fill, stroke=stroke, stroke_width=2
            ) + sym.glyph(str(n), "q-glyph q-wtn-number", 30, fill="#fff", font_weight="bold", font_family="sans-serif")
            table[f"n{n}"][colour] = f"n{n}-{colour}"
    return sym.Symbols("q-wtn-", drawings, table)


@dataclass(slots=True)
class EinsteinBoard(Board):
    """The 5x5 board, row 5 at the top."""

    kind: ClassVar[str] = "einstein"
    css_class: ClassVar[str] = "q-board q-board-einstein"
    radius: ClassVar[float] = PIECE_RADIUS
    mark_radius: ClassVar[Mapping[str, float]] = MARK_RADIUS

    symbols: sym.Symbols = field(default=pieces(), kw_only=True)

    def __post_init__(self) -> None:
        self.width = self.height = 2 * MARGIN + SIZE * SQUARE
        half = SQUARE / 2
        self.cells = {
            cell: (MARGIN + (i % SIZE) * SQUARE + half, MARGIN + (SIZE - 1 - i // SIZE) * SQUARE + half)
            for i, cell in enumerate(CELLS)
        }
        self._place()

    def _draw_static(self) -> str:
        """The squares (the starting corners tinted), the grid and the labels."""
        import svgwrite  # here, not at the top: see generator.boards

        dwg = svgwrite.Drawing(profile="full", debug=False)
        parts = [background(dwg, self.width, self.height)]
        half = SQUARE / 2
        for colour, side in (("red", "R"), ("blue", "B")):
            d = "".join(
                f"M{num(self.cells[cell][0] - half)} {num(self.cells[cell][1] - half)}h{SQUARE}v{SQUARE}h-{SQUARE}z"
                for cell, _ in STANDARD[side]
            )
            parts.append(f'<path class="q-corner q-corner-{colour}" d="{d}" fill="{TINT[colour]}"/>')
        span = SIZE * SQUARE
        grid = [f"M{MARGIN + k * SQUARE} {MARGIN}v{span}M{MARGIN} {MARGIN + k * SQUARE}h{span}" for k in range(SIZE + 1)]
        parts.append(f'<path class="q-grid" d="{"".join(grid)}" stroke="{INK}" fill="none"/>')
        spots = []
        for i, cell in enumerate(CELLS):
            x, y = self.cells[cell]
            if i // SIZE == 0:
                spots.append((cell[0], x, MARGIN + span + MARGIN / 2, "col"))
            if i % SIZE == 0:
                spots.append((cell[1:], MARGIN / 2, y, "row"))
        parts.append(coordinate_labels(dwg, spots))
        return "".join(parts)


_BOARDS: dict[str, EinsteinBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> EinsteinBoard:
    """The board of a game type, drawn once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        board = _BOARDS[game.code] = EinsteinBoard()
    return board



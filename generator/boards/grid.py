"""Boards of intersections on a lettered grid: Gomoku, Connect6, Go.

Cells are named as the standards write them (:func:`generator.scene.grid_cell`):
columns ``A``, ``B`` … from the left, ``I`` included, rows ``1`` … from the
bottom, so ``A1`` is the bottom-left intersection. A board is drawn once per
game type; :meth:`GridBoard.svg` then only adds the pieces and marks of one
position to the cached drawing, because a build renders thousands of pages.

Stones are symbols (:mod:`generator.boards.symbols`): one disc per side's
colour (``black``, ``white`` …) in the board's ``<defs>``, of classes that
``static/viewer.css`` gives their fills, each stone a ``<use>`` of it.
``static/viewer.js`` places them from :meth:`GridBoard.scene` with the same
geometry and symbols.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board, background, coordinate_labels, side_colours
from generator.games import GameType
from generator.scene import COLUMN_LETTERS, grid_cell

if TYPE_CHECKING:
    import svgwrite

# Geometry in SVG user units. Integers keep the coordinates short and exact.
STEP = 40  # distance between two lines
MARGIN = 56  # from the outer line to the edge of the drawing: room for labels
LABEL_GAP = 36  # from the outer line to a label's centre: clear of edge stones
STONE_RADIUS = 18.5  # a little under STEP/2 so neighbouring stones do not touch
STAR_RADIUS = 4
# Marks drawn over a cell, by style; CSS decides fill or ring.
MARK_RADIUS = {"last": 6, "win": 21, "*": 21}


def stones(colours: tuple[str, ...] = ("black", "white")) -> sym.Symbols:
    """The stones of a grid board, in the colours of its two sides."""
    return sym.stones("q-grid-", colours, STONE_RADIUS)


def star_points(columns: int, rows: int) -> list[str]:
    """The hoshi of a square board, where the standards' diagrams put them.

    9: C3 G3 E5 C7 G7; 13: D4 J4 G7 D10 J10 (columns A-M with I included,
    as GO13 writes them; Go books that skip I call J "K"); 15: D4 L4 H8
    D12 L12; 19: the nine points on the 4-10-16 lines. Other sizes follow the same
    pattern (third or fourth line in from each corner, the centre when the
    size is odd, side midpoints from 19 up); very small or non-square boards
    get none.
    """
    if columns != rows or columns < 7:
        return []
    size = columns
    edge = 3 if size < 13 else 4
    lines = [edge, size + 1 - edge]
    points = [(x, y) for y in lines for x in lines]
    if size % 2:
        centre = (size + 1) // 2
        points.append((centre, centre))
        if size >= 19:
            points += [(centre, edge), (edge, centre), (size + 1 - edge, centre), (centre, size + 1 - edge)]
    # Sorted bottom row first, left to right, for stable output.
    return [grid_cell(x - 1, y) for x, y in sorted(points, key=lambda p: (p[1], p[0]))]


@dataclass(slots=True)
class GridBoard(Board):
    """A grid of ``columns`` x ``rows`` intersections with its static drawing."""

    kind: ClassVar[str] = "grid"
    radius: ClassVar[float] = STONE_RADIUS
    mark_radius: ClassVar[Mapping[str, float]] = MARK_RADIUS

    columns: int
    rows: int
    stars: tuple[str, ...] = ()
    row_letters: bool = False  # 19-line Go writes rows as letters too (A = row 1)
    symbols: sym.Symbols = field(default=stones(), kw_only=True)

    def __post_init__(self) -> None:
        self.width = 2 * MARGIN + (self.columns - 1) * STEP
        self.height = 2 * MARGIN + (self.rows - 1) * STEP
        # Row 1 is at the bottom: larger y.
        self.cells = {
            grid_cell(x, row): (MARGIN + x * STEP, MARGIN + (self.rows - row) * STEP)
            for row in range(1, self.rows + 1)
            for x in range(self.columns)
        }
        self._place()

    def _draw_static(self) -> str:
        """Everything that does not depend on the position, as SVG markup."""
        import svgwrite  # here, not at the top: see generator.boards

        dwg = svgwrite.Drawing(profile="full", debug=False)
        left, top = MARGIN, MARGIN
        right = MARGIN + (self.columns - 1) * STEP
        bottom = MARGIN + (self.rows - 1) * STEP
        parts = [background(dwg, self.width, self.height)]
        # All inner lines in one path keeps the page small.
        d = []
        for x in range(1, self.columns - 1):
            d.append(f"M{left + x * STEP} {top}V{bottom}")
        for y in range(1, self.rows - 1):
            d.append(f"M{left} {top + y * STEP}H{right}")
        parts.append(dwg.path(d="".join(d), class_="q-grid", stroke=INK, fill="none").tostring())
        parts.append(
            dwg.rect((left, top), (right - left, bottom - top), class_="q-grid q-edge", stroke=INK, fill="none").tostring()
        )
        stars = dwg.g(class_="q-stars", fill=INK)
        for cell in self.stars:
            stars.add(dwg.circle(self.cells[cell], STAR_RADIUS, class_="q-star"))
        parts.append(stars.tostring())
        parts.append(self._draw_labels(dwg, left, top, right, bottom))
        return "".join(parts)

    def _draw_labels(self, dwg: svgwrite.Drawing, left: int, top: int, right: int, bottom: int) -> str:
        """Letters below and above, numbers (or letters) left and right, row 1 at the bottom."""
        spots = []
        for x in range(self.columns):
            cx, letter = left + x * STEP, COLUMN_LETTERS[x]
            spots += [(letter, cx, bottom + LABEL_GAP, "col"), (letter, cx, top - LABEL_GAP, "col")]
        for row in range(1, self.rows + 1):
            cy = top + (self.rows - row) * STEP
            name = COLUMN_LETTERS[row - 1] if self.row_letters else str(row)
            spots += [(name, left - LABEL_GAP, cy, "row"), (name, right + LABEL_GAP, cy, "row")]
        return coordinate_labels(dwg, spots)


def seat_colours(game: GameType) -> tuple[str, ...]:
    """A stone for the colour of every seat: the two sides' (sorted, as :func:`side_colours`), then any more seats'."""
    two = side_colours(game)
    return two + tuple(dict.fromkeys(side.colour for side in game.more_seats if side.colour not in two))


_BOARDS: dict[str, GridBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> GridBoard:
    """The board of a game type, drawn once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        stars = game.params.get("star_points")
        board = GridBoard(
            game.columns,
            game.rows,
            tuple(stars) if stars is not None else tuple(star_points(game.columns, game.rows)),
            bool(game.params.get("row_letters")),
            symbols=stones(seat_colours(game)),
        )
        _BOARDS[game.code] = board
    return board

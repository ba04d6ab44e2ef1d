"""The dots and boxes board: a lattice of dots, edges in the mover's colour, taken boxes filled.

Cells are the engine's (:mod:`generator.rules.dots`): an edge ``b4h`` or
``b4v`` at its middle, a box ``b4`` (lower-left dot b4) at its centre. The
static drawing is the dots, each edge still to be drawn as a faint dashed
line, and the labels (columns a-f below and above, rows 1-6 at the sides,
row 1 at the bottom), as the records write them. An edge is a bar from dot
to dot in its side's colour, a taken box a square of that colour inside its
four edges, so the lattice stays readable; the running score is the
engine's counters beside the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board, background, coordinate_labels, num, side_colours
from generator.games import GameType
from generator.rules.dots import box_cell, dot_name, edge_cell

STEP = 64  # from dot to dot
MARGIN = 52
LABEL_GAP = 32
DOT_RADIUS = 5.5
EDGE_WIDTH = 8
BOX_INSET = 9  # from a box's edges to its filling
MARK_RADIUS = {"last": 5, "*": 14}
# Box fillings, lighter than the edges of the same colour.
BOX_FILLS = {"red": "#f0a79d", "blue": "#a9bfee"}


def pieces(colours: tuple[str, ...] = ("blue", "red")) -> sym.Symbols:
    """Edges of each colour (across and upright) and boxes of each colour, centred on their cells."""
    length = STEP - 2 * DOT_RADIUS
    drawings: dict[str, str] = {}
    table: dict[str, dict[str, str]] = {"edge-h": {}, "edge-v": {}, "box": {}}
    for colour in colours:
        fill, stroke = sym.STONE_COLOURS.get(colour, ("#888", "#333"))
        drawings[f"h-{colour}"] = sym.box(f"q-edge q-{colour}", length, EDGE_WIDTH, EDGE_WIDTH / 2, fill=fill, stroke=stroke)
        drawings[f"v-{colour}"] = sym.box(f"q-edge q-{colour}", EDGE_WIDTH, length, EDGE_WIDTH / 2, fill=fill, stroke=stroke)
        side = STEP - 2 * BOX_INSET
        # Not the class q-<colour>, which viewer.css fills with the edges' strong colour.
        drawings[f"box-{colour}"] = sym.box(f"q-db-box q-db-{colour}", side, side, 4, fill=BOX_FILLS.get(colour, "#ccc"))
        table["edge-h"][colour], table["edge-v"][colour], table["box"][colour] = f"h-{colour}", f"v-{colour}", f"box-{colour}"
    return sym.Symbols("q-db-", drawings, table)


@dataclass(slots=True)
class DotsBoard(Board):
    """A lattice of ``columns`` x ``rows`` dots."""

    kind: ClassVar[str] = "dots"
    css_class: ClassVar[str] = "q-board q-board-dots"
    # Sizes the move numbers: small enough to sit on an edge between two dots.
    radius: ClassVar[float] = 15
    mark_radius: ClassVar[Mapping[str, float]] = MARK_RADIUS

    columns: int = 6
    rows: int = 6
    symbols: sym.Symbols = field(default=pieces(), kw_only=True)

    def __post_init__(self) -> None:
        self.width = 2 * MARGIN + (self.columns - 1) * STEP
        self.height = 2 * MARGIN + (self.rows - 1) * STEP
        cells: dict[str, tuple[float, float]] = {}
        for y in range(self.rows):
            for x in range(self.columns):
                cx, cy = self._dot(x, y)
                if x + 1 < self.columns:
                    cells[edge_cell(0, x, y)] = (cx + STEP / 2, cy)
                if y + 1 < self.rows:
                    cells[edge_cell(1, x, y)] = (cx, cy - STEP / 2)
                if x + 1 < self.columns and y + 1 < self.rows:
                    cells[box_cell(x, y)] = (cx + STEP / 2, cy - STEP / 2)
        self.cells = cells
        self._place()

    def _dot(self, x: int, y: int) -> tuple[float, float]:
        """The centre of dot (x, y); row 1 at the bottom."""
        return MARGIN + x * STEP, MARGIN + (self.rows - 1 - y) * STEP

    def _draw_static(self) -> str:
        import svgwrite  # here, not at the top: see generator.boards

        dwg = svgwrite.Drawing(profile="full", debug=False)
        parts = [background(dwg, self.width, self.height)]
        left, top = self._dot(0, self.rows - 1)
        right, bottom = self._dot(self.columns - 1, 0)
        lines = [f"M{num(left)} {num(top + k * STEP)}H{num(right)}" for k in range(self.rows)]
        lines += [f"M{num(left + k * STEP)} {num(top)}V{num(bottom)}" for k in range(self.columns)]
        parts.append(
            f'<path class="q-grid q-db-lines" d="{"".join(lines)}" fill="none" stroke="{INK}" '
            f'stroke-opacity="0.25" stroke-dasharray="3 7"/>'
        )
        dots = "".join(
            f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(DOT_RADIUS)}"/>'
            for y in range(self.rows) for x in range(self.columns)
            for cx, cy in [self._dot(x, y)]
        )
        parts.append(f'<g class="q-db-dots" fill="{INK}">{dots}</g>')
        spots = []
        for x in range(self.columns):
            cx = self._dot(x, 0)[0]
            letter = dot_name(x, 0)[0]
            spots += [(letter, cx, bottom + LABEL_GAP, "col"), (letter, cx, top - LABEL_GAP, "col")]
        for y in range(self.rows):
            cy = self._dot(0, y)[1]
            spots += [(str(y + 1), left - LABEL_GAP, cy, "row"), (str(y + 1), right + LABEL_GAP, cy, "row")]
        parts.append(coordinate_labels(dwg, spots))
        return "".join(parts)


_BOARDS: dict[str, DotsBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> DotsBoard:
    """The board of a game type, drawn once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        board = _BOARDS[game.code] = DotsBoard(game.columns, game.rows, symbols=pieces(side_colours(game)))
    return board


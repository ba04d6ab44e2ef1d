"""The Surakarta board: a 6x6 grid with its two loops of corner arcs.

Cells are named as SU records write them (:data:`generator.rules.surakarta.CELLS`):
the row digit, then the column letter, rows 1-6 from the top and columns
A-F from the left, so ``1A`` is the top-left point. The inner loop (second
lines, small arcs) and the outer loop (third lines, big arcs) are drawn in
two colours, each arc as three quarters of a circle outside its corner: the
classic drawing. The loops' course comes from the rules module, so the
board draws exactly the routes the engine allows.

Like :class:`generator.boards.grid.GridBoard` (both are a
:class:`generator.boards.base.Board`), the static drawing is made once per
game type, and :meth:`SurakartaBoard.svg` adds the pieces, marks and capture
paths of one position. :meth:`SurakartaBoard.scene` gives
``static/viewer.js`` the same geometry, plus ``curves``: the SVG arc
command for each pair of cells an arc joins, so that the viewer draws a
capture's route along the arcs rather than across the board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board, background, coordinate_labels, side_colours
from generator.games import GameType
from generator.rules.surakarta import CELLS, COLUMNS, INDEX, LOOPS, SIZE, Loop

if TYPE_CHECKING:
    import svgwrite

# Geometry in SVG user units; integers keep every coordinate exact and short,
# and let the viewer's path data match this module's character for character.
STEP = 60  # distance between two lines; the small arcs have this radius, the big ones twice it
LABEL_GAP = 2 * STEP + 28  # from the outer line to a label's centre: beyond the big arcs
MARGIN = LABEL_GAP + 24  # from the outer line to the edge of the drawing
PIECE_RADIUS = 21
# Marks drawn over a cell, by style; CSS decides fill or ring.
MARK_RADIUS = {"last": 6, "from": 9, "*": 24}
LOOP_COLOURS = {"inner": "#2e7d4f", "outer": "#2f5f9e"}  # fallbacks; viewer.css has the same


def pieces(colours: tuple[str, ...] = ("black", "red")) -> sym.Symbols:
    """The pieces of a Surakarta board: discs in the colours of its two sides."""
    return sym.stones("q-su-", colours, PIECE_RADIUS, kind="piece")


@dataclass(slots=True)
class SurakartaBoard(Board):
    """The 6x6 Surakarta board with its static drawing and arc geometry.

    :attr:`curves` holds the arcs: "2A|1B" -> "A60 60 0 1 1 x y".
    """

    kind: ClassVar[str] = "surakarta"
    css_class: ClassVar[str] = "q-board q-board-surakarta"
    radius: ClassVar[float] = PIECE_RADIUS
    mark_radius: ClassVar[Mapping[str, float]] = MARK_RADIUS

    symbols: sym.Symbols = field(default=pieces(), kw_only=True)

    def __post_init__(self) -> None:
        self.width = self.height = 2 * MARGIN + (SIZE - 1) * STEP
        # Row 1 at the top: smaller y.
        self.cells = {cell: (MARGIN + (i % SIZE) * STEP, MARGIN + (i // SIZE) * STEP) for i, cell in enumerate(CELLS)}
        self.curves = {}
        for loop in LOOPS:
            for a, b in loop.arcs:
                self.curves[f"{a}|{b}"] = self._arc(a, b)
                self.curves[f"{b}|{a}"] = self._arc(b, a)
        self._place()

    # -- geometry --------------------------------------------------------------

    def _arc(self, a: str, b: str) -> str:
        """The SVG arc command from a's point to b's: three quarters round their corner.

        The corner is the board corner both cells are next to along the edges:
        its row is that of the cell on row 1 or 6, its column that of the
        cell on column A or F (2A and 1B: corner 1A).
        """
        ia, ib = INDEX[a], INDEX[b]
        on_edge_row = ia if ia // SIZE in (0, SIZE - 1) else ib
        on_edge_column = ia if ia % SIZE in (0, SIZE - 1) else ib
        cx = self.cells[CELLS[on_edge_column]][0]
        cy = self.cells[CELLS[on_edge_row]][1]
        (ax, ay), (bx, by) = self.cells[a], self.cells[b]
        radius = max(abs(ax - cx), abs(ay - cy))
        # The short way round from a to b turns +90 or -90 degrees; the arc
        # outside the board goes the long way, the other sense (SVG sweep 1 = clockwise).
        turn = math.degrees(math.atan2(by - cy, bx - cx) - math.atan2(ay - cy, ax - cx))
        turn = (turn + 180) % 360 - 180
        sweep = 0 if turn > 0 else 1
        return f"A{radius} {radius} 0 1 {sweep} {bx} {by}"

    def _loop_data(self, loop: Loop) -> str:
        """The whole loop as one closed path: its four lines and four arcs."""
        ring = [CELLS[i] for i in loop.cells]
        return self.path_data(ring + ring[:1]) + "Z"

    # -- the drawing -------------------------------------------------------------

    def _draw_static(self) -> str:
        """Everything that does not depend on the position, as SVG markup."""
        import svgwrite  # here, not at the top: see generator.boards

        dwg = svgwrite.Drawing(profile="full", debug=False)
        left, top = self.cells["1A"]
        right, bottom = self.cells[f"{SIZE}{COLUMNS[-1]}"]
        parts = [background(dwg, self.width, self.height)]
        d = []
        for k in range(SIZE):
            d.append(f"M{left + k * STEP} {top}V{bottom}")
            d.append(f"M{left} {top + k * STEP}H{right}")
        parts.append(dwg.path(d="".join(d), class_="q-grid", stroke=INK, fill="none").tostring())
        for loop in LOOPS:
            parts.append(
                dwg.path(
                    d=self._loop_data(loop),
                    class_=f"q-loop q-loop-{loop.name}",
                    stroke=LOOP_COLOURS[loop.name],
                    fill="none",
                ).tostring()
            )
        parts.append(self._draw_labels(dwg, left, top, right, bottom))
        return "".join(parts)

    def _draw_labels(self, dwg: svgwrite.Drawing, left: float, top: float, right: float, bottom: float) -> str:
        """Letters above and below, numbers left and right, row 1 at the top."""
        spots = []
        for k, letter in enumerate(COLUMNS):
            x = left + k * STEP
            spots += [(letter, x, top - LABEL_GAP, "col"), (letter, x, bottom + LABEL_GAP, "col")]
        for row in range(1, SIZE + 1):
            y = top + (row - 1) * STEP
            spots += [(str(row), left - LABEL_GAP, y, "row"), (str(row), right + LABEL_GAP, y, "row")]
        return coordinate_labels(dwg, spots)


_BOARDS: dict[str, SurakartaBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> SurakartaBoard:
    """The board of a game type, drawn once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        board = _BOARDS[game.code] = SurakartaBoard(symbols=pieces(side_colours(game)))
    return board

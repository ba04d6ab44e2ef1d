"""The Surakarta board: a 6x6 grid with its two loops of corner arcs.

Cells are named as SU records write them (:data:`generator.rules.surakarta.CELLS`):
the row digit, then the column letter, rows 1-6 from the top and columns
A-F from the left, so ``1A`` is the top-left point. The inner loop (second
lines, small arcs) and the outer loop (third lines, big arcs) are drawn in
two colours, each arc as three quarters of a circle outside its corner: the
classic drawing. The loops' course comes from the rules module, so the
board draws exactly the routes the engine allows.

Like :class:`generator.boards.grid.GridBoard`, the static drawing is made
once per game type, and :meth:`SurakartaBoard.svg` adds the pieces, marks
and capture paths of one position. :meth:`SurakartaBoard.scene` gives
``static/viewer.js`` the same geometry, plus ``curves``: the SVG arc
command for each pair of cells an arc joins, so that the viewer draws a
capture's route along the arcs rather than across the board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generator import boards
from generator.boards.grid import (
    css_word,
    marks_svg,
    number_sizes,
    pieces_svg,
    svg_document,
)
from generator.games import GameType
from generator.rules.surakarta import CELLS, COLUMNS, INDEX, LOOPS, SIZE, Loop
from generator.scene import Position

if TYPE_CHECKING:
    import svgwrite

# Geometry in SVG user units; integers keep every coordinate exact and short,
# and let the viewer's path data match this module's character for character.
STEP = 60  # distance between two lines; the small arcs have this radius, the big ones twice it
LABEL_GAP = 2 * STEP + 28  # from the outer line to a label's centre: beyond the big arcs
MARGIN = LABEL_GAP + 24  # from the outer line to the edge of the drawing
PIECE_RADIUS = 21
LABEL_SIZE = 17
# Marks drawn over a cell, by style; CSS decides fill or ring.
MARK_RADIUS = {"last": 6, "from": 9, "*": 24}
LOOP_COLOURS = {"inner": "#2e7d4f", "outer": "#2f5f9e"}  # fallbacks; viewer.css has the same

_SVG_NS = "http://www.w3.org/2000/svg"


def _num(value: float) -> str:
    """Shortest text for a coordinate: 60 not 60.0 (as JavaScript prints numbers)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@dataclass(slots=True)
class SurakartaBoard(boards.StaticDrawing):
    """The 6x6 Surakarta board with its static drawing and arc geometry."""

    cells: dict[str, tuple[int, int]] = field(init=False, repr=False)  # cell id -> (x, y)
    curves: dict[str, str] = field(init=False, repr=False)  # "2A|1B" -> "A60 60 0 1 1 x y"
    width: int = field(init=False)
    height: int = field(init=False)
    _xy: dict[str, str] = field(init=False, repr=False)  # cell id -> 'cx="…" cy="…"'
    _scene: dict[str, Any] | None = field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        self.width = self.height = 2 * MARGIN + (SIZE - 1) * STEP
        # Row 1 at the top: smaller y.
        self.cells = {cell: (MARGIN + (i % SIZE) * STEP, MARGIN + (i // SIZE) * STEP) for i, cell in enumerate(CELLS)}
        self.curves = {}
        for loop in LOOPS:
            for a, b in loop.arcs:
                self.curves[f"{a}|{b}"] = self._arc(a, b)
                self.curves[f"{b}|{a}"] = self._arc(b, a)
        self._xy = {cell: f'cx="{x}" cy="{y}"' for cell, (x, y) in self.cells.items()}

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

    def path_data(self, cells: list[str]) -> str:
        """SVG path data through cells in order: straight steps, arcs where the pair is one.

        Empty if a cell is not on this board. ``static/viewer.js`` builds the same string.
        """
        parts = []
        prev = None
        for cell in cells:
            xy = self.cells.get(cell)
            if xy is None:
                return ""
            if prev is None:
                parts.append(f"M{xy[0]} {xy[1]}")
            else:
                parts.append(self.curves.get(f"{prev}|{cell}") or f"L{xy[0]} {xy[1]}")
            prev = cell
        return "".join(parts)

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
        parts = [
            dwg.rect((0, 0), (self.width, self.height), class_="q-board-bg", fill="#e3c16f").tostring(),
        ]
        d = []
        for k in range(SIZE):
            d.append(f"M{left + k * STEP} {top}V{bottom}")
            d.append(f"M{left} {top + k * STEP}H{right}")
        parts.append(dwg.path(d="".join(d), class_="q-grid", stroke="#3b2f1e", fill="none").tostring())
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

    def _draw_labels(self, dwg: svgwrite.Drawing, left: int, top: int, right: int, bottom: int) -> str:
        """Letters above and below, numbers left and right, row 1 at the top."""
        labels = dwg.g(class_="q-coords", font_size=LABEL_SIZE, text_anchor="middle", fill="#3b2f1e")
        shift = LABEL_SIZE * 0.35  # moves the baseline down so that the glyphs are centred
        for k, letter in enumerate(COLUMNS):
            x = left + k * STEP
            labels.add(dwg.text(letter, insert=(x, top - LABEL_GAP + shift), class_="q-coord q-col"))
            labels.add(dwg.text(letter, insert=(x, bottom + LABEL_GAP + shift), class_="q-coord q-col"))
        for row in range(1, SIZE + 1):
            y = top + (row - 1) * STEP + shift
            labels.add(dwg.text(str(row), insert=(left - LABEL_GAP, y), class_="q-coord q-row"))
            labels.add(dwg.text(str(row), insert=(right + LABEL_GAP, y), class_="q-coord q-row"))
        return labels.tostring()


    def svg(self, position: Position | None, *, label: str, numbers: bool = False, static: bool = True) -> str:
        """A complete inline ``<svg>`` of ``position`` (the empty board if None).

        As :meth:`generator.boards.grid.GridBoard.svg`; the marks layer also
        holds the current ply's paths (a capture's route), under its marks.
        """
        pieces = self._pieces(position, numbers) if position is not None else ""
        marks = self._paths(position) + self._marks(position) if position is not None else ""
        static_markup = self.static_markup if static else None
        return svg_document("q-board q-board-surakarta", self.width, self.height, label, static_markup, pieces, marks)

    def _pieces(self, position: Position, numbers: bool) -> str:
        return pieces_svg(position, self._xy, self.cells, PIECE_RADIUS, numbers)

    def _paths(self, position: Position) -> str:
        out = []
        for cells, style in position.paths:
            d = self.path_data(cells)
            if d:
                out.append(f'<path class="q-path q-path-{css_word(style)}" d="{d}"/>')
        return "".join(out)

    def _marks(self, position: Position) -> str:
        return marks_svg(position, self._xy, MARK_RADIUS)

    # -- what viewer.js needs ------------------------------------------------

    def scene(self) -> dict[str, Any]:
        """Geometry, class names and arcs for ``static/viewer.js`` (JSON-ready)."""
        if self._scene is None:
            self._scene = {
                "board": "surakarta",
                "cells": {cell: [x, y] for cell, (x, y) in self.cells.items()},
                "radius": PIECE_RADIUS,
                "marks": dict(MARK_RADIUS),
                "numberSizes": number_sizes(PIECE_RADIUS),
                "classes": {name: f"q-{name}" for name in ("piece", "black", "red")},
                "curves": dict(self.curves),
            }
        return dict(self._scene)  # shallow: callers replace "cells", never edit inside


_BOARDS: dict[str, SurakartaBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> SurakartaBoard:
    """The board of a game type, drawn once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        board = _BOARDS[game.code] = SurakartaBoard()
    return board

"""The Hex board: 11x11 pointy-topped hexagons in a rhombus.

Cells are named as HEX records write them (:func:`generator.scene.grid_cell`):
columns ``A`` … ``K`` from the left, rows ``1`` … ``11`` from the bottom, so
``A1`` is the bottom-left hexagon. Each row is shifted half a hexagon to the
right of the row below it, so the rhombus leans right: A1 and K11 are its
acute corners, K1 and A11 its obtuse ones. With that slant the six hexagons
sharing a side with (x, y) are (x ± 1, y), (x, y ± 1), (x - 1, y + 1) and
(x + 1, y - 1): exactly the neighbours of :data:`generator.rules.hex.NEIGHBOURS`.

Column letters run along the bottom and top edges, row numbers along the
left and right ones, each next to the edge hexagon of its column or row. The four edges are
coloured for the players who join them: by default (``red_joins = "rows"``)
red's edges are row 1 and row 11, blue's columns A and K; the ``"columns"``
variant swaps them. Each variant is drawn once (:func:`board_for`).

Like :class:`generator.boards.grid.GridBoard` (both are a
:class:`generator.boards.base.Board`), :meth:`HexBoard.svg` adds the stones
and marks of one position to the cached static drawing, and
:meth:`HexBoard.scene` gives ``static/viewer.js`` the same geometry.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board, background, coordinate_labels, num, side_colours
from generator.games import GameType
from generator.scene import COLUMN_LETTERS, grid_cell

if TYPE_CHECKING:
    import svgwrite

# Geometry in SVG user units. The hexagons are pointy-topped: WIDTH across
# the flats (the distance between the centres of two neighbours), SIDE the
# length of a side (= the circumradius), rows ROW_STEP apart.
WIDTH = 44
SIDE = WIDTH / math.sqrt(3)
ROW_STEP = 1.5 * SIDE
STONE_RADIUS = 18  # under WIDTH/2 (the hexagon's inradius) so stones sit inside their cell
LABEL_GAP = 16  # from the outline of the edge hexagons to a label's centre
PAD = 20  # from the outermost label centre to the edge of the drawing
# Marks drawn over a cell, by style; CSS decides fill or ring.
MARK_RADIUS = {"last": 6, "win": 20.5, "*": 20.5}
EDGE_COLOURS = {"red": "#d23a2a", "blue": "#2f5fc4"}  # fallbacks; viewer.css has the same
VARIANTS = ("rows", "columns")

_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1))


def stones(colours: tuple[str, ...] = ("red", "blue")) -> sym.Symbols:
    """The stones of a Hex board, in the colours of its two sides."""
    return sym.stones("q-hex-", colours, STONE_RADIUS)


def _raw_centre(x: int, y: int) -> tuple[float, float]:
    """Centre of the 0-based cell (x, y) before the drawing is moved into place; row 1 at the bottom."""
    return x * WIDTH + y * WIDTH / 2, -y * ROW_STEP


@dataclass(slots=True)
class HexBoard(Board):
    """A ``columns`` x ``rows`` Hex rhombus with its static drawing.

    ``variant`` is which edges red joins: "rows" (row 1 and the last row) or
    "columns" (A and the last column); blue joins the other two. Cells
    (:attr:`cells`) are rounded to 2 decimals.
    """

    kind: ClassVar[str] = "hex"
    css_class: ClassVar[str] = "q-board q-board-hex"
    radius: ClassVar[float] = STONE_RADIUS
    mark_radius: ClassVar[Mapping[str, float]] = MARK_RADIUS

    columns: int = 11
    rows: int = 11
    variant: str = "rows"
    symbols: sym.Symbols = field(default=stones(), kw_only=True)
    _offset: tuple[float, float] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown Hex board variant {self.variant!r}; expected one of {VARIANTS}")
        # The drawing's extent: the outermost labels lie beyond every hexagon.
        points = [self._label_raw(*spot)[0] for spot in self._label_spots()]
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        self._offset = (PAD - min(xs), PAD - min(ys))
        self.width = math.ceil(max(xs) - min(xs) + 2 * PAD)
        self.height = math.ceil(max(ys) - min(ys) + 2 * PAD)
        self.cells = {
            grid_cell(x, y + 1): self._centre(x, y) for y in range(self.rows) for x in range(self.columns)
        }
        self._place()

    # -- geometry ------------------------------------------------------------------

    def _centre(self, x: float, y: float, exact: bool = False) -> tuple[float, float]:
        """Centre of the 0-based cell (x, y) in the drawing (rounded to 2 decimals unless ``exact``)."""
        rx, ry = _raw_centre(x, y)  # type: ignore[arg-type]
        cx, cy = rx + self._offset[0], ry + self._offset[1]
        return (cx, cy) if exact else (round(cx, 2), round(cy, 2))

    def corners(self, x: int, y: int) -> list[tuple[float, float]]:
        """The six corners of the hexagon of cell (x, y), clockwise from the top."""
        cx, cy = self._centre(x, y, exact=True)
        return [
            (cx + SIDE * math.cos(math.radians(a)), cy + SIDE * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)
        ]

    def _side(self, x: int, y: int, dx: int, dy: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The side of cell (x, y) it shares with its neighbour (x + dx, y + dy), on or off the board.

        Half-way to the neighbour's centre, SIDE/2 either way across: a
        hexagon's side is perpendicular to the step between two centres.
        """
        ax, ay = self._centre(x, y, exact=True)
        bx, by = self._centre(x + dx, y + dy, exact=True)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        length = math.hypot(bx - ax, by - ay)
        px, py = -(by - ay) / length * SIDE / 2, (bx - ax) / length * SIDE / 2
        return (mx - px, my - py), (mx + px, my + py)

    def _label_spots(self) -> list[tuple[str, int, int, float, float]]:
        """(text, x, y, ox, oy): a label at offset (ox, oy) from the centre of edge cell (x, y).

        Letters straight below row 1 and above the last row, numbers straight
        left of column A and right of the last column.
        """
        below, across = SIDE + LABEL_GAP, WIDTH / 2 + LABEL_GAP
        spots: list[tuple[str, int, int, float, float]] = []
        for x in range(self.columns):
            letter = COLUMN_LETTERS[x]
            spots.append((letter, x, 0, 0, below))
            spots.append((letter, x, self.rows - 1, 0, -below))
        for y in range(self.rows):
            spots.append((str(y + 1), 0, y, -across, 0))
            spots.append((str(y + 1), self.columns - 1, y, across, 0))
        return spots

    @staticmethod
    def _label_raw(text: str, x: int, y: int, ox: float, oy: float) -> tuple[tuple[float, float], str]:
        cx, cy = _raw_centre(x, y)
        return (cx + ox, cy + oy), text

    def edge_sides(self) -> dict[str, list[tuple[tuple[float, float], tuple[float, float]]]]:
        """The board's outline by edge ("row-low", "row-high", "col-low", "col-high").

        A side of an edge hexagon belongs to the edge its off-board neighbour
        lies beyond. At the obtuse corners one side faces off the board on
        both counts; it is split in two, each half going to the edge of the
        other side of that hexagon it meets.
        """
        edges: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = {
            "row-low": [], "row-high": [], "col-low": [], "col-high": [],
        }

        def beyond(nx: int, ny: int) -> list[str]:
            out = []
            if ny < 0:
                out.append("row-low")
            if ny >= self.rows:
                out.append("row-high")
            if nx < 0:
                out.append("col-low")
            if nx >= self.columns:
                out.append("col-high")
            return out

        for y in range(self.rows):
            for x in range(self.columns):
                plain: list[tuple[str, tuple[tuple[float, float], tuple[float, float]]]] = []
                split = []
                for dx, dy in _DIRECTIONS:
                    names = beyond(x + dx, y + dy)
                    side = self._side(x, y, dx, dy)
                    if len(names) == 1:
                        plain.append((names[0], side))
                    elif len(names) == 2:
                        split.append(side)
                for name, side in plain:
                    edges[name].append(side)
                for a, b in split:
                    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                    for end in (a, b):
                        for name, (p, q) in plain:
                            if math.dist(end, p) < 1e-6 or math.dist(end, q) < 1e-6:
                                edges[name].append((end, mid))
                                break
        return edges

    def edge_colours(self) -> dict[str, str]:
        """Colour of each edge for this variant."""
        red_rows = self.variant == "rows"
        rows, cols = ("red", "blue") if red_rows else ("blue", "red")
        return {"row-low": rows, "row-high": rows, "col-low": cols, "col-high": cols}

    # -- the drawing ---------------------------------------------------------------

    def _draw_static(self) -> str:
        """Everything that does not depend on the position, as SVG markup."""
        import svgwrite  # here, not at the top: see generator.boards

        dwg = svgwrite.Drawing(profile="full", debug=False)
        parts = [background(dwg, self.width, self.height)]
        cells = dwg.g(class_="q-hex-cells", fill="#ecd49a", stroke=INK)
        for y in range(self.rows):
            for x in range(self.columns):
                # As text: svgwrite would print every float in full.
                points = [(num(px), num(py)) for px, py in self.corners(x, y)]
                cells.add(dwg.polygon(points, class_="q-hex", **{"data-cell": grid_cell(x, y + 1)}))
        parts.append(cells.tostring())
        colours = self.edge_colours()
        for name, sides in self.edge_sides().items():
            colour = colours[name]
            d = "".join(f"M{num(a[0])} {num(a[1])}L{num(b[0])} {num(b[1])}" for a, b in sides)
            parts.append(
                dwg.path(
                    d=d,
                    class_=f"q-hex-edge q-hex-edge-{colour}",
                    stroke=EDGE_COLOURS[colour],
                    stroke_width=5,
                    stroke_linecap="round",
                    fill="none",
                    **{"data-edge": name},
                ).tostring()
            )
        parts.append(self._draw_labels(dwg))
        return "".join(parts)

    def _draw_labels(self, dwg: svgwrite.Drawing) -> str:
        """Letters below and above, numbers left and right, each next to its edge hexagon."""
        spots = []
        for spot in self._label_spots():
            (x, y), text = self._label_raw(*spot)
            spots.append((text, x + self._offset[0], y + self._offset[1], "col" if text.isalpha() else "row"))
        return coordinate_labels(dwg, spots)


_BOARDS: dict[tuple[str, str], HexBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> HexBoard:
    """The board of a game type and variant (None: "rows"), drawn once and shared by every page."""
    chosen = variant or "rows"
    key = (game.code, chosen)
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = HexBoard(game.columns, game.rows, chosen, symbols=stones(side_colours(game)))
    return board

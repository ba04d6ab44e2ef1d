"""The xiangqi board as players know it: 9x10 points, the river, the palaces.

Cells are named as the rules engine names them (:data:`generator.rules.xiangqi.CELLS`):
the column letter A-J without I, then the row 0-9 from red's side, red at the
bottom. The static drawing has the ten ranks, the files broken by the river
(楚河 汉界), the palaces with their diagonals, the small corner marks where the
cannons and soldiers start, and the files as each player counts them: black's
１-９ above, red's 九-一 below, with the CCGC letters and row numbers beside.

Pieces are discs with their characters, 帥仕相傌俥炮兵 in red and 將士象馬車砲卒
in black, each drawing declared once (:mod:`generator.boards.symbols`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board, background, coordinate_labels, num, side_colours
from generator.games import GameType
from generator.rules.xiangqi import CELLS, COLUMNS, HEIGHT, KINDS, WIDTH

if TYPE_CHECKING:
    import svgwrite

STEP = 52  # between two lines
SIDE = 52  # from the outer files to the edge: room for the row numbers
TOP = 52  # above black's back rank: black's file numbers
BOTTOM = 84  # below red's back rank: red's file numbers, then the letters
PIECE_RADIUS = 23
MARK_RADIUS = {"to": 25, "from": 11, "check": 27, "*": 25}
PIECE_FILL = "#f6e3b4"
INKS = {"red": "#b3261e", "black": "#1d1d1d"}
# The characters of each side's pieces, in the order of rules.xiangqi.KINDS.
CHARACTERS = {"red": "帥仕相傌俥炮兵", "black": "將士象馬車砲卒"}
RED_FILES = "九八七六五四三二一"
BLACK_FILES = "１２３４５６７８９"
# Where the cannons and soldiers start: the points with corner marks.
START_MARKS = ((1, 2), (7, 2), (1, 7), (7, 7)) + tuple((c, r) for c in (0, 2, 4, 6, 8) for r in (3, 6))


def pieces(colours: tuple[str, ...] = ("black", "red")) -> sym.Symbols:
    """Discs with the pieces' characters, in the ink of their side."""
    drawings: dict[str, str] = {}
    table: dict[str, dict[str, str]] = {}
    for colour in colours:
        ink = INKS.get(colour, INK)
        characters = CHARACTERS.get(colour, CHARACTERS["black"])
        for kind, character in zip(KINDS[1:], characters, strict=True):
            name = f"{kind}-{colour}"
            drawings[name] = (
                sym.disc(f"q-xq-piece q-xq-{colour}", PIECE_RADIUS, fill=PIECE_FILL, stroke=ink, stroke_width=2)
                + sym.disc("q-xq-ring", PIECE_RADIUS - 4, fill="none", stroke=ink, stroke_width=1)
                + sym.glyph(character, "q-glyph q-xq-glyph", 26, fill=ink)
            )
            table.setdefault(kind, {})[colour] = name
    return sym.Symbols("q-xq-", drawings, table)


@dataclass(slots=True)
class XiangqiBoard(Board):
    """The 9x10 xiangqi board with its static drawing."""

    kind: ClassVar[str] = "xiangqi"
    css_class: ClassVar[str] = "q-board q-board-xiangqi"
    radius: ClassVar[float] = PIECE_RADIUS
    mark_radius: ClassVar[Mapping[str, float]] = MARK_RADIUS

    symbols: sym.Symbols = field(default=pieces(), kw_only=True)

    def __post_init__(self) -> None:
        self.width = 2 * SIDE + (WIDTH - 1) * STEP
        self.height = TOP + BOTTOM + (HEIGHT - 1) * STEP
        self.cells = {cell: self.xy(i % WIDTH, i // WIDTH) for i, cell in enumerate(CELLS)}
        self._place()

    @staticmethod
    def xy(col: int, row: int) -> tuple[float, float]:
        """The centre of a point: row 0 (red's back rank) at the bottom."""
        return SIDE + col * STEP, TOP + (HEIGHT - 1 - row) * STEP

    def _draw_static(self) -> str:
        import svgwrite  # here, not at the top: see generator.boards

        dwg = svgwrite.Drawing(profile="full", debug=False)
        x0, y_top = self.xy(0, HEIGHT - 1)
        x8, y_bottom = self.xy(WIDTH - 1, 0)
        river_top, river_bottom = self.xy(0, 5)[1], self.xy(0, 4)[1]
        d = [f"M{x0} {TOP + r * STEP}H{x8}" for r in range(HEIGHT)]
        d += [f"M{x} {y_top}V{y_bottom}" for x in (x0, x8)]
        for c in range(1, WIDTH - 1):
            x = SIDE + c * STEP
            d += [f"M{x} {y_top}V{river_top}", f"M{x} {river_bottom}V{y_bottom}"]
        for low in (0, 7):  # the palaces' diagonals
            (ax, ay), (bx, by) = self.xy(3, low), self.xy(5, low + 2)
            d += [f"M{ax} {ay}L{bx} {by}", f"M{bx} {ay}L{ax} {by}"]
        d += [self._corner_marks(c, r) for c, r in START_MARKS]
        parts = [
            background(dwg, self.width, self.height),
            dwg.path(d="".join(d), class_="q-grid", stroke=INK, fill="none").tostring(),
            dwg.rect(
                (x0 - 5, y_top - 5), (x8 - x0 + 10, y_bottom - y_top + 10), class_="q-xq-frame",
                stroke=INK, fill="none", stroke_width=2.5,
            ).tostring(),
        ]
        middle = (river_top + river_bottom) / 2
        river = dwg.g(class_="q-glyph q-xq-river", font_size=30, text_anchor="middle", fill=INK)
        river.add(dwg.text("楚 河", insert=(num(SIDE + 2 * STEP), num(middle + 10))))
        river.add(dwg.text("汉 界", insert=(num(SIDE + 6 * STEP), num(middle + 10))))
        parts.append(river.tostring())
        parts.append(self._labels(dwg, y_top, y_bottom))
        return "".join(parts)

    def _corner_marks(self, col: int, row: int) -> str:
        """The small right angles around a start point of a cannon or soldier (not past the board's edge)."""
        x, y = self.xy(col, row)
        gap, arm = 4, 10
        out = []
        for sx in (-1, 1):
            if (col == 0 and sx < 0) or (col == WIDTH - 1 and sx > 0):
                continue
            for sy in (-1, 1):
                cx, cy = x + sx * gap, y + sy * gap
                out.append(f"M{cx + sx * arm} {cy}H{cx}V{cy + sy * arm}")
        return "".join(out)

    def _labels(self, dwg: svgwrite.Drawing, y_top: float, y_bottom: float) -> str:
        spots = []
        for c in range(WIDTH):
            x = SIDE + c * STEP
            spots.append((BLACK_FILES[c], x, y_top - 32, "col"))
            spots.append((RED_FILES[c], x, y_bottom + 32, "col"))
            spots.append((COLUMNS[c], x, y_bottom + 62, "col"))
        for r in range(HEIGHT):
            y = TOP + (HEIGHT - 1 - r) * STEP
            spots.append((str(r), SIDE - 34, y, "row"))
            spots.append((str(r), SIDE + (WIDTH - 1) * STEP + 34, y, "row"))
        return coordinate_labels(dwg, spots)


_BOARDS: dict[str, XiangqiBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> XiangqiBoard:
    """The board of a game type, drawn once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        board = _BOARDS[game.code] = XiangqiBoard(symbols=pieces(side_colours(game)))
    return board

"""The army chess board (AC2) as players know it: 12 rows by 5 columns, railways drawn bold.

Cells are named as the records write them (``"G0"``: row letter A-L from
the top, column 0-4 from the left; see :mod:`generator.rules.armychess`).
The two halves stand apart across the front, where only columns 0, 2 and 4
cross (the mountains close 1 and 3). Roads are thin lines, railways bold
with light dashes inside, stations small boxes, camps (行营) circles and the
headquarters (大本营) arched boxes.

Pieces are the players' wooden tiles: a box with the piece's Chinese name
(司令 … 军旗) in its side's ink. A piece the view may not know is drawn face
down (kind ``hidden``, the back of a tile in its side's colour); one whose
rank the player has deduced from the battles' outcomes (kind
``deduced-<kind>``) face down with a dashed edge and its name in light ink.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board, coordinate_labels, num, side_colours
from generator.games import GameType
from generator.rules.armychess import (
    CAMPS,
    CELLS,
    CHINESE,
    COLUMNS,
    HEADQUARTERS,
    HIDDEN,
    NAMES,
    RAIL_LINES,
    ROADS,
    ROWS,
)

if TYPE_CHECKING:
    import svgwrite

PITCH_X, PITCH_Y = 70, 46  # from one cell to the next
FRONT = 44  # the extra space between the halves (rows F and G)
MARGIN_X, MARGIN_Y = 56, 44  # room for the labels
LABEL_GAP = 30
TILE_W, TILE_H = 54, 30
STATION_W, STATION_H = 40, 22
CAMP_RADIUS = 17
PAPER, RAIL, ROAD = "#f3e3b5", "#2b2b2b", "#6b5a3a"
INKS = {"red": "#b3261e", "black": "#1d1d1d", "blue": "#1f4f9a"}
BACKS = {"red": "#c2473c", "black": "#3a3a3a", "blue": "#2f5fae"}
MARK_RADIUS = {"last": 24, "from": 9, "*": 20}
# The cell a move ended on: a ring round the tile, not a dot on its name (inside the static drawing, so it travels with it).
STYLE = "svg.q-board-armychess .q-mark-last{fill:none;stroke:var(--q-accent,#b3261e);stroke-width:3}"


def cell_xy(name: str) -> tuple[float, float]:
    row, column = ROWS.index(name[0]), int(name[1:])
    y = MARGIN_Y + row * PITCH_Y + (FRONT if row >= 6 else 0)
    return MARGIN_X + column * PITCH_X, y


def pieces(colours: tuple[str, ...] = ("red", "black")) -> sym.Symbols:
    """A tile with its Chinese name for every piece and side, and each side's face-down tile."""
    drawings: dict[str, str] = {}
    table: dict[str, dict[str, str]] = {}
    for colour in colours:
        ink = INKS.get(colour, INK)
        for code, kind in NAMES.items():
            name = f"{kind}-{colour}"
            drawings[name] = (
                sym.box("q-ac-tile", TILE_W, TILE_H, 5, fill="#fbf3dc", stroke=ink, stroke_width=2)
                + sym.glyph(CHINESE[code], "q-glyph q-ac-glyph", 17, fill=ink, font_weight="bold")
            )
            table.setdefault(kind, {})[colour] = name
            # A face-down piece whose rank its opponent has deduced from the battles: the back, and the name.
            deduced = f"deduced-{kind}-{colour}"
            drawings[deduced] = sym.box(
                "q-ac-back q-ac-deduced", TILE_W, TILE_H, 5, fill=BACKS.get(colour, "#666"), stroke="#fbf3dc",
                stroke_width=2, stroke_dasharray="4 3",
            ) + sym.glyph(CHINESE[code], "q-glyph q-ac-glyph", 16, fill="#fbf3dc", font_weight="bold")
            table.setdefault(f"deduced-{kind}", {})[colour] = deduced
        back = f"back-{colour}"
        drawings[back] = sym.box(
            "q-ac-back", TILE_W, TILE_H, 5, fill=BACKS.get(colour, "#666"), stroke="#fbf3dc", stroke_width=2
        ) + sym.box("q-ac-back-inner", TILE_W - 12, TILE_H - 12, 3, fill="none", stroke="#fbf3dc", stroke_width=1)
        table.setdefault(HIDDEN, {})[colour] = back
    return sym.Symbols("q-ac-", drawings, table)


@dataclass(slots=True)
class ArmyChessBoard(Board):
    """The 12 x 5 board with its roads, railways, camps and headquarters."""

    kind: ClassVar[str] = "armychess"
    css_class: ClassVar[str] = "q-board q-board-armychess"
    radius: ClassVar[float] = TILE_H / 2
    mark_radius: ClassVar[Mapping[str, float]] = MARK_RADIUS

    symbols: sym.Symbols = field(default=pieces(), kw_only=True)

    def __post_init__(self) -> None:
        self.width = 2 * MARGIN_X + (COLUMNS - 1) * PITCH_X
        self.height = 2 * MARGIN_Y + (len(ROWS) - 1) * PITCH_Y + FRONT
        self.cells = {name: cell_xy(name) for name in CELLS}
        self._place()

    def _draw_static(self) -> str:
        import svgwrite  # here, not at the top: see generator.boards

        dwg = svgwrite.Drawing(profile="full", debug=False)
        xy = [cell_xy(name) for name in CELLS]
        roads = []
        for i, near in enumerate(ROADS):
            for j in near:
                if j > i:
                    (x1, y1), (x2, y2) = xy[i], xy[j]
                    roads.append(f"M{num(x1)} {num(y1)}L{num(x2)} {num(y2)}")
        rails = []
        for line in RAIL_LINES:
            points = [xy[i] for i in line]
            rails.append("M" + "L".join(f"{num(x)} {num(y)}" for x, y in points))
        stations, camps, headquarters = [], [], []
        for i, (x, y) in enumerate(xy):
            if i in CAMPS:
                camps.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{CAMP_RADIUS}"/>')
            elif i in HEADQUARTERS:
                w, h = STATION_W + 6, STATION_H + 6
                headquarters.append(
                    f'<path d="M{num(x - w / 2)} {num(y + h / 2)}v-{num(h / 2)}a{num(w / 2)} {num(h / 2)} 0 0 1 {num(w)} 0'
                    f'v{num(h / 2)}z"/>'
                )
            else:
                stations.append(
                    f'<rect x="{num(x - STATION_W / 2)}" y="{num(y - STATION_H / 2)}" '
                    f'width="{STATION_W}" height="{STATION_H}" rx="2"/>'
                )
        top_front = cell_xy("F2")[1]
        middle = top_front + (FRONT + PITCH_Y) / 2
        left, right = MARGIN_X - 30, MARGIN_X + (COLUMNS - 1) * PITCH_X + 30
        parts = [
            f"<style>{STYLE}</style>",
            f'<rect class="q-board-bg" width="{num(self.width)}" height="{num(self.height)}" fill="{PAPER}"/>',
            f'<path class="q-ac-front" d="M{num(left)} {num(middle)}H{num(right)}" stroke="{ROAD}" stroke-width="1" '
            'stroke-dasharray="2 6" fill="none"/>',
            f'<path class="q-ac-road" d="{"".join(roads)}" stroke="{ROAD}" stroke-width="1.5" fill="none"/>',
            f'<path class="q-ac-rail" d="{"".join(rails)}" stroke="{RAIL}" stroke-width="6" fill="none" '
            'stroke-linejoin="round"/>',
            f'<path class="q-ac-rail-ties" d="{"".join(rails)}" stroke="{PAPER}" stroke-width="2" '
            'stroke-dasharray="6 6" fill="none"/>',
            f'<g class="q-ac-station" fill="{PAPER}" stroke="{ROAD}" stroke-width="1.5">{"".join(stations)}</g>',
            f'<g class="q-ac-camp" fill="#e9d08f" stroke="{ROAD}" stroke-width="2">{"".join(camps)}</g>',
            f'<g class="q-ac-hq" fill="#e0b96a" stroke="{ROAD}" stroke-width="2">{"".join(headquarters)}</g>',
            self._draw_labels(dwg),
        ]
        return "".join(parts)

    def _draw_labels(self, dwg: svgwrite.Drawing) -> str:
        spots: list[tuple[str, float, float, str]] = []
        for c in range(COLUMNS):
            x = MARGIN_X + c * PITCH_X
            spots += [(str(c), x, MARGIN_Y - LABEL_GAP, "col"), (str(c), x, self.height - MARGIN_Y + LABEL_GAP, "col")]
        for letter in ROWS:
            y = cell_xy(f"{letter}0")[1]
            spots += [(letter, MARGIN_X - 44, y, "row"), (letter, self.width - MARGIN_X + 44, y, "row")]
        return coordinate_labels(dwg, spots)


_BOARDS: dict[str, ArmyChessBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> ArmyChessBoard:
    """The board of a game type, drawn once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        board = _BOARDS[game.code] = ArmyChessBoard(symbols=pieces(side_colours(game)))
    return board

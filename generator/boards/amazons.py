"""The Amazons board (AM): squares in two shades, queens, burnt squares and the last turn's flight.

Cells are named as the records write them (:func:`generator.rules.amazons.cell_name`):
the column letter in lower case, then the row, ``a1`` at the bottom-left.
Coordinates are written round the board, letters below and above, numbers
left and right.

Pieces are symbols (:mod:`generator.boards.symbols`): a queen is a disc in its
side's colour with a crown, an arrow is the square it burnt, drawn dark and
crossed, whoever shot it. The engine draws each turn as two paths, the
queen's move (style ``queen``) and the arrow's flight from where the queen
landed (style ``arrow``); the board's own style rules (inside its static
drawing, so that they travel with it) give the flight a dashed line and an
arrowhead, and leave the queen's move as the usual route.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board, coordinate_labels, num, side_colours
from generator.games import GameType
from generator.rules.amazons import cell_name

if TYPE_CHECKING:
    import svgwrite

SQUARE = 48  # side of a square, SVG user units
MARGIN = 34  # from the squares to the edge of the drawing: room for the labels
LABEL_GAP = 17  # from the squares to a label's centre
QUEEN_RADIUS = 19
LIGHT, DARK = "#f0d9b5", "#c9a26b"
BURNT, BURNT_EDGE = "#4a3527", "#2a1d14"
ARROW_COLOUR = "#b3261e"
MARK_RADIUS = {"last": 6, "from": 9, "*": 22}
# A crown over the queen's disc (points relative to the centre).
CROWN: list[tuple[float, float]] = [(-10, 6), (-12, -6), (-5, -1), (0, -10), (5, -1), (12, -6), (10, 6)]
# The marker at the end of an arrow's flight, and the rules that draw the two paths of a turn.
HEAD_ID = "q-am-head"
STYLE = (
    f".q-board-amazons .q-path-arrow{{stroke:{ARROW_COLOUR};stroke-width:3.5;stroke-dasharray:7 5;"
    f"marker-end:url(#{HEAD_ID})}}"
    ".q-board-amazons .q-path-queen{stroke-width:5;stroke-opacity:.55}"
)


def pieces(colours: tuple[str, ...] = ("black", "white")) -> sym.Symbols:
    """Queens of both colours and the burnt square (any side's arrow looks the same)."""
    drawings: dict[str, str] = {}
    queens: dict[str, str] = {}
    for colour in colours:
        fill, stroke = sym.STONE_COLOURS.get(colour, ("#888", "#333"))
        crown_fill = "#e8b730"
        drawings[f"queen-{colour}"] = sym.stone("queen", colour, QUEEN_RADIUS) + sym.polygon(
            "q-crown", CROWN, fill=crown_fill, stroke=stroke if colour != "black" else "#7a5a10", stroke_width=1.5
        )
        queens[colour] = f"queen-{colour}"
    half = SQUARE / 2 - 1
    a, b = num(-half + 8), num(half - 8)
    cross = f"M{a} {a}L{b} {b}M{b} {a}L{a} {b}"
    drawings["arrow"] = sym.box("q-burnt", 2 * half, 2 * half, 3, fill=BURNT, stroke=BURNT_EDGE) + (
        f'<path class="q-burnt-cross" d="{cross}" stroke="{ARROW_COLOUR}" stroke-width="3" stroke-linecap="round"/>'
    )
    return sym.Symbols("q-am-", drawings, {"queen": queens, "arrow": {sym.ANY_SIDE: "arrow"}})


@dataclass(slots=True)
class AmazonsBoard(Board):
    """A board of ``columns`` x ``rows`` squares with its static drawing."""

    kind: ClassVar[str] = "amazons"
    css_class: ClassVar[str] = "q-board q-board-amazons"
    radius: ClassVar[float] = QUEEN_RADIUS
    mark_radius: ClassVar[Mapping[str, float]] = MARK_RADIUS

    columns: int = 10
    rows: int = 10
    symbols: sym.Symbols = field(default=pieces(), kw_only=True)

    def __post_init__(self) -> None:
        self.width = 2 * MARGIN + self.columns * SQUARE
        self.height = 2 * MARGIN + self.rows * SQUARE
        half = SQUARE / 2
        # Row 1 at the bottom: larger y.
        self.cells = {
            cell_name(c, r): (MARGIN + c * SQUARE + half, MARGIN + (self.rows - r) * SQUARE + half)
            for r in range(1, self.rows + 1)
            for c in range(self.columns)
        }
        self._place()

    def _draw_static(self) -> str:
        """The style rules, the arrowhead, the squares (light and dark as one path each), the frame, the labels."""
        import svgwrite  # here, not at the top: see generator.boards

        dwg = svgwrite.Drawing(profile="full", debug=False)
        light: list[str] = []
        dark: list[str] = []
        for row in range(self.rows):
            for column in range(self.columns):
                d = f"M{MARGIN + column * SQUARE} {MARGIN + row * SQUARE}h{SQUARE}v{SQUARE}h-{SQUARE}z"
                # a1 is dark, as on a chess board.
                (dark if (self.rows - 1 - row + column) % 2 == 0 else light).append(d)
        right, bottom = MARGIN + self.columns * SQUARE, MARGIN + self.rows * SQUARE
        parts = [
            f"<style>{STYLE}</style>",
            f'<defs><marker id="{HEAD_ID}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" '
            f'orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="{ARROW_COLOUR}"/></marker></defs>',
            f'<rect class="q-board-bg" width="{num(self.width)}" height="{num(self.height)}" fill="#8b6a45"/>',
            f'<path class="q-square-light" d="{"".join(light)}" fill="{LIGHT}"/>',
            f'<path class="q-square-dark" d="{"".join(dark)}" fill="{DARK}"/>',
            f'<rect class="q-grid q-edge" x="{MARGIN}" y="{MARGIN}" width="{right - MARGIN}" height="{bottom - MARGIN}" '
            f'fill="none" stroke="{INK}"/>',
            self._draw_labels(dwg, right, bottom),
        ]
        return "".join(parts)

    def _draw_labels(self, dwg: svgwrite.Drawing, right: float, bottom: float) -> str:
        spots = []
        half = SQUARE / 2
        for c in range(self.columns):
            x, letter = MARGIN + c * SQUARE + half, chr(97 + c)
            spots += [(letter, x, bottom + LABEL_GAP, "col"), (letter, x, MARGIN - LABEL_GAP, "col")]
        for r in range(1, self.rows + 1):
            y = MARGIN + (self.rows - r) * SQUARE + half
            spots += [(str(r), MARGIN - LABEL_GAP, y, "row"), (str(r), right + LABEL_GAP, y, "row")]
        return coordinate_labels(dwg, spots)


_BOARDS: dict[str, AmazonsBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> AmazonsBoard:
    """The board of a game type, drawn once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        board = _BOARDS[game.code] = AmazonsBoard(game.columns, game.rows, symbols=pieces(side_colours(game)))
    return board

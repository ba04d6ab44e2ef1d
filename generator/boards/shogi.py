"""The 5x5 minishogi board: squares, the files and ranks as shogi writes them, and both hands.

Cells are named as the records write squares (:data:`generator.rules.shogi.CELLS`):
the file, then the rank, ``51`` the top-left square and ``15`` the
bottom-right, sente (▲) below and gote (△) above. Each piece is the usual
five-sided shogi piece with its character, pointing towards the opponent:
sente's point up, gote's are the same drawings turned round
(:func:`generator.boards.symbols.turned`). Promoted pieces (と 全 馬 龍)
are written in red, as on real pieces.

Each side's hand is a column beside the board: gote's on the left, read
from the top, sente's on the right, read from the bottom, as in printed
diagrams. A kind in hand is one piece on its place in the column, with ×2
beside it when there are two; the engine says so with the same ``add``,
``set`` and ``remove`` operations as on the board (hand cells are
:data:`generator.rules.shogi.HAND_CELLS` and ``COUNT_CELLS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board, background, coordinate_labels
from generator.games import GameType
from generator.rules.shogi import BASE, CELLS, COUNT_CELLS, HAND_CELLS, HAND_KINDS, KINDS, RANKS, SIZE

if TYPE_CHECKING:
    import svgwrite

# Geometry in SVG user units, integers throughout.
STEP = 60  # a square's side
LEFT, TOP = 120, 40  # the board's top-left corner
WIDTH, HEIGHT = 560, 380
HAND_X = 50  # centre of gote's hand column; sente's is the mirror image
HAND_STEP = 48
PIECE_RADIUS = 20  # move numbers are sized to fit in it
MARK_RADIUS = {"moved": 27, "from": 22, "*": 27}
PREFIX = "q-msk-"
PIECE_FILL = "#f6dfa8"
PROMOTED_INK = "#c0392b"
# One character per piece, as printed diagrams use them (成銀 is 全).
CHARACTERS = {
    "FU": "歩", "GI": "銀", "KI": "金", "KA": "角", "HI": "飛", "OU": "玉", "TO": "と", "NG": "全", "UM": "馬", "RY": "龍"
}
PROMOTED = frozenset(KINDS[k] for k in BASE)  # drawn in red
_OUTLINE: list[tuple[float, float]] = [(0, -23), (16, -16), (20, 22), (-20, 22), (-16, -16)]  # pointing up, towards gote


def _piece(code: str) -> str:
    promoted = code in PROMOTED
    outline = sym.polygon("q-shogi", _OUTLINE, fill=PIECE_FILL, stroke=INK, stroke_width=1.2)
    css = "q-glyph q-promoted" if promoted else "q-glyph"
    return outline + sym.glyph(CHARACTERS[code], css, 24, y=3, fill=PROMOTED_INK if promoted else INK)


def pieces(up: str = "black", down: str = "white") -> sym.Symbols:
    """Every piece facing each way (``up``: the first player's colour), and the ×n of a hand."""
    drawings: dict[str, str] = {}
    table: dict[str, dict[str, str]] = {}
    for code in KINDS[1:]:
        drawings[f"{code}-up"] = _piece(code)
        drawings[f"{code}-down"] = sym.turned(f"{PREFIX}{code}-up")
        table[code] = {up: f"{code}-up", down: f"{code}-down"}
    for n in range(2, 10):
        drawings[f"x{n}"] = sym.glyph(f"×{n}", "q-hand-count", 16, fill=INK)
        table[f"x{n}"] = {sym.ANY_SIDE: f"x{n}"}
    return sym.Symbols(PREFIX, drawings, table)


def _hand_places() -> dict[str, tuple[float, float]]:
    """The hand columns: per seat and kind a place for the piece and one for its count."""
    cells: dict[str, tuple[float, float]] = {}
    for k, kind in enumerate(HAND_KINDS):
        y = TOP + 60 + k * HAND_STEP  # gote: from the top down
        # The piece a little left of the column's centre, its count on its right.
        cells[HAND_CELLS[1][kind]] = (HAND_X - 8, y)
        cells[COUNT_CELLS[1][kind]] = (HAND_X + 24, y + 8)
        cells[HAND_CELLS[0][kind]] = (WIDTH - HAND_X - 8, HEIGHT - y)  # sente: the columns mirrored
        cells[COUNT_CELLS[0][kind]] = (WIDTH - HAND_X + 24, HEIGHT - y + 8)
    return cells


@dataclass(slots=True)
class ShogiBoard(Board):
    """The 5x5 board with both hands; the static drawing is made once per game type."""

    kind: ClassVar[str] = "shogi"
    css_class: ClassVar[str] = "q-board q-board-shogi"
    radius: ClassVar[float] = PIECE_RADIUS
    mark_radius: ClassVar[Mapping[str, float]] = MARK_RADIUS
    marked_moves: ClassVar[bool] = True  # ▲２四歩, △同角成

    symbols: sym.Symbols = field(default=pieces(), kw_only=True)

    def __post_init__(self) -> None:
        self.width, self.height = WIDTH, HEIGHT
        self.cells = {
            cell: (LEFT + STEP // 2 + (i % SIZE) * STEP, TOP + STEP // 2 + (i // SIZE) * STEP) for i, cell in enumerate(CELLS)
        }
        self.cells.update(_hand_places())
        self._place()

    def _draw_static(self) -> str:
        import svgwrite  # here, not at the top: see generator.boards

        dwg = svgwrite.Drawing(profile="full", debug=False)
        right, bottom = LEFT + SIZE * STEP, TOP + SIZE * STEP
        parts = [background(dwg, self.width, self.height)]
        parts.append(self._hands(dwg))
        d = [f"M{LEFT + k * STEP} {TOP}V{bottom}M{LEFT} {TOP + k * STEP}H{right}" for k in range(SIZE + 1)]
        parts.append(dwg.path(d="".join(d), class_="q-grid", stroke=INK, fill="none").tostring())
        parts.append(
            dwg.rect(
                (LEFT, TOP), (SIZE * STEP, SIZE * STEP), class_="q-edge", stroke=INK, fill="none", stroke_width=2.5
            ).tostring()
        )
        spots = [(str(SIZE - c), LEFT + STEP // 2 + c * STEP, TOP - 18, "col") for c in range(SIZE)]
        spots += [(RANKS[r + 1], right + 18, TOP + STEP // 2 + r * STEP, "row") for r in range(SIZE)]
        parts.append(coordinate_labels(dwg, spots))
        return "".join(parts)

    def _hands(self, dwg: svgwrite.Drawing) -> str:
        """The two hand columns: a lighter panel each, headed by the side's mark (△ gote, ▲ sente)."""
        out = []
        panel_height = len(HAND_KINDS) * HAND_STEP + 40
        columns = ((HAND_X, TOP + 24, "△", TOP), (WIDTH - HAND_X, HEIGHT - TOP - 24, "▲", HEIGHT - TOP - panel_height))
        for x, y, mark, top in columns:
            out.append(
                dwg.rect(
                    (x - 36, top), (72, panel_height), rx=6, class_="q-hand", fill="#f2e2b6", stroke=INK, stroke_width=0.8
                ).tostring()
            )
            out.append(sym.glyph(mark, "q-hand-mark", 20, x=x, y=y, fill=INK))
        return "".join(out)


_BOARDS: dict[str, ShogiBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> ShogiBoard:
    """The board of a game type, drawn once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        board = _BOARDS[game.code] = ShogiBoard(symbols=pieces(game.first.colour, game.second.colour))
    return board

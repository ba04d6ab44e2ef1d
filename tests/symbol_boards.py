"""An invented board and game for the tests of piece symbols (not a real game).

A 5x5 board of squares named ``a1`` … ``e5`` (row 1 at the bottom), made on
:class:`generator.boards.base.Board` in a few lines, as a new game's board
would be. Its symbols are the kinds of pieces the games still to come draw:
車 and 馬 on discs in two colours (xiangqi), draughts men and crowned kings,
a shogi piece that faces either way, playing cards, a face-down piece and a
burnt square (Amazons' arrow). The engines' operations stay as they are:
``add(id, kind, side, at)``, ``set(id, kind)`` …
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from generator import games
from generator.boards import symbols as sym
from generator.boards.base import INK, Board, background, coordinate_labels
from generator.model import Ply, Replay
from generator.scene import add, mark, move, note, remove, set_kind

STEP = 48
MARGIN = 40
RADIUS = 20
PREFIX = "q-tiny-"

_WHITE_TEXT = {"fill": "#fff"}


def _xiangqi(char: str, colour: str) -> str:
    return sym.disc(f"q-piece q-{colour}", RADIUS) + sym.glyph(char, "q-glyph", 24, **_WHITE_TEXT)


def _draughts(colour: str, crowned: bool) -> str:
    man = sym.disc(f"q-stone q-{colour}", RADIUS)
    if not crowned:
        return man
    crown = [(-10, 6), (-12, -6), (-5, 0), (0, -9), (5, 0), (12, -6), (10, 6)]
    return man + sym.polygon("q-crown", crown, fill="#f0b400", stroke="#8a6a2f")


def _shogi(char: str) -> str:
    # Pointed end towards the opponent: up, for the first player.
    outline = [(0, -21), (15, -14), (18, 20), (-18, 20), (-15, -14)]
    return sym.polygon("q-shogi", outline, fill="#f3d9a0", stroke=INK) + sym.glyph(char, "q-glyph", 20, y=3)


def _card(rank: str, suit: str, red: bool) -> str:
    ink = {"fill": "#c0392b" if red else "#111"}
    return (
        sym.box("q-card", 36, 46, corner=4, fill="#fff", stroke="#555")
        + sym.glyph(rank, "q-card-rank", 13, x=-10, y=-14, **ink)
        + sym.glyph(suit, "q-card-suit", 22, y=5, **ink)
    )


TINY_SYMBOLS = sym.Symbols(
    PREFIX,
    {
        "chariot-red": _xiangqi("車", "red"),
        "chariot-black": _xiangqi("車", "black"),
        "horse-red": _xiangqi("馬", "red"),
        "horse-black": _xiangqi("馬", "black"),
        "man-white": _draughts("white", False),
        "man-black": _draughts("black", False),
        "king-white": _draughts("white", True),
        "king-black": _draughts("black", True),
        "gold-up": _shogi("金"),
        "gold-down": sym.turned(PREFIX + "gold-up"),
        "card-QH": _card("Q", "♥", True),
        "card-10S": _card("10", "♠", False),
        "back": sym.box("q-back", 36, 36, corner=5, fill="#5b6d8a", stroke="#2c3a52"),
        "burnt": sym.box("q-burnt", 44, 44, fill="#3b2f1e") + sym.glyph("×", "q-glyph", 30, fill="#e3c16f"),
    },
    {
        "chariot": {"red": "chariot-red", "black": "chariot-black"},
        "horse": {"red": "horse-red", "black": "horse-black"},
        "man": {"white": "man-white", "black": "man-black"},
        "king": {"white": "king-white", "black": "king-black"},
        "gold": {"black": "gold-up", "white": "gold-down"},  # sente and gote
        "QH": {"*": "card-QH"},
        "10S": {"*": "card-10S"},
        "hidden": {"*": "back"},  # a face-down piece, whoever owns it
        "arrow": {"*": "burnt"},
    },
)


@dataclass(slots=True)
class TinyBoard(Board):
    """A board of ``size`` x ``size`` squares, pieces in the squares."""

    kind: ClassVar[str] = "tiny"
    css_class: ClassVar[str] = "q-board q-board-tiny"
    radius: ClassVar[float] = RADIUS
    mark_radius: ClassVar[Mapping[str, float]] = {"last": 6, "*": 22}

    size: int = 5
    symbols: sym.Symbols = field(default=TINY_SYMBOLS, kw_only=True)

    def __post_init__(self) -> None:
        self.width = self.height = 2 * MARGIN + self.size * STEP
        self.cells = {
            f"{'abcdefghij'[x]}{y + 1}": (MARGIN + x * STEP + STEP // 2, MARGIN + (self.size - 1 - y) * STEP + STEP // 2)
            for y in range(self.size)
            for x in range(self.size)
        }
        self._place()

    def _draw_static(self) -> str:
        import svgwrite

        dwg = svgwrite.Drawing(profile="full", debug=False)
        end = MARGIN + self.size * STEP
        d = "".join(f"M{MARGIN + k * STEP} {MARGIN}V{end}M{MARGIN} {MARGIN + k * STEP}H{end}" for k in range(self.size + 1))
        spots = []
        for k in range(self.size):
            centre = MARGIN + k * STEP + STEP // 2
            spots += [("abcdefghij"[k], centre, end + 20, "col"), (str(self.size - k), MARGIN - 20, centre, "row")]
        return (
            background(dwg, self.width, self.height)
            + dwg.path(d=d, class_="q-grid", stroke=INK, fill="none").tostring()
            + coordinate_labels(dwg, spots)
        )


# An invented game on it: the set-up, then a ply for each thing the frame must show.
TINY_SETUP = [
    add("r1", "chariot", "red", "a1"),
    add("b1", "chariot", "black", "e5"),
    add("r2", "horse", "red", "b1"),
    add("b2", "horse", "black", "d5"),
    add("m1", "man", "white", "b3"),
    add("m2", "man", "black", "d3"),
    add("g1", "gold", "black", "c1"),
    add("g2", "gold", "white", "c5"),
    add("x1", "hidden", "red", "e1"),
]
TINY_PLIES = [
    # 1: a chariot moves.
    Ply(1, "first", "red", "車a1-a2", [move("r1", "a2"), mark("a2", "last")]),
    # 2: a draughts man reaches the far row and is crowned.
    Ply(2, "second", "black", "m b3-b5=K", [move("m1", "b5"), set_kind("m1", "king"), mark("b5", "last")]),
    # 3: the face-down piece is turned face up: a red horse.
    Ply(3, "first", "red", "e1=馬", [set_kind("x1", "horse"), mark("e1", "last"), note("turned face up")]),
    # 4: an arrow burns a square.
    Ply(4, "second", "black", "→c3", [add("a1", "arrow", "", "c3"), mark("c3", "last")]),
    # 5: cards are played.
    Ply(5, "first", "red", "Q♥", [add("k1", "QH", "red", "a4"), add("k2", "10S", "black", "e4")]),
    # 6: a capture, and a piece of a kind this board cannot draw (left out, not an error).
    Ply(6, "second", "black", "馬d5xb1", [remove("r2"), move("b2", "b1"), add("u1", "dragon", "black", "d2")]),
]


def tiny_replay() -> Replay:
    return Replay(list(TINY_SETUP), list(TINY_PLIES), [], None)


def tiny_game() -> games.GameType:
    """A game type for the invented game, for the page's side names only: it is never registered."""
    c5 = games.get("C5")
    assert c5 is not None
    red, black = games.Side("R", "red", "红方", "Red"), games.Side("B", "black", "黑方", "Black")
    return games.GameType("TINY", "小棋", "Tiny", c5.format, c5.rules, c5.board, red, black, 5, 5)

"""A card table: the board of games whose records name no point on a grid.

Dou Dizhu, bridge and poker are played with cards, not on a board. Their
"board" is a table with the seats around it, the first seat at the bottom
and the others clockwise, and in front of each seat a row of slots where the
cards it played lie. Cells are named by seat and slot: ``first-1``,
``first-2`` … ``third-1`` …, so an engine puts a played card with
``add(id, card, colour, "third-2")`` and takes it back with ``remove(id)``
when the trick is over; nothing here knows any rule.

The cards are the game type's ``params["deck"]``: each name a kind of piece
(``"7"``, ``"QH"``, ``"10S"``), drawn as a card with its rank and, when the
name ends in a suit letter (S H D C) or symbol, its suit; ``"BJ"`` and
``"RJ"`` are the black and the red joker. ``hidden`` is a card lying face
down, whoever it belongs to.

What else a game's table has is said by its params, all optional:

* ``"hand"``: a row of that many cells for each seat's hand, behind its row
  of played cards: ``first-h1`` … (a view shows the hands of others face
  down: that is the engine's ``hidden`` operations, not the table's);
* ``"fan"``: the step between two cards of a row, when the rows are long
  and the cards overlap like a hand held in a fan (the rank and suit stay
  readable in the card's corner);
* ``"centre"``: a row of that many cells in the middle of the table
  (``centre-1`` …): the bottom cards, a board of community cards;
* ``"tokens"``: kind -> glyph of the tokens a seat may hold (a dealer
  button, a landlord's crown), each drawn as a disc with its glyph and put
  on the seat's token cell ``first-token`` …

:func:`row_cells` names the cells of a row of cards centred in it, so that a
hand of 13 cards in a row of 20 lies in the middle.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from typing import ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board, css_word, num
from generator.games import GameType
from generator.model import SEATS

CARD_WIDTH = 36
CARD_HEIGHT = 50
GAP = 6  # between two cards of a seat's row
SLOTS = 4  # slots in front of each seat, unless the game's params say "slots"
TABLE_FILL = "#2e6b48"  # the felt
SEAT_RADIUS = 14
MARGIN = 16  # from the outermost card or seat to the edge of the table
PREFIX = "q-table-"

_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "♠": "♠", "♥": "♥", "♦": "♦", "♣": "♣"}
_RED_SUITS = frozenset("♥♦")


# The jokers: a name alone, drawn in the ink of their colour with a star.
_JOKERS = {"BJ": "#111", "RJ": "#c0392b"}
TOKEN_RADIUS = 11


def card(name: str) -> str:
    """The drawing of a card face up: its rank at the top left, its suit (if any) under it and in the middle.

    The corner (rank and small suit) stays readable where the cards of a
    fanned row overlap.
    """
    face = sym.box("q-card", CARD_WIDTH, CARD_HEIGHT, corner=4, fill="#fff", stroke="#555")
    joker = _JOKERS.get(name)
    if joker is not None:
        return (
            face + sym.glyph("J", "q-card-rank", 12, x=-11, y=-16, fill=joker)
            + sym.glyph("K", "q-card-rank", 12, x=-11, y=-4, fill=joker)
            + sym.glyph("★", "q-card-suit", 20, x=4, y=9, fill=joker)
        )
    suit = _SUITS.get(name[-1:]) if len(name) > 1 else None
    rank = name[:-1] if suit else name
    ink = "#c0392b" if suit in _RED_SUITS else "#111"
    if suit is None:  # a card that is a number or a name alone: large, in the middle
        return face + sym.glyph(rank, "q-card-rank", 20, fill=ink)
    return (
        face + sym.glyph(rank, "q-card-rank", 13, x=-9, y=-15, fill=ink)
        + sym.glyph(suit, "q-card-pip", 10, x=-10, y=-3, fill=ink)
        + sym.glyph(suit, "q-card-suit", 20, x=4, y=9, fill=ink)
    )


def token(glyph: str) -> str:
    """The drawing of a token a seat holds: a gold disc with its glyph."""
    disc = sym.disc("q-token", TOKEN_RADIUS, fill="#f1c40f", stroke="#7d6608")
    return disc + sym.glyph(glyph, "q-token-glyph", 15, fill="#5d4037")


def card_symbols(deck: tuple[str, ...], tokens: tuple[tuple[str, str], ...] = ()) -> sym.Symbols:
    """A card for every name of the deck (kind: the name, any side), the back of a card, and the tokens."""
    drawings = {f"card-{i}": card(name) for i, name in enumerate(deck)}
    drawings["back"] = sym.box("q-card-back", CARD_WIDTH, CARD_HEIGHT, corner=4, fill="#5b6d8a", stroke="#2c3a52")
    pieces = {name: {sym.ANY_SIDE: f"card-{i}"} for i, name in enumerate(deck)}
    pieces["hidden"] = {sym.ANY_SIDE: "back"}
    for i, (kind, glyph) in enumerate(tokens):
        drawings[f"token-{i}"] = token(glyph)
        pieces[kind] = {sym.ANY_SIDE: f"token-{i}"}
    return sym.Symbols(PREFIX, drawings, pieces)


def row_cells(owner: str, row: str, count: int, size: int) -> list[str]:
    """The cells of ``count`` cards in a row of ``size`` cells, centred in it.

    ``owner`` a seat ("first" ...) or "centre"; ``row`` "h" for the seat's
    hand, "" for its played cards (and the centre's row).
    """
    start = max(0, (size - count) // 2) + 1
    if owner == "centre":
        return [f"centre-{k}" for k in range(start, start + count)]
    return [f"{owner}-{row}{k}" for k in range(start, start + count)]


@dataclass(slots=True)
class TableBoard(Board):
    """A round table of ``len(seats)`` seats, ``slots`` card slots in front of each.

    ``seats``: (letter, colour) of each seat in the order of play, as the
    game type's sides write them; the static drawing marks each seat with a
    disc of its colour and its letter (no words: the drawing is the same in
    every page language). ``hand``, ``fan``, ``centre`` and ``tokens``: see
    the module's text (0 and () leave them out).
    """

    kind: ClassVar[str] = "table"
    css_class: ClassVar[str] = "q-board q-board-table"
    radius: ClassVar[float] = CARD_WIDTH / 2
    mark_radius: ClassVar[Mapping[str, float]] = {"last": 6, "*": CARD_HEIGHT / 2 + 2}

    seats: tuple[tuple[str, str], ...]
    slots: int = SLOTS
    hand: int = 0
    fan: float = 0  # the step between cards of a row; 0: side by side, GAP apart
    centre: int = 0
    tokens: tuple[tuple[str, str], ...] = ()
    symbols: sym.Symbols = field(default=card_symbols(()), kw_only=True)
    _spots: list[tuple[float, float]] = field(init=False, repr=False)  # where each seat sits
    _rows: list[tuple[float, float, float]] = field(init=False, repr=False)  # fanned rows: (middle x, y, width)

    def __post_init__(self) -> None:
        # Cards stand upright and each seat's row runs left to right, whatever
        # side of the table the seat is on: laid out around (0, 0) first, then
        # moved so that the drawing starts at MARGIN. A seat's hand lies
        # behind its played cards, seen from the middle, its disc at the hand's end.
        step = self.fan or CARD_WIDTH + GAP
        longest = max(self.slots, self.hand)
        row = (longest - 1) * step + CARD_WIDTH
        cells: dict[str, tuple[float, float]] = {}
        spots = []
        rows: list[tuple[float, float, float]] = []
        for seat in range(len(self.seats)):
            # Seat 0 at the bottom, the others clockwise (SVG's y grows downwards).
            angle = math.pi / 2 + 2 * math.pi * seat / len(self.seats)
            dx, dy = math.cos(angle), math.sin(angle)
            mx, my = dx * (row + 2 * GAP), dy * (CARD_HEIGHT + 2 * GAP)  # the middle of the seat's row
            name = SEATS[seat]
            if not self.hand:
                self._row(cells, rows, name, "", self.slots, mx, my)
                spots.append((mx + dx * (row / 2 + SEAT_RADIUS + GAP), my + dy * (CARD_HEIGHT / 2 + SEAT_RADIUS + GAP)))
                continue
            # With hands the rows are long: a seat's played cards a full card's height
            # from the middle, its hand behind them, its disc at the outer end of its hand.
            outward = 1 if dy > 1e-9 else -1  # the seats at the sides of four hold their hands up, clear of the bottom seat's
            if abs(dy) > 1e-9:
                my = outward * (CARD_HEIGHT + 2 * GAP)
            if abs(dx) > 0.5 and dy < -1e-9:  # the upper seats of three: side by side above the middle
                mx = math.copysign(row / 2 + GAP, dx)
            hy = my + outward * (CARD_HEIGHT + GAP)
            self._row(cells, rows, name, "", self.slots, mx, my)
            self._row(cells, rows, name, "h", self.hand, mx, hy)
            end = math.copysign(1, dx) if abs(dx) > 1e-9 else 1
            spots.append((mx + end * (row / 2 + SEAT_RADIUS + GAP), hy))
        if self.tokens:  # a seat's token above its disc
            for seat, (x, y) in enumerate(spots):
                cells[f"{SEATS[seat]}-token"] = (x, y - SEAT_RADIUS - GAP - TOKEN_RADIUS)
        for k in range(self.centre):
            cells[f"centre-{k + 1}"] = ((k - (self.centre - 1) / 2) * (CARD_WIDTH + GAP), 0.0)
        xs = [x for x, _ in (*cells.values(), *spots)]
        ys = [y for _, y in (*cells.values(), *spots)]
        left = min(xs) - CARD_WIDTH / 2 - MARGIN
        top = min(ys) - CARD_HEIGHT / 2 - MARGIN
        self.width = round(max(xs) + CARD_WIDTH / 2 + MARGIN - left)
        self.height = round(max(ys) + CARD_HEIGHT / 2 + MARGIN - top)
        self.cells = {cell: (round(x - left, 2), round(y - top, 2)) for cell, (x, y) in cells.items()}
        self._spots = [(round(x - left, 2), round(y - top, 2)) for x, y in spots]
        self._rows = [(round(x - left, 2), round(y - top, 2), width) for x, y, width in rows]
        self._place()

    def _row(
        self, cells: dict[str, tuple[float, float]], rows: list[tuple[float, float, float]],
        seat: str, row: str, count: int, mx: float, my: float,
    ) -> None:
        """The cells of one row of ``count`` cards with its middle at (mx, my)."""
        step = self.fan or CARD_WIDTH + GAP
        for slot in range(count):
            cells[f"{seat}-{row}{slot + 1}"] = (mx + (slot - (count - 1) / 2) * step, my)
        if self.fan and count:
            rows.append((mx, my, (count - 1) * step + CARD_WIDTH))

    def _draw_static(self) -> str:
        """The felt, a disc of each seat's colour with its letter, and the outline of every slot (or fanned row)."""
        parts = [
            f'<rect class="q-board-bg q-table-felt" x="0" y="0" width="{num(self.width)}" '
            # The style, not only the fill: the pages' CSS colours every board's background as wood.
            f'height="{num(self.height)}" rx="24" fill="{TABLE_FILL}" style="fill:{TABLE_FILL}"/>'
        ]
        if self.fan:  # overlapping slots would be a tangle of lines: one outline around each row
            outlines = [(x - width / 2, y - CARD_HEIGHT / 2, width) for x, y, width in self._rows]
            outlines += [
                (x - CARD_WIDTH / 2, y - CARD_HEIGHT / 2, CARD_WIDTH)
                for cell, (x, y) in self.cells.items() if cell.startswith("centre-")
            ]
        else:
            outlines = [
                (x - CARD_WIDTH / 2, y - CARD_HEIGHT / 2, CARD_WIDTH)
                for cell, (x, y) in self.cells.items() if not cell.endswith("-token")
            ]
        slots = "".join(
            f'<rect x="{num(x)}" y="{num(y)}" width="{num(width)}" height="{CARD_HEIGHT}" rx="4"/>'
            for x, y, width in outlines
        )
        parts.append(f'<g class="q-slots" fill="none" stroke="#ffffff55" stroke-dasharray="3 3">{slots}</g>')
        for (letter, colour), (x, y) in zip(self.seats, self._spots):
            fill, stroke = sym.STONE_COLOURS.get(colour, ("#888", INK))
            ink = INK if colour == "white" else "#fff"
            at = f'x="{num(x)}" y="{num(y)}"'
            parts.append(
                f'<g class="q-seat"><circle class="q-seat-disc q-{css_word(colour)}" cx="{num(x)}" cy="{num(y)}" '
                f'r="{SEAT_RADIUS}" fill="{fill}" stroke="{stroke}"/>'
                f'<text {at} font-size="14" text-anchor="middle" dominant-baseline="central" fill="{ink}">'
                f"{escape(letter, quote=False)}</text></g>"
            )
        return "".join(parts)


_BOARDS: dict[str, TableBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> TableBoard:
    """The table of a game type, made once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        params = game.params
        seats = tuple((side.letter, side.colour) for side in game.seats)
        deck = tuple(str(name) for name in params.get("deck", ()))
        tokens = tuple((str(kind), str(glyph)) for kind, glyph in dict(params.get("tokens", {})).items())
        board = _BOARDS[game.code] = TableBoard(
            seats,
            int(params.get("slots", SLOTS)),
            int(params.get("hand", 0)),
            float(params.get("fan", 0)),
            int(params.get("centre", 0)),
            tokens,
            symbols=card_symbols(deck, tokens),
        )
    return board

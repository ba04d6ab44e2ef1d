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
name ends in a suit letter (S H D C) or symbol, its suit. ``hidden`` is a
card lying face down, whoever it belongs to.
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


def card(name: str) -> str:
    """The drawing of a card face up: its rank at the top left, its suit (if any) in the middle."""
    suit = _SUITS.get(name[-1:]) if len(name) > 1 else None
    rank = name[:-1] if suit else name
    ink = "#c0392b" if suit in _RED_SUITS else "#111"
    face = sym.box("q-card", CARD_WIDTH, CARD_HEIGHT, corner=4, fill="#fff", stroke="#555")
    if suit is None:  # a card that is a number or a name alone: large, in the middle
        return face + sym.glyph(rank, "q-card-rank", 20, fill=ink)
    return face + sym.glyph(rank, "q-card-rank", 13, x=-9, y=-15, fill=ink) + sym.glyph(suit, "q-card-suit", 22, y=5, fill=ink)


def card_symbols(deck: tuple[str, ...]) -> sym.Symbols:
    """A card for every name of the deck (kind: the name, any side), and the back of a card."""
    drawings = {f"card-{i}": card(name) for i, name in enumerate(deck)}
    drawings["back"] = sym.box("q-card-back", CARD_WIDTH, CARD_HEIGHT, corner=4, fill="#5b6d8a", stroke="#2c3a52")
    pieces = {name: {sym.ANY_SIDE: f"card-{i}"} for i, name in enumerate(deck)}
    pieces["hidden"] = {sym.ANY_SIDE: "back"}
    return sym.Symbols(PREFIX, drawings, pieces)


@dataclass(slots=True)
class TableBoard(Board):
    """A round table of ``len(seats)`` seats, ``slots`` card slots in front of each.

    ``seats``: (letter, colour) of each seat in the order of play, as the
    game type's sides write them; the static drawing marks each seat with a
    disc of its colour and its letter (no words: the drawing is the same in
    every page language).
    """

    kind: ClassVar[str] = "table"
    css_class: ClassVar[str] = "q-board q-board-table"
    radius: ClassVar[float] = CARD_WIDTH / 2
    mark_radius: ClassVar[Mapping[str, float]] = {"last": 6, "*": CARD_HEIGHT / 2 + 2}

    seats: tuple[tuple[str, str], ...]
    slots: int = SLOTS
    symbols: sym.Symbols = field(default=card_symbols(()), kw_only=True)
    _spots: list[tuple[float, float]] = field(init=False, repr=False)  # where each seat sits

    def __post_init__(self) -> None:
        # Cards stand upright and each seat's row runs left to right, whatever
        # side of the table the seat is on: laid out around (0, 0) first, then
        # moved so that the drawing starts at MARGIN.
        row = self.slots * CARD_WIDTH + (self.slots - 1) * GAP
        cells: dict[str, tuple[float, float]] = {}
        spots = []
        for seat in range(len(self.seats)):
            # Seat 0 at the bottom, the others clockwise (SVG's y grows downwards).
            angle = math.pi / 2 + 2 * math.pi * seat / len(self.seats)
            dx, dy = math.cos(angle), math.sin(angle)
            mx, my = dx * (row + 2 * GAP), dy * (CARD_HEIGHT + 2 * GAP)  # the middle of the seat's row
            for slot in range(self.slots):
                cells[f"{SEATS[seat]}-{slot + 1}"] = (mx + (slot - (self.slots - 1) / 2) * (CARD_WIDTH + GAP), my)
            spots.append((mx + dx * (row / 2 + SEAT_RADIUS + GAP), my + dy * (CARD_HEIGHT / 2 + SEAT_RADIUS + GAP)))
        xs = [x for x, _ in (*cells.values(), *spots)]
        ys = [y for _, y in (*cells.values(), *spots)]
        left = min(xs) - CARD_WIDTH / 2 - MARGIN
        top = min(ys) - CARD_HEIGHT / 2 - MARGIN
        self.width = round(max(xs) + CARD_WIDTH / 2 + MARGIN - left)
        self.height = round(max(ys) + CARD_HEIGHT / 2 + MARGIN - top)
        self.cells = {cell: (round(x - left, 2), round(y - top, 2)) for cell, (x, y) in cells.items()}
        self._spots = [(round(x - left, 2), round(y - top, 2)) for x, y in spots]
        self._place()

    def _draw_static(self) -> str:
        """The felt, a disc of each seat's colour with its letter, and the outline of every slot."""
        parts = [
            f'<rect class="q-board-bg q-table-felt" x="0" y="0" width="{num(self.width)}" '
            f'height="{num(self.height)}" rx="24" fill="{TABLE_FILL}"/>'
        ]
        slots = "".join(
            f'<rect x="{num(x - CARD_WIDTH / 2)}" y="{num(y - CARD_HEIGHT / 2)}" width="{CARD_WIDTH}" '
            f'height="{CARD_HEIGHT}" rx="4"/>'
            for x, y in self.cells.values()
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
        seats = tuple((side.letter, side.colour) for side in game.seats)
        deck = tuple(str(name) for name in game.params.get("deck", ()))
        slots = int(game.params.get("slots", SLOTS))
        board = _BOARDS[game.code] = TableBoard(seats, slots, symbols=card_symbols(deck))
    return board

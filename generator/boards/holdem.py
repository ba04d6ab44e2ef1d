"""The hold'em table: two seats, their hole cards, the board card by card, the pot and each bet.

Drawn with the card faces and the face-down back of the card table
(:mod:`generator.boards.table`), kinds named as the ACPC notation writes
cards (``"Th"``, ``"As"``); ``"hidden"`` is a card lying face down.

Cells (see ``rules/holdem.py``, which places the pieces):

* ``first-1``, ``first-2``: the big blind's hole cards, at the bottom;
  ``second-1``, ``second-2``: the small blind's, at the top;
* ``board-1`` … ``board-5``: the flop, the turn and the river, in the middle;
* the numbers the table shows (``pot``, ``bet-first``, ``bet-second``,
  ``stack-first``, ``stack-second``) are written digit by digit, one piece
  per digit (kinds ``digit-0`` … ``digit-9``), so the viewer needs nothing
  but pieces: a number of ``n`` digits uses the cells ``<key>-<n>-0`` …
  ``<key>-<n>-<n-1>``, centred on the number's place.

No words are drawn (the drawing is the same in every page language): a seat
is a disc of its colour with its letters (BB, SB), the small blind also has
the dealer's button. A chip (piece ``chip``, cell ``<key>-chip``) lies beside
every number shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from typing import ClassVar

from generator.boards import symbols as sym
from generator.boards import table
from generator.boards.base import INK, Board, css_word, num
from generator.games import GameType
from generator.model import SEATS

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
DIGITS = 6  # the longest number drawn
DIGIT_WIDTH = 10
WIDTH, HEIGHT = 380, 372
CARD_STEP = table.CARD_WIDTH + 8
PREFIX = "q-hold-"

# Where each seat sits and where its numbers go: seat 0 (big blind) at the bottom.
_SEAT_Y = {0: 322, 1: 50}
_BET_Y = {0: 270, 1: 108}
_BOARD_Y = 180
_POT_Y = 234
_CARDS_X = (168, 168 + CARD_STEP)
_DISC_X = 70
_STACK_X = 300


def face(card: str) -> str:
    """A card's face as the card table draws it (its rank and suit: ``Th`` is 10♥)."""
    rank = "10" if card[0] == "T" else card[0]
    return table.card(rank + card[1].upper())


def holdem_symbols() -> sym.Symbols:
    """The 52 faces, the back (the card table's), the digits and a chip."""
    drawings = {f"card-{card}": face(card) for card in DECK}
    drawings["back"] = table.card_symbols(()).drawings["back"]
    for digit in "0123456789":
        drawings[f"digit-{digit}"] = sym.glyph(digit, "q-hold-digit", 16, fill="#fff", font_weight="bold")
    pieces: dict[str, Mapping[str, str]] = {card: {sym.ANY_SIDE: f"card-{card}"} for card in DECK}
    pieces["hidden"] = {sym.ANY_SIDE: "back"}
    for digit in "0123456789":
        pieces[f"digit-{digit}"] = {sym.ANY_SIDE: f"digit-{digit}"}
    # A poker chip, beside the pot, each bet and each stack: a disc with a dashed rim.
    drawings["chip"] = sym.disc("q-hold-chip", 8, fill="#c0392b", stroke="#fff", stroke_width=2, stroke_dasharray="3 2")
    pieces["chip"] = {sym.ANY_SIDE: "chip"}
    return sym.Symbols(PREFIX, drawings, pieces)


@dataclass(slots=True)
class HoldemBoard(Board):
    """The table of a heads-up hand. ``seats``: (letters, colour) of the big blind, then the small blind."""

    kind: ClassVar[str] = "table"
    css_class: ClassVar[str] = "q-board q-board-table q-board-holdem"
    radius: ClassVar[float] = table.CARD_WIDTH / 2
    mark_radius: ClassVar[Mapping[str, float]] = {"last": 6, "*": table.CARD_HEIGHT / 2 + 2}

    seats: tuple[tuple[str, str], ...]
    symbols: sym.Symbols = field(default_factory=holdem_symbols, kw_only=True)

    def __post_init__(self) -> None:
        self.width, self.height = WIDTH, HEIGHT
        cells: dict[str, tuple[float, float]] = {}
        for seat in (0, 1):
            for i, x in enumerate(_CARDS_X, 1):
                cells[f"{SEATS[seat]}-{i}"] = (x, _SEAT_Y[seat])
        middle = WIDTH / 2
        for i in range(1, 6):
            cells[f"board-{i}"] = (middle + (i - 3) * CARD_STEP, _BOARD_Y)
        anchors: dict[str, tuple[float, float]] = {"pot": (middle, _POT_Y)}
        for seat in (0, 1):
            anchors[f"bet-{SEATS[seat]}"] = (middle, _BET_Y[seat])
            anchors[f"stack-{SEATS[seat]}"] = (_STACK_X, _SEAT_Y[seat])
        for key, (ax, ay) in anchors.items():
            cells[f"{key}-chip"] = (ax - 42, ay)
            for length in range(1, DIGITS + 1):
                for i in range(length):
                    cells[f"{key}-{length}-{i}"] = (ax + (i - (length - 1) / 2) * DIGIT_WIDTH, ay)
        self.cells = cells
        self._place()

    def _draw_static(self) -> str:
        """The felt, the slots of the cards, each seat's disc and the dealer's button."""
        w, h = WIDTH, HEIGHT
        parts = [
            f'<rect class="q-table-felt" x="0" y="0" width="{w}" height="{h}" rx="24" '
            f'fill="{table.TABLE_FILL}"/>',
            f'<ellipse cx="{num(w / 2)}" cy="{num(_BOARD_Y + 10)}" rx="{num(w / 2 - 14)}" ry="{num(h / 2 - 70)}" '
            'fill="none" stroke="#ffffff33" stroke-width="2"/>',
        ]
        card_w, card_h = table.CARD_WIDTH, table.CARD_HEIGHT
        slots = "".join(
            f'<rect x="{num(x - card_w / 2)}" y="{num(y - card_h / 2)}" width="{card_w}" height="{card_h}" rx="4"/>'
            for cell, (x, y) in self.cells.items()
            if cell.count("-") == 1 and not cell.endswith("-chip")  # the card cells: first-1 … board-5
        )
        parts.append(f'<g class="q-slots" fill="none" stroke="#ffffff55" stroke-dasharray="3 3">{slots}</g>')
        for seat, (letters, colour) in enumerate(self.seats[:2]):
            fill, stroke = sym.STONE_COLOURS.get(colour, ("#888", INK))
            ink = INK if colour == "white" else "#fff"
            x, y = _DISC_X, _SEAT_Y[seat]
            parts.append(
                f'<g class="q-seat"><circle class="q-seat-disc q-{css_word(colour)}" cx="{x}" cy="{y}" r="20" '
                f'fill="{fill}" stroke="{stroke}"/><text x="{x}" y="{y}" font-size="14" text-anchor="middle" '
                f'dominant-baseline="central" fill="{ink}">{escape(letters, quote=False)}</text></g>'
            )
        # Heads-up, the small blind holds the dealer's button.
        bx, by = _DISC_X + 30, _SEAT_Y[1] + 22
        parts.append(
            f'<g class="q-dealer"><circle cx="{bx}" cy="{by}" r="9" fill="#fff" stroke="{INK}"/>'
            f'<text x="{bx}" y="{by}" font-size="11" text-anchor="middle" dominant-baseline="central" '
            f'fill="{INK}">D</text></g>'
        )
        return "".join(parts)


_BOARDS: dict[str, HoldemBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> HoldemBoard:
    """The hold'em table of a game type, made once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        seats = tuple((side.letter, side.colour) for side in game.seats)
        board = _BOARDS[game.code] = HoldemBoard(seats)
    return board

"""The bridge table: the hand diagram, the trick in the middle, the auction and a double-dummy table beside it.

The diagram is the one every bridge player knows: North at the top, West on
the left, East on the right, South below, each hand in four rows (♠ ♥ ♦ ♣,
hearts and diamonds red) with its cards from the ace down. In the middle a
compass shows the seats, the vulnerable ones red, and the dealer; around it
lie the cards of the trick being played, drawn with the card faces of the
card table (:func:`generator.boards.table.card`). To the right the auction
is a table of four columns, the first the dealer's, filled call by call; and
below it, where the record carries one, the double-dummy tricks per strain
and declarer.

Cells (the engine, ``rules/bridge.py``, names them): ``N-S-0`` … the slots
of each hand's suit rows; ``N-x-0`` … a hand's row of face-down cards (a
seat's own view of the others); ``trick-N`` …; ``compass-N`` and
``dealer-N``; ``call-r-c`` and ``alert-r-c`` for the auction, ``call-head-c``
its heading; ``dd-title``, ``dd-head-c``, ``dd-seat-r``, ``dd-r-c``.

Pieces: ``h-SA`` a card in a hand (its rank in its suit's colour), ``c-SA``
the card on the table, ``back`` a card face down, ``call-1H`` a call,
``label-N`` a seat letter, ``seat-N`` / ``seat-N-vul`` the compass letters,
``dealer``, ``alert``, ``strain-S``, ``dd-7`` / ``dd-make-9`` the tricks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from generator.boards import symbols as sym
from generator.boards.base import INK, Board
from generator.boards.table import CARD_HEIGHT, CARD_WIDTH, card
from generator.games import GameType

SEATS = "NESW"
SUITS = "SHDC"
RANKS = "AKQJT98765432"
STRAINS = "CDHSN"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "N": "NT"}
RED = "#c0392b"
PREFIX = "q-bridge-"

ROW = 20  # between two suit rows of a hand
SLOT = 14  # between two cards of a suit row
BACK = 12  # between two face-down cards
HAND_WIDTH = 20 + 13 * SLOT
# The top-left corner of each hand's block (its first suit row's baseline is ROW / 2 below).
HANDS = {"N": (190, 14), "W": (10, 196), "E": (372, 196), "S": (190, 376)}
CENTRE = (282, 236)
COMPASS = 58
TRICK = {"N": (282, 150), "S": (282, 322), "W": (218, 236), "E": (346, 236)}
PANEL = 572  # where the auction and double-dummy panel starts
COLUMN = 46
AUCTION_TOP = 30
AUCTION_ROWS = 13
DD_TOP = 340
WIDTH = PANEL + 4 * COLUMN + 14
HEIGHT = 470


def _ink(suit: str) -> str:
    return RED if suit in "HD" else "#111"


def _rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


def _symbols() -> sym.Symbols:
    drawings: dict[str, str] = {}
    pieces: dict[str, dict[str, str]] = {}

    def declare(kind: str, markup: str) -> None:
        drawings[kind] = markup
        pieces[kind] = {sym.ANY_SIDE: kind}

    for suit in SUITS:
        for rank in RANKS:
            name = suit + rank
            size = 12 if rank == "T" else 15
            declare("h-" + name, sym.glyph(_rank_text(rank), "q-bridge-rank", size, fill=_ink(suit), font_weight="bold"))
            declare("c-" + name, card(_rank_text(rank) + suit))  # the card table's face: rank, then suit
    declare("back", sym.box("q-card-back", 10, 16, corner=2, fill="#5b6d8a", stroke="#2c3a52"))
    for level in range(1, 8):
        for strain in STRAINS:
            text = f"{level}{SUIT_SYMBOLS[strain]}"
            declare(f"call-{level}{strain}", sym.glyph(text, "q-bridge-call", 14, fill=_ink(strain) if strain in "HD" else INK))
    declare("call-P", sym.glyph("Pass", "q-bridge-call", 12, fill="#2e7d32"))
    declare("call-X", sym.glyph("X", "q-bridge-call", 14, fill=RED, font_weight="bold"))
    declare("call-XX", sym.glyph("XX", "q-bridge-call", 14, fill="#1f4e9c", font_weight="bold"))
    declare("alert", sym.glyph("!", "q-bridge-alert", 12, fill=RED, font_weight="bold"))
    for seat in SEATS:
        declare("label-" + seat, sym.glyph(seat, "q-bridge-label", 14, fill=INK, font_weight="bold"))
        declare(
            "seat-" + seat,
            sym.box("q-bridge-seat", 18, 18, corner=3, fill="#fff", stroke="#777")
            + sym.glyph(seat, "q-bridge-seat-letter", 13, fill=INK),
        )
        declare(
            "seat-" + seat + "-vul",
            sym.box("q-bridge-seat q-bridge-vul", 18, 18, corner=3, fill=RED, stroke="#8e1d12")
            + sym.glyph(seat, "q-bridge-seat-letter", 13, fill="#fff"),
        )
    declare(
        "dealer",
        sym.disc("q-bridge-dealer", 7, fill="#f1c40f", stroke="#7d6608") + sym.glyph("D", "q-bridge-dealer-letter", 9, fill=INK),
    )
    for strain in STRAINS:
        declare(
            "strain-" + strain,
            sym.glyph(SUIT_SYMBOLS[strain], "q-bridge-strain", 14, fill=_ink(strain) if strain in "HD" else INK),
        )
    for tricks in range(14):
        declare(f"dd-{tricks}", sym.glyph(str(tricks), "q-bridge-dd", 13, fill="#777"))
        declare(f"dd-make-{tricks}", sym.glyph(str(tricks), "q-bridge-dd q-bridge-dd-make", 13, fill=INK, font_weight="bold"))
    declare("dd-title", sym.glyph("DD", "q-bridge-dd-title", 12, fill="#555", font_weight="bold"))
    return sym.Symbols(PREFIX, drawings, pieces)


SYMBOLS = _symbols()


@dataclass(slots=True)
class BridgeBoard(Board):
    """The hand diagram and its panel; nothing here knows a rule (see ``rules/bridge.py``)."""

    kind: ClassVar[str] = "bridge"
    css_class: ClassVar[str] = "q-board q-board-bridge"
    radius: ClassVar[float] = CARD_WIDTH / 2
    mark_radius: ClassVar[Mapping[str, float]] = {"last": 5, "winner": CARD_HEIGHT / 2 + 3, "*": CARD_HEIGHT / 2 + 2}
    # The move list's labels name the seat ("N 1♥"): no side disc.
    marked_moves: ClassVar[bool] = True

    symbols: sym.Symbols = field(default=SYMBOLS, kw_only=True)

    def __post_init__(self) -> None:
        cells: dict[str, tuple[float, float]] = {}
        for seat, (x, y) in HANDS.items():
            for row, suit in enumerate(SUITS):
                for slot in range(13):
                    cells[f"{seat}-{suit}-{slot}"] = (x + 24 + slot * SLOT, y + ROW / 2 + row * ROW)
            for slot in range(13):
                cells[f"{seat}-x-{slot}"] = (x + 24 + slot * BACK, y + 2 * ROW)
        for seat, xy in TRICK.items():
            cells[f"trick-{seat}"] = xy
        cx, cy = CENTRE
        half = COMPASS / 2 - 11
        offsets = {"N": (0, -half), "S": (0, half), "W": (-half, 0), "E": (half, 0)}
        for seat, (dx, dy) in offsets.items():
            cells[f"compass-{seat}"] = (cx + dx, cy + dy)
            # The dealer's badge just outside the compass, beside the dealer's letter.
            cells[f"dealer-{seat}"] = (cx + dx * 1.9 + (16 if seat in "NS" else 0), cy + dy * 1.9 + (16 if seat in "WE" else 0))
        for column in range(4):
            middle = PANEL + COLUMN / 2 + column * COLUMN
            cells[f"call-head-{column}"] = (middle, AUCTION_TOP - 12)
            for row in range(AUCTION_ROWS):
                top = AUCTION_TOP + 10 + row * ROW
                cells[f"call-{row}-{column}"] = (middle, top)
                cells[f"alert-{row}-{column}"] = (middle + 17, top - 6)
        dd_column = (4 * COLUMN - 24) / 5
        cells["dd-title"] = (PANEL + 12, DD_TOP)
        for column in range(5):
            cells[f"dd-head-{column}"] = (PANEL + 24 + dd_column / 2 + column * dd_column, DD_TOP)
        for row in range(4):
            y = DD_TOP + ROW + row * ROW
            cells[f"dd-seat-{row}"] = (PANEL + 12, y)
            for column in range(5):
                cells[f"dd-{row}-{column}"] = (PANEL + 24 + dd_column / 2 + column * dd_column, y)
        self.cells = cells
        self.width = WIDTH
        self.height = HEIGHT
        self._place()

    def _draw_static(self) -> str:
        """The cloth, each hand's suit symbols, the compass and the auction panel's frame."""
        parts = [f'<rect class="q-bridge-cloth" x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="12" fill="#f4f1e8"/>']
        for x, y in HANDS.values():
            for row, suit in enumerate(SUITS):
                parts.append(
                    sym.glyph(SUIT_SYMBOLS[suit], "q-bridge-suit", 16, x=x + 8, y=y + ROW / 2 + row * ROW, fill=_ink(suit))
                )
        cx, cy = CENTRE
        half = COMPASS / 2
        parts.append(
            f'<rect class="q-bridge-compass" x="{cx - half}" y="{cy - half}" width="{COMPASS}" height="{COMPASS}" '
            f'rx="6" fill="#2e6b48" stroke="{INK}"/>'
        )
        panel_height = AUCTION_ROWS * ROW + 26
        parts.append(
            f'<rect class="q-bridge-panel" x="{PANEL}" y="{AUCTION_TOP - 24}" width="{4 * COLUMN}" '
            f'height="{panel_height}" rx="6" fill="#fff" stroke="#bbb"/>'
        )
        parts.append(
            f'<line x1="{PANEL}" y1="{AUCTION_TOP - 1}" x2="{PANEL + 4 * COLUMN}" y2="{AUCTION_TOP - 1}" stroke="#bbb"/>'
        )
        return "".join(parts)


_BOARD: BridgeBoard | None = None


def board_for(game: GameType, variant: str | None = None) -> BridgeBoard:
    """The bridge table, made once and shared by every page."""
    global _BOARD
    if _BOARD is None:
        _BOARD = BridgeBoard()
    return _BOARD

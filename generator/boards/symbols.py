"""Piece symbols: each drawing declared once in a board's ``<defs>``, placed with ``<use>``.

As ``chess/svg.py`` does for chess pieces: a board declares the drawings of
its pieces once per page, each centred on (0, 0), and every piece on the
board is one short ``<use href="#id" x="…" y="…"/>``. The engines keep
saying ``add(id, "stone", "black", "J10")``: a board's :class:`Symbols`
says which drawing shows a piece of that kind and side, and ``set(id,
kind)`` (a promotion, a piece turned face up) shows another.
``static/viewer.js`` looks pieces up in the same table (``scene["symbols"]``)
and knows no rules.

The drawing helpers below (:func:`disc`, :func:`glyph`, :func:`box`,
:func:`polygon`, :func:`turned`) make the markup of a symbol: a stone is a
disc, 車 a glyph on a disc, a shogi piece of the second side its first
side's symbol turned round, a card a box with its rank and suit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape

from generator.boards.base import num

# An id that needs no escaping in an attribute nor in a URL fragment.
_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
ANY_SIDE = "*"


@dataclass(frozen=True, slots=True)
class Symbols:
    """The pieces a board draws: each drawing once, and which piece shows which.

    ``drawings``: name -> SVG markup drawn around (0, 0), the centre of a
    cell. ``pieces``: kind -> side -> name of the drawing that shows a piece
    of that kind and side; side ``"*"`` stands for any side not listed.
    A piece whose kind and side name no drawing is not drawn (as a piece on
    a cell the board does not have). On the page a drawing's id is
    ``prefix + name``: the prefix (``"q-grid-"``) keeps a board's ids apart
    from the page's other ids and from another set's drawings of the same
    name, so one prefix must name one set of drawings.
    """

    prefix: str
    drawings: Mapping[str, str]
    pieces: Mapping[str, Mapping[str, str]]
    # (kind, side) -> id on the page, side "*" included: the look-up of every piece drawn.
    _ids: dict[tuple[str, str], str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in self.drawings:
            if not _ID.fullmatch(self.prefix + name):
                raise ValueError(f"symbol id {self.prefix + name!r} is not a plain id (letters, digits, '-', '_')")
        ids = {}
        for kind, sides in self.pieces.items():
            for side, name in sides.items():
                if name not in self.drawings:
                    raise ValueError(f"piece {kind!r} of side {side!r} is drawn by {name!r}, which is not declared")
                ids[kind, side] = self.prefix + name
        object.__setattr__(self, "_ids", ids)

    def id_of(self, kind: str, side: str) -> str | None:
        """The id of the drawing that shows a piece, or None if there is none.

        ``static/viewer.js`` (``symbolOf``) looks up the same way.
        """
        ids = self._ids
        return ids.get((kind, side)) or ids.get((kind, ANY_SIDE))

    def defs(self) -> str:
        """Every drawing, once, in the order declared: the ``<defs>`` of the board's SVG."""
        groups = "".join(f'<g id="{self.prefix}{name}">{markup}</g>' for name, markup in self.drawings.items())
        return f"<defs>{groups}</defs>"

    def table(self) -> dict[str, dict[str, str]]:
        """kind -> side -> id, JSON-ready, for ``static/viewer.js``."""
        return {kind: {side: self.prefix + name for side, name in sides.items()} for kind, sides in self.pieces.items()}


def stones(prefix: str, colours: tuple[str, ...], radius: float, kind: str = "stone") -> Symbols:
    """Round stones of ``colours``, shown for pieces of ``kind`` (Go, gomoku, Hex, Surakarta)."""
    return Symbols(
        prefix,
        {f"{kind}-{colour}": stone(kind, colour, radius) for colour in colours},
        {kind: {colour: f"{kind}-{colour}" for colour in colours}},
    )


# Fills and outlines of stones when viewer.css is missing; viewer.css has the same.
STONE_COLOURS = {
    "black": ("#151515", "#000"),
    "white": ("#fafafa", "#555"),
    "red": ("#d23a2a", "#8e1d12"),
    "blue": ("#2f5fc4", "#1b3a7e"),
}


def stone(kind: str, colour: str, radius: float) -> str:
    """A stone: a disc of classes ``q-<kind> q-<colour>`` (viewer.css colours them)."""
    fill, stroke = STONE_COLOURS.get(colour, ("#888", "#333"))
    return disc(f"q-{kind} q-{colour}", radius, fill=fill, stroke=stroke)


def _attrs(attrs: Mapping[str, object]) -> str:
    """Extra attributes: ``stroke_width=2`` is ``stroke-width="2"``, values escaped."""
    out = []
    for name, value in attrs.items():
        text = num(value) if isinstance(value, (int, float)) else str(value)
        out.append(f' {name.rstrip("_").replace("_", "-")}="{escape(text, quote=True)}"')
    return "".join(out)


def disc(css: str, radius: float, **attrs: object) -> str:
    """A disc of ``radius`` centred on the symbol's origin."""
    return f'<circle class="{escape(css, quote=True)}" r="{num(radius)}"{_attrs(attrs)}/>'


def glyph(text: str, css: str, size: float, x: float = 0, y: float = 0, **attrs: object) -> str:
    """Text (a character: 車, a rank: 10) of font size ``size``, centred on (x, y)."""
    at = "" if x == 0 and y == 0 else f' x="{num(x)}" y="{num(y)}"'
    return (
        f'<text class="{escape(css, quote=True)}"{at} font-size="{num(size)}" text-anchor="middle" '
        f'dominant-baseline="central"{_attrs(attrs)}>{escape(text, quote=False)}</text>'
    )


def box(css: str, width: float, height: float, corner: float = 0, **attrs: object) -> str:
    """A rectangle centred on the origin (a card, a tile, a square), corners rounded by ``corner``."""
    rounded = f' rx="{num(corner)}"' if corner else ""
    return (
        f'<rect class="{escape(css, quote=True)}" x="{num(-width / 2)}" y="{num(-height / 2)}" '
        f'width="{num(width)}" height="{num(height)}"{rounded}{_attrs(attrs)}/>'
    )


def polygon(css: str, points: list[tuple[float, float]], **attrs: object) -> str:
    """A closed outline through ``points`` (relative to the origin): a shogi piece, a crown."""
    text = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    return f'<polygon class="{escape(css, quote=True)}" points="{text}"{_attrs(attrs)}/>'


def turned(symbol_id: str) -> str:
    """Another symbol turned half round: the same shogi piece facing the other player."""
    if not _ID.fullmatch(symbol_id):
        raise ValueError(f"symbol id {symbol_id!r} is not a plain id")
    return f'<use href="#{symbol_id}" transform="rotate(180)"/>'

"""What a reader sees on a board drawn by generator.boards: each piece's symbol, resolved.

Pieces are ``<use href="#id" x y>`` of drawings declared once in the board's
``<defs>``. :func:`pieces_shown` follows each reference (and a symbol that is
another turned round) to the shapes drawn, so tests assert what is on the
board: a black stone on H8, 車 in red on a1, a card showing Q♥.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

SVG = "{http://www.w3.org/2000/svg}"


@dataclass(frozen=True)
class Shown:
    symbol: str  # id of the drawing placed
    at: tuple[float, float]
    classes: frozenset[str]  # of every shape the drawing draws
    texts: tuple[str, ...]  # the characters it shows (車, Q, ♥ …)
    turned: bool  # drawn half round (a shogi piece of the second side)


def symbols_of(root: ET.Element) -> dict[str, ET.Element]:
    """The drawings declared in the board's <defs>, by id; each id declared once."""
    found: dict[str, ET.Element] = {}
    for defs in root.iter(SVG + "defs"):
        for g in defs:
            symbol = g.get("id")
            assert symbol and symbol not in found, f"symbol {symbol!r} declared twice or without an id"
            found[symbol] = g
    return found


def _drawn(symbol: ET.Element, table: dict[str, ET.Element], turned: bool = False) -> tuple[set[str], list[str], bool]:
    classes: set[str] = set()
    texts: list[str] = []
    for el in symbol.iter():
        if el is symbol:
            continue
        if el.tag == SVG + "use":
            inner = table[el.get("href", "")[1:]]  # a KeyError: a reference to nothing
            more, words, _ = _drawn(inner, table)
            classes |= more
            texts += words
            turned = turned or el.get("transform") == "rotate(180)"
            continue
        classes.update(el.get("class", "").split())
        if el.tag == SVG + "text" and el.text:
            texts.append(el.text)
    return classes, texts, turned


def pieces_shown(markup: str | ET.Element) -> list[Shown]:
    """Each piece on the board, in the order drawn."""
    root = ET.fromstring(markup) if isinstance(markup, str) else markup
    table = symbols_of(root)
    (layer,) = [g for g in root.iter(SVG + "g") if "q-pieces" in g.get("class", "").split()]
    shown = []
    for use in layer.iter(SVG + "use"):
        href = use.get("href", "")
        assert href.startswith("#") and href[1:] in table, f"{href!r} names no symbol of this board"
        classes, texts, turned = _drawn(table[href[1:]], table)
        shown.append(Shown(href[1:], (float(use.get("x")), float(use.get("y"))), frozenset(classes), tuple(texts), turned))
    return shown

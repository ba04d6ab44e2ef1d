"""What every board shares: its SVG, pieces as symbols, marks, paths, labels, the viewer's scene.

A board is a slots dataclass subclassing :class:`Board`. Its ``__post_init__``
sets :attr:`Board.cells` (cell id -> centre), :attr:`Board.width` and
:attr:`Board.height`, then calls :meth:`Board._place`; it draws what is the
same on every page (``_draw_static``: grid, edges, labels, made once, see
:mod:`generator.boards`) and declares its pieces (:attr:`Board.symbols`, see
:mod:`generator.boards.symbols`). Everything else is here: one position as
SVG (``<use>`` of a symbol per piece, the move numbers, the current ply's
marks and paths) and the scene ``static/viewer.js`` draws the same with.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any, ClassVar

from generator.boards import STATIC_MARK, static_drawing
from generator.scene import Position

if TYPE_CHECKING:
    import svgwrite

    from generator.boards.symbols import Symbols
    from generator.games import GameType

SVG_NS = "http://www.w3.org/2000/svg"
INK = "#3b2f1e"  # lines and labels; viewer.css has the same
BOARD_FILL = "#e3c16f"
LABEL_SIZE = 17
_CLASS_WORD = re.compile(r"[^A-Za-z0-9_-]+")


def num(value: float) -> str:
    """Shortest text for a coordinate, to two decimals: 40 not 40.0, 25.4 not 25.4034.

    As JavaScript prints the same numbers (``static/viewer.js`` builds path data from them).
    """
    value = round(value, 2)
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@functools.lru_cache(maxsize=256)
def css_word(name: str) -> str:
    """A colour, kind or style name made safe for a class attribute."""
    return _CLASS_WORD.sub("-", name) or "x"


# Font size of a move number as a share of its piece's radius, by the
# smallest ply that uses it: three digits, two, one.
_NUMBER_SCALE = ((100, 0.7), (10, 0.86), (0, 0.97))


def number_size(ply: int, radius: float) -> int:
    """Font size for a move number so that it fits inside a piece of ``radius``."""
    return next(round(radius * scale) for least, scale in _NUMBER_SCALE if ply >= least)


def number_sizes(radius: float) -> list[list[int]]:
    """The same sizes for viewer.js (``scene["numberSizes"]``): [[smallest ply, font size], ...]."""
    return [[least, round(radius * scale)] for least, scale in _NUMBER_SCALE]


def side_colours(game: GameType) -> tuple[str, ...]:
    """The colours of a game's sides, sorted: the same symbols whichever side a record lets move first."""
    return tuple(sorted({game.first.colour, game.second.colour}))


def background(dwg: svgwrite.Drawing, width: float, height: float) -> str:
    """The board's wooden background, the whole drawing."""
    return dwg.rect((0, 0), (width, height), class_="q-board-bg", fill=BOARD_FILL).tostring()


def coordinate_labels(dwg: svgwrite.Drawing, spots: Iterable[tuple[str, float, float, str]]) -> str:
    """The coordinate labels: each ``(text, x, y, axis)`` centred on (x, y), ``axis`` "col" or "row"."""
    labels = dwg.g(class_="q-coords", font_size=LABEL_SIZE, text_anchor="middle", fill=INK)
    shift = LABEL_SIZE * 0.35  # moves the baseline down so that the glyphs are centred
    for text, x, y, axis in spots:
        labels.add(dwg.text(text, insert=(num(x), num(y + shift)), class_=f"q-coord q-{axis}"))
    return labels.tostring()


def svg_document(
    css_class: str, width: float, height: float, label: str, static_markup: str | None, pieces: str, marks: str
) -> str:
    """The inline ``<svg>`` every board draws: title, static drawing (symbols first), pieces, then marks.

    ``static_markup`` None leaves the static drawing out and puts
    :data:`STATIC_MARK` in its place (see :meth:`Board.svg`).
    """
    text = escape(label, quote=True)
    return (
        f'<svg xmlns="{SVG_NS}" class="{css_class}" viewBox="0 0 {num(width)} {num(height)}" '
        f'role="img" aria-label="{text}"><title>{text}</title>'
        f"{STATIC_MARK if static_markup is None else static_markup}"
        f'<g class="q-pieces" text-anchor="middle" dominant-baseline="central">{pieces}</g>'
        f'<g class="q-marks">{marks}</g></svg>'
    )


@dataclass(slots=True)
class Board:
    """What every board shares. Subclasses set the class variables and, in
    ``__post_init__``, :attr:`cells`, :attr:`width` and :attr:`height`, then
    call :meth:`_place`. A board's ``repr`` names everything its static drawing
    depends on (its symbols included): it keys the drawing in the memo of
    :mod:`generator.boards`.
    """

    kind: ClassVar[str]  # scene["board"]: "grid", "hex" ...
    css_class: ClassVar[str] = "q-board"
    radius: ClassVar[float]  # of a piece: move numbers are sized to fit in it
    mark_radius: ClassVar[Mapping[str, float]]  # marks by style, "*" for the others; CSS decides fill or ring
    STATIC_MARK: ClassVar[str] = STATIC_MARK
    # The game's notation names the mover itself (shogi's ▲/△): the move list draws no side disc.
    marked_moves: ClassVar[bool] = False

    cells: dict[str, tuple[float, float]] = field(init=False, repr=False)  # cell id -> centre (x, y)
    width: float = field(init=False, repr=False)
    height: float = field(init=False, repr=False)
    # Steps of a path drawn as curves rather than straight: "A|B" -> SVG path command to B's centre.
    curves: dict[str, str] = field(init=False, repr=False, default_factory=dict)
    _xy: dict[str, str] = field(init=False, repr=False)  # cell id -> 'cx="…" cy="…"' (marks)
    _at: dict[str, str] = field(init=False, repr=False)  # cell id -> 'x="…" y="…"' (pieces, numbers)
    _scene: dict[str, Any] | None = field(init=False, repr=False, default=None)  # built on first use
    # (kind, side, cell) -> its <use> ("" where it is not drawn): every page draws the same few dozen.
    _uses: dict[tuple[str, str, str], str] = field(init=False, repr=False, compare=False, default_factory=dict)
    # The pieces it draws. Keyword-only: a board gives its own default after its own fields.
    symbols: Symbols = field(kw_only=True)

    def _place(self) -> None:
        """The attribute text of every cell's centre, written once per board rather than once per piece."""
        self._xy = {cell: f'cx="{num(x)}" cy="{num(y)}"' for cell, (x, y) in self.cells.items()}
        self._at = {cell: f'x="{num(x)}" y="{num(y)}"' for cell, (x, y) in self.cells.items()}

    def _draw_static(self) -> str:
        raise NotImplementedError

    @property
    def static_markup(self) -> str:
        """What is the same on every page of this board: its symbols, then its drawing (grid, edges, labels)."""
        return static_drawing(repr(self), self._draw_everything)

    def _draw_everything(self) -> str:
        return self.symbols.defs() + self._draw_static()

    # -- one position ----------------------------------------------------------

    def svg(self, position: Position | None, *, label: str, numbers: bool = False, static: bool = True) -> str:
        """A complete inline ``<svg>`` of ``position`` (the empty board if None).

        ``label`` becomes the accessible name and the ``<title>``. With
        ``numbers`` each piece shows the ply that put it there. With
        ``static=False`` the static drawing is left out and :attr:`STATIC_MARK`
        stands in its place, for caches that keep many positions of one board.
        """
        pieces = marks = ""
        if position is not None:
            pieces = self._pieces(position, numbers)
            marks = self._paths(position) + self._marks(position) if position.paths else self._marks(position)
        static_markup = self.static_markup if static else None
        return svg_document(self.css_class, self.width, self.height, label, static_markup, pieces, marks)

    def _pieces(self, position: Position, numbers: bool) -> str:
        """Each piece as a ``<use>`` of its symbol (and, with ``numbers``, the ply that put it there)."""
        if not numbers:
            uses = self._uses
            out = []
            for piece in position.pieces.values():
                key = (piece.kind, piece.side, piece.at)
                use = uses.get(key)
                if use is None:
                    use = uses[key] = self._use(*key)
                out.append(use)
            return "".join(out)
        out = []
        at_of, id_of = self._at, self.symbols.id_of
        for piece in position.pieces.values():
            at = at_of.get(piece.at)
            if at is None:  # not a cell of this board: nothing sensible to draw
                continue
            symbol = id_of(piece.kind, piece.side)
            if symbol is None:  # a piece this board has no drawing for
                continue
            out.append(f'<use href="#{symbol}" {at}/>')
            if numbers and piece.ply > 0:
                out.append(
                    f'<text class="q-num q-on-{css_word(piece.side)}" {at} '
                    f'font-size="{number_size(piece.ply, self.radius)}">{piece.ply}</text>'
                )
        return "".join(out)

    def _use(self, kind: str, side: str, cell: str) -> str:
        """The ``<use>`` of a piece of ``kind`` and ``side`` on ``cell``; empty where the board cannot draw it."""
        at = self._at.get(cell)
        symbol = self.symbols.id_of(kind, side) if at is not None else None
        return f'<use href="#{symbol}" {at}/>' if symbol is not None else ""

    def _marks(self, position: Position) -> str:
        """The current ply's marks as circles, sized by style ("*" for the others)."""
        out = []
        radius = self.mark_radius
        for cell, style in position.marks:
            at = self._xy.get(cell)
            if at is not None:
                r = radius.get(style, radius["*"])
                out.append(f'<circle class="q-mark q-mark-{css_word(style)}" {at} r="{num(r)}"/>')
        return "".join(out)

    def _paths(self, position: Position) -> str:
        """The current ply's paths (a capture's route), under its marks."""
        out = []
        for cells, style in position.paths:
            d = self.path_data(cells)
            if d:
                out.append(f'<path class="q-path q-path-{css_word(style)}" d="{d}"/>')
        return "".join(out)

    def path_data(self, cells: list[str]) -> str:
        """SVG path data through cells in order: straight steps, or the board's curve where it has one.

        Empty if a cell is not on this board. ``static/viewer.js`` builds the same string.
        """
        parts = []
        prev = None
        for cell in cells:
            xy = self.cells.get(cell)
            if xy is None:
                return ""
            if prev is None:
                parts.append(f"M{num(xy[0])} {num(xy[1])}")
            else:
                parts.append(self.curves.get(f"{prev}|{cell}") or f"L{num(xy[0])} {num(xy[1])}")
            prev = cell
        return "".join(parts)

    # -- what viewer.js needs ----------------------------------------------------

    def scene(self) -> dict[str, Any]:
        """Geometry, symbols and sizes for ``static/viewer.js`` (JSON-ready).

        ``symbols`` is :meth:`Symbols.table`: the id of the drawing of each
        kind and side of piece. A shallow copy: callers replace "cells", never
        edit inside.
        """
        if self._scene is None:
            scene: dict[str, Any] = {
                "board": self.kind,
                "cells": {cell: [x, y] for cell, (x, y) in self.cells.items()},
                "radius": self.radius,
                "marks": dict(self.mark_radius),
                # Font size of move numbers: the first entry whose threshold the ply reaches.
                "numberSizes": number_sizes(self.radius),
                "symbols": self.symbols.table(),
            }
            if self.curves:
                scene["curves"] = dict(self.curves)
            self._scene = scene
        return dict(self._scene)

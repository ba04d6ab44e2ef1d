"""Boards of intersections on a lettered grid: Gomoku, Connect6, Go.

Cells are named as the standards write them (:func:`generator.scene.grid_cell`):
columns ``A``, ``B`` … from the left, ``I`` included, rows ``1`` … from the
bottom, so ``A1`` is the bottom-left intersection. A board is drawn once per
game type; :meth:`GridBoard.svg` then only adds the pieces and marks of one
position to the cached drawing, because a build renders thousands of pages.

Colours are generic names (``black``, ``white``, ``red``, ``blue``) turned into
class names; ``static/viewer.css`` gives them their fills. ``static/viewer.js``
draws pieces from :meth:`GridBoard.scene` with the same geometry and classes.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

from generator import boards
from generator.games import GameType
from generator.scene import COLUMN_LETTERS, Position, grid_cell

if TYPE_CHECKING:
    import svgwrite

# Geometry in SVG user units. Integers keep the coordinates short and exact.
STEP = 40  # distance between two lines
MARGIN = 56  # from the outer line to the edge of the drawing: room for labels
LABEL_GAP = 36  # from the outer line to a label's centre: clear of edge stones
STONE_RADIUS = 18.5  # a little under STEP/2 so neighbouring stones do not touch
STAR_RADIUS = 4
LABEL_SIZE = 17
# Marks drawn over a cell, by style; CSS decides fill or ring.
MARK_RADIUS = {"last": 6, "win": 21, "*": 21}

_SVG_NS = "http://www.w3.org/2000/svg"
STATIC_MARK = boards.STATIC_MARK
_CLASS_WORD = re.compile(r"[^A-Za-z0-9_-]+")


@functools.lru_cache(maxsize=256)
def css_word(name: str) -> str:
    """A colour, kind or style name made safe for a class attribute."""
    return _CLASS_WORD.sub("-", name) or "x"


def star_points(columns: int, rows: int) -> list[str]:
    """The hoshi of a square board, where the standards' diagrams put them.

    9: C3 G3 E5 C7 G7; 13: D4 J4 G7 D10 J10 (columns A-M with I included,
    as GO13 writes them; Go books that skip I call J "K"); 15: D4 L4 H8
    D12 L12; 19: the nine points on the 4-10-16 lines. Other sizes follow the same
    pattern (third or fourth line in from each corner, the centre when the
    size is odd, side midpoints from 19 up); very small or non-square boards
    get none.
    """
    if columns != rows or columns < 7:
        return []
    size = columns
    edge = 3 if size < 13 else 4
    lines = [edge, size + 1 - edge]
    points = [(x, y) for y in lines for x in lines]
    if size % 2:
        centre = (size + 1) // 2
        points.append((centre, centre))
        if size >= 19:
            points += [(centre, edge), (edge, centre), (size + 1 - edge, centre), (centre, size + 1 - edge)]
    # Sorted bottom row first, left to right, for stable output.
    return [grid_cell(x - 1, y) for x, y in sorted(points, key=lambda p: (p[1], p[0]))]


def _num(value: float) -> str:
    """Shortest text for a coordinate: 40 not 40.0."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@dataclass(slots=True)
class GridBoard(boards.StaticDrawing):
    """A grid of ``columns`` x ``rows`` intersections with its static drawing."""

    columns: int
    rows: int
    stars: tuple[str, ...] = ()
    row_letters: bool = False  # 19-line Go writes rows as letters too (A = row 1)
    # Derived from the size in __post_init__:
    cells: dict[str, tuple[float, float]] = field(init=False, repr=False)  # cell id -> (x, y)
    width: int = field(init=False)
    height: int = field(init=False)
    _xy: dict[str, str] = field(init=False, repr=False)  # cell id -> 'cx="…" cy="…"'
    _scene: dict[str, Any] | None = field(init=False, repr=False, default=None)  # built on first use

    def __post_init__(self) -> None:
        self.width = 2 * MARGIN + (self.columns - 1) * STEP
        self.height = 2 * MARGIN + (self.rows - 1) * STEP
        # Row 1 is at the bottom: larger y.
        self.cells = {
            grid_cell(x, row): (MARGIN + x * STEP, MARGIN + (self.rows - row) * STEP)
            for row in range(1, self.rows + 1)
            for x in range(self.columns)
        }
        self._xy = {cell: f'cx="{_num(x)}" cy="{_num(y)}"' for cell, (x, y) in self.cells.items()}

    # -- the drawing ---------------------------------------------------------

    def _draw_static(self) -> str:
        """Everything that does not depend on the position, as SVG markup."""
        import svgwrite  # here, not at the top: see generator.boards

        dwg = svgwrite.Drawing(profile="full", debug=False)
        left, top = MARGIN, MARGIN
        right = MARGIN + (self.columns - 1) * STEP
        bottom = MARGIN + (self.rows - 1) * STEP
        parts = [
            dwg.rect((0, 0), (self.width, self.height), class_="q-board-bg", fill="#e3c16f").tostring(),
        ]
        # All inner lines in one path keeps the page small.
        d = []
        for x in range(1, self.columns - 1):
            d.append(f"M{left + x * STEP} {top}V{bottom}")
        for y in range(1, self.rows - 1):
            d.append(f"M{left} {top + y * STEP}H{right}")
        parts.append(dwg.path(d="".join(d), class_="q-grid", stroke="#3b2f1e", fill="none").tostring())
        parts.append(
            dwg.rect(
                (left, top), (right - left, bottom - top), class_="q-grid q-edge", stroke="#3b2f1e", fill="none"
            ).tostring()
        )
        stars = dwg.g(class_="q-stars", fill="#3b2f1e")
        for cell in self.stars:
            stars.add(dwg.circle(self.cells[cell], STAR_RADIUS, class_="q-star"))
        parts.append(stars.tostring())
        parts.append(self._draw_labels(dwg, left, top, right, bottom))
        return "".join(parts)

    def _draw_labels(self, dwg: svgwrite.Drawing, left: int, top: int, right: int, bottom: int) -> str:
        """Letters below and above, numbers (or letters) left and right, row 1 at the bottom."""
        labels = dwg.g(class_="q-coords", font_size=LABEL_SIZE, text_anchor="middle", fill="#3b2f1e")
        # The shift moves the baseline down so that the glyphs are centred.
        shift = LABEL_SIZE * 0.35
        for x in range(self.columns):
            cx = left + x * STEP
            letter = COLUMN_LETTERS[x]
            labels.add(dwg.text(letter, insert=(cx, bottom + LABEL_GAP + shift), class_="q-coord q-col"))
            labels.add(dwg.text(letter, insert=(cx, top - LABEL_GAP + shift), class_="q-coord q-col"))
        for row in range(1, self.rows + 1):
            cy = top + (self.rows - row) * STEP + shift
            name = COLUMN_LETTERS[row - 1] if self.row_letters else str(row)
            labels.add(dwg.text(name, insert=(left - LABEL_GAP, cy), class_="q-coord q-row"))
            labels.add(dwg.text(name, insert=(right + LABEL_GAP, cy), class_="q-coord q-row"))
        return labels.tostring()


    def svg(self, position: Position | None, *, label: str, numbers: bool = False, static: bool = True) -> str:
        """A complete inline ``<svg>`` of ``position`` (the empty board if None).

        ``label`` becomes the accessible name and the ``<title>``. With
        ``numbers`` each stone shows the ply that put it there. With
        ``static=False`` the static drawing is left out and :attr:`STATIC_MARK`
        stands in its place, for caches that keep many positions of one board.
        """
        pieces = self._pieces(position, numbers) if position is not None else ""
        marks = self._marks(position) if position is not None else ""
        return svg_document("q-board", self.width, self.height, label, self.static_markup if static else None, pieces, marks)

    def _pieces(self, position: Position, numbers: bool) -> str:
        return pieces_svg(position, self._xy, self.cells, STONE_RADIUS, numbers)

    def _marks(self, position: Position) -> str:
        return marks_svg(position, self._xy, MARK_RADIUS)

    # -- what viewer.js needs ------------------------------------------------

    def scene(self) -> dict[str, Any]:
        """Geometry and class names for ``static/viewer.js`` (JSON-ready).

        ``classes`` maps a kind or a colour to its class; the viewer falls
        back to ``q-<name>`` for names not listed, like :meth:`svg` does.
        """
        if self._scene is not None:
            return dict(self._scene)  # shallow: callers replace "cells", never edit inside
        self._scene = {
            "board": "grid",
            "cells": {cell: [x, y] for cell, (x, y) in self.cells.items()},
            "radius": STONE_RADIUS,
            "marks": dict(MARK_RADIUS),
            # Font size of move numbers: the first entry whose threshold the ply reaches.
            "numberSizes": number_sizes(STONE_RADIUS),
            "classes": {name: f"q-{name}" for name in ("stone", "black", "white", "red", "blue")},
        }
        return dict(self._scene)


def svg_document(
    css_class: str, width: float, height: float, label: str, static_markup: str | None, pieces: str, marks: str
) -> str:
    """The inline ``<svg>`` every board draws: title, static drawing, pieces, then marks.

    ``static_markup`` None leaves the static drawing out and puts
    :data:`STATIC_MARK` in its place (see :meth:`GridBoard.svg`).
    """
    text = escape(label, quote=True)
    return (
        f'<svg xmlns="{_SVG_NS}" class="{css_class}" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'role="img" aria-label="{text}"><title>{text}</title>'
        f"{STATIC_MARK if static_markup is None else static_markup}"
        f'<g class="q-pieces" text-anchor="middle" dominant-baseline="central">{pieces}</g>'
        f'<g class="q-marks">{marks}</g></svg>'
    )


def pieces_svg(
    position: Position,
    xy: dict[str, str],
    cells: dict[str, tuple[float, float]],
    radius: float,
    numbers: bool = False,
) -> str:
    """The pieces of a position as circles (and, with ``numbers``, the ply that put each there).

    Shared by every board drawn with circles; ``xy`` holds each cell's
    ready-made 'cx="…" cy="…"' attributes.
    """
    out = []
    r = _num(radius)
    for piece in position.pieces.values():
        at = xy.get(piece.at)
        if at is None:  # not a cell of this board: nothing sensible to draw
            continue
        side = css_word(piece.side)
        out.append(f'<circle class="q-{css_word(piece.kind)} q-{side}" {at} r="{r}"/>')
        if numbers and piece.ply > 0:
            x, y = cells[piece.at]
            out.append(
                f'<text class="q-num q-on-{side}" x="{_num(x)}" y="{_num(y)}" '
                f'font-size="{number_size(piece.ply, radius)}">{piece.ply}</text>'
            )
    return "".join(out)


def marks_svg(position: Position, xy: dict[str, str], radius: dict[str, float]) -> str:
    """The current ply's marks as circles, sized by style ("*" for the others)."""
    out = []
    for cell, style in position.marks:
        at = xy.get(cell)
        if at is not None:
            r = radius.get(style, radius["*"])
            out.append(f'<circle class="q-mark q-mark-{css_word(style)}" {at} r="{_num(r)}"/>')
    return "".join(out)


# Font size of a move number as a share of its piece's radius, by the
# smallest ply that uses it: three digits, two, one.
_NUMBER_SCALE = ((100, 0.7), (10, 0.86), (0, 0.97))


def number_size(ply: int, radius: float = STONE_RADIUS) -> int:
    """Font size for a move number so that it fits inside a piece of ``radius``."""
    return next(round(radius * scale) for least, scale in _NUMBER_SCALE if ply >= least)


def number_sizes(radius: float) -> list[list[int]]:
    """The same sizes for viewer.js (``scene["numberSizes"]``): [[smallest ply, font size], ...]."""
    return [[least, round(radius * scale)] for least, scale in _NUMBER_SCALE]


_BOARDS: dict[str, GridBoard] = {}


def board_for(game: GameType, variant: str | None = None) -> GridBoard:
    """The board of a game type, drawn once and shared by every page."""
    board = _BOARDS.get(game.code)
    if board is None:
        stars = game.params.get("star_points")
        board = GridBoard(
            game.columns,
            game.rows,
            tuple(stars) if stars is not None else tuple(star_points(game.columns, game.rows)),
            bool(game.params.get("row_letters")),
        )
        _BOARDS[game.code] = board
    return board

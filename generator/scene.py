"""The scene model shared by the Python side and ``static/viewer.js``.

Engines describe each ply as a list of plain operations (see
:data:`generator.model.Op`). The viewer applies them in the browser; this
module applies them in Python to draw the position shown without JavaScript
(the final one) and to let tests check what the viewer will show.
Both sides must agree, so the semantics live here, in one small function:

* pieces persist from ply to ply until removed;
* ``mark``, ``path`` and ``note`` belong to the ply that carries them and
  are shown only while that ply is the current one;
* ``count`` sets a counter that keeps its value until set again;
* in hidden-information games a position is seen from one *view*
  (``"referee"``, ``"first"``, ``"second"``): a ply's ``ops`` apply in every
  view, each group of its ``hidden`` ops only in the views it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from generator import i18n
from generator.model import Op, Ply


@dataclass(slots=True)
class Piece:
    kind: str
    side: str
    at: str
    ply: int  # the ply that put it there (0 = set-up), for move numbers on stones


@dataclass(slots=True)
class Position:
    pieces: dict[str, Piece] = field(default_factory=dict)
    marks: list[tuple[str, str]] = field(default_factory=list)  # (cell, style) of the current ply
    notes: list[str] = field(default_factory=list)
    paths: list[tuple[list[str], str]] = field(default_factory=list)  # (cells, style) of the current ply
    counts: dict[str, int] = field(default_factory=dict)  # counter key -> value


def add(piece_id: str, kind: str, side: str, at: str) -> Op:
    return ["add", piece_id, kind, side, at]


def move(piece_id: str, to: str) -> Op:
    return ["move", piece_id, to]


def remove(piece_id: str) -> Op:
    return ["remove", piece_id]


def set_kind(piece_id: str, kind: str) -> Op:
    return ["set", piece_id, kind]


def mark(at: str, style: str) -> Op:
    return ["mark", at, style]


def note(template: str, /, **args: Any) -> Op:
    """A line of text shown while this ply is shown, said in the page's language.

    ``template`` is English with ``{named}`` places for ``args``, marked with
    ``N_`` where the engine writes it (see :mod:`generator.i18n`): the page
    says it (render/viewer.py), and an argument ``side``, ``owner``,
    ``winner``, ``loser``, ``first`` or ``second`` whose value is a seat
    ("first", "second") becomes the page's name of that side. (A note
    ``["note", text]`` without arguments, which no engine makes, is shown as
    it is.)
    """
    return ["note", template, args]


def note_text(op: Op, names: Sequence[str], language: str = "en") -> str:
    """A note's text in ``language``, its seat arguments named as ``names`` says (first, second ...)."""
    if len(op) < 3:
        return op[1]
    values = {
        name: names[SEAT_INDEX[value]] if name in SIDE_ARGS and value in SEAT_INDEX else value
        for name, value in op[2].items()
    }
    return i18n.say(op[1], values, language)


# Note arguments that name a side, and the seats they may name.
SIDE_ARGS = frozenset(("side", "owner", "winner", "loser", "first", "second"))
SEAT_INDEX = {"first": 0, "second": 1, "third": 2, "fourth": 3}


def path(cells: list[str], style: str) -> Op:
    """A route through cells in order, e.g. a capture travelling along a loop."""
    return ["path", list(cells), style]


def counter(key: str, value: int) -> Op:
    """Set a counter shown beside the board (captured stones, failed attempts ...)."""
    return ["count", key, value]


def ops_for(ply: Ply, view: str = "referee") -> list[Op]:
    """The operations of a ply as one view sees them."""
    if not ply.hidden:
        return ply.ops
    ops = list(ply.ops)
    for views, group in ply.hidden:
        if view in views:
            ops.extend(group)
    return ops


def apply(position: Position, ops: list[Op], ply: int, current: bool = True) -> None:
    """Apply one ply's operations in place (marks and notes replace the last ply's).

    ``current=False``: a ply that another follows at once, whose marks and
    notes would be replaced anyway; they are skipped.
    """
    pieces = position.pieces
    if current:
        position.marks = []
        position.notes = []
        position.paths = []
    for op in ops:
        name = op[0]
        # The most frequent operations first: every page replays every ply.
        if name == "add":
            pieces[op[1]] = Piece(op[2], op[3], op[4], ply)
        elif name == "mark":
            if current:
                position.marks.append((op[1], op[2]))
        elif name == "move":
            pieces[op[1]].at = op[2]
        elif name == "remove":
            pieces.pop(op[1], None)
        elif name == "set":
            pieces[op[1]].kind = op[2]
        elif name == "note":
            if current:
                position.notes.append(op[1])
        elif name == "path":
            if current:
                position.paths.append((list(op[1]), op[2]))
        elif name == "count":
            position.counts[op[1]] = op[2]
        else:
            raise ValueError(f"unknown scene operation {name!r}")


def position_after(
    setup: list[Op],
    plies: list[Ply],
    count: int | None = None,
    view: str = "referee",
    setup_hidden: Sequence[tuple[tuple[str, ...], list[Op]]] = (),
) -> Position:
    """The position after the first ``count`` plies (all of them by default), as ``view`` sees it.

    ``setup_hidden``: the set-up's groups for some views only (:attr:`generator.model.Replay.setup_hidden`).
    """
    position = Position()
    apply(position, setup, 0)
    for views, group in setup_hidden:
        if view in views:
            apply(position, group, 0)
    chosen = plies[: len(plies) if count is None else count]
    last = len(chosen) - 1
    for i, ply in enumerate(chosen):
        # ops_for() inlined for the common ply without hidden operations.
        apply(position, ops_for(ply, view) if ply.hidden else ply.ops, ply.number, i == last)
    return position


COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def grid_cell(column: int, row: int) -> str:
    """Cell id of an intersection or square on a lettered grid.

    ``column`` is 0-based from the left (A = 0, letters as the standards write
    them, I included), ``row`` is the 1-based row number as written. ``J10``.
    """
    return f"{COLUMN_LETTERS[column]}{row}"

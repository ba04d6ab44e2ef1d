"""Two records of one game side by side: where the copies disagree.

When both teams' programs save a game and the files differ (a move one
program wrote and the other did not, a record cut short, another result),
the organiser has to decide which file is right. The problems page shows
the two files next to each other, move by move, with the first difference
marked; this module lines them up.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.archive.duplicates import normalise_move
from generator.pipeline import Processed


@dataclass(frozen=True, slots=True)
class Copy:
    """What one file says about the game."""

    source: str
    first: str | None
    second: str | None
    declared: str | None  # first / second / draw / unknown / None
    result_text: str | None  # the words as written
    computed: str | None
    date: str | None
    time: str | None
    moves: tuple[str, ...]
    code: str | None = None  # the game type, which names the seats of a game of more than two
    more: tuple[str | None, ...] = ()  # the players of seats three and on

    @property
    def players(self) -> tuple[str | None, ...]:
        return (self.first, self.second, *self.more)


@dataclass(frozen=True, slots=True)
class Row:
    number: int  # 1-based move number
    a: str | None  # the move in the first file, None when it has no such move
    b: str | None
    differs: bool


@dataclass(frozen=True, slots=True)
class Same:
    """A run of moves both files agree on, shown as one line (moves ``first`` to ``last``)."""

    first: int
    last: int


@dataclass(frozen=True, slots=True)
class Comparison:
    a: Copy
    b: Copy
    rows: tuple[Row, ...]
    first_difference: int | None  # move number, None when the moves agree

    @property
    def differs_in(self) -> tuple[str, ...]:
        """What differs, as keys the page translates: "moves", "result", "teams", "time"."""
        a, b = self.a, self.b
        found = []
        if self.first_difference is not None:
            found.append("moves")
        if (a.declared or "unknown") != (b.declared or "unknown"):
            found.append("result")
        if a.players != b.players:
            found.append("teams")
        if (a.date, a.time) != (b.date, b.time):
            found.append("time")
        return tuple(found)


def shown_rows(rows: tuple[Row, ...], context: int = 2) -> list[Row | Same]:
    """The rows worth reading: every difference with ``context`` agreeing moves
    around it, the first and last moves; each longer agreeing run becomes one
    :class:`Same` line. A 200-move game that differs at move 150 shows a dozen
    lines instead of 200.
    """
    keep = [i < context or i >= len(rows) - context for i in range(len(rows))]
    for i, row in enumerate(rows):
        if row.differs:
            for j in range(max(0, i - context), min(len(rows), i + context + 1)):
                keep[j] = True
    shown: list[Row | Same] = []
    i = 0
    while i < len(rows):
        if keep[i]:
            shown.append(rows[i])
            i += 1
            continue
        j = i
        while j < len(rows) and not keep[j]:
            j += 1
        if j - i == 1:  # one hidden move takes as much room as its line
            shown.append(rows[i])
        else:
            shown.append(Same(rows[i].number, rows[j - 1].number))
        i = j
    return shown


def copy_of(p: Processed) -> Copy:
    return Copy(
        p.source,
        p.meta.first,
        p.meta.second,
        p.declared,
        p.meta.result_text,
        p.computed,
        p.meta.date,
        p.meta.time,
        tuple(p.moves_text()),
        p.code,
        p.meta.more,
    )


def compare(a: Processed, b: Processed) -> Comparison:
    """Line up the moves of two files of one game, move by move."""
    left, right = copy_of(a), copy_of(b)
    rows = []
    first: int | None = None
    for i in range(max(len(left.moves), len(right.moves))):
        x = left.moves[i] if i < len(left.moves) else None
        y = right.moves[i] if i < len(right.moves) else None
        differs = x is None or y is None or normalise_move(x) != normalise_move(y)
        if differs and first is None:
            first = i + 1
        rows.append(Row(i + 1, x, y, differs))
    return Comparison(left, right, tuple(rows), first)

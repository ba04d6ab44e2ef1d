"""The value types that flow between the stages.

scan -> :class:`Source`; decode -> :class:`Text`; parse -> :class:`Record`;
replay -> :class:`Replay`. Each is a plain dataclass with slots, picklable
(the build cache and the process pool rely on that), and carries no
behaviour beyond small conveniences.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from generator.diagnostics import Diagnostic

# A result, declared or computed, always from the point of view of the order
# of play: the first player (先手) or the second (后手). Colours differ per game.
Result = Literal["first", "second", "draw", "unknown"]
RESULTS: tuple[Result, ...] = ("first", "second", "draw", "unknown")


@dataclass(frozen=True, slots=True)
class Source:
    """A record file as found on disk."""

    path: str  # relative to the content folder, POSIX separators
    data: bytes
    sha256: str


@dataclass(slots=True)
class Text:
    """A decoded record with the map from character offsets to lines."""

    path: str
    text: str
    encoding: str  # "utf-8", "utf-8-sig", "utf-16", "gb18030", or an override
    line_starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.line_starts:
            starts = [0]
            text = self.text
            for i, ch in enumerate(text):
                # CR alone, LF alone and CRLF each end one line.
                if ch == "\n" or (ch == "\r" and not text.startswith("\n", i + 1)):
                    starts.append(i + 1)
            self.line_starts = starts

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        index = bisect.bisect_right(self.line_starts, offset) - 1
        return index + 1, offset - self.line_starts[index] + 1


@dataclass(slots=True)
class Move:
    """One move as written in the record, before any rule is applied.

    ``side`` is the letter as written (``B``, ``W``, ``R`` ...); the game
    type's registry entry maps letters to first/second. ``point`` is the
    format's parsed coordinate, e.g. ``("J", 10)`` for ``B(J,10)``.
    """

    side: str
    text: str  # normalised notation shown in the move list, e.g. "B(J,10)"
    point: tuple[str, int] | None
    line: int
    column: int
    mark: int | None = None  # MARK[...] annotation, kept as written
    comment: str | None = None
    # Games that move pieces (SU ...): ``point`` is where the piece starts,
    # ``to`` where it goes, and ``capture`` whether the record wrote a capture
    # (``X``) rather than a plain move (``-``). Placement games leave them be.
    to: tuple[str, int] | None = None
    capture: bool = False
    # A pass (Go family: ``B[]`` or ``B[tt]``): ``point`` is None and the
    # move is not an unreadable one.
    passed: bool = False


@dataclass(slots=True)
class Metadata:
    """What is known about a game from one source (header, file name, folder).

    Every field may be missing. ``result`` is the declared result,
    ``result_text`` the words it was read from.
    """

    code: str | None = None
    first: str | None = None
    second: str | None = None
    result: Result | None = None
    result_text: str | None = None
    date: str | None = None  # ISO "2025-12-27"
    time: str | None = None  # "14:55" (24 h), or None when only a date is known
    place: str | None = None
    event: str | None = None


@dataclass(slots=True)
class Record:
    """A parsed record: metadata and moves with their positions."""

    path: str
    code: str | None  # game code from the header, if the format has one
    header: Metadata
    moves: list[Move]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # The start position as the record writes it, when it writes one: its
    # rows top to bottom, as the family reads them (SU: "BBBBBB", "000000" ...).
    setup: list[str] | None = None
    setup_line: int = 0  # line of the first setup row, for diagnostics


# A frame operation, as sent to viewer.js (JSON arrays):
#   ["add", id, kind, side, at]   put a piece with this id on cell ``at``
#   ["move", id, to]              move a piece to another cell
#   ["remove", id]                take a piece off the board
#   ["set", id, kind]             change a piece's kind (promotion, ...)
#   ["mark", at, style]           highlight a cell while this ply is shown
#   ["note", text]                a line of text shown while this ply is shown
#   ["path", [cell, ...], style]  a line through cells while this ply is shown
#                                 (a capture's route); the board's scene says
#                                 which steps are curves rather than straight
#   ["count", key, value]         set a counter shown beside the board until
#                                 changed ("captures.first": stones the first
#                                 player has captured; "attempts.second": the
#                                 second player's failed attempts)
# ``side`` is a colour name ("black", "white", "red", "blue"); ``kind`` names
# a piece drawing ("stone", ...). See generator/scene.py.
Op = list


@dataclass(slots=True)
class Ply:
    """One replayed move: what it looked like and what it did to the board."""

    number: int  # 1-based
    side: Literal["first", "second"]
    colour: str  # "black", "white", ...
    label: str  # the move as shown in the move list
    ops: list[Op]
    mark: int | None = None
    line: int = 0
    column: int = 0
    # Hidden-information games (Phantom Go ...). ``visible_to``: the views
    # that may read this ply's label (None = everyone; the referee sees all).
    # ``ops`` are applied in every view; each ``(views, ops)`` group of
    # ``hidden`` only in the views it names ("referee", "first", "second").
    visible_to: tuple[str, ...] | None = None
    # A tuple by default, not a list per ply: a replay makes tens of thousands of plies.
    hidden: Sequence[tuple[tuple[str, ...], list[Op]]] = ()


@dataclass(slots=True)
class Decision:
    """How the rules ended a game, when they did.

    ``rule`` is a key the templates translate (``"line"``: k in a row,
    ``"board-full"``); ``cells`` the cells that prove it (the winning line).
    """

    winner: Result
    rule: str
    ply: int  # the ply that decided it
    cells: tuple[str, ...] = ()
    # The numbers behind it, when there are some: the area count of Go,
    # e.g. {"first": 45.0, "second": 36.0, "komi": 7.5}.
    score: dict[str, float] | None = None


@dataclass(slots=True)
class Replay:
    """A record replayed under its rules."""

    setup: list[Op]  # operations that build the start position
    plies: list[Ply]  # legal plies, in order
    not_replayed: list[Move]  # moves after the first illegal one, shown greyed
    decision: Decision | None  # None: the rules did not decide (resignation, time, truncated)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # The side letter of the player who moved first, where the record decides
    # it (SU: black or red); None where the game fixes it.
    first_letter: str | None = None
    # Which drawing of the board this game needs when an event option changes
    # it (HEX: which edges red joins); None for the game type's usual board.
    variant: str | None = None

    @property
    def computed(self) -> Result | None:
        return self.decision.winner if self.decision else None

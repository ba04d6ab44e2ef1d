"""The value types that flow between the stages.

scan -> :class:`Source`; decode -> :class:`Text`; parse -> :class:`Record`;
replay -> :class:`Replay`. Each is a plain dataclass with slots, picklable
(the build cache and the process pool rely on that), and carries no
behaviour beyond small conveniences.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from generator import i18n
from generator.diagnostics import Diagnostic

# A result, declared or computed, always from the point of view of the order
# of play: the first player (先手) or the second (后手). Colours differ per game.
# Games of more seats name the winning seat ("third"), or the seats that won
# together joined by "+" in seat order ("first+third": bridge's North-South,
# Dou Dizhu's two farmers); see winner_of() and seats_of(). So a plain str:
# RESULTS are the words of every two-seat game.
Result = str
RESULTS: tuple[Result, ...] = ("first", "second", "draw", "unknown")

# The seats in the order of play (Ply.side, the keys of a score): seat 0 moves first.
SEATS: tuple[str, ...] = ("first", "second", "third", "fourth", "fifth", "sixth")
_SEAT_INDEX = {name: seat for seat, name in enumerate(SEATS)}


def winner_of(seats: Iterable[int]) -> str:
    """The result that says these seats won (together): ``{0, 2}`` -> ``"first+third"``; none: ``"draw"``."""
    won = sorted(set(seats))
    return "+".join(SEATS[seat] for seat in won) if won else "draw"


def seats_of(result: str | None) -> tuple[int, ...]:
    """The seats a result or a score key names: ``"first+third"`` -> ``(0, 2)``; () for a draw, unknown or None."""
    if not result:
        return ()
    seats = tuple(_SEAT_INDEX.get(name, -1) for name in result.split("+"))
    return () if -1 in seats else seats


def winner_by_score(score: Mapping[str, float]) -> str:
    """The result a score says: the seat or partnership (key) with the highest score; a draw when level."""
    counted = {key: value for key, value in score.items() if seats_of(key)}
    if not counted:
        return "unknown"
    best = max(counted.values())
    top = [key for key, value in counted.items() if value == best]
    return top[0] if len(top) == 1 else "draw"


def game_id(path: str, game: int = 0) -> str:
    """The archive's name of a game: its file's path, and ``#n`` after it for game n of a file of several."""
    return f"{path}#{game}" if game else path


def decided(result: str | None) -> bool:
    """Whether a result says how the game ended (a winner or a draw), not unknown or missing."""
    return result == "draw" or bool(seats_of(result))


@dataclass(frozen=True, slots=True)
class Source:
    """A record file as found on disk."""

    path: str  # relative to the content folder, POSIX separators
    data: bytes
    sha256: str


_LINE_END = re.compile(r"\r\n|\r|\n")


def line_starts(text: str) -> list[int]:
    """Offsets where each line begins: CR alone, LF alone and CRLF each end one line."""
    if "\r" in text:
        return [0, *(m.end() for m in _LINE_END.finditer(text))]
    # LF alone, as most files end their lines: the lengths of the lines, summed
    # (every record is read so; a match object per line cost five times more).
    return list(accumulate([len(line) + 1 for line in text.split("\n")[:-1]], initial=0))


@dataclass(slots=True)
class Text:
    """A decoded record with the map from character offsets to lines."""

    path: str
    text: str
    encoding: str  # "utf-8", "utf-8-sig", "utf-16", "gb18030", or an override
    line_starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.line_starts:
            self.line_starts = line_starts(self.text)

    def lines(self) -> list[str]:
        """Every line, without its line end nor a byte-order mark at its start, as :attr:`line_starts` counts them.

        One split of the whole text: the readers that go line by line read
        every line of every record, and a slice per line cost more.
        """
        text = self.text
        lines = text.split("\n") if "\r" not in text else _LINE_END.split(text)
        if len(lines) != len(self.line_starts):  # line starts given that are not the text's own
            ends = [*self.line_starts[1:], len(text)]
            lines = [text[start:end].rstrip("\r\n") for start, end in zip(self.line_starts, ends)]
        if "\ufeff" in text:
            lines = [line.lstrip("\ufeff") for line in lines]
        return lines

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

    Readers that make a hundred moves a record (csa, pgn, draughts) pass
    the first fields positionally, a third cheaper than by keyword: their
    order up to ``parts`` is :data:`MOVE_FIELDS`, which a test holds.
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
    # A compound action, one ply in the move list: what it is made of after
    # ``point`` and ``to``, in the order played (the arrow an Amazons queen
    # shoots from where it lands; the further landing squares of a draughts
    # capture; the cards of a card play, where there is no point at all).
    parts: tuple[Any, ...] = ()

    @property
    def points(self) -> tuple[Any, ...]:
        """Everything the move names, in order: ``point``, ``to``, then ``parts`` (missing ones left out)."""
        head = tuple(p for p in (self.point, self.to) if p is not None)
        return head + self.parts if self.parts else head


# The order of Move's first fields, as the readers that build moves positionally rely on.
MOVE_FIELDS = ("side", "text", "point", "line", "column", "mark", "comment", "to", "capture", "passed", "parts")


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
    # Games of more than two seats: the players of the third seat on, in the
    # order of play (Dou Dizhu's PC, bridge's West after North, East, South).
    more: tuple[str | None, ...] = ()
    # A result that is a score: per seat or per partnership, keyed as results
    # are ("first", "first+third"), e.g. the chips a poker match declares.
    score: Mapping[str, float] | None = None
    # Games played in duplicate (bridge): the board's number, and the table
    # or room it was played at ("Open", "Closed", "3"), to compare its result
    # with the other tables' (generator.archive.duplicate).
    board: str | None = None
    room: str | None = None

    @property
    def players(self) -> tuple[str | None, ...]:
        """The player (team) of every seat named, in the order of play."""
        return (self.first, self.second, *self.more)


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
    # Where a file holds several games (a match): this game's number in it,
    # from 1, and the line it starts on; 0 and line 1 for a file of one game.
    game: int = 0
    line: int = 1
    # The header's named fields as the record writes them, where its format
    # names them (PBN tags: "Board", "Room", "Dealer", "Contract" ...), for
    # what a game's engine and the event pages read beyond ``header``.
    tags: dict[str, str] = field(default_factory=dict)


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
    side: str  # the seat that moved, one of SEATS: "first", "second" (two seats), "third" ...
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
    # The move in another notation, shown when the pointer rests on it in the
    # move list (xiangqi's coordinates H2E2 beside 炮二平五); "" for none.
    alt: str = ""


@dataclass(slots=True)
class Decision:
    """How the rules ended a game, when they did.

    ``rule`` is a stable key (``"line"``, ``"board-full"``: data/games.jsonl
    and the tests use it); ``reason`` says it to a reader, an English template
    the engine writes next to its rules (marked ``N_``) with ``reason_args``,
    said in the page's language by :meth:`said`; ``cells`` the cells that
    prove it (the winning line).
    """

    winner: Result
    rule: str
    ply: int  # the ply that decided it
    cells: tuple[str, ...] = ()
    # The numbers behind it, when there are some: the area count of Go,
    # e.g. {"first": 45.0, "second": 36.0, "komi": 7.5}. In a game whose
    # result is a score (boxes, chips, bridge points) it holds one per seat
    # or per partnership, keyed as results are ("first", "first+third").
    score: dict[str, float] | None = None
    # The wording, not a fact of the decision: two decisions that differ only in it are equal.
    reason: str = field(default="", compare=False)
    reason_args: tuple[tuple[str, Any], ...] = field(default=(), compare=False)

    def said(self, language: str) -> str:
        """How the rules ended the game, in a site language (the rule's key where no reason is given)."""
        return i18n.say(self.reason, self.reason_args, language) if self.reason else self.rule

    @classmethod
    def from_scores(cls, score: Mapping[str, float], rule: str, ply: int, cells: tuple[str, ...] = ()) -> Decision:
        """The decision of a game won on score: the seat or partnership with the most wins; level: a draw.

        Keys that name no seat (Go's "komi") are carried along, not compared.
        """
        return cls(winner_by_score(score), rule, ply, cells, dict(score))


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
    # Hidden-information games whose start differs per view (army chess: each
    # player sees the opponent's pieces face down): ``(views, ops)`` groups
    # applied after ``setup`` only in the views they name, as Ply.hidden.
    setup_hidden: Sequence[tuple[tuple[str, ...], list[Op]]] = ()

    @property
    def computed(self) -> Result | None:
        return self.decision.winner if self.decision else None

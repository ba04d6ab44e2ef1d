"""The replay driver every rules engine runs on: one loop, a few hooks.

As a python-chess variant subclasses ``Board`` and overrides a few methods,
a family of games subclasses :class:`Engine` and overrides what is its own.
:meth:`Engine.replay` is the loop, written once. For each move of the
record, in this order, the first check that fails stops the replay (the
moves from there on are shown greyed, as ``not_replayed``):

1. the move could be read (hook :meth:`~Engine.read`), else RULE-N001;
2. the rules have not ended the game yet (:attr:`~Engine.decision`), else
   RULE-E003, saying why (hook :meth:`~Engine.ended`);
3. the move is by the seat whose turn it is (:attr:`~Engine.turn`, and the
   seat its side letter names: :attr:`~Engine.letters`, hook
   :meth:`~Engine.seat_of`), else RULE-E001 (hook :meth:`~Engine.wrong_side`);
4. every point the move names is on the board (:meth:`~Engine.read` says
   where the move goes, or :class:`OffBoard`), else RULE-E002
   (hook :meth:`~Engine.off_board`);
5. the engine's own rules allow it: :meth:`~Engine.play` applies the move
   and returns its :class:`Ply`, or, if its rules forbid the move (occupied,
   suicide, ko, a capture no loop allows ...), returns the engine's
   diagnostic and leaves the position as it was.

:meth:`~Engine.play` sets :attr:`~Engine.turn` to the seat that moves next
(as python-chess's ``Board.push`` sets ``Board.turn``); the ply that ends the
game sets :attr:`~Engine.decision`. After the last move :meth:`~Engine.finish`
may add what only the whole record shows.

Seats are numbered in the order of play: 0 moves first, then 1, and so on,
so a game of three seats (Dou Dizhu) or four (bridge) has the same loop. A
turn of several stones (connect6), a pass (Go) or a failed attempt that the
same player follows (Phantom Go) is the engine's business: :attr:`~Engine.turn`
says who is to move now, whatever a turn is.

The loop runs for every move of every record, so it calls two hooks per
move: :meth:`~Engine.read` finds where the move goes, once, in the engine's
own terms (a board index, a pair of cells), and :meth:`~Engine.play` is
given what it found. Legality and applying a move are one hook because
finding one is often doing the other (Go's captures, suicide and ko).

Whether the side to move has any legal move left (checkmate, stalemate, a
draughts player blocked) is costly to know and almost never true, and the
next move of the record answers it for free: a legal move proves there was
one. So an engine may leave open an end of that kind, one where the side to
move has no legal move (and only that kind: a legal next move must prove
that the game went on). :meth:`~Engine.play` sets :attr:`~Engine.unsettled`,
and the driver calls :meth:`~Engine.settle` only where the answer matters:
after the last move, or before it reports a move it cannot play (which
becomes RULE-E003 if the game was in fact over).

Every message is a template with named arguments (see :mod:`generator.i18n`),
said in the reader's language when it is shown. The templates of the
diagnostics about one move begin with ``move {number}, {move}: `` and are
written where the engine words them, marked with :func:`~generator.i18n.N_`;
a side is named with ``side.name``, said in the registry's own two languages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from generator import diagnostics, model
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.i18n import N_, Named
from generator.model import Decision, Move, Op, Ply, Record, Replay

# A note, not an error: the format reader has already reported the syntax error.
UNREADABLE = diagnostics.define(
    "RULE-N001",
    "note",
    "The replay stops at a move that could not be read",
    "Fix the move's syntax (see the format error reported at the same place); "
    "the moves from there on are shown as not replayed.",
)
WRONG_SIDE = diagnostics.define(
    "RULE-E001",
    "error",
    "Move by the wrong side (out of turn)",
    "The message says whose turn it was and why (the order of play, a turn of several "
    "stones, a failed attempt); check the side letters and look for a missing, repeated "
    "or mislabelled move.",
)
OFF_BOARD = diagnostics.define(
    "RULE-E002",
    "error",
    "Move to or from a point off the board",
    "Check the column and row against the board of the game; the message gives its size.",
)
AFTER_END = diagnostics.define(
    "RULE-E003",
    "error",
    "Move after the rules had already ended the game",
    "The message says how the game ended (a line, a connection, two passes, no legal move "
    "or no pieces left); remove the extra moves or check the earlier ones.",
)

# Ply.side of each seat, in the order of play (defined with the model).
SEATS = model.SEATS


# What a hook says about a move: an English template (marked with N_ where it
# is written) and its arguments, without ``number`` and ``move``, which the
# driver adds.
Message = tuple[str, Mapping[str, Any]]


_SEATS: dict[tuple[str, ...], tuple[tuple[str, ...], tuple[Named, ...], dict[str, int]]] = {}


def _seats(game: GameType) -> tuple[tuple[str, ...], tuple[Named, ...], dict[str, int]]:
    """The colours, names and letters of a game type's seats (see Engine), made once per game type."""
    seats = game.seats
    key = (game.code, *(side.letter for side in seats))
    known = _SEATS.get(key)
    if known is None:
        letters: dict[str, int] = {}
        for seat, side in enumerate(seats):
            letters[side.letter.upper()] = letters[side.letter.lower()] = seat
        known = _SEATS[key] = (
            tuple(side.colour for side in seats), tuple(side.name for side in seats), letters
        )
    return known


class OffBoard:
    """What :meth:`Engine.read` returns for a move that names a point off the board."""

    __slots__ = ("point",)

    def __init__(self, point: Any) -> None:
        self.point = point  # as the format parsed it


class Engine:
    """One replay of one record under the rules of one game type.

    A subclass sets up its position in ``__init__`` and overrides the hooks
    below; :meth:`replay` is the driver and is not overridden. An engine is
    used for one replay only.
    """

    __slots__ = (
        "colours", "decision", "first_letter", "found", "game", "letters", "names", "path", "turn", "unsettled", "variant",
    )

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None) -> None:
        self.game = game
        # Per seat, in the order of play: the colour drawn, the name in
        # messages; and the side letters as written, either case -> seat
        # (see seat_of()). The same for every record of a game type: shared.
        self.colours, self.names, self.letters = _seats(game)
        self.turn = 0  # the seat to move; play() sets it
        # The rules' decision, set by play() on the ply that ends the game.
        self.decision: Decision | None = None
        # Set by play() when it left open whether its ply ended the game (see settle()).
        self.unsettled = False
        self.found: list[Diagnostic] = []  # what play() and finish() report besides the stopping error
        self.path = ""
        self.first_letter: str | None = None  # Replay.first_letter, where the record decides it
        self.variant: str | None = None  # Replay.variant, where an event option changes the board

    # -- the driver -------------------------------------------------------------------

    def replay(self, record: Record) -> Replay:
        """Replay the record's moves up to the first one that cannot be played."""
        self.path = record.path
        setup = self.setup()
        plies: list[Ply] = []
        found = self.found
        moves = record.moves
        stopped: int | None = None
        # The loop of every replay: what it calls is looked up once.
        read, play, letters = self.read, self.play, self.letters
        for n, move in enumerate(moves):
            number = n + 1
            at = read(move)
            seat = self.turn
            if at is None:
                problem = self.error(
                    UNREADABLE, move, number, N_("move {number}, {move}: the move cannot be read; the replay stops here")
                )
            elif self.decision is not None:
                problem = self.error(AFTER_END, move, number, *self.ended())
            else:
                named = letters.get(move.side)
                if named is None:
                    named = self.seat_of(move.side)
                if named != seat:
                    problem = self.error(WRONG_SIDE, move, number, *self.wrong_side(move, seat, named))
                elif at.__class__ is OffBoard:
                    problem = self.error(OFF_BOARD, move, number, *self.off_board(move, at.point))
                else:
                    ply = play(move, at, number, seat)
                    if ply.__class__ is Ply:
                        plies.append(ply)
                        continue
                    problem = ply  # type: ignore[assignment]  # the engine's rules forbid the move
            if self.unsettled and plies:
                self.unsettled = False
                self.settle(plies[-1])
                if self.decision is not None and at is not None:
                    problem = self.error(AFTER_END, move, number, *self.ended())
            found.append(problem)
            stopped = n
            break
        if self.unsettled and plies:
            self.unsettled = False
            self.settle(plies[-1])
        not_replayed = moves[stopped:] if stopped is not None else []
        replay = Replay(setup, plies, not_replayed, self.decision, found, self.first_letter, self.variant)
        self.finish(record, replay)
        return replay

    def error(self, code: str, move: Move, number: int, template: str, args: Mapping[str, Any] | None = None) -> Diagnostic:
        """A diagnostic at a move: ``template`` begins ``move {number}, {move}: `` (filled in here)."""
        return diagnostics.make(
            self.path, move.line, move.column, code, template, number=number, move=move.text, **(args or {})
        )

    # -- hooks: the position ------------------------------------------------------------

    def setup(self) -> list[Op]:
        """The operations that build the start position (none: an empty board)."""
        return []

    def seat_of(self, letter: str) -> int | None:
        """The seat a side letter names that :attr:`letters` does not hold as written, or None."""
        return self.letters.get(letter.upper())

    def read(self, move: Move) -> Any:
        """Where the move goes, in the engine's own terms (a board index, a pair of cells, a pass ...).

        None if the move could not be read; an :class:`OffBoard` if a point
        it names is off the board. What it returns is given to
        :meth:`play`.
        """
        raise NotImplementedError

    def locate(self, move: Move, index: Callable[[Any], Any]) -> tuple[Any, ...] | OffBoard | None:
        """Every point a move names (:attr:`Move.points`), each through ``index``: a help for :meth:`read`.

        ``index`` turns a point as parsed into the engine's own terms, None if
        it is off the board. A compound move (a queen's move and its arrow, a
        capture through several squares) is checked part by part: the first
        part off the board gives its :class:`OffBoard`, which the driver
        reports. None for a move that names no point.
        """
        points = move.points
        if not points:
            return None
        found = []
        for point in points:
            at = index(point)
            if at is None:
                return OffBoard(point)
            found.append(at)
        return tuple(found)

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        """Apply the move by ``seat`` (the driver's checks passed) and set :attr:`turn`; its ply.

        If the engine's rules forbid the move, its diagnostic instead (see
        :meth:`error`), the position left as it was. The ply that ends the
        game sets :attr:`decision`.
        """
        raise NotImplementedError

    def settle(self, last: Ply) -> None:
        """Decide whether ``last``, a ply :meth:`play` left :attr:`unsettled`, ended the game.

        The position is the one after ``last``. Where the rules end the game
        here, set :attr:`decision` and add the ply's notes to ``last.ops``.
        Called by the driver only where it matters (see the module's text).
        """

    def finish(self, record: Record, replay: Replay) -> None:
        """What only the whole record shows (a repetition ...): add it to the replay."""

    def ply(self, move: Move, number: int, seat: int, ops: list[Op], label: str | None = None, alt: str = "") -> Ply:
        """The usual ply of a move: everyone sees it. ``label``: the move list's text, where the
        game writes moves its own way (炮二平五, ▲２四歩); the record's text otherwise. ``alt``:
        the move in another notation, shown when the pointer rests on it (xiangqi's ``H2E2``)."""
        text = move.text if label is None else label
        ply = Ply(number, SEATS[seat], self.colours[seat], text, ops, move.mark, move.line, move.column)
        if alt:  # set after: a keyword argument costs the dataclass's __init__ a third more, once per ply
            ply.alt = alt
        return ply

    # -- hooks: what the driver's diagnostics say --------------------------------------

    def ended(self) -> Message:
        """Why no move may follow: how the rules ended the game (:attr:`decision` is set)."""
        return N_("move {number}, {move}: the game was already over at move {end}; no move may follow"), {
            "end": self.decision.ply if self.decision else 0
        }

    def wrong_side(self, move: Move, expected: int, found: int | None) -> Message:
        """Why the move is out of turn: ``expected`` is the seat to move, ``found`` the move's (None: no seat)."""
        if found is None:
            return self.unknown_side(move, expected)
        return N_("move {number}, {move}: wrong side to move: expected {expected} to move, found {found}"), {
            "expected": self.names[expected],
            "found": self.names[found],
        }

    def unknown_side(self, move: Move, expected: int) -> Message:
        """The message for a side letter that names no seat of the game."""
        letter = move.side.strip().upper()
        if len(self.names) == 2:
            (a, b), (name_a, name_b) = self.seat_letters(), self.names
            return N_(
                "move {number}, {move}: wrong side to move: expected {expected} to move, "
                "found unknown side '{letter}' ({a} = {name_a}, {b} = {name_b})"
            ), {"expected": self.names[expected], "letter": letter, "a": a, "name_a": name_a, "b": b, "name_b": name_b}
        return N_(
            "move {number}, {move}: wrong side to move: expected {expected} to move, "
            "found unknown side '{letter}' (the sides are {letters})"
        ), {"expected": self.names[expected], "letter": letter, "letters": ", ".join(self.seat_letters())}

    def seat_letters(self) -> list[str]:
        """Each seat's letter as records write it, in the order of play."""
        by_seat: dict[int, str] = {}
        for letter, seat in self.letters.items():
            if letter.isupper() or seat not in by_seat:
                by_seat[seat] = letter
        return [by_seat[seat] for seat in sorted(by_seat)]

    def off_board(self, move: Move, point: Any) -> Message:
        """Why a point the move names is off the board."""
        return N_("move {number}, {move}: {point} is off the board"), {"point": str(point)}

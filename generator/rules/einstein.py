"""EinStein würfelt nicht (WTN) engine: the die picks the piece, one step toward the far corner.

The board is 5x5 squares, columns A-E from the left, rows 1-5 from the
bottom; cells are named as records write them (``"C3"``). Each side has six
pieces numbered 1 to 6, set up as the record says (the standard's set-up:
red on A5 B5 C5 A4 B4 A3, blue on E3 D2 E2 C1 D1 E1, numbers in any order).
Either colour may move first; the first move says which (specs/README.md).

Before every move the die is thrown. It names the piece that moves: the
piece of that number if the mover still has it, otherwise the mover's
nearest lower or nearest higher number still on the board (either one may
move). A move of any other piece is an error. The piece steps to a
neighbouring square toward the opponent's corner: red (top-left) right, down
or diagonally down-right; blue (bottom-right) left, up or diagonally
up-left. Whatever stands on that square is taken, the mover's own pieces
included. A side wins by reaching the far corner (red E1, blue A5) or by
taking the opponent's last piece; the game always ends that way, so the
rules decide every game that is played to its end. A side with a piece
always has a move (a piece short of the far corner can always step toward
it), so "no legal move" never ends a game here and nothing is left
``unsettled`` for the driver.

Moves come as the format reads them (formats/einstein.py): ``Move.to`` the
target square; ``Move.parts`` the die and the piece number (the standard's
``5;(R5,C3)``), or the die and None with ``Move.point`` the start square
(real writers' ``5;(B4,C3)``). The die is shown beside the board at every
move (a ``die`` counter) and said in the move's note.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator import diagnostics, scene
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.i18n import N_, Named
from generator.model import Decision, Move, Op, Ply, Record, Replay
from generator.rules.engine import SEATS, WRONG_SIDE, Engine, Message, OffBoard

NO_PIECE = diagnostics.define(
    "RULE-E601",
    "error",
    "Move of a piece that is not on the board (EinStein)",
    "The piece the move names was taken earlier, has no such number, or its start square is "
    "empty: check the move and the set-up lines.",
)
DIE_FORBIDS = diagnostics.define(
    "RULE-E602",
    "error",
    "Move of a piece the die did not allow (EinStein)",
    "The die names the piece that moves: its own number, or, once that piece is gone, the "
    "nearest lower or higher number still on the board. The message says which pieces the die allowed.",
)
BAD_STEP = diagnostics.define(
    "RULE-E603",
    "error",
    "Move that is not one step toward the opponent's corner (EinStein)",
    "A piece moves one square: red right, down or diagonally down-right; blue left, up or "
    "diagonally up-left. The message says where the piece could go.",
)
BAD_DIE = diagnostics.define(
    "RULE-E604",
    "error",
    "A die value that no die shows (EinStein)",
    "The die shows 1 to 6; check the number after the move number (1:5;…).",
)

RED, BLUE = "R", "B"
OTHER = {RED: BLUE, BLUE: RED}
COLOURS = {RED: "red", BLUE: "blue"}
SIZE = 5
CELLS = tuple(scene.grid_cell(i % SIZE, i // SIZE + 1) for i in range(SIZE * SIZE))  # index -> "A1" …
INDEX = {cell: i for i, cell in enumerate(CELLS)}
# Steps toward the opponent's corner, as (columns, rows): red goes to E1, blue to A5.
STEPS = {RED: ((1, 0), (0, -1), (1, -1)), BLUE: ((-1, 0), (0, 1), (-1, 1))}
TARGET = {RED: INDEX["E1"], BLUE: INDEX["A5"]}
STANDARD = {
    RED: (("A5", 1), ("B5", 2), ("C5", 3), ("A4", 4), ("B4", 5), ("A3", 6)),
    BLUE: (("E3", 1), ("D2", 2), ("E2", 3), ("C1", 4), ("D1", 5), ("E1", 6)),
}


def forward(side: str, at: int) -> list[int]:
    """The squares a piece of ``side`` on ``at`` may step to."""
    column, row = at % SIZE, at // SIZE
    out = []
    for dc, dr in STEPS[side]:
        c, r = column + dc, row + dr
        if 0 <= c < SIZE and 0 <= r < SIZE:
            out.append(r * SIZE + c)
    return out


def allowed(numbers: set[int] | frozenset[int], die: int) -> tuple[int, ...]:
    """The piece numbers a die lets move, of the numbers a side still has."""
    if die in numbers:
        return (die,)
    lower = max((n for n in numbers if n < die), default=None)
    higher = min((n for n in numbers if n > die), default=None)
    return tuple(n for n in (lower, higher) if n is not None)


def parse_setup(line: str) -> list[tuple[str, int]]:
    """``R:A5-1;B5-2;…`` (as formats/einstein.py writes a record's set-up) as (square, number) pairs."""
    _, _, body = line.partition(":")
    pairs = []
    for item in body.split(";"):
        square, _, number = item.partition("-")
        if square in INDEX and number.isdigit():
            pairs.append((square, int(number)))
    return pairs


class EinsteinEngine(Engine):
    """One replay of one WTN game."""

    __slots__ = ("board", "numbers", "sides", "where")

    def __init__(
        self, game: GameType, options: Mapping[str, Any] | None = None,
        setup: Mapping[str, list[tuple[str, int]]] | None = None, first_letter: str | None = None,
    ) -> None:
        super().__init__(game, options)
        setup = setup or {side: list(STANDARD[side]) for side in (RED, BLUE)}
        self.board: list[tuple[str, int] | None] = [None] * (SIZE * SIZE)  # index -> (side, number)
        self.where: dict[tuple[str, int], int] = {}  # (side, number) -> index
        for side in (RED, BLUE):
            for square, n in setup.get(side) or STANDARD[side]:
                self.board[INDEX[square]] = (side, n)
                self.where[(side, n)] = INDEX[square]
        self.numbers = {side: {n for s, n in self.where if s == side} for side in (RED, BLUE)}
        first = BLUE if first_letter == BLUE else RED
        self.first_letter = first
        self.sides = (first, OTHER[first])  # seat -> side letter
        by_letter = {side.letter: side for side in (game.first, game.second)}
        self.letters = {letter: seat for seat, side in enumerate(self.sides) for letter in (side, side.lower())}
        self.colours = tuple(COLOURS[side] for side in self.sides)
        self.names: tuple[Named, ...] = tuple(by_letter[side].name for side in self.sides)

    def setup(self) -> list[Op]:
        return [
            scene.add(f"{side}{n}", f"n{n}", COLOURS[side], CELLS[at])
            for (side, n), at in sorted(self.where.items(), key=lambda item: item[1])
        ]

    def read(self, move: Move) -> Any:
        if move.to is None or len(move.parts) != 2:
            return None
        to = INDEX.get(f"{move.to[0]}{move.to[1]}")
        if to is None:
            return OffBoard(f"{move.to[0]}{move.to[1]}")
        if move.point is None:
            return None, to
        start = INDEX.get(f"{move.point[0]}{move.point[1]}")
        if start is None:
            return OffBoard(f"{move.point[0]}{move.point[1]}")
        return start, to

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        side = self.sides[seat]
        die, piece = move.parts
        start, to = at
        if start is None:
            start = self.where.get((side, piece))
            if start is None:
                return self.error(NO_PIECE, move, number, N_("move {number}, {move}: {side} has no piece {piece} on the board"), {
                    "side": self.names[seat], "piece": piece,
                })
        else:
            standing = self.board[start]
            if standing is None:
                template = N_("move {number}, {move}: there is no piece on {cell}")
                return self.error(NO_PIECE, move, number, template, {"cell": CELLS[start]})
            if standing[0] != side:
                return self.error(WRONG_SIDE, move, number, N_(
                    "move {number}, {move}: {cell} holds {owner}'s piece {piece}, but it is {side}'s turn"
                ), {"cell": CELLS[start], "owner": self.names[1 - seat], "piece": standing[1], "side": self.names[seat]})
            piece = standing[1]
        if die is not None:
            problem = self._die(move, number, seat, die, piece)
            if problem is not None:
                return problem
        targets = forward(side, start)
        if to not in targets:
            return self.error(BAD_STEP, move, number, N_(
                "move {number}, {move}: {side}'s piece {piece} cannot go from {start} to {to}; it may go to {cells}"
            ), {"side": self.names[seat], "piece": piece, "start": CELLS[start], "to": CELLS[to],
                "cells": " ".join(CELLS[t] for t in targets) or "-"})
        return self._apply(move, number, seat, side, piece, die, start, to)

    def _die(self, move: Move, number: int, seat: int, die: int, piece: int) -> Diagnostic | None:
        if not 1 <= die <= 6:
            template = N_("move {number}, {move}: the die shows {die}, but a die shows 1 to 6")
            return self.error(BAD_DIE, move, number, template, {"die": die})
        may = allowed(self.numbers[self.sides[seat]], die)
        if piece in may:
            return None
        if may == (die,):
            template = N_("move {number}, {move}: the die shows {die}, so {side} must move piece {die}, not piece {piece}")
        else:
            template = N_(
                "move {number}, {move}: the die shows {die} and piece {die} is gone, so {side} may move only "
                "piece {pieces}, not piece {piece}"
            )
        return self.error(DIE_FORBIDS, move, number, template, {
            "die": die, "side": self.names[seat], "piece": piece, "pieces": " / ".join(str(n) for n in may),
        })

    def _apply(self, move: Move, number: int, seat: int, side: str, piece: int, die: int | None,
               start: int, to: int) -> Ply:
        ops: list[Op] = [scene.counter("die", die or 0)]
        if die is None:
            ops.append(scene.note(N_("no die given: {side} moves piece {piece}"), side=SEATS[seat], piece=piece))
        elif die == piece:
            ops.append(scene.note(N_("die {die}: {side} moves piece {piece}"), die=die, side=SEATS[seat], piece=piece))
        else:
            ops.append(scene.note(
                N_("die {die}: piece {die} is gone; {side} moves piece {piece}"), die=die, side=SEATS[seat], piece=piece
            ))
        taken = self.board[to]
        if taken is not None:
            ops.append(scene.remove(f"{taken[0]}{taken[1]}"))
            del self.where[taken]
            self.numbers[taken[0]].discard(taken[1])
            owner = SEATS[seat] if taken[0] == side else SEATS[1 - seat]
            ops.append(scene.note(N_("{owner}'s piece {taken} is taken"), owner=owner, taken=taken[1]))
        ops += [scene.move(f"{side}{piece}", CELLS[to]), scene.mark(CELLS[start], "from"), scene.mark(CELLS[to], "moved")]
        self.board[start], self.board[to] = None, (side, piece)
        self.where[(side, piece)] = to
        winner = SEATS[seat]
        if to == TARGET[side]:
            ops.append(scene.note(N_("{winner} reaches the far corner {cell} and wins"), winner=winner, cell=CELLS[to]))
            ops.append(scene.mark(CELLS[to], "win"))
            self.decision = Decision(winner, "corner", number, (CELLS[to],), reason=N_("a piece reached the far corner"))
        elif not self.numbers[OTHER[side]]:
            ops.append(scene.note(N_("{loser} has no pieces left: {winner} wins"), loser=SEATS[1 - seat], winner=winner))
            self.decision = Decision(winner, "no-pieces", number, (), reason=N_("all the opponent's pieces captured"))
        self.turn = 1 - seat
        # The die, the piece and its step (6: R6 B2-C3, x where it takes), as players say a move; the record's text on hover.
        label = f"{die if die is not None else '?'}: {side}{piece} {CELLS[start]}{'x' if taken else '-'}{CELLS[to]}"
        return self.ply(move, number, seat, ops, label=label, alt=move.text)

    def seat_of(self, letter: str) -> int | None:
        return self.letters.get(letter.strip().upper())

    def ended(self) -> Message:
        decision = self.decision
        if decision is not None and decision.rule == "corner":
            return N_(
                "move {number}, {move}: the game was already over at move {end}: a piece had reached the far "
                "corner {cell}; no move may follow"
            ), {"end": decision.ply, "cell": decision.cells[0]}
        return N_(
            "move {number}, {move}: the game was already over at move {end}: {loser} had no pieces left; "
            "no move may follow"
        ), {"end": decision.ply if decision else 0, "loser": self.names[self.turn]}

    def off_board(self, move: Move, point: Any) -> Message:
        return N_("move {number}, {move}: {point} is off the board (columns A-E, rows 1-5)"), {"point": str(point)}


def _setup_of(record: Record) -> dict[str, list[tuple[str, int]]]:
    setup: dict[str, list[tuple[str, int]]] = {}
    for line in record.setup or ():
        side = line[:1]
        if side in (RED, BLUE):
            setup[side] = parse_setup(line)
    return setup


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay one WTN game; stop at the first illegal move. The first mover is the first move's side."""
    first = record.moves[0].side.strip().upper() if record.moves else None
    first_letter = first if first in (RED, BLUE) else None
    return EinsteinEngine(game, options, _setup_of(record), first_letter).replay(record)

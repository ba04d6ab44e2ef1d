"""Xiangqi (Chinese chess) engine, Asian rules as commonly played.

The board is 9 columns by 10 rows of points. Cells are named as the CCGC
standard writes them: the column letter A-J without I (A on red's left), then
the row 0-9 counted from red's side, so ``E0`` is red's general and ``E9``
black's. Inside, cell index = row * 9 + column.

The rules replayed: every piece's moves, the horse's leg and the elephant's
eye blocking, the river (elephants stay home; soldiers step sideways only
once across), the palaces (general and advisors stay in), the flying-general
rule (the two generals may not face each other on an open file), and no move
that leaves one's own general attacked. A player with no legal move has lost:
checkmate and stalemate alike. Repetition rulings (perpetual check, chasing)
are out of scope: the declared result stands, and the first position that
stands for the third time gets a note.

A move in Chinese notation (``炮二平五``, ``前马进七``) names the piece by its
file or its place on a file, so it is resolved here, against the position;
every ply is labelled in Chinese notation, whatever the record wrote, with
the CCGC coordinates as its other notation (``Ply.alt``: shown on hover in the
move list).

Whether the side to move has a move left is asked once per replay, in
:meth:`XiangqiEngine.settle` (see the driver): the next move of the record
answers it otherwise. A move is checked by look-ups (:meth:`Position.reaches`,
and an attack test from each general only where the move starts or ends on
a point that can change an attack on it: see :data:`NEAR`);
:meth:`Position.judge` words why a move is illegal, and is asked only then.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from operator import itemgetter
from typing import Any, NamedTuple

from generator import diagnostics, scene
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.i18n import N_, T, Term
from generator.model import Decision, Move, Op, Ply, Record, Replay
from generator.rules.engine import SEATS, Engine, Message

NO_PIECE = diagnostics.define(
    "RULE-E501",
    "error",
    "Move of a piece that is not there, or not the mover's (xiangqi)",
    "The start point of the move is empty or holds the other side's piece: check the "
    "coordinates (columns A-J without I, rows 0-9 from red's side) and the order of the moves.",
)
BAD_SHAPE = diagnostics.define(
    "RULE-E502",
    "error",
    "A piece moved in a way it cannot move (xiangqi)",
    "The message names the piece and how it moves; check the start and end points.",
)
BLOCKED = diagnostics.define(
    "RULE-E503",
    "error",
    "The way is blocked: a horse's leg, an elephant's eye, a line, or a cannon's screen (xiangqi)",
    "The message names the point that blocks the move; check the move and the moves before it.",
)
CONFINED = diagnostics.define(
    "RULE-E504",
    "error",
    "A piece left its area: the palace or its side of the river (xiangqi)",
    "The general and the advisors stay in the palace; the elephants never cross the river.",
)
OWN_PIECE = diagnostics.define(
    "RULE-E505",
    "error",
    "Move onto a point held by the mover's own piece (xiangqi)",
    "A piece cannot capture a piece of its own side; check the end point of the move.",
)
SELF_CHECK = diagnostics.define(
    "RULE-E506",
    "error",
    "The move leaves the mover's own general in check (xiangqi)",
    "No move may leave one's own general attacked; the message names the piece that attacks it.",
)
FLYING = diagnostics.define(
    "RULE-E507",
    "error",
    "The move leaves the two generals facing each other on an open file (xiangqi)",
    "The generals may never see each other along a file with no piece between them.",
)
NOTATION = diagnostics.define(
    "RULE-E508",
    "error",
    "A move in Chinese notation names no piece, or more than one (xiangqi)",
    "Chinese notation names the piece by its file (炮二平五) or its place on the file "
    "(前马进七); the message says which pieces stand on that file.",
)
AMBIGUOUS = diagnostics.define(
    "RULE-W501",
    "warning",
    "A move in Chinese notation fits two pieces on one file; read as the only one that can move so (xiangqi)",
    "Write 前 or 后 (front or back) instead of the file number when two such pieces stand on one file.",
)
BAD_FEN = diagnostics.define(
    "RULE-W502",
    "warning",
    "The FEN set-up cannot be read; the standard start position is used (xiangqi)",
    "Write the FEN as ten ranks from black's side, separated by /, with the letters "
    "K A B N R C P (E and H accepted), upper case for red, digits for empty points.",
)
REPETITION = diagnostics.define(
    "RULE-N501",
    "note",
    "Repetition: the same position stands for the third time (xiangqi)",
    "Nothing to do; the declared result stands. Where the event's rules end repeated "
    "play (perpetual check or chase), the referee can use this to judge the game.",
)

COLUMNS = "ABCDEFGHJ"
WIDTH, HEIGHT = 9, 10
CELLS: tuple[str, ...] = tuple(f"{COLUMNS[i % WIDTH]}{i // WIDTH}" for i in range(WIDTH * HEIGHT))
INDEX: dict[str, int] = {cell: i for i, cell in enumerate(CELLS)}

# Pieces: side * 8 + kind; 0 is an empty point. Red is side 0 (moves first), black 1.
KING, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER = range(1, 8)
LETTERS = "?KABNRCP"
KIND_OF_LETTER = {letter: k for k, letter in enumerate(LETTERS) if k}
# The scene's piece kinds (the board's symbols), and words for messages.
KINDS = ("", "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier")
WORDS: tuple[Term, ...] = (
    T("piece"), T("general"), T("advisor"), T("elephant"), T("horse"), T("chariot"), T("cannon"), T("soldier")
)
# Chinese notation: the characters of each side's pieces, and its numerals
# (red writes files and steps in Chinese numerals, black in full-width digits).
CHARACTERS = ("?帅仕相马车炮兵", "?将士象马车炮卒")
NUMERALS = ("?一二三四五六七八九", "?１２３４５６７８９")
ACTIONS = {1: "进", -1: "退", 0: "平"}
STRAIGHT = frozenset((KING, CHARIOT, CANNON, SOLDIER))
FEN_LETTERS = {**KIND_OF_LETTER, "E": ELEPHANT, "H": HORSE}
HORSE_ROWS = {1: 2, 2: 1}  # a horse's move across 1 or 2 columns: the rows it goes

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
# Chinese notation of a move whose piece has no twin on its file, by piece, start and target
# (a few thousand at most): see Position.notation.
LABELS: dict[int, str] = {}
# The check note of a ply, which settle() turns into the checkmate note where no move is left.
CHECK_NOTE = N_("{side} is in check")

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
# A horse's move (rows, columns) and its leg, the point next to it that must be empty.
HORSE_STEPS = tuple(
    ((dr, dc), (dr // 2, 0) if abs(dr) == 2 else (0, dc // 2))
    for dr, dc in ((2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2))
)


def in_palace(side: int, row: int, col: int) -> bool:
    return 3 <= col <= 5 and (row <= 2 if side == 0 else row >= 7)


def own_half(side: int, row: int) -> bool:
    return row <= 4 if side == 0 else row >= 5


def forward(side: int) -> int:
    return 1 if side == 0 else -1


def _on(r: int, c: int) -> bool:
    return 0 <= r < HEIGHT and 0 <= c < WIDTH


def _tables() -> tuple[Any, ...]:
    """Per point, what the pieces can reach from it, worked out once: the replay's inner loops only look up."""
    rays, horse_moves, horse_attacks = [], [], []
    elephants: tuple[list[Any], list[Any]] = ([], [])
    steps: dict[int, tuple[list[Any], list[Any]]] = {k: ([], []) for k in (KING, ADVISOR, SOLDIER)}
    soldier_attacks: tuple[list[Any], list[Any]] = ([], [])
    for i in range(WIDTH * HEIGHT):
        row, col = divmod(i, WIDTH)
        ray_list = []
        for dr, dc in ORTHOGONAL:
            ray, r, c = [], row + dr, col + dc
            while _on(r, c):
                ray.append(r * WIDTH + c)
                r, c = r + dr, c + dc
            ray_list.append(tuple(ray))
        rays.append(tuple(ray_list))
        moves, attacks = [], []
        for (dr, dc), (lr, lc) in HORSE_STEPS:
            if _on(row + dr, col + dc):
                moves.append(((row + dr) * WIDTH + col + dc, (row + lr) * WIDTH + col + lc))
            # A horse standing at i - step reaches i through its leg, next to the horse.
            r, c = row - dr, col - dc
            if _on(r, c):
                attacks.append((r * WIDTH + c, (r + lr) * WIDTH + c + lc))
        horse_moves.append(tuple(moves))
        horse_attacks.append(tuple(attacks))
        for side in (0, 1):
            elephants[side].append(tuple(
                ((row + 2 * dr) * WIDTH + col + 2 * dc, (row + dr) * WIDTH + col + dc)
                for dr, dc in DIAGONAL
                if _on(row + 2 * dr, col + 2 * dc) and own_half(side, row + 2 * dr)
            ))
            steps[KING][side].append(tuple(
                (row + dr) * WIDTH + col + dc for dr, dc in ORTHOGONAL
                if _on(row + dr, col + dc) and in_palace(side, row + dr, col + dc)
            ))
            steps[ADVISOR][side].append(tuple(
                (row + dr) * WIDTH + col + dc for dr, dc in DIAGONAL
                if _on(row + dr, col + dc) and in_palace(side, row + dr, col + dc)
            ))
            ahead = [(forward(side), 0)] + ([] if own_half(side, row) else [(0, 1), (0, -1)])
            steps[SOLDIER][side].append(tuple(
                (row + dr) * WIDTH + col + dc for dr, dc in ahead if _on(row + dr, col + dc)
            ))
            # Where a soldier of ``side`` would attack i from: behind it, or beside it across the river.
            found = [(row - forward(side)) * WIDTH + col] if _on(row - forward(side), col) else []
            if not own_half(side, row):
                found += [row * WIDTH + c for c in (col - 1, col + 1) if _on(row, c)]
            soldier_attacks[side].append(tuple(found))
    frozen = {k: (tuple(a), tuple(b)) for k, (a, b) in steps.items()}
    return (
        tuple(rays), tuple(horse_moves), tuple(horse_attacks), (tuple(elephants[0]), tuple(elephants[1])),
        frozen, (tuple(soldier_attacks[0]), tuple(soldier_attacks[1])),
    )


RAYS, HORSE_MOVES, HORSE_ATTACKS, ELEPHANT_MOVES, STEPS, SOLDIER_ATTACKS = _tables()


def _reach_tables() -> tuple[Any, ...]:
    """Per (start, target) pair, index ``start * 90 + target``: what one move needs, so that checking
    the move the record names costs look-ups, not the piece's whole list of moves.

    ``lines``: the points strictly between two points of one row or file, as a slice of the cells
    (None off a line); ``legs``: a horse's leg (-1: no horse move); ``eyes``: per side, an
    elephant's eye (-1: no elephant move, or one across the river).
    """
    size = WIDTH * HEIGHT
    lines: list[slice | None] = [None] * (size * size)
    legs = [-1] * (size * size)
    eyes = ([-1] * (size * size), [-1] * (size * size))
    for start in range(size):
        row, col = divmod(start, WIDTH)
        for target in range(size):
            r, c = divmod(target, WIDTH)
            low, high = min(start, target), max(start, target)
            if r == row and c != col:
                lines[start * size + target] = slice(low + 1, high, 1)
            elif c == col and r != row:
                lines[start * size + target] = slice(low + WIDTH, high, WIDTH)
        for target, leg in HORSE_MOVES[start]:
            legs[start * size + target] = leg
        for side in (0, 1):
            for target, eye in ELEPHANT_MOVES[side][start]:
                eyes[side][start * size + target] = eye
    return tuple(lines), tuple(legs), (tuple(eyes[0]), tuple(eyes[1]))


LINES, HORSE_LEGS, ELEPHANT_EYES = _reach_tables()
# The points a horse attacks a point from, fetched in one call (at least two on any point), to
# look for a horse among them before looking at the legs.
HORSE_SOURCES = tuple(itemgetter(*(at for at, _ in attacks)) for attacks in HORSE_ATTACKS)


def _near_tables() -> tuple[bytes, ...]:
    """Per general's point, a flag per point: 1 where a move that starts or ends there may change
    whether that general is attacked.

    Those are the general's row and file (a line opened or closed, a cannon's screen added or
    taken away, the generals' facing) and the points diagonally next to it (a horse's leg). A move
    of another piece that neither starts nor ends on one of them leaves every attack on the general
    as it was, but the moved piece's own (a horse's, see :meth:`XiangqiEngine._gives_check`): so
    most moves are let through without a walk of the rays in :meth:`Position.attacker`.
    """
    tables = []
    for king in range(WIDTH * HEIGHT):
        row, col = divmod(king, WIDTH)
        flags = bytearray(WIDTH * HEIGHT)
        for point in range(WIDTH * HEIGHT):
            r, c = divmod(point, WIDTH)
            if r == row or c == col or (abs(r - row) == 1 and abs(c - col) == 1):
                flags[point] = 1
        tables.append(bytes(flags))
    return tuple(tables)


NEAR = _near_tables()


def parse_fen(board_text: str) -> bytearray | None:
    """The cells of a FEN board (ten ranks from black's side), or None if it is not one with a general each."""
    ranks = board_text.split("/")
    if len(ranks) != HEIGHT:
        return None
    cells = bytearray(WIDTH * HEIGHT)
    for n, rank in enumerate(ranks):
        row = HEIGHT - 1 - n
        col = 0
        for ch in rank:
            if "0" <= ch <= "9":
                col += int(ch)
                continue
            kind = FEN_LETTERS.get(ch.upper())
            if kind is None or col >= WIDTH:
                return None
            cells[row * WIDTH + col] = kind | (0 if ch.isupper() else 8)
            col += 1
        if col != WIDTH:
            return None
    if cells.count(KING) != 1 or cells.count(KING | 8) != 1:
        return None
    return cells


def _start() -> bytes:
    cells = parse_fen(START_FEN)
    assert cells is not None
    return bytes(cells)


START_CELLS = _start()  # the standard start position, read once


def start_position() -> Position:
    """The standard start position, a fresh copy."""
    return Position(bytearray(START_CELLS))


# -- the position -----------------------------------------------------------------


class Position:
    """The pieces on the board, where each general stands, and the moves the rules allow."""

    __slots__ = ("cells", "kings")

    def __init__(self, cells: bytearray) -> None:
        self.cells = cells
        self.kings = [cells.index(KING), cells.index(KING | 8)]

    # -- attacks --------------------------------------------------------------

    def facing(self) -> bool:
        """Whether the two generals stand on one file with nothing between them."""
        a, b = self.kings
        if a % WIDTH != b % WIDTH:
            return False
        low, high = min(a, b), max(a, b)
        return not any(self.cells[low + WIDTH : high : WIDTH])

    def attacker(self, target: int, by: int) -> int:
        """A point from which a piece of side ``by`` attacks ``target``, or -1 (the generals' facing aside)."""
        cells = self.cells
        base = by << 3
        chariot, cannon = base | CHARIOT, base | CANNON
        # Walk the rays only when a chariot or cannon stands on the row or the file at all: the
        # membership tests run in C, the walk in Python, and most of the time there is none.
        row = target - target % WIDTH
        on_row, on_file = cells[row : row + WIDTH], cells[target % WIDTH :: WIDTH]
        if chariot in on_row or cannon in on_row or chariot in on_file or cannon in on_file:
            for ray in RAYS[target]:
                screened = False
                for i in ray:
                    piece = cells[i]
                    if piece:
                        if screened:
                            if piece == cannon:
                                return i
                            break
                        if piece == chariot:
                            return i
                        screened = True
        horse = base | HORSE
        if horse in HORSE_SOURCES[target](cells):
            for at, leg in HORSE_ATTACKS[target]:
                if cells[at] == horse and not cells[leg]:
                    return at
        soldier = base | SOLDIER
        for at in SOLDIER_ATTACKS[by][target]:
            if cells[at] == soldier:
                return at
        return -1

    def in_check(self, side: int) -> bool:
        return self.facing() or self.attacker(self.kings[side], 1 - side) >= 0

    # -- moving -----------------------------------------------------------------

    def push(self, start: int, target: int) -> int:
        """Move the piece; the piece captured (0 for none), for :meth:`pop`."""
        cells = self.cells
        piece, taken = cells[start], cells[target]
        cells[target], cells[start] = piece, 0
        if piece & 7 == KING:
            self.kings[piece >> 3] = target
        return taken

    def pop(self, start: int, target: int, taken: int) -> None:
        cells = self.cells
        piece = cells[target]
        cells[start], cells[target] = piece, taken
        if piece & 7 == KING:
            self.kings[piece >> 3] = start

    def safe(self, side: int, start: int, target: int) -> bool:
        """Whether the move leaves the mover's general unattacked (generals not facing)."""
        taken = self.push(start, target)
        ok = not self.in_check(side)
        self.pop(start, target, taken)
        return ok

    def targets(self, start: int) -> list[int]:
        """Every point the piece on ``start`` may move to, leaving checks aside."""
        cells = self.cells
        piece = cells[start]
        side, kind = piece >> 3, piece & 7
        if kind == CHARIOT or kind == CANNON:
            out: list[int] = []
            for ray in RAYS[start]:
                screened = False
                for i in ray:
                    other = cells[i]
                    if not screened:
                        if not other:
                            out.append(i)
                            continue
                        if kind == CHARIOT:
                            if other >> 3 != side:
                                out.append(i)
                            break
                        screened = True
                    elif other:
                        if other >> 3 != side:
                            out.append(i)
                        break
            return out
        if kind == HORSE or kind == ELEPHANT:
            steps = HORSE_MOVES[start] if kind == HORSE else ELEPHANT_MOVES[side][start]
            return [t for t, block in steps if not cells[block] and (not cells[t] or cells[t] >> 3 != side)]
        table = STEPS[kind][side][start]
        return [t for t in table if not cells[t] or cells[t] >> 3 != side]

    def reaches(self, side: int, kind: int, start: int, target: int) -> bool:
        """Whether a piece of ``side`` and ``kind`` on ``start`` can move to ``target``, leaving checks
        aside; ``target`` is known not to hold the mover's own piece. The same answer as
        ``target in self.targets(start)``, by a few look-ups."""
        cells = self.cells
        k = start * (WIDTH * HEIGHT) + target
        if kind == CHARIOT or kind == CANNON:
            line = LINES[k]
            if line is None:
                return False
            between = cells[line]
            pieces = len(between) - between.count(0)
            # A chariot's way must be clear; a cannon moves so too, or captures over one screen.
            return pieces == 0 if kind == CHARIOT or not cells[target] else pieces == 1
        if kind == HORSE:
            leg = HORSE_LEGS[k]
            return leg >= 0 and not cells[leg]
        if kind == ELEPHANT:
            eye = ELEPHANT_EYES[side][k]
            return eye >= 0 and not cells[eye]
        return target in STEPS[kind][side][start]

    def _legal(self, side: int) -> Iterator[tuple[int, int]]:
        cells = self.cells
        for start in range(WIDTH * HEIGHT):
            piece = cells[start]
            if piece and piece >> 3 == side:
                for target in self.targets(start):
                    if self.safe(side, start, target):
                        yield start, target

    def has_move(self, side: int) -> bool:
        """Whether ``side`` has a legal move."""
        return next(self._legal(side), None) is not None

    def legal_moves(self, side: int) -> list[tuple[int, int]]:
        """Every legal move of ``side`` as (start, target)."""
        return list(self._legal(side))

    # -- why a move is illegal --------------------------------------------------

    def judge(self, side: int, start: int, target: int) -> tuple[str, str, dict[str, Any]] | None:
        """None if ``side`` may move the piece on ``start`` to ``target``, else (code, template, args)."""
        cells = self.cells
        a, b = CELLS[start], CELLS[target]
        piece = cells[start]
        if piece == 0:
            return NO_PIECE, N_("move {number}, {move}: there is no piece at {a}"), {"a": a}
        kind = piece & 7
        args: dict[str, Any] = {"a": a, "b": b, "piece": WORDS[kind]}
        if piece >> 3 != side:
            return NO_PIECE, N_("move {number}, {move}: the {piece} at {a} is the other side's"), args
        if start == target:
            return BAD_SHAPE, N_("move {number}, {move}: the move starts and ends at {a}"), args
        other = cells[target]
        if other and other >> 3 == side:
            return OWN_PIECE, N_("move {number}, {move}: {b} holds the mover's own {other}"), {
                **args, "other": WORDS[other & 7]
            }
        if not self.reaches(side, kind, start, target):
            return self._why_not(side, kind, start, target, args)
        taken = self.push(start, target)
        try:
            if self.facing():
                return FLYING, N_(
                    "move {number}, {move}: the generals would face each other on file {file} with no piece between"
                ), {**args, "file": COLUMNS[self.kings[0] % WIDTH]}
            found = self.attacker(self.kings[side], 1 - side)
        finally:
            self.pop(start, target, taken)
        if found >= 0:
            args |= {"attacker": WORDS[cells[found] & 7], "at": CELLS[found]}
            if self.attacker(self.kings[side], 1 - side) >= 0 or self.facing():
                return SELF_CHECK, N_(
                    "move {number}, {move}: the general is in check and the move does not answer it: "
                    "the {attacker} at {at} still attacks it"
                ), args
            return SELF_CHECK, N_(
                "move {number}, {move}: the move leaves the mover's general in check by the {attacker} at {at}"
            ), args
        return None

    def _why_not(self, side: int, kind: int, start: int, target: int, args: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
        """Why a move the piece cannot make is illegal, for an organiser."""
        cells = self.cells
        (r1, c1), (r2, c2) = divmod(start, WIDTH), divmod(target, WIDTH)
        dr, dc = r2 - r1, c2 - c1
        if kind == KING:
            if abs(dr) + abs(dc) != 1:
                return BAD_SHAPE, N_("move {number}, {move}: the general moves one point along a line, not {a} to {b}"), args
            return CONFINED, N_("move {number}, {move}: the general may not leave the palace ({b} is outside it)"), args
        if kind == ADVISOR:
            if abs(dr) != 1 or abs(dc) != 1:
                return BAD_SHAPE, N_("move {number}, {move}: the advisor moves one point diagonally, not {a} to {b}"), args
            return CONFINED, N_("move {number}, {move}: the advisor may not leave the palace ({b} is outside it)"), args
        if kind == ELEPHANT:
            if abs(dr) != 2 or abs(dc) != 2:
                return BAD_SHAPE, N_("move {number}, {move}: the elephant moves two points diagonally, not {a} to {b}"), args
            if not own_half(side, r2):
                return CONFINED, N_("move {number}, {move}: the elephant may not cross the river ({b} is across it)"), args
            eye = (r1 + dr // 2) * WIDTH + c1 + dc // 2
            return BLOCKED, N_("move {number}, {move}: the elephant's eye at {at} is blocked"), {**args, "at": CELLS[eye]}
        if kind == HORSE:
            if sorted((abs(dr), abs(dc))) != [1, 2]:
                return BAD_SHAPE, N_(
                    "move {number}, {move}: the horse moves one point straight and one diagonally, not {a} to {b}"
                ), args
            leg = (r1 + dr // 2) * WIDTH + c1 if abs(dr) == 2 else r1 * WIDTH + c1 + dc // 2
            return BLOCKED, N_("move {number}, {move}: the horse's leg at {at} is blocked"), {**args, "at": CELLS[leg]}
        if kind == SOLDIER:
            if dr == -forward(side) or abs(dr) + abs(dc) != 1:
                return BAD_SHAPE, N_(
                    "move {number}, {move}: the soldier moves one point forward (sideways once across the river, "
                    "never back), not {a} to {b}"
                ), args
            return CONFINED, N_("move {number}, {move}: the soldier moves sideways only after crossing the river"), args
        # Chariot and cannon.
        if dr and dc:
            return BAD_SHAPE, N_("move {number}, {move}: the {piece} moves along a line, not {a} to {b}"), args
        step = (1 if dr > 0 else -1 if dr < 0 else 0) * WIDTH + (1 if dc > 0 else -1 if dc < 0 else 0)
        between = [i for i in range(start + step, target, step) if cells[i]]
        if kind == CHARIOT or not cells[target]:
            return BLOCKED, N_("move {number}, {move}: the way from {a} to {b} is blocked at {at}"), {
                **args, "at": CELLS[between[0]]
            }
        if not between:
            return BLOCKED, N_(
                "move {number}, {move}: a cannon captures by jumping exactly one piece, and there is none between {a} and {b}"
            ), args
        return BLOCKED, N_(
            "move {number}, {move}: a cannon captures by jumping exactly one piece, and there are {count} "
            "between {a} and {b} ({cells})"
        ), {**args, "count": len(between), "cells": ", ".join(CELLS[i] for i in between)}

    # -- Chinese notation -------------------------------------------------------

    def file_name(self, side: int, col: int) -> str:
        """A file as the side names it: red counts 一-九 from its right, black １-９ from its own right."""
        return NUMERALS[side][WIDTH - col if side == 0 else col + 1]

    def notation(self, start: int, target: int) -> str:
        """The move in Chinese notation, before it is played: 炮二平五, 马８进７, 前车退三."""
        cells = self.cells
        piece = cells[start]
        kind = piece & 7
        if kind != ADVISOR and kind != ELEPHANT and cells[start % WIDTH :: WIDTH].count(piece) > 1:
            return self._notation(start, target)  # 前/后: the other pieces on the file say which
        # Otherwise the piece and its two points say it all: worked out once per process.
        key = (piece << 14) | (start << 7) | target
        label = LABELS.get(key)
        if label is None:
            label = LABELS[key] = self._notation(start, target)
        return label

    def _notation(self, start: int, target: int) -> str:
        cells = self.cells
        piece = cells[start]
        side, kind = piece >> 3, piece & 7
        (r1, c1), (r2, c2) = divmod(start, WIDTH), divmod(target, WIDTH)
        char = CHARACTERS[side][kind]
        head = char + self.file_name(side, c1)
        if kind != ADVISOR and kind != ELEPHANT and cells[c1::WIDTH].count(piece) > 1:
            same = [r for r in range(HEIGHT) if cells[r * WIDTH + c1] == piece]
            if len(same) > 1:
                # Front first: red's front is the higher row.
                same.sort(reverse=side == 0)
                place = same.index(r1)
                if len(same) == 2:
                    head = ("前", "后")[place] + char
                elif len(same) == 3:
                    head = ("前", "中", "后")[place] + char
                else:
                    head = "一二三四五"[place] + char
                if len(same) <= 3 and len(self.crowded(side, piece)) > 1:
                    # Soldiers doubled on two files: 前兵 alone would name two, so the file is written too
                    # (前兵三进一), the traditional form; the reader also takes 前三进一 and the
                    # computer standard's 一兵/二兵 (see resolve()).
                    head += self.file_name(side, c1)
        ahead = (r2 - r1) * forward(side)
        if ahead == 0:
            return f"{head}平{self.file_name(side, c2)}"
        action = ACTIONS[1 if ahead > 0 else -1]
        if kind in STRAIGHT:
            return f"{head}{action}{NUMERALS[side][abs(ahead)]}"
        return f"{head}{action}{self.file_name(side, c2)}"

    def crowded(self, side: int, piece: int) -> list[list[int]]:
        """The files holding two or more of ``piece``: each its points front first, the files right to left as
        ``side`` sees them (its file 1 first)."""
        cells = self.cells
        files = []
        for col in range(WIDTH):
            if cells[col::WIDTH].count(piece) > 1:
                points = [i for i in range(col, WIDTH * HEIGHT, WIDTH) if cells[i] == piece]
                files.append(sorted(points, reverse=side == 0))  # red's front is the higher row
        return files if side == 1 else files[::-1]  # red's file 一 is column J, black's １ column A

    def resolve(self, side: int, code: str) -> tuple[int, int] | tuple[str, str, dict[str, Any]]:
        """A canonical Chinese move (``"C2=5"``, see formats/pgn.py) as (start, target), or why it names no move.

        A file number with two such pieces on it reads as the one that can
        make the move (a warning the caller gives), as organisers read it.
        Where several pieces of a kind share files: ``f``/``m``/``b``
        (前/中/后) name one by its place on the one file that has several, or
        on the file written after it (``"Pf3+1"``, 前兵三进一); ``#n`` (一兵,
        二兵 ...) counts them as the computer standard of xqbase.com does:
        file by file from the mover's right, front to back on each.
        """
        kind, where, file, action, number = _CODES.get(code) or _split(code)
        piece = (side << 3) | kind
        args: dict[str, Any] = {"piece": WORDS[kind]}
        if file is not None:
            col = self._column(side, file)
            candidates = self._on_file(piece, col)
            if not candidates:
                return NOTATION, N_("move {number}, {move}: there is no {piece} of the mover's on file {file}"), {
                    **args, "file": self.file_name(side, col)
                }
        else:
            found_one = self._named(side, piece, where, args)
            if isinstance(found_one, tuple):
                return found_one
            candidates = [found_one]
        found = [(s, t) for s in candidates if (t := self._target(side, kind, s, action, number)) is not None]
        if not found:
            if kind not in STRAIGHT and action == "=":
                return BAD_SHAPE, N_("move {number}, {move}: the {piece} cannot move sideways (平)"), args
            return BAD_SHAPE, N_("move {number}, {move}: the {piece} cannot make this move from where it stands"), args
        if len(found) == 1:
            return found[0]
        legal = [(s, t) for s, t in found if self.judge(side, s, t) is None]
        if len(legal) == 1:
            return legal[0]
        return NOTATION, N_(
            "move {number}, {move}: two {piece}s stand on this file and both could move so; write 前 or 后"
        ), args

    def _named(self, side: int, piece: int, where: str, args: dict[str, Any]) -> int | tuple[str, str, dict[str, Any]]:
        """The point of the piece 前/中/后 (``where`` f, m, b, maybe with its file) or 一/二/三 (``#n``) names."""
        crowded = self.crowded(side, piece)
        if not crowded:
            return NOTATION, N_(
                "move {number}, {move}: 前/后/中 names one of two {piece}s on one file, and no file has two"
            ), args
        if where[0] == "#":
            ordinal = int(where[1:])
            every = [point for group in crowded for point in group]
            if ordinal > len(every):
                return NOTATION, N_(
                    "move {number}, {move}: this names {piece} number {ordinal} of those that share files, and there are {count}"
                ), {**args, "ordinal": ordinal, "count": len(every)}
            return every[ordinal - 1]
        place, file = where[0], where[1:]
        if file:
            col = self._column(side, int(file))
            group = next((g for g in crowded if g[0] % WIDTH == col), None)
            if group is None:
                return NOTATION, N_(
                    "move {number}, {move}: 前/后/中 names one of the {piece}s on file {file}, and that file has fewer than two"
                ), {**args, "file": self.file_name(side, col)}
        elif len(crowded) > 1:
            return NOTATION, N_(
                "move {number}, {move}: 前/后/中 is ambiguous: two files have more than one {piece}; write the file too "
                "(前兵三进一)"
            ), args
        else:
            group = crowded[0]
        index = {"f": 0, "b": len(group) - 1, "m": 1 if len(group) == 3 else -1}[place]
        if index < 0:
            return NOTATION, N_("move {number}, {move}: 中 names the middle one of three {piece}s on a file"), args
        return group[index]

    def _on_file(self, piece: int, col: int) -> list[int]:
        """The points of column ``col`` that hold ``piece``, from row 0 up: found by the bytes' own find."""
        on_file = self.cells[col::WIDTH]
        found = []
        row = on_file.find(piece)
        while row >= 0:
            found.append(row * WIDTH + col)
            row = on_file.find(piece, row + 1)
        return found

    def _column(self, side: int, file: int) -> int:
        return WIDTH - file if side == 0 else file - 1

    def _target(self, side: int, kind: int, start: int, action: str, number: int) -> int | None:
        """Where a piece on ``start`` goes by 进/退/平 and a number, or None if off the board or no such move."""
        row, col = divmod(start, WIDTH)
        ahead = 1 - 2 * side if action == "+" else 2 * side - 1  # forward(side), or back
        if kind in STRAIGHT:
            if action == "=":
                c = self._column(side, number)
                return row * WIDTH + c if c != col else None
            r = row + ahead * number
            return r * WIDTH + col if 0 <= r < HEIGHT else None
        if action == "=":
            return None
        c = self._column(side, number)
        across = abs(c - col)
        if kind == HORSE:
            rows = HORSE_ROWS.get(across)
        else:
            rows = 1 if kind == ADVISOR and across == 1 else 2 if kind == ELEPHANT and across == 2 else None
        if rows is None:
            return None
        r = row + ahead * rows
        return r * WIDTH + c if 0 <= r < HEIGHT else None


# -- the replay ------------------------------------------------------------------


class _Start(NamedTuple):
    """What a replay needs of its start position besides the board: the same for every record that
    starts there (nearly all start from the standard position), so worked out once (see _start_of())."""

    ids: tuple[str | None, ...]  # per point, the id of the piece on it: r1, r2 ... b1 ... in point order
    setup: tuple[tuple[str, ...], ...]  # the scene.add operations, as tuples
    in_check: tuple[bool, bool]  # per side, whether its general is attacked or the generals face


# (board, the seats' colours) -> its _Start.
_STARTS: dict[tuple[bytes, tuple[str, ...]], _Start] = {}


def _start_of(board: bytes, colours: tuple[str, ...]) -> _Start:
    """The _Start of a board (a start position) drawn in ``colours``, kept in ``_STARTS``."""
    counters = [0, 0]
    ids: list[str | None] = [None] * (WIDTH * HEIGHT)
    setup = []
    for i, piece in enumerate(board):
        if piece:
            side = piece >> 3
            counters[side] += 1
            ids[i] = piece_id = f"{'rb'[side]}{counters[side]}"
            setup.append(tuple(scene.add(piece_id, KINDS[piece & 7], colours[side], CELLS[i])))
    position = Position(bytearray(board))
    if len(_STARTS) >= 256:  # bounded: an archive of set-up problems has a start per record
        _STARTS.clear()
    known = _STARTS[board, colours] = _Start(tuple(ids), tuple(setup), (position.in_check(0), position.in_check(1)))
    return known


class XiangqiEngine(Engine):
    """The replay of one record from the standard start or the record's FEN."""

    __slots__ = ("checked", "exposed", "ids", "position", "seen", "start")

    def __init__(self, game: GameType, cells: bytearray, first_seat: int) -> None:
        super().__init__(game)
        self.position = Position(cells)
        self.turn = first_seat
        board = bytes(cells)
        self.start = _STARTS.get((board, self.colours)) or _start_of(board, self.colours)
        self.ids: list[str | None] = list(self.start.ids)
        # Whether the side to move is in check (attacked, or the generals facing), and whether the
        # other side's general stands attacked, which only a set-up can leave: see _exposes() and
        # _gives_check(), which test again only what a move can have changed.
        self.checked = self.start.in_check[first_seat]
        self.exposed = self.start.in_check[1 - first_seat]
        # Per side to move, the boards seen -> the plies after which they stood (0 = start).
        self.seen: tuple[dict[bytes, list[int]], dict[bytes, list[int]]] = ({}, {})
        self.seen[first_seat][board] = [0]

    def setup(self) -> list[Op]:
        return [list(op) for op in self.start.setup]  # fresh lists: a ply's ops may be changed later

    def read(self, move: Move) -> Any:
        point, to = move.point, move.to
        if point is not None and to is not None:
            start, target = POINTS.get(point), POINTS.get(to)
            if start is not None and target is not None and not move.parts:
                return start, target
            return self.locate(move, _index)  # the first point off the board
        if move.parts and isinstance(move.parts[0], str):
            return move.parts[0]
        return None

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        position = self.position
        cells = position.cells
        if at.__class__ is str:
            found = position.resolve(seat, at)
            if isinstance(found[0], str):
                code, template, args = found
                return self.error(code, move, number, template, args)
            start, target = found
            piece = cells[start]
            crowded = cells[start % WIDTH :: WIDTH].count(piece) > 1  # its twin on the file
            if at[1].isdigit() and crowded and piece & 7 not in (ADVISOR, ELEPHANT):
                self.found.append(self.error(AMBIGUOUS, move, number, N_(
                    "move {number}, {move}: two {piece}s stand on this file; read as the one at {a}, "
                    "the only one that can move so"
                ), {"piece": WORDS[piece & 7], "a": CELLS[start]}))
        else:
            start, target = at
        piece, taken = cells[start], cells[target]
        # The legal move, which nearly every move of a record is, by look-ups; judge() says why
        # another is not, and it alone words the diagnostics.
        if (
            not piece or piece >> 3 != seat or start == target or (taken and taken >> 3 == seat)
            or not position.reaches(seat, piece & 7, start, target)
        ):
            return self._refused(move, number, seat, start, target)
        label = position.notation(start, target)  # the position before the move names it
        position.push(start, target)
        if self._exposes(piece, start, target, seat):
            position.pop(start, target, taken)
            return self._refused(move, number, seat, start, target)
        other = 1 - seat
        # A legal move never leaves the generals facing: an attack is the only check left.
        self.checked = self._gives_check(piece, start, target, other)
        self.exposed = False
        # Whether ``other`` has a move left is settle()'s, asked only where the game may end.
        self.unsettled = True
        self.turn = other
        board = bytes(cells)
        stood = self.seen[other].get(board)
        if stood is None:
            self.seen[other][board] = [number]
        else:
            stood.append(number)
        return self._ply(move, number, seat, start, target, label)

    def _ply(self, move: Move, number: int, seat: int, start: int, target: int, label: str) -> Ply:
        """The ply of a legal move just played: its scene operations, and the pieces' ids moved along.

        The operations are written as the lists scene.remove/move/mark/note make, and the ply as
        Engine.ply makes it, without the calls: this runs once per move of every record.
        """
        ids = self.ids
        piece_id, taken_id = ids[start], ids[target]
        ids[target], ids[start] = piece_id, None
        to = CELLS[target]
        ops: list[Op] = [["move", piece_id, to], ["mark", CELLS[start], "from"], ["mark", to, "to"]]
        if taken_id is not None:
            ops.insert(0, ["remove", taken_id])
        if self.checked:
            other = 1 - seat
            ops.append(scene.note(CHECK_NOTE, side=SEATS[other]))
            ops.append(["mark", CELLS[self.position.kings[other]], "check"])
        return Ply(
            number, SEATS[seat], self.colours[seat], label, ops, move.mark, move.line, move.column,
            alt=CELLS[start] + to,
        )

    def _exposes(self, piece: int, start: int, target: int, seat: int) -> bool:
        """Whether the move just pushed leaves the mover's general attacked or facing the other.

        The full test only where the move could have changed that: the general moved, it was in
        check before, or the move starts or ends next to its lines (see :data:`NEAR`).
        """
        position = self.position
        king = position.kings[seat]
        near = NEAR[king]
        if not (self.checked or piece & 7 == KING or near[start] or near[target]):
            return False
        return position.facing() or position.attacker(king, 1 - seat) >= 0

    def _gives_check(self, piece: int, start: int, target: int, other: int) -> bool:
        """Whether the move just played leaves ``other``'s general attacked (facing aside).

        Before the move it was not (``other`` has just made a legal move), but perhaps in a
        set-up (:attr:`exposed`); otherwise only a move next to its lines (see :data:`NEAR`) or
        a horse landing a horse's move away from it can attack it.
        """
        king = self.position.kings[other]
        near = NEAR[king]
        if not (
            self.exposed or near[start] or near[target]
            or (piece & 7 == HORSE and HORSE_LEGS[target * (WIDTH * HEIGHT) + king] >= 0)
        ):
            return False
        return self.position.attacker(king, 1 - other) >= 0

    def _refused(self, move: Move, number: int, seat: int, start: int, target: int) -> Diagnostic:
        """The diagnostic of a move the quick tests of :meth:`play` refused, worded by ``judge()``."""
        verdict = self.position.judge(seat, start, target)
        assert verdict is not None, "judge() allows a move play() refused"
        code, template, args = verdict
        return self.error(code, move, number, template, args)

    def settle(self, last: Ply) -> None:
        """A player with no legal move has lost: checkmate in check, stalemate otherwise."""
        position = self.position
        loser = self.turn
        if position.has_move(loser):
            return
        winner = 1 - loser
        if position.in_check(loser):
            # The checkmate note stands where the check note stood, before the general's mark.
            ops = last.ops
            at = next(i for i, op in enumerate(ops) if op[0] == "note" and op[1] == CHECK_NOTE)
            ops[at] = scene.note(N_("checkmate: {winner} wins"), winner=SEATS[winner])
            king = (CELLS[position.kings[loser]],)
            self.decision = Decision(SEATS[winner], "checkmate", last.number, king, reason=N_("checkmate"))
        else:
            last.ops.append(scene.note(
                N_("{loser} has no legal move (stalemate): {winner} wins"), loser=SEATS[loser], winner=SEATS[winner]
            ))
            self.decision = Decision(
                SEATS[winner], "stalemate", last.number, (), reason=N_("stalemate: the opponent has no legal move")
            )

    def ended(self) -> Message:
        rule = self.decision.rule if self.decision else ""
        end = self.decision.ply if self.decision else 0
        if rule == "stalemate":
            return N_(
                "move {number}, {move}: the game was already over at move {end}: {loser} had no legal move; no move may follow"
            ), {"end": end, "loser": self.names[self.turn]}
        return N_(
            "move {number}, {move}: the game was already over at move {end}: {loser} was checkmated; no move may follow"
        ), {"end": end, "loser": self.names[self.turn]}

    def off_board(self, move: Move, point: Any) -> Message:
        return N_("move {number}, {move}: {point} is off the board (columns A-J without I, rows 0-9)"), {
            "point": f"{point[0]}{point[1]}"
        }

    def finish(self, record: Record, replay: Replay) -> None:
        """One note where a position first stands for the third time (same board, same side to move)."""
        thirds = [
            (plies[2], seat, board) for seat, seen in enumerate(self.seen) for board, plies in seen.items() if len(plies) >= 3
        ]
        if not thirds:
            return
        at, seat, board = min(thirds)  # each ply leaves one position: no two share plies[2]
        plies = self.seen[seat][board]
        args = {"start": plies[0] + 1, "times": len(plies), "side": self.names[seat]}
        replay.plies[at - 1].ops.append(scene.note(
            N_("repetition: this position ({side} to move) stands for the third time; the declared result stands"),
            side=SEATS[seat],
        ))
        self.found.append(self.error(REPETITION, record.moves[at - 1], at, N_(
            "move {number}, {move}: the position ({side} to move) stands for the third time (first after move "
            "{start}, {times} times by the end); repetition is not judged, the declared result stands"
        ), args))


# A canonical Chinese move (see Position.resolve) taken apart: piece kind, the place it names
# (file digits, f/m/b, #n), its file as a number (None where it names a place), action, number.
# The same few hundred codes recur in every record, so each is taken apart once.
_CODES: dict[str, tuple[int, str, int | None, str, int]] = {}


def _split(code: str) -> tuple[int, str, int | None, str, int]:
    where = code[1:-2]
    known = _CODES[code] = (
        KIND_OF_LETTER[code[0]], where, int(where) if where.isdigit() else None, code[-2], int(code[-1])
    )
    return known


def _index(point: tuple[str, int]) -> int | None:
    letter, row = point
    letter = letter.upper()
    if letter == "I":
        letter = "J"
    if len(letter) != 1 or letter not in COLUMNS or not 0 <= row < HEIGHT:
        return None
    return row * WIDTH + COLUMNS.index(letter)


# Every point a format writes (either case; I for J as ICCS writes it) -> its index, looked up per move.
POINTS: dict[tuple[str, int], int] = {
    (letter, row): at
    for letter in "ABCDEFGHIJabcdefghij"
    for row in range(HEIGHT)
    if (at := _index((letter, row))) is not None
}


def start_cells(record: Record) -> tuple[bytearray, Diagnostic | None]:
    """The start position: the record's FEN where it has a readable one, else the standard's."""
    if record.setup:
        cells = parse_fen(record.setup[0])
        if cells is not None:
            return cells, None
        problem = diagnostics.make(
            record.path, record.setup_line or 1, 1, BAD_FEN,
            N_("the FEN {fen!r} is not a xiangqi position with one general each; the standard start position is used"),
            fen=record.setup[0][:90],
        )
        return bytearray(START_CELLS), problem
    return bytearray(START_CELLS), None


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay a xiangqi record move by move; stop at the first illegal move."""
    cells, problem = start_cells(record)
    first = record.moves[0].side.upper() if record.moves else game.first.letter
    first_seat = 1 if first == game.second.letter.upper() else 0
    outcome = XiangqiEngine(game, cells, first_seat).replay(record)
    if problem is not None:
        outcome.diagnostics.insert(0, problem)
    return outcome

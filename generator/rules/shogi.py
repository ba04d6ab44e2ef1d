"""The rules of 5x5 minishogi (5五将棋), on the replay driver of :mod:`generator.rules.engine`.

The board is five files by five ranks; records name a square by its file
(1-5, right to left as sente sees it) and rank (1-5, top to bottom): ``11``
is the top-right square, on gote's side. Sente (``+``, ▲) starts on rank 5
(``55`` king, ``45`` gold, ``35`` silver, ``25`` bishop, ``15`` rook, ``54``
pawn), gote (``-``, △) on rank 1, turned round, and sente moves first.

What the rules decide here:

* every piece's moves: king, gold, silver, bishop, rook, pawn, and the
  promoted pawn (と) and silver (成銀), which move as a gold, the horse (馬:
  bishop and one step straight) and the dragon (龍: rook and one step
  diagonally); sliding pieces are blocked by the first piece on their way;
* promotion in the promotion zone, which on this board is the far rank
  alone: a move into, within or out of it may promote, and a pawn reaching
  it must (it could not move again); gold and king never promote;
* a captured piece goes, unpromoted, to the captor's hand and may be
  dropped on any empty square, but no pawn on the far rank, no second
  unpromoted pawn of one side on a file (二歩), and no pawn drop that mates
  (打ち歩詰め);
* no move may leave the mover's own king in check;
* a side with no legal move has lost: checkmate, or (as in shogi) a
  position with no move at all. That is asked only where it matters
  (:meth:`ShogiEngine.settle`, after the last move or before a move that
  cannot be played): the next move of a record answers it otherwise.

A record's piece after the move must be the piece moved or its promotion
(``+2514HI`` when the piece on 25 is a bishop, as the standard's own example
writes, is wrong). That is an error at the move; the replay goes on with the
piece that stands there, which is what the move's squares say.

Repetition (千日手): the standard ends such a game with ``%SENNICHITE`` and
does not say who wins it. The same position (board, hands and side to move)
occurring for the fourth time gets a note; the declared result stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator import diagnostics, scene
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.i18n import N_
from generator.model import Decision, Move, Op, Ply, Record, Replay
from generator.rules.engine import SEATS, Engine, OffBoard

NO_PIECE = diagnostics.define(
    "RULE-E701",
    "error",
    "No piece of the side to move stands where the move starts",
    "Check the move's first square (file, then rank: 11 is the top-right square); "
    "a drop starts from 00.",
)
BAD_STEP = diagnostics.define(
    "RULE-E702",
    "error",
    "The piece cannot move that way",
    "The message names the piece and why (its moves, or a piece in the way); check both squares.",
)
OWN_PIECE = diagnostics.define(
    "RULE-E703",
    "error",
    "The move lands on a piece of the mover's own side",
    "Check the move's second square.",
)
WRONG_PIECE = diagnostics.define(
    "RULE-E704",
    "error",
    "The piece after the move is not the piece moved nor its promotion",
    "Write the piece that stands on the first square, or its promoted form when it promotes; "
    "the replay went on with the piece that stands there.",
)
BAD_PROMOTION = diagnostics.define(
    "RULE-E705",
    "error",
    "A promotion the rules do not allow, or one they require that is missing",
    "A piece may promote only on a move into, within or out of the far rank; gold and king "
    "never promote; a pawn reaching the far rank must promote.",
)
BAD_DROP = diagnostics.define(
    "RULE-E706",
    "error",
    "A drop the rules forbid",
    "A piece is dropped from the mover's hand onto an empty square; no pawn on the far rank, "
    "no second unpromoted pawn on a file (二歩), no pawn drop that mates (打ち歩詰め).",
)
SELF_CHECK = diagnostics.define(
    "RULE-E707",
    "error",
    "The move leaves the mover's own king in check",
    "A move must answer a check and may not expose its own king; look for a mistyped earlier move.",
)
BAD_SETUP = diagnostics.define(
    "RULE-E708",
    "error",
    "The start position is not one the game can be played from",
    "Each side needs exactly one king, and at most two pieces of each kind are in play.",
)
REPETITION = diagnostics.define(
    "RULE-N701",
    "note",
    "The same position occurred for the fourth time (千日手)",
    "The standard ends such a game with %SENNICHITE and does not say who wins it: the declared result stands.",
)
NO_REPETITION = diagnostics.define(
    "RULE-W701",
    "warning",
    "%SENNICHITE is declared but no position occurred four times",
    "Check the moves, or the special move that ends the record.",
)
NOT_MATE = diagnostics.define(
    "RULE-W702",
    "warning",
    "%TSUMI is declared but the side to move is not checkmated",
    "Check the last moves, or the special move that ends the record.",
)

# Piece kinds: the format's codes; a kind's promotion is six places on.
KINDS = ("", "FU", "GI", "KI", "KA", "HI", "OU", "TO", "NG", "UM", "RY")
KIND = {code: k for k, code in enumerate(KINDS) if code}
FU, GI, KI, KA, HI, OU, TO, NG, UM, RY = range(1, 11)
PROMOTED = {FU: TO, GI: NG, KA: UM, HI: RY}
BASE = {TO: FU, NG: GI, UM: KA, RY: HI}
HAND_KINDS = (HI, KA, KI, GI, FU)  # the order a hand is shown in
# The usual Japanese names (KIF): 歩 銀 金 角 飛 玉 と 成銀 馬 龍.
NAMES = ("", "歩", "銀", "金", "角", "飛", "玉", "と", "成銀", "馬", "龍")
MARKS = ("▲", "△")
FILES = "０１２３４５"  # full-width file digits; index 0 unused
RANKS = "〇一二三四五"  # kanji rank numbers; index 0 unused

SIZE = 5
# A square is an index 0-24: row (rank - 1) * 5 + column (5 - file), so 0 is
# the top-left square 51 and 24 the bottom-right 15.
CELLS = tuple(f"{SIZE - i % SIZE}{i // SIZE + 1}" for i in range(SIZE * SIZE))
HAND_CELLS = tuple({k: f"hand{seat}-{KINDS[k]}" for k in HAND_KINDS} for seat in (0, 1))
COUNT_CELLS = tuple({k: f"hand{seat}-{KINDS[k]}-n" for k in HAND_KINDS} for seat in (0, 1))
# The scene's ids of a hand's piece and of its ×n badge, and the badge's kinds.
HAND_IDS = tuple({k: f"h{seat}{KINDS[k]}" for k in HAND_KINDS} for seat in (0, 1))
BADGE_IDS = tuple({k: f"n{seat}{KINDS[k]}" for k in HAND_KINDS} for seat in (0, 1))
BADGES = tuple(f"x{n}" for n in range(10))
# The marks of a move's squares, made once per square and shared by the plies (ops are never changed in place).
MARK_FROM = tuple(scene.mark(cell, "from") for cell in CELLS)
MARK_MOVED = tuple(scene.mark(cell, "moved") for cell in CELLS)

_ORTH = ((-1, 0), (1, 0), (0, -1), (0, 1))
_DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_GOLD = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0))
# Steps as sente moves them (forward is row - 1); gote's are turned round.
_STEPS: dict[int, tuple[tuple[int, int], ...]] = {
    FU: ((-1, 0),),
    GI: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)),
    KI: _GOLD,
    OU: _ORTH + _DIAG,
    TO: _GOLD,
    NG: _GOLD,
    UM: _ORTH,
    RY: _DIAG,
    KA: (),
    HI: (),
}
_SLIDES: dict[int, tuple[tuple[int, int], ...]] = {KA: _DIAG, UM: _DIAG, HI: _ORTH, RY: _ORTH}


def _on(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


def _step_table() -> tuple[dict[int, tuple[frozenset[int], ...]], ...]:
    """Per seat, per kind, per square: the squares one step reaches."""
    tables = []
    for seat in (0, 1):
        sign = 1 if seat == 0 else -1
        table = {}
        for kind, steps in _STEPS.items():
            table[kind] = tuple(
                frozenset(
                    (i // SIZE + sign * dr) * SIZE + i % SIZE + sign * dc
                    for dr, dc in steps
                    if _on(i // SIZE + sign * dr, i % SIZE + sign * dc)
                )
                for i in range(SIZE * SIZE)
            )
        tables.append(table)
    return tuple(tables)


def _ray_table() -> dict[int, tuple[tuple[tuple[int, ...], ...], ...]]:
    """Per sliding kind, per square: its rays, each the squares in order outward."""
    table = {}
    for kind, directions in _SLIDES.items():
        per_square = []
        for i in range(SIZE * SIZE):
            rays = []
            for dr, dc in directions:
                ray = []
                row, col = i // SIZE + dr, i % SIZE + dc
                while _on(row, col):
                    ray.append(row * SIZE + col)
                    row, col = row + dr, col + dc
                if ray:
                    rays.append(tuple(ray))
            per_square.append(tuple(rays))
        table[kind] = tuple(per_square)
    return table


STEP = _step_table()
RAYS = _ray_table()
# The squares next to each square, and which pieces slide along a line or a diagonal.
NEIGHBOURS = tuple(tuple(STEP[0][OU][i]) for i in range(SIZE * SIZE))
_ORTH_SLIDERS = frozenset((HI, RY))
_DIAG_SLIDERS = frozenset((KA, UM))


def _lines() -> tuple[dict[int, tuple[tuple[int, ...], frozenset[int]]], ...]:
    """Per square, for each square on a line with it: that line outwards, and the pieces that slide along it."""
    table = []
    for a in range(SIZE * SIZE):
        lines = {}
        for rays, sliders in ((RAYS[HI][a], _ORTH_SLIDERS), (RAYS[KA][a], _DIAG_SLIDERS)):
            for ray in rays:
                for b in ray:
                    lines[b] = (ray, sliders)
        table.append(lines)
    return tuple(table)


LINES = _lines()


# A piece in ShogiEngine.pos: its kind, plus 16 for gote's; 0 for an empty square (CODE[-1]).
CODE = (tuple(range(len(KINDS))), tuple(k + 16 if k else 0 for k in range(len(KINDS))), (0,) * len(KINDS))
HAND_AT = (SIZE * SIZE, SIZE * SIZE + len(KINDS))  # where each seat's counts in hand start, by kind
TURN_AT = SIZE * SIZE + 2 * len(KINDS)

Attacks = tuple[tuple[tuple[int, frozenset[int]], ...], ...]  # per square: (a neighbour, codes)
Slides = tuple[tuple[tuple[tuple[int, ...], frozenset[int]], ...], ...]  # per square: (a line outwards, codes)


def _step_attacks(by: int) -> Attacks:
    """Per square: each neighbour and the codes (CODE) of the pieces of ``by`` that step from it onto the square."""
    return tuple(
        tuple(
            (j, codes)
            for j in NEIGHBOURS[square]
            if (codes := frozenset(CODE[by][k] for k, reach in STEP[by].items() if square in reach[j]))
        )
        for square in range(SIZE * SIZE)
    )


def _slide_attacks(by: int) -> Slides:
    """Per square: each line outwards from it, and the codes of the pieces of ``by`` that slide along it."""
    orth = frozenset(CODE[by][k] for k in _ORTH_SLIDERS)
    diag = frozenset(CODE[by][k] for k in _DIAG_SLIDERS)
    return tuple(
        tuple((ray, orth) for ray in RAYS[HI][i]) + tuple((ray, diag) for ray in RAYS[KA][i]) for i in range(SIZE * SIZE)
    )


# Per attacking seat, looked up from the attacked square (see ShogiEngine._attacked).
STEPS_TO = (_step_attacks(0), _step_attacks(1))
SLIDES_TO = (_slide_attacks(0), _slide_attacks(1))
# Per attacking seat, per attacked square, for each square on a line with it: that line outwards,
# and the codes of the pieces of the seat that slide along it (LINES in codes; see ShogiEngine._checks).
LINES_TO = tuple(
    tuple({b: (ray, frozenset(CODE[by][k] for k in sliders)) for b, (ray, sliders) in lines.items()} for lines in LINES)
    for by in (0, 1)
)


# Per seat, per square: whether it is on the seat's far rank (its promotion zone).
FAR = tuple(tuple(i // SIZE == (0 if seat == 0 else SIZE - 1) for i in range(SIZE * SIZE)) for seat in (0, 1))


def far_row(seat: int, square: int) -> bool:
    """Whether a square is on the far rank of a seat: its promotion zone."""
    return square // SIZE == (0 if seat == 0 else SIZE - 1)


def may_promote(kind: int, seat: int, start: int, to: int) -> bool:
    """Whether a move of a piece of ``kind`` may promote: one that promotes, into, within or out of the far rank."""
    return kind in PROMOTED and (far_row(seat, start) or far_row(seat, to))


# (file as written, rank) -> square, for every square on the board: a point as the format parsed it (``("2", 4)``).
INDEX = {(str(SIZE - i % SIZE), i // SIZE + 1): i for i in range(SIZE * SIZE)}


# Each square in Japanese notation: ２四.
SQUARE_NAMES = tuple(FILES[SIZE - i % SIZE] + RANKS[i // SIZE + 1] for i in range(SIZE * SIZE))
# The start of a move's label, made once: per seat, per square, per kind (▲２四歩); and per seat, per kind
# for a move to the square of the last move (▲同歩).
LABELS = tuple(tuple(tuple(MARKS[seat] + name + piece for piece in NAMES) for name in SQUARE_NAMES) for seat in (0, 1))
SAME_LABELS = tuple(tuple(MARKS[seat] + "同" + piece for piece in NAMES) for seat in (0, 1))


class ShogiEngine(Engine):
    """One replay of a minishogi record, from the start position the record writes (None: the standard one)."""

    __slots__ = (
        "calm", "checked", "counts", "hand", "ids", "king", "kind", "last_to", "note_at", "owner", "pos", "repeated", "seen",
    )

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None, record: Record | None = None) -> None:
        super().__init__(game, options)
        self.kind = [0] * (SIZE * SIZE)  # piece kind per square, 0 empty
        self.owner = [-1] * (SIZE * SIZE)  # seat per square, -1 empty
        self.ids: list[str] = [""] * (SIZE * SIZE)  # the scene's piece id per square
        self.hand = [[0] * len(KINDS), [0] * len(KINDS)]  # per seat, per kind: pieces in hand
        self.king = [-1, -1]  # the square of each seat's king, -1 if none
        self.last_to = -1  # where the last move went (同)
        # The position as bytes, kept with the lists above (see _key()): a piece's CODE per square, then
        # the hands (HAND_AT), then the side to move (TURN_AT). It makes the key of repetition one copy.
        self.pos = bytearray(TURN_AT + 1)
        self.seen: dict[bytes, int] = {}  # position -> how often it occurred
        self.counts = int(game.params.get("repetition", 4))
        self.repeated = 0  # the ply of the first fourfold repetition, 0 if none
        self.checked = False  # whether the side to move is in check
        self.calm = True  # whether the side not to move is out of check at the start (see _start())
        self.note_at = 0  # where in the last ply's ops settle() puts the note of a mate
        self._start(record)

    # -- the start position ----------------------------------------------------------

    def _start(self, record: Record | None) -> None:
        """The start position: a copy of the state made once per set-up (most records start from PI)."""
        rows = tuple(record.setup if record is not None and record.setup else _STANDARD)
        state = _START_STATES.get(rows)
        if state is None:
            self._read_start(rows)
            state = self._state()
            if len(_START_STATES) < 256:  # set-up positions are few; a file of odd ones must not fill memory
                _START_STATES[rows] = state
        else:
            self._restore(state)
        if record is not None and not state[-1]:
            self._check_setup(record)
        self.seen[self._key()] = 1

    def _state(self) -> _StartState:
        """What _read_start() made, to be copied: see _restore()."""
        return (
            tuple(self.kind), tuple(self.owner), tuple(self.ids), tuple(self.hand[0]), tuple(self.hand[1]),
            tuple(self.king), self.turn, bytes(self.pos), self.checked, self.calm, self._setup_fault() is None,
        )

    def _restore(self, state: _StartState) -> None:
        kind, owner, ids, hand0, hand1, king, self.turn, pos, self.checked, self.calm, _ = state
        self.kind, self.owner, self.ids = list(kind), list(owner), list(ids)
        self.hand, self.king, self.pos = [list(hand0), list(hand1)], list(king), bytearray(pos)

    def _read_start(self, rows: tuple[str, ...]) -> None:
        """The start position from the set-up rows (see _STANDARD)."""
        for r in range(SIZE):
            row = rows[r].ljust(3 * SIZE)
            for c in range(SIZE):
                cell = row[3 * c : 3 * c + 3]
                if cell[0] in "+-" and cell[1:] in KIND:
                    self._put(r * SIZE + c, 0 if cell[0] == "+" else 1, KIND[cell[1:]])
        for seat, text in enumerate(rows[5:7]):
            for k in range(1, len(text), 2):
                kind = KIND.get(text[k : k + 2], 0)
                if kind:
                    self.hand[seat][BASE.get(kind, kind)] += 1
        if len(rows) > 7 and rows[7] == "-":
            self.turn = 1
        pos = self.pos
        for i in range(SIZE * SIZE):
            pos[i] = CODE[self.owner[i]][self.kind[i]]
        for seat in (0, 1):
            pos[HAND_AT[seat] : HAND_AT[seat] + len(KINDS)] = bytes(min(n, 255) for n in self.hand[seat])
        self.checked = self._attacked(self.king[self.turn], 1 - self.turn)
        # Whether the side not to move is out of check, as in every position a legal move leads to;
        # a set-up position may not be, and then every check is looked for in full (see _checks()).
        self.calm = not self._attacked(self.king[1 - self.turn], self.turn)

    def _put(self, i: int, seat: int, kind: int) -> None:
        self.kind[i], self.owner[i], self.ids[i] = kind, seat, f"p{i}"
        if kind == OU:
            self.king[seat] = i

    def _setup_fault(self) -> tuple[list[int], int] | None:
        """None for a start position the game can be played from; else each side's kings, and the most pieces of a kind."""
        kings = [sum(1 for i in range(SIZE * SIZE) if self.kind[i] == OU and self.owner[i] == s) for s in (0, 1)]
        total = {k: sum(h[k] for h in self.hand) for k in HAND_KINDS}
        for i in range(SIZE * SIZE):
            if self.kind[i] and self.kind[i] != OU:
                total[BASE.get(self.kind[i], self.kind[i])] += 1
        if kings == [1, 1] and max(total.values()) <= 2:
            return None
        return kings, max(total.values())

    def _check_setup(self, record: Record) -> None:
        fault = self._setup_fault()
        if fault is None:
            return
        kings, most = fault
        self.found.append(
            diagnostics.make(
                record.path,
                record.setup_line or 1,
                1,
                BAD_SETUP,
                "the start position has {first} king(s) of sente and {second} of gote, and up to {most} pieces of one kind",
                first=kings[0],
                second=kings[1],
                most=most,
            )
        )

    def setup(self) -> list[Op]:
        """The start position on the board and in the hands (called before the first move).

        Made once per position and game type (the ops, never changed in place, are shared).
        """
        key = (bytes(self.pos), tuple(self.ids), self.colours)
        ops = _SETUP_OPS.get(key)
        if ops is None:
            ops = self._setup_ops()
            if len(_SETUP_OPS) < 256:  # as _START_STATES
                _SETUP_OPS[key] = ops
        return list(ops)

    def _setup_ops(self) -> list[Op]:
        ops: list[Op] = []
        for i in range(SIZE * SIZE):
            if self.kind[i]:
                ops.append(scene.add(self.ids[i], KINDS[self.kind[i]], self.colours[self.owner[i]], CELLS[i]))
        for seat in (0, 1):
            for kind in HAND_KINDS:
                self._hand_ops(ops, seat, kind, 0, self.hand[seat][kind])
        return ops

    def _hand_ops(self, ops: list[Op], seat: int, kind: int, before: int, after: int) -> None:
        """Add to ``ops`` the scene of a hand whose count of ``kind`` goes from ``before`` to ``after``:
        a piece, and ×n from two on."""
        if before == 0 and after > 0:
            ops.append(scene.add(HAND_IDS[seat][kind], KINDS[kind], self.colours[seat], HAND_CELLS[seat][kind]))
        elif before > 0 and after == 0:
            ops.append(scene.remove(HAND_IDS[seat][kind]))
        if before < 2 <= after:
            ops.append(scene.add(BADGE_IDS[seat][kind], BADGES[min(after, 9)], self.colours[seat], COUNT_CELLS[seat][kind]))
        elif after < 2 <= before:
            ops.append(scene.remove(BADGE_IDS[seat][kind]))
        elif after >= 2 and after != before:
            ops.append(scene.set_kind(BADGE_IDS[seat][kind], BADGES[min(after, 9)]))

    # -- the hooks -----------------------------------------------------------------------

    def read(self, move: Move) -> Any:
        point, to_point, parts = move.point, move.to, move.parts
        if to_point is not None and parts:  # the usual move, both squares on the board, or a drop
            to = INDEX.get(to_point)
            if to is not None:
                if point is None:
                    return (-1, to, parts[0])
                start = INDEX.get(point)
                if start is not None:
                    return (start, to, parts[0])
        return self._read_odd(move)

    def _read_odd(self, move: Move) -> Any:
        """read() of a move that names no square, or one off the board."""
        point, parts = move.to, move.parts
        if point is None or not parts:
            return None
        to = INDEX.get(point)
        if to is None:
            return OffBoard(f"{point[0]}{point[1]}")
        if move.point is None:
            return (-1, to, parts[0])
        start = INDEX.get(move.point)
        if start is None:
            return OffBoard(f"{move.point[0]}{move.point[1]}")
        return (start, to, parts[0])

    def off_board(self, move: Move, point: Any) -> tuple[str, Mapping[str, Any]]:
        return N_("move {number}, {move}: square {point} is not on the board (files and ranks 1 to 5; 00 is the hand)"), {
            "point": str(point)
        }

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        """A drop (see _drop()), or a move of a piece on the board: its checks, in order, then the ply."""
        start, to, written = at
        if start < 0:
            return self._drop(move, to, written, number, seat)
        kinds, owner = self.kind, self.owner
        kind = kinds[start]
        if not kind or owner[start] != seat:
            whose = "" if not kind else f" ({MARKS[owner[start]]}{NAMES[kind]})"
            return self.error(
                NO_PIECE, move, number, N_("move {number}, {move}: no piece of {side} on {square}{whose}"),
                {"side": self.names[seat], "square": CELLS[start], "whose": whose},
            )
        if owner[to] == seat:
            return self.error(
                OWN_PIECE, move, number, N_("move {number}, {move}: {square} holds a piece of the mover's own side ({piece})"),
                {"square": CELLS[to], "piece": NAMES[kinds[to]]},
            )
        if to not in STEP[seat][kind][start] and not self._reaches(start, to, kind, seat):
            return self._bad_step(move, number, start, to, kind, seat)
        if kinds[to] == OU:
            # Only a start position that leaves the side not to move in check allows it; no
            # game reaches one, and a king has no place in a hand: refused, never played.
            return self.error(
                BAD_STEP, move, number,
                N_("move {number}, {move}: it takes the king on {square}: the start position leaves {side} in check"),
                {"square": CELLS[to], "side": self.names[owner[to]]},
            )
        far = FAR[seat]
        zone = far[start] or far[to]
        # The written piece is, nearly always, the piece moved or its allowed promotion: decided here;
        # _promotion() words what is wrong with the others.
        wanted = KIND.get(written, 0)
        if wanted == kind and not (kind == FU and far[to]):
            promote = False
        elif zone and wanted == PROMOTED.get(kind):
            promote = True
        else:
            promote, problem = self._promotion(move, number, start, to, kind, written, seat)
            if problem is not None:
                return problem
        # Whether the full test of the king's safety is needed: the king moves, stands in check, or the piece
        # may be pinned (only one on a line with its king may be: that look-up first, _pinned() then).
        king = self.king[seat]
        exposes = kind == OU or self.checked or (king >= 0 and start in LINES[king] and self._pinned(start, seat))
        label = self._label(start, to, kind, seat, promote, zone)  # in the position the move is played in
        ids = self.ids
        captured, captured_id, piece_id = kinds[to], ids[to], ids[start]
        moved = PROMOTED[kind] if promote else kind
        # As self._apply(start, to, seat, moved), written out: this is the move of nearly every ply.
        kinds[to], owner[to], ids[to] = moved, seat, piece_id
        kinds[start], owner[start], ids[start] = 0, -1, ""
        pos = self.pos
        pos[to], pos[start] = CODE[seat][moved], 0
        if moved == OU:
            self.king[seat] = to
        if exposes and self._attacked(self.king[seat], 1 - seat):
            self._undo(start, to, seat, kind, captured, captured_id, piece_id)
            return self._self_check(move, number, seat)
        if captured:
            ops = [scene.remove(captured_id)]
            base = BASE.get(captured, captured)
            hand = self.hand[seat]
            have = hand[base]
            hand[base] = have + 1
            pos[HAND_AT[seat] + base] = min(have + 1, 255)  # a set-up position may hold any number
            self._hand_ops(ops, seat, base, have, have + 1)
            ops.append(scene.move(piece_id, CELLS[to]))
        else:
            ops = [scene.move(piece_id, CELLS[to])]
        if promote:
            ops.append(scene.set_kind(piece_id, KINDS[PROMOTED[kind]]))
        ops += (MARK_FROM[start], MARK_MOVED[to])
        return self._after(move, number, seat, start, to, label, ops)

    def _drop(self, move: Move, to: int, written: str, number: int, seat: int) -> Ply | Diagnostic:
        kind = KIND.get(written, 0)
        if kind not in HAND_KINDS:
            return self.error(
                BAD_DROP, move, number,
                N_("move {number}, {move}: {piece} cannot be dropped: only unpromoted pieces are dropped"),
                {"piece": written},
            )
        if self.hand[seat][kind] == 0:
            return self.error(
                BAD_DROP, move, number, N_("move {number}, {move}: {side} has no {piece} ({name}) in hand"),
                {"side": self.names[seat], "piece": written, "name": NAMES[kind]},
            )
        if self.kind[to]:
            return self.error(
                BAD_DROP, move, number, N_("move {number}, {move}: {square} is not empty; a piece is dropped on an empty square"),
                {"square": CELLS[to]},
            )
        if kind == FU:
            problem = self._pawn_drop(move, number, to, seat)
            if problem is not None:
                return problem
        piece_id, hand, pos = f"d{number}", self.hand[seat], self.pos
        self.kind[to], self.owner[to], self.ids[to] = kind, seat, piece_id
        pos[to] = CODE[seat][kind]
        have = hand[kind] - 1
        hand[kind] = have
        pos[HAND_AT[seat] + kind] = min(have, 255)
        if self.checked and self._attacked(self.king[seat], 1 - seat):  # a drop only matters when in check
            self._lift(to, seat, kind)
            return self._self_check(move, number, seat)
        if kind == FU and self._pawn_mates(to, seat):
            self._lift(to, seat, kind)
            return self.error(
                BAD_DROP, move, number, N_("move {number}, {move}: a pawn drop may not checkmate (打ち歩詰め)"),
            )
        ops: list[Op] = []
        self._hand_ops(ops, seat, kind, have + 1, have)
        ops.append(scene.add(piece_id, KINDS[kind], self.colours[seat], CELLS[to]))
        ops.append(MARK_MOVED[to])
        label = LABELS[seat][to][kind] + "打"
        return self._after(move, number, seat, -1, to, label, ops)

    def _pawn_drop(self, move: Move, number: int, to: int, seat: int) -> Diagnostic | None:
        if FAR[seat][to]:
            return self.error(
                BAD_DROP, move, number,
                N_("move {number}, {move}: a pawn may not be dropped on the far rank, where it could never move"),
            )
        if self._pawn_on_file(to, seat):
            return self.error(
                BAD_DROP, move, number,
                N_("move {number}, {move}: {side} already has an unpromoted pawn on file {file} (二歩)"),
                {"side": self.names[seat], "file": SIZE - to % SIZE},
            )
        return None

    def _lift(self, to: int, seat: int, kind: int) -> None:
        """Take back a drop that the rules forbid."""
        self.kind[to], self.owner[to], self.ids[to] = 0, -1, ""
        self.pos[to] = 0
        self.hand[seat][kind] += 1
        self.pos[HAND_AT[seat] + kind] = min(self.hand[seat][kind], 255)

    def _after(self, move: Move, number: int, seat: int, start: int, to: int, label: str, ops: list[Op]) -> Ply:
        """What follows every legal move (from ``start``, -1 for a drop, to ``to``): check, repetition; the ply."""
        other = 1 - seat
        self.turn = other
        self.last_to = to
        if self.calm:
            check = self.checked = self._checks(seat, start, to)
        else:
            check = self.checked = self._attacked(self.king[other], seat)
        # Whether ``other`` has a move left is settle()'s question (the next
        # move of the record answers it); a check is noted now, and settle()
        # turns the note into the mate's where the check was mate.
        self.unsettled = True
        self.note_at = len(ops)
        if check:
            ops.append(scene.note(N_("{side} is in check"), side=SEATS[other]))
        pos = self.pos
        pos[TURN_AT] = other
        key = bytes(pos)  # as _key()
        seen = self.seen.get(key, 0) + 1
        self.seen[key] = seen
        if seen == self.counts and not self.repeated:
            self.repeated = number
            ops.append(scene.note(N_("the same position for the fourth time (千日手)")))
            self.found.append(self.error(
                REPETITION, move, number,
                N_("move {number}, {move}: the same position occurs for the fourth time (千日手); the declared result stands"),
            ))
        # As self.ply(move, number, seat, ops, label), made here: one call less per ply.
        return Ply(number, SEATS[seat], self.colours[seat], label, ops, move.mark, move.line, move.column)

    def settle(self, last: Ply) -> None:
        """Checkmate, or no legal move at all: the side to move after ``last`` has lost.

        The note goes where _after() left its place (``note_at``): before a
        repetition's note, and instead of the check's.
        """
        other = self.turn
        if self._has_move(other, self.checked):
            return
        seat = 1 - other
        if self.checked:
            self.decision = Decision(
                SEATS[seat], "checkmate", last.number, (CELLS[self.king[other]],), reason=N_("checkmate")
            )
            last.ops[self.note_at] = scene.note(N_("{loser} is checkmated"), loser=SEATS[other])
        else:
            self.decision = Decision(SEATS[seat], "no-move", last.number, reason=N_("the opponent has no legal move"))
            last.ops.insert(self.note_at, scene.note(N_("{loser} has no legal move"), loser=SEATS[other]))

    def finish(self, record: Record, replay: Replay) -> None:
        """The special move that ends the record, checked where the rules can: %SENNICHITE and %TSUMI."""
        said = record.header.result_text
        if replay.not_replayed or not record.moves or said not in ("%SENNICHITE", "%TSUMI"):
            return
        last = record.moves[-1]
        if said == "%SENNICHITE" and not self.repeated:
            replay.diagnostics.append(
                diagnostics.make(
                    self.path, last.line, last.column, NO_REPETITION,
                    "%SENNICHITE is declared, but no position occurred four times",
                )
            )
        elif said == "%TSUMI" and self.decision is None:
            replay.diagnostics.append(
                diagnostics.make(
                    self.path, last.line, last.column, NOT_MATE,
                    "%TSUMI is declared, but {side} is not checkmated after the last move",
                    side=self.names[self.turn],
                )
            )

    # -- the position -----------------------------------------------------------------------

    def _key(self) -> bytes:
        """The position for repetition: board, hands, side to move."""
        pos = self.pos
        pos[TURN_AT] = self.turn
        return bytes(pos)

    def _checks(self, seat: int, start: int, to: int) -> bool:
        """Whether the move ``seat`` has just played (from ``start``, -1 for a drop, to ``to``) checks the other king.

        The other king was not attacked before it (see ``calm``), so only
        the piece moved can attack it now, or a slider of the mover's that
        the move uncovered on a line from the king through ``start``.
        """
        king = self.king[1 - seat]
        if king < 0:
            return False
        if king in STEP[seat][self.kind[to]][to]:
            return True
        pos, lines = self.pos, LINES_TO[seat][king]
        line = lines.get(to)  # the piece moved, sliding to the king: the first piece from the king is it
        if line is not None and pos[to] in line[1]:
            for i in line[0]:
                if pos[i]:
                    if i == to:
                        return True
                    break
        line = lines.get(start)  # a slider behind ``start``, uncovered: the first piece from the king is it
        if line is not None:
            for i in line[0]:
                if pos[i]:
                    return pos[i] in line[1]
        return False

    def _reaches(self, start: int, to: int, kind: int, seat: int) -> bool:
        """Whether the piece on ``start`` moves to ``to`` (pieces in the way block a slide)."""
        if to in STEP[seat][kind][start]:
            return True
        rays = RAYS.get(kind)
        if rays is None:
            return False
        owner = self.owner
        for ray in rays[start]:
            for i in ray:
                if i == to:
                    return True
                if owner[i] >= 0:
                    break
        return False

    def _attacked(self, square: int, by: int) -> bool:
        """Whether a piece of ``by`` could capture on ``square`` (a king of -1: never).

        Looked for from the square outwards, as the engine runs it after
        every move: the eight neighbours for a step, then the first piece on
        each line for a slide.
        """
        if square < 0:
            return False
        pos = self.pos
        for j, codes in STEPS_TO[by][square]:
            if pos[j] in codes:
                return True
        for ray, codes in SLIDES_TO[by][square]:
            for j in ray:
                if pos[j]:
                    if pos[j] in codes:
                        return True
                    break
        return False

    def _apply(self, start: int, to: int, seat: int, kind: int) -> None:
        self.kind[to], self.owner[to], self.ids[to] = kind, seat, self.ids[start]
        self.kind[start], self.owner[start], self.ids[start] = 0, -1, ""
        pos = self.pos
        pos[to], pos[start] = CODE[seat][kind], 0
        if kind == OU:
            self.king[seat] = to

    def _undo(self, start: int, to: int, seat: int, kind: int, captured: int, captured_id: str, piece_id: str) -> None:
        self.kind[start], self.owner[start], self.ids[start] = kind, seat, piece_id
        self.kind[to], self.owner[to], self.ids[to] = captured, (1 - seat) if captured else -1, captured_id
        pos = self.pos
        pos[start], pos[to] = CODE[seat][kind], CODE[1 - seat][captured]
        if kind == OU:
            self.king[seat] = start

    def _pinned(self, start: int, seat: int) -> bool:
        """Whether the piece on ``start`` may be pinned: nothing stands between it and its
        king, and past it on that line the first piece is an opponent's that slides along it."""
        king = self.king[seat]
        line = LINES[king].get(start) if king >= 0 else None
        if line is None:
            return False
        ray, sliders = line
        owner = self.owner
        past = False
        for i in ray:
            if i == start:
                past = True
            elif owner[i] >= 0:
                if not past:
                    return False  # another piece shields the king
                return owner[i] != seat and self.kind[i] in sliders
        return False

    def _has_move(self, seat: int, check: bool) -> bool:
        """Whether ``seat`` has a legal move (a pawn drop that would mate does not count).

        Out of check the answer is nearly always found at once: a piece in
        hand other than a pawn drops on any empty square, and a piece that
        is not pinned moves without exposing its king.
        """
        kind, owner = self.kind, self.owner
        if not check:
            hand = self.hand[seat]
            if (hand[GI] or hand[KI] or hand[KA] or hand[HI]) and 0 in kind:
                return True
            for start in range(SIZE * SIZE):
                k = kind[start]
                if owner[start] == seat and k != OU and self._targets(start, k, seat) and not self._pinned(start, seat):
                    return True
        if self._has_board_move(seat):
            return True
        hand = self.hand[seat]
        for k in HAND_KINDS:
            if hand[k]:
                for to in range(SIZE * SIZE):
                    if not kind[to] and self._may_drop(to, seat, k):
                        return True
        return False

    def _has_board_move(self, seat: int) -> bool:
        """Whether ``seat`` has a legal move that does not drop (enough to escape a pawn's check)."""
        for start in range(SIZE * SIZE):
            if self.owner[start] == seat:
                k = self.kind[start]
                for to in self._targets(start, k, seat):
                    if self._safe(start, to, seat, k):
                        return True
        return False

    def _safe(self, start: int, to: int, seat: int, kind: int) -> bool:
        """Whether the move of ``kind`` from ``start`` to ``to`` leaves the mover's king unattacked (tried, taken back)."""
        captured, captured_id, piece_id = self.kind[to], self.ids[to], self.ids[start]
        self._apply(start, to, seat, kind)
        safe = not self._attacked(self.king[seat], 1 - seat)
        self._undo(start, to, seat, kind, captured, captured_id, piece_id)
        return safe

    def _may_drop(self, to: int, seat: int, kind: int) -> bool:
        """Whether ``seat`` may drop ``kind`` from its hand on the empty square ``to`` (tried, taken back)."""
        if kind == FU and not self._pawn_may_drop(to, seat):
            return False
        board, owner, pos = self.kind, self.owner, self.pos
        board[to], owner[to], pos[to] = kind, seat, CODE[seat][kind]
        allowed = not self._attacked(self.king[seat], 1 - seat) and not (kind == FU and self._pawn_mates(to, seat))
        board[to], owner[to], pos[to] = 0, -1, 0
        return allowed

    def _pawn_mates(self, to: int, seat: int) -> bool:
        """Whether the pawn ``seat`` has just dropped on ``to`` mates (打ち歩詰め).

        A drop cannot block a pawn's check (the pawn stands next to the
        king): only a king's move or a capture of the pawn can answer it,
        and every other move leaves the pawn attacking the king.
        """
        other = 1 - seat
        king = self.king[other]
        checks = king in STEP[seat][FU][to]
        if self.calm:  # the other king was not attacked before the drop: only the pawn can attack it
            return checks and not self._escapes(other, king, to)
        if not self._attacked(king, seat):
            return False
        if not checks:  # checked from elsewhere (a set-up position): every move may answer
            return not self._has_board_move(other)
        return not self._escapes(other, king, to)

    def _escapes(self, seat: int, king: int, checker: int) -> bool:
        """Whether ``seat`` has a king's move, or a capture on ``checker``, that leaves its king unattacked."""
        for to in self._targets(king, OU, seat):
            if self._safe(king, to, seat, OU):
                return True
        kind, owner = self.kind, self.owner
        for start in range(SIZE * SIZE):
            if owner[start] == seat and start != king:
                k = kind[start]
                if self._reaches(start, checker, k, seat) and self._safe(start, checker, seat, k):
                    return True
        return False

    def _pawn_may_drop(self, to: int, seat: int) -> bool:
        return not FAR[seat][to] and not self._pawn_on_file(to, seat)

    def _pawn_on_file(self, to: int, seat: int) -> bool:
        """Whether ``seat`` has an unpromoted pawn on the file of ``to`` already (二歩)."""
        return CODE[seat][FU] in self.pos[to % SIZE : SIZE * SIZE : SIZE]

    def _targets(self, start: int, kind: int, seat: int) -> list[int]:
        """Every square the piece on ``start`` moves to, not holding a piece of its own side."""
        owner = self.owner
        out = [to for to in STEP[seat][kind][start] if owner[to] != seat]
        rays = RAYS.get(kind)
        if rays is not None:
            for ray in rays[start]:
                for i in ray:
                    if owner[i] == seat:
                        break
                    out.append(i)
                    if owner[i] >= 0:
                        break
        return out

    def legal_moves(self) -> list[str]:
        """Every legal move of the side to move, as the records write them (``+3534GI``, ``+0033FU``).

        For players of demo games and benchmarks; a replay does not need it.
        """
        seat = self.turn
        sign = "+" if seat == 0 else "-"
        out = []
        for start in range(SIZE * SIZE):
            if self.owner[start] != seat:
                continue
            k = self.kind[start]
            for to in self._targets(start, k, seat):
                if not self._safe(start, to, seat, k):
                    continue
                written = []
                if may_promote(k, seat, start, to):
                    written.append(KINDS[PROMOTED[k]])
                if not (k == FU and far_row(seat, to)):
                    written.append(KINDS[k])
                out += [f"{sign}{CELLS[start]}{CELLS[to]}{w}" for w in written]
        for k in HAND_KINDS:
            if self.hand[seat][k]:
                out += [
                    f"{sign}00{CELLS[to]}{KINDS[k]}"
                    for to in range(SIZE * SIZE)
                    if not self.kind[to] and self._may_drop(to, seat, k)
                ]
        return out

    # -- what a move says ---------------------------------------------------------------------

    def _promotion(
        self, move: Move, number: int, start: int, to: int, kind: int, written: str, seat: int
    ) -> tuple[bool, Diagnostic | None]:
        """Whether the move promotes, or the diagnostic of a promotion the rules forbid.

        A written piece that is neither the piece moved nor its promotion is
        reported (the standard's own example does it) and the move is read
        as the piece that stands there moving.
        """
        wanted = KIND.get(written, 0)
        may = may_promote(kind, seat, start, to)
        must = kind == FU and far_row(seat, to)
        if wanted == kind:
            if must:
                return False, self.error(
                    BAD_PROMOTION, move, number,
                    N_("move {number}, {move}: a pawn reaching the far rank must promote (write TO)"),
                )
            return False, None
        if kind in PROMOTED and wanted == PROMOTED[kind]:
            if not may:
                return False, self.error(
                    BAD_PROMOTION, move, number,
                    N_("move {number}, {move}: {piece} may promote only on a move into, within or out of the far rank"),
                    {"piece": f"{KINDS[kind]} ({NAMES[kind]})"},
                )
            return True, None
        if kind in BASE and wanted == BASE[kind]:
            template = N_("move {number}, {move}: a promoted piece cannot be unpromoted: the piece on {square} is {piece}")
        elif kind in (KI, OU) and wanted in BASE:
            template = N_("move {number}, {move}: gold and king never promote: the piece on {square} is {piece}")
        else:
            template = N_("move {number}, {move}: the piece on {square} is {piece}, not {written}; read as a move of {piece}")
        self.found.append(
            self.error(
                WRONG_PIECE, move, number, template,
                {"square": CELLS[start], "piece": f"{KINDS[kind]} ({NAMES[kind]})", "written": written},
            )
        )
        return must, None

    def _bad_step(self, move: Move, number: int, start: int, to: int, kind: int, seat: int) -> Diagnostic:
        piece = f"{KINDS[kind]} ({NAMES[kind]})"
        # A slide along its line with a piece in the way: say which.
        rays = RAYS.get(kind)
        for ray in rays[start] if rays else ():
            if to in ray:
                block = next(i for i in ray if self.owner[i] >= 0)
                return self.error(
                    BAD_STEP, move, number, N_("move {number}, {move}: {piece} cannot pass {block} on its way to {square}"),
                    {"piece": piece, "block": CELLS[block], "square": CELLS[to]},
                )
        return self.error(
            BAD_STEP, move, number, N_("move {number}, {move}: {piece} does not move from {start} to {square}"),
            {"piece": piece, "start": CELLS[start], "square": CELLS[to]},
        )

    def _self_check(self, move: Move, number: int, seat: int) -> Diagnostic:
        return self.error(
            SELF_CHECK, move, number, N_("move {number}, {move}: the move leaves {side}'s own king in check"),
            {"side": self.names[seat]},
        )

    def _label(self, start: int, to: int, kind: int, seat: int, promote: bool, zone: bool) -> str:
        """The move in the usual Japanese notation: ▲２四歩, △同角成, ▲３三銀不成, ▲２二金右.

        ``zone``: whether the move goes into, within or out of the far rank.
        """
        text = SAME_LABELS[seat][kind] if to == self.last_to else LABELS[seat][to][kind]
        if self.pos.count(CODE[seat][kind], 0, SIZE * SIZE) > 1:  # another such piece of the mover's
            text += self._which(start, to, kind, seat)
        if promote:
            return text + "成"
        if zone and kind in PROMOTED:
            return text + "不成"
        return text

    def _which(self, start: int, to: int, kind: int, seat: int) -> str:
        """右/左/上/引/寄/直 when another piece of the same kind could go to the same square."""
        others = [i for i in _squares_of(self.pos, CODE[seat][kind]) if i != start and self._reaches(i, to, kind, seat)]
        if not others:
            return ""
        sign = 1 if seat == 0 else -1  # rows forward and columns to the right, as the mover sees them

        def motion(i: int) -> str:
            forward = sign * (i // SIZE - to // SIZE)
            return "上" if forward > 0 else "引" if forward < 0 else "寄"

        mine = motion(start)
        if all(motion(i) != mine for i in others):
            return mine
        rivals = [i for i in others if motion(i) == mine]
        if kind in (KI, GI, TO, NG) and mine == "上" and start % SIZE == to % SIZE:
            return "直"
        right = all(sign * (start % SIZE - i % SIZE) > 0 for i in rivals)
        left = all(sign * (start % SIZE - i % SIZE) < 0 for i in rivals)
        side = "右" if right else "左" if left else ""
        return side if len(others) == len(rivals) else side + mine


def _squares_of(pos: bytearray, code: int) -> list[int]:
    """The squares of the board (not the hands after it) holding a piece of ``code`` (CODE), in order."""
    out = []
    i = pos.find(code, 0, SIZE * SIZE)
    while i >= 0:
        out.append(i)
        i = pos.find(code, i + 1, SIZE * SIZE)
    return out


# A start position as ShogiEngine._state() keeps it: kind, owner, ids, the hands, kings, turn, pos,
# checked, calm, and whether the game can be played from it.
_StartState = tuple[
    tuple[int, ...], tuple[int, ...], tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...],
    int, bytes, bool, bool, bool,
]
# The start positions met so far, by their set-up rows (see ShogiEngine._start()).
_START_STATES: dict[tuple[str, ...], _StartState] = {}
# setup()'s ops, by the position (pos, ids) and the seats' colours.
_SETUP_OPS: dict[tuple[bytes, tuple[str, ...], tuple[str, ...]], list[Op]] = {}
# The standard start (PI), as a record's set-up rows: P1 to P5, hands, side to move.
_STANDARD = ["-HI-KA-GI-KI-OU", " *  *  *  * -FU", " *  *  *  *  * ", "+FU *  *  *  * ", "+OU+KI+GI+KA+HI", "+", "-", "+"]


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    return ShogiEngine(game, options, record).replay(record)

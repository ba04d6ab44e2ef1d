"""Draughts (DR10, DR8): men, flying kings, mandatory captures, three rule sets.

The board has ``size`` x ``size`` squares; the dark ones are numbered 1 to
``size * size / 2`` from the top-left, row by row, as the CCGC standard and
FMJD number them (square 1 is the second square of the top row). Cells are
named by their numbers (``"7"``). The upper side (black) starts on the first
``size / 2 - 1`` rows and moves down; the lower side (white) on the last rows
and moves up. The record says who moves first (``先手：1`` or ``先手：2``).

Rules common to every set played here:

* a man steps one square diagonally forward; a king (crowned on the far
  row) flies along a free diagonal;
* capturing is mandatory; a man captures forward and backward by jumping an
  adjacent enemy piece onto the empty square behind it; a king captures an
  enemy piece at any distance along a diagonal and lands on any free square
  beyond it; a capture goes on as long as the piece can capture again (a king
  lands where it can go on, if it can), and the pieces it took leave the
  board only when it ends, so none is jumped twice (the Turkish strike);
* a side with no legal move (no pieces, or all blocked) has lost.

And where they differ (the ``rules`` of the game type: a fixed param of
DR10, an event option of DR8):

* ``international`` (FMJD, DR10) and ``brazilian`` (the same on 8x8): the
  capture that takes the most pieces is mandatory (kings count as men); a
  man is crowned only where its move ends on the far row: passing it during
  a capture crowns nothing;
* ``russian``: any capture may be chosen, but it must be completed; a man
  that reaches the far row during a capture is crowned there and goes on
  capturing as a king.

Draws (repetition, king moves without capture ...) are the organiser's
ruling, not the engine's: the declared result stands where the record ends
with both sides still able to move.

When a DR8 record breaks the event's rules but keeps the other set's, the
error says so (an event that played Brazilian rules without saying so in
``site.toml``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator import scene
from generator.diagnostics import Diagnostic, define
from generator.games import GameType
from generator.i18n import N_, T, Term
from generator.model import Decision, Move, Op, Ply, Record, Replay
from generator.rules.engine import SEATS, Engine, Message, OffBoard

# Codes of this family: the 8xx block of RULE-.
NO_PIECE = define(
    "RULE-E801",
    "error",
    "The move starts from an empty square or from the opponent's piece",
    "Check the first square of the move and the order of the moves (先手：1 means the upper side moves first).",
)
MUST_CAPTURE = define(
    "RULE-E802",
    "error",
    "A capture was possible: capturing is mandatory",
    "The message lists the captures the side had; look for a missing or mistyped move before this one.",
)
BAD_STEP = define(
    "RULE-E803",
    "error",
    "The piece cannot move there",
    "A man steps one square diagonally forward onto an empty square; a king moves along a free diagonal.",
)
BAD_CAPTURE = define(
    "RULE-E804",
    "error",
    "The capture is not possible as written",
    "The message lists the captures that were possible; check the squares of the move.",
)
NOT_MAXIMUM = define(
    "RULE-E805",
    "error",
    "The capture does not take the most pieces (the maximum capture is mandatory)",
    "Under international and Brazilian rules the capture that takes the most pieces must be played; "
    "the message lists them.",
)
INCOMPLETE = define(
    "RULE-E806",
    "error",
    "The capture stops while the piece can capture again",
    "A capture goes on as long as the piece can take another piece; write every landing square.",
)
AMBIGUOUS = define(
    "RULE-E807",
    "error",
    "A capture written without its landing squares could be several captures",
    "Write the landing squares (29x18x27) so that the captured pieces are known.",
)
OTHER_RULES = define(
    "RULE-E808",
    "error",
    "The move breaks the event's rules but keeps the other rules of this board",
    "If the event played the other rules, set them in site.toml ([events.<folder>.games.<code>] "
    "options = { rules = \"...\" }); otherwise the move is illegal.",
)
SIGN = define(
    "RULE-W801",
    "warning",
    "A capture is written with - or a plain move with x",
    "Write captures with x and plain moves with -; the move was read as what it is.",
)

# Rule sets: name -> (the maximum capture is mandatory, a man crowned during a capture goes on as a king).
RULES: dict[str, tuple[bool, bool]] = {"international": (True, False), "brazilian": (True, False), "russian": (False, True)}
RULE_NAMES: dict[str, Term] = {"international": T("international"), "brazilian": T("Brazilian"), "russian": T("Russian")}

# Pieces on the board: 0 empty; 1 + 2 * side + king. Side 0 is the upper side, 1 the lower.
EMPTY = 0
UPPER, LOWER = 0, 1
LETTERS = ("B", "W")  # the side letters the reader gives: black above, white below
COLOURS = ("black", "white")
# Directions: up-left, up-right, down-left, down-right.
DIRECTIONS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
FORWARD = ((2, 3), (0, 1))  # per side: the upper side moves down
# Per piece (see piece_of): what the board draws; and the pieces' ids in the scene, per start square.
KINDS = ("", "man", "king", "man", "king")
PIECE_COLOURS = ("", "black", "black", "white", "white")
MAN, KING = (1, 3), (2, 4)  # per side: its man, its king (piece_of)
_PIECE_IDS = tuple(f"p{sq}" for sq in range(201))  # boards up to 20x20


def owner(piece: int) -> int:
    return (piece - 1) >> 1


def is_king(piece: int) -> bool:
    return piece > 0 and piece % 2 == 0


def piece_of(side: int, king: bool) -> int:
    return 1 + 2 * side + int(king)


@dataclass(frozen=True, slots=True)
class Geometry:
    """The squares of a board of one size: where each is and what lies along its diagonals."""

    size: int
    count: int  # squares: 50 or 32
    cells: tuple[str, ...]  # square -> cell id, "" at 0
    rows: tuple[int, ...]  # square -> row from the top
    columns: tuple[int, ...]  # square -> column from the left
    rays: tuple[tuple[tuple[int, ...], ...], ...]  # square -> direction -> squares along it, nearest first
    jumps: tuple[tuple[tuple[int, int], ...], ...]  # square -> (the square jumped, the square landed on) of a man
    ahead: tuple[tuple[tuple[int, ...], ...], ...]  # per side: square -> where a man of the side steps from it
    crown: tuple[frozenset[int], frozenset[int]]  # per side: the far row, where its men are crowned
    # The same squares as bits of an int (see _bitboard): square -> its bit, bit index -> square (0 for
    # none), the bits of every square, and the index steps of the diagonals: ``near`` down-left and
    # up-right, ``far`` down-right and up-left (5 and 6 on 10x10).
    bits: tuple[int, ...]
    square_at: tuple[int, ...]
    every: int
    near: int
    far: int

    def start(self) -> list[int]:
        """The board at the start: upper men on the first rows, lower men on the last."""
        board = [EMPTY] * (self.count + 1)
        men = (self.size // 2 - 1) * (self.size // 2)
        for sq in range(1, men + 1):
            board[sq] = piece_of(UPPER, False)
        for sq in range(self.count - men + 1, self.count + 1):
            board[sq] = piece_of(LOWER, False)
        return board


_GEOMETRIES: dict[int, Geometry] = {}


def geometry(size: int) -> Geometry:
    """The geometry of a board, made once per size."""
    known = _GEOMETRIES.get(size)
    if known is not None:
        return known
    count = size * size // 2
    rows, columns = [0] * (count + 1), [0] * (count + 1)
    for sq in range(1, count + 1):
        r, i = divmod(sq - 1, size // 2)
        rows[sq], columns[sq] = r, 2 * i + (1 if r % 2 == 0 else 0)

    def at(r: int, c: int) -> int | None:
        if not (0 <= r < size and 0 <= c < size) or (r + c) % 2 == 0:
            return None
        return r * (size // 2) + c // 2 + 1

    rays: list[tuple[tuple[int, ...], ...]] = [()]
    for sq in range(1, count + 1):
        per: list[tuple[int, ...]] = []
        for dr, dc in DIRECTIONS:
            ray = []
            r, c = rows[sq] + dr, columns[sq] + dc
            while (nxt := at(r, c)) is not None:
                ray.append(nxt)
                r, c = r + dr, c + dc
            per.append(tuple(ray))
        rays.append(tuple(per))
    half = size // 2
    crown = (frozenset(range(count - half + 1, count + 1)), frozenset(range(1, half + 1)))
    jumps = tuple(tuple((ray[0], ray[1]) for ray in per if len(ray) >= 2) for per in rays)
    ahead = tuple(tuple(tuple(per[d][0] for d in FORWARD[side] if per[d]) if per else () for per in rays)
                  for side in (UPPER, LOWER))
    bits, square_at = _bitboard(size, rows, columns)
    known = _GEOMETRIES[size] = Geometry(
        size, count, ("", *(str(sq) for sq in range(1, count + 1))), tuple(rows), tuple(columns), tuple(rays), jumps,
        ahead, crown, bits, square_at, sum(bits), size // 2, size // 2 + 1,
    )
    return known


def _bitboard(size: int, rows: list[int], columns: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each square's bit, and each bit's square, in a layout where a diagonal step is one shift.

    Square (row r, column c) is bit ``(r * (size + 1) + c) // 2``: one unused bit
    every two rows (10x10: bits 10, 21, 32, 43) makes every diagonal neighbour
    the same distance away, ``size // 2`` or ``size // 2 + 1``, and a shift off the
    board's edge lands on an unused bit or off the board, never on a square.
    So one shift and mask asks a question of every piece at once (which men can
    jump, can any piece move), where a loop over the squares cost far more.
    """
    index = [(rows[sq] * (size + 1) + columns[sq]) // 2 for sq in range(1, len(rows))]
    square_at = [0] * (max(index) + 1)
    for sq, i in enumerate(index, 1):
        square_at[i] = sq
    return (0, *(1 << i for i in index)), tuple(square_at)


@dataclass(frozen=True, slots=True)
class Capture:
    """One complete capture: where it starts, every square it lands on, the pieces it takes."""

    start: int
    landings: tuple[int, ...]
    taken: tuple[int, ...]
    king: bool  # the piece is a king when the capture ends

    @property
    def end(self) -> int:
        return self.landings[-1]

    @property
    def text(self) -> str:
        return "x".join(f"{sq:02d}" for sq in (self.start, *self.landings))


def _jump(board: list[int], geo: Geometry, at: int, d: int, king: bool, side: int, start: int,
          taken: tuple[int, ...]) -> tuple[int, list[int]] | None:
    """The piece a capture from ``at`` along direction ``d`` takes and where it may land; None if none.

    The start square counts as empty (the piece has left it); pieces already
    taken stay on the board until the capture ends and may not be jumped again.
    """
    ray = geo.rays[at][d]
    if not king:
        if len(ray) < 2:
            return None
        over, land = ray[0], ray[1]
        piece = board[over]
        if piece == EMPTY or owner(piece) == side or over in taken or (board[land] != EMPTY and land != start):
            return None
        return over, [land]
    i, n = 0, len(ray)
    while i < n and (board[ray[i]] == EMPTY or ray[i] == start):
        i += 1
    if i == n:
        return None
    over = ray[i]
    if owner(board[over]) == side or over in taken:
        return None
    lands = []
    i += 1
    while i < n and (board[ray[i]] == EMPTY or ray[i] == start):
        lands.append(ray[i])
        i += 1
    return (over, lands) if lands else None


def piece_captures(board: list[int], geo: Geometry, start: int, crown_mid: bool) -> list[Capture]:
    """Every complete capture of the piece on ``start`` (none taking fewer pieces filtered out).

    Each jump is :func:`_jump`, written out here: this search is most of the
    work of a capture move.
    """
    piece = board[start]
    side, was_king = owner(piece), is_king(piece)
    crown_row = geo.crown[side]
    rays, jumps = geo.rays, geo.jumps
    man, king = MAN[1 - side], KING[1 - side]  # the pieces it may take
    out: list[Capture] = []

    def walk(at: int, flying: bool, taken: tuple[int, ...], landings: tuple[int, ...]) -> bool:
        """Go on from ``at``, direction by direction; whether the piece could capture from there."""
        if not flying:
            # A man lands on the one square behind the piece it takes: the loop below for one landing, written out
            # (most captures are a man's).
            could = False
            for over, land in jumps[at]:
                if (board[over] == man or board[over] == king) and over not in taken and (board[land] == EMPTY or land == start):
                    could = True
                    further, route = taken + (over,), landings + (land,)
                    crowned = crown_mid and land in crown_row
                    if not walk(land, crowned, further, route):
                        out.append(Capture(start, route, further, crowned or land in crown_row))
            return could
        found: list[tuple[int, list[int]]] = []  # (the piece taken, where the king may land)
        for ray in rays[at]:
            # Along free squares (the start counts as free) to a piece, then the free squares behind it.
            over, lands = 0, []  # no square 0: none taken yet
            for sq in ray:
                if board[sq] == EMPTY or sq == start:
                    if over:
                        lands.append(sq)
                elif over or (board[sq] != man and board[sq] != king) or sq in taken:
                    break  # a second piece, or one that cannot be taken
                else:
                    over = sq
            if lands:
                found.append((over, lands))
        for over, lands in found:
            further = taken + (over,)
            ends = [land for land in lands if not walk(land, True, further, landings + (land,))]
            if len(ends) == len(lands):  # a king lands where it can go on, if it can
                out.extend(Capture(start, landings + (land,), further, True) for land in ends)
        return bool(found)

    walk(start, was_king, (), ())
    return out


def all_captures(board: list[int], geo: Geometry, side: int, crown_mid: bool) -> list[Capture]:
    """Every complete capture of a side, whatever it takes."""
    out: list[Capture] = []
    jumps = geo.jumps
    man, king = piece_of(side, False), piece_of(side, True)
    for sq, piece in enumerate(board):  # board[0] is always empty
        if piece != man and piece != king:
            continue
        # Most men can take nothing: a look at their neighbours first (this runs at every move).
        if piece == man:
            for over, land in jumps[sq]:
                taken = board[over]
                if taken != EMPTY and taken != man and taken != king and board[land] == EMPTY:
                    break
            else:
                continue
        out += piece_captures(board, geo, sq, crown_mid)
    return out


def most(captures: list[Capture]) -> list[Capture]:
    """The captures that take the most pieces."""
    if len(captures) < 2:
        return captures
    best = max(len(c.taken) for c in captures)
    return [c for c in captures if len(c.taken) == best]


def steps(board: list[int], geo: Geometry, start: int) -> list[int]:
    """Where the piece on ``start`` may move without capturing."""
    piece = board[start]
    out = []
    if is_king(piece):
        for ray in geo.rays[start]:
            for sq in ray:
                if board[sq] != EMPTY:
                    break
                out.append(sq)
        return out
    return [sq for sq in geo.ahead[owner(piece)][start] if board[sq] == EMPTY]


def can_move(board: list[int], geo: Geometry, side: int) -> bool:
    """Whether a side has a legal move (a step or a capture)."""
    mine = []
    rays, forward, every = geo.rays, FORWARD[side], range(4)
    man, king = piece_of(side, False), piece_of(side, True)
    for sq, piece in enumerate(board):  # board[0] is always empty
        if piece != man and piece != king:
            continue
        for d in forward if piece == man else every:
            ray = rays[sq][d]
            if ray and board[ray[0]] == EMPTY:
                return True
        mine.append(sq)
    return any(_jump(board, geo, sq, d, is_king(board[sq]), side, sq, ()) for sq in mine for d in range(4))


def legal_captures(board: list[int], geo: Geometry, side: int, rules: str) -> list[Capture]:
    """The captures a side may play under a rule set (all of them, or those that take the most)."""
    maximum, crown_mid = RULES[rules]
    found = all_captures(board, geo, side, crown_mid)
    return most(found) if maximum else found


def make_step(board: list[int], geo: Geometry, start: int, to: int) -> bool:
    """Play a move without capture on ``board``; whether it crowned a man."""
    piece = board[start]
    board[start] = EMPTY
    crowned = not is_king(piece) and to in geo.crown[owner(piece)]
    board[to] = piece_of(owner(piece), True) if crowned else piece
    return crowned


def make_capture(board: list[int], capture: Capture) -> bool:
    """Play a capture on ``board``: the taken pieces leave, the piece lands; whether it crowned a man."""
    piece = board[capture.start]
    board[capture.start] = EMPTY
    for sq in capture.taken:
        board[sq] = EMPTY
    crowned = capture.king and not is_king(piece)
    board[capture.end] = piece_of(owner(piece), True) if crowned else piece
    return crowned


def _subsequence(part: tuple[int, ...], whole: tuple[int, ...]) -> bool:
    it = iter(whole)
    return all(sq in it for sq in part)


def matching(captures: list[Capture], squares: tuple[int, ...]) -> list[Capture]:
    """The captures a move as written may be: same start and end, its middle squares among the landings, in order."""
    start, end, middle = squares[0], squares[-1], squares[1:-1]
    if not middle:  # most captures are written so, or take one piece
        return [c for c in captures if c.start == start and c.landings[-1] == end]
    return [c for c in captures if c.start == start and c.landings[-1] == end and _subsequence(middle, c.landings[:-1])]


def _listed(captures: list[Capture], limit: int = 6) -> str:
    texts = list(dict.fromkeys(c.text for c in captures))
    return ", ".join(texts[:limit]) + (", …" if len(texts) > limit else "")


def _outcome(capture: Capture) -> tuple[int, frozenset[int], bool]:
    return capture.end, frozenset(capture.taken), capture.king


def ambiguous(captures: list[Capture]) -> bool:
    """Whether the captures a written move may be leave different positions (other pieces taken, another end)."""
    return len({_outcome(c) for c in captures}) > 1


@dataclass(slots=True)
class Verdict:
    """What the rules say of a move as written: the capture or step it is, or why it is illegal."""

    capture: Capture | None = None
    step: tuple[int, int] | None = None
    code: str | None = None  # the error when illegal; SIGN when legal but written with the wrong sign
    template: str = ""
    args: Mapping[str, Any] | None = None
    why: Term | None = None  # the rule broken, in a word, for the message about the other rules

    @property
    def legal(self) -> bool:
        return self.capture is not None or self.step is not None


def judge(board: list[int], geo: Geometry, side: int, rules: str, squares: tuple[int, ...], capture: bool,
          legal: list[Capture] | None = None) -> Verdict:
    """The verdict on a move as written (its squares, and whether it was written as a capture).

    ``legal``: the side's :func:`legal_captures`, where the caller knows them already.
    """
    start = squares[0]
    piece = board[start]
    if piece == EMPTY:
        return Verdict(code=NO_PIECE, template=N_("move {number}, {move}: square {square} is empty: there is no piece to move"),
                       args={"square": start}, why=T("a move starts from one's own piece"))
    if owner(piece) != side:
        return Verdict(code=NO_PIECE, template=N_("move {number}, {move}: square {square} holds a piece of the other side"),
                       args={"square": start}, why=T("a move starts from one's own piece"))
    if legal is None:
        legal = legal_captures(board, geo, side, rules)
    if legal:
        return _judge_capture(board, geo, side, rules, squares, capture, legal)
    return _judge_step(board, geo, squares, capture)


def _judge_capture(board: list[int], geo: Geometry, side: int, rules: str, squares: tuple[int, ...], capture: bool,
                   legal: list[Capture]) -> Verdict:
    found = matching(legal, squares) if len(squares) >= 2 else []
    if found:
        if ambiguous(found):
            return Verdict(code=AMBIGUOUS, template=N_(
                "move {number}, {move}: the capture from {start} to {end} can be made in several ways that take "
                "different pieces ({captures}); write its landing squares"
            ), args={"start": squares[0], "end": squares[-1], "captures": _listed(found)},
                why=T("a capture must be written unambiguously"))
        verdict = Verdict(capture=found[0])
        if not capture:
            verdict.code, verdict.template = SIGN, N_("move {number}, {move}: a capture written with -; read as {capture}")
            verdict.args = {"capture": found[0].text}
        return verdict
    if not capture and len(squares) == 2:
        return Verdict(code=MUST_CAPTURE, template=N_(
            "move {number}, {move}: capturing is mandatory: this side must capture ({captures})"
        ), args={"captures": _listed(legal)}, why=T("capturing is mandatory"))
    maximum, crown_mid = RULES[rules]
    every = all_captures(board, geo, side, crown_mid)
    if maximum and (fewer := matching(every, squares)):
        return Verdict(code=NOT_MAXIMUM, template=N_(
            "move {number}, {move}: the maximum capture is mandatory: this capture takes {took}, but {best} can "
            "be taken ({captures})"
        ), args={"took": len(fewer[0].taken), "best": len(legal[0].taken), "captures": _listed(legal)},
            why=T("the maximum capture is mandatory"))
    start, end = squares[0], squares[-1]
    longer = [c for c in every if c.start == start and end in c.landings[:-1]
              and _subsequence(squares[1:], c.landings[: c.landings.index(end) + 1])]
    if longer:
        man = not is_king(board[start])
        # Where the written capture reached the far row, a man was crowned there: why it had to go on.
        crowned = crown_mid and man and any(sq in geo.crown[side] for sq in squares[1:])
        why = T("a man crowned during a capture goes on capturing as a king") if crowned else T("a capture must be completed")
        return Verdict(code=INCOMPLETE, template=N_(
            "move {number}, {move}: the capture must go on: from {end} the piece can capture again ({captures})"
        ), args={"end": end, "captures": _listed(longer)}, why=why)
    own = [c for c in legal if c.start == start]
    why = (T("a man is crowned only where its move ends on the far row") if not crown_mid
           else T("a man crowned during a capture goes on capturing as a king"))
    if own:
        return Verdict(code=BAD_CAPTURE, template=N_(
            "move {number}, {move}: the piece on {start} cannot capture this way; its captures: {captures}"
        ), args={"start": start, "captures": _listed(own)}, why=why)
    return Verdict(code=BAD_CAPTURE, template=N_(
        "move {number}, {move}: the piece on {start} has no capture, and capturing is mandatory: possible "
        "captures are {captures}"
    ), args={"start": start, "captures": _listed(legal)}, why=T("capturing is mandatory"))


def _judge_step(board: list[int], geo: Geometry, squares: tuple[int, ...], capture: bool) -> Verdict:
    start, to = squares[0], squares[-1]
    if len(squares) > 2:
        return Verdict(code=BAD_CAPTURE, template=N_(
            "move {number}, {move}: there is nothing to capture: no piece of this side can capture"
        ), why=T("a capture needs a piece to take"))
    if to in steps(board, geo, start):
        verdict = Verdict(step=(start, to))
        if capture:
            verdict.code, verdict.template = SIGN, N_("move {number}, {move}: a plain move written with x; read as {step}")
            verdict.args = {"step": f"{start:02d}-{to:02d}"}
        return verdict
    if capture:
        return Verdict(code=BAD_CAPTURE, template=N_(
            "move {number}, {move}: there is nothing to capture: no piece of this side can capture"
        ), why=T("a capture needs a piece to take"))
    args: dict[str, Any] = {"start": start, "to": to}
    why = T("a piece moves along a diagonal")
    dr, dc = geo.rows[to] - geo.rows[start], geo.columns[to] - geo.columns[start]
    if abs(dr) != abs(dc) or dr == 0:
        template = N_("move {number}, {move}: {to} is not on a diagonal of {start}")
        return Verdict(code=BAD_STEP, template=template, args=args, why=why)
    if board[to] != EMPTY:
        return Verdict(code=BAD_STEP, template=N_("move {number}, {move}: square {to} is not empty"), args=args, why=why)
    if is_king(board[start]):
        d = DIRECTIONS.index((1 if dr > 0 else -1, 1 if dc > 0 else -1))
        block = next(sq for sq in geo.rays[start][d] if board[sq] != EMPTY)
        return Verdict(code=BAD_STEP, template=N_(
            "move {number}, {move}: the king's way from {start} to {to} is blocked on {square}"
        ), args={**args, "square": block}, why=why)
    return Verdict(code=BAD_STEP, template=N_(
        "move {number}, {move}: a man moves one square diagonally forward, not from {start} to {to}"
    ), args=args, why=T("a man moves one square diagonally forward"))


# -- replay --------------------------------------------------------------------


def _pieces(geo: Geometry, board: list[int]) -> tuple[tuple[int, ...], tuple[str | None, ...], tuple[int, int], tuple[int, int]]:
    """A position as DraughtsEngine keeps it: the board, the pieces' ids, and the men and kings per side as bits."""
    ids = tuple(_PIECE_IDS[sq] if board[sq] else None for sq in range(geo.count + 1))
    men, kings = [0, 0], [0, 0]
    for sq in range(1, geo.count + 1):
        if board[sq]:
            (kings if is_king(board[sq]) else men)[owner(board[sq])] |= geo.bits[sq]
    return tuple(board), ids, (men[0], men[1]), (kings[0], kings[1])


# Board size -> the usual start (_pieces), made once: every record starts from it.
_STARTS: dict[int, tuple[tuple[int, ...], tuple[str | None, ...], tuple[int, int], tuple[int, int]]] = {}


class DraughtsEngine(Engine):
    """The replay of one draughts record from the start position; the record says who moves first.

    ``position`` (square -> piece, see :func:`piece_of`) starts from another
    position: the records have no set-up, but single rules are tested so.

    Besides ``board`` (square -> piece, what the functions above read), the
    engine keeps the pieces as bitboards, ``men`` and ``kings`` per side (see
    :func:`_bitboard`): most moves are plain steps, and whether the side had a
    capture instead, or whether the opponent can still move, is a few shifts
    there. The full capture search runs only where a capture exists.
    """

    __slots__ = ("board", "geo", "ids", "kings", "men", "other_rules", "rules", "sides")

    def __init__(
        self, game: GameType, options: Mapping[str, Any] | None, first_letter: str | None,
        position: Mapping[int, int] | None = None,
    ) -> None:
        super().__init__(game, options)
        self.geo = geo = geometry(int(game.params["size"]))
        self.rules = rules = str((options or {}).get("rules") or game.options.get("rules") or game.params.get("rules"))
        if rules not in RULES:
            rules = self.rules = "international"
        self.other_rules = tuple(r for r in game.choices.get("rules", ()) if r != rules and r in RULES)
        # ``position``: square -> piece, a start other than the usual one (tests of single rules).
        if position is None:
            start = _STARTS.get(geo.size)
            if start is None:
                start = _STARTS[geo.size] = _pieces(geo, geo.start())
        else:
            start = _pieces(geo, [position.get(sq, EMPTY) for sq in range(geo.count + 1)])
        board, ids, men, kings = start
        self.board, self.ids, self.men, self.kings = list(board), list(ids), list(men), list(kings)
        first = LOWER if first_letter == LETTERS[LOWER] else UPPER
        self.first_letter = LETTERS[first]
        self.sides = (first, 1 - first)  # seat -> side
        by_letter = {side.letter: side for side in (game.first, game.second)}
        order = [by_letter[LETTERS[s]] for s in self.sides]
        self.letters = {LETTERS[s]: seat for seat, s in enumerate(self.sides)}
        self.colours = tuple(COLOURS[s] for s in self.sides)
        self.names = tuple(side.name for side in order)

    def setup(self) -> list[Op]:
        geo, board, ids = self.geo, self.board, self.ids
        return [scene.add(ids[sq], KINDS[board[sq]], PIECE_COLOURS[board[sq]], geo.cells[sq])  # type: ignore[arg-type]
                for sq in range(1, geo.count + 1) if board[sq] != EMPTY]

    def read(self, move: Move) -> Any:
        point, to = move.point, move.to
        if point is None or to is None:
            return None
        count = self.geo.count
        if move.parts:
            return self.locate(move, lambda point: point[1] if 1 <= point[1] <= count else None)
        # A move of two squares, nearly every move: what locate() does, without its loop.
        start, end = point[1], to[1]
        if not 1 <= start <= count:
            return OffBoard(point)
        if not 1 <= end <= count:
            return OffBoard(to)
        return start, end

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        side = self.sides[seat]
        board, geo = self.board, self.geo
        # The usual moves are decided here as judge() decides them, from less: a capture written as the
        # one legal capture it can be; a man's step, or a king's, where the side had no capture.
        # Anything else (an error, a warning, an ambiguous capture) goes to judge().
        legal: list[Capture] = []
        ops: list[Op] | None = None
        jumpers = self._jumpers(side)
        if jumpers:
            if move.capture and not RULES[self.rules][0] and jumpers & geo.bits[at[0]]:
                # Where any capture may be chosen, the moved piece's own captures say whether this one is legal.
                own = piece_captures(board, geo, at[0], RULES[self.rules][1])
                if len(found := matching(own, at)) == 1:
                    ops = self._capture(found[0], seat)
            if ops is None:
                legal = self._captures(jumpers)
                if move.capture and len(found := matching(legal, at)) == 1:
                    ops = self._capture(found[0], seat)
        elif not move.capture and len(at) == 2:
            start, to = at
            piece = board[start]
            if (to in geo.ahead[side][start] and board[to] == EMPTY if piece == MAN[side]
                    else piece == KING[side] and to in steps(board, geo, start)):
                ops = self._step(start, to, seat)
        if ops is None:
            verdict = judge(board, geo, side, self.rules, at, move.capture, legal)
            if not verdict.legal:
                return self._illegal(move, number, side, at, verdict)
            if verdict.code is not None:
                self.found.append(self.error(verdict.code, move, number, verdict.template, verdict.args))
            if verdict.capture is not None:
                ops = self._capture(verdict.capture, seat)
            else:
                assert verdict.step is not None
                ops = self._step(*verdict.step, seat)
        self.turn = 1 - seat
        self.unsettled = True  # whether the opponent can still move: settle(), where it matters
        return self.ply(move, number, seat, ops)

    def _illegal(self, move: Move, number: int, side: int, at: tuple[int, ...], verdict: Verdict) -> Diagnostic:
        """The error of an illegal move; where another rule set of the game allows it, that error instead."""
        for other in self.other_rules:
            if judge(self.board, self.geo, side, other, at, move.capture).legal:
                return self.error(OTHER_RULES, move, number, N_(
                    "move {number}, {move}: not allowed under {rules} rules ({why}), but allowed under {other} "
                    "rules; this event plays {rules} rules (option rules in site.toml)"
                ), {"rules": RULE_NAMES[self.rules], "other": RULE_NAMES[other], "why": verdict.why or T("these rules")})
        return self.error(verdict.code or BAD_STEP, move, number, verdict.template, verdict.args)

    def _step(self, start: int, to: int, seat: int) -> list[Op]:
        ids, geo, board = self.ids, self.geo, self.board
        cells, bits = geo.cells, geo.bits
        piece_id = ids[start]
        assert piece_id is not None
        ops = [scene.move(piece_id, cells[to]), scene.mark(cells[start], "from"), scene.mark(cells[to], "last")]
        ids[start], ids[to] = None, piece_id
        # make_step(), and the bitboards with it: every plain move comes here.
        side = self.sides[seat]
        piece = board[start]
        board[start] = EMPTY
        if piece == KING[side]:
            board[to] = piece
            self.kings[side] ^= bits[start] | bits[to]
        elif to in geo.crown[side]:
            board[to] = KING[side]
            self.men[side] ^= bits[start]
            self.kings[side] |= bits[to]
            ops += self._crowned(piece_id, cells[to], seat)
        else:
            board[to] = piece
            self.men[side] ^= bits[start] | bits[to]
        return ops

    def _capture(self, capture: Capture, seat: int) -> list[Op]:
        ids, cells, bits, board = self.ids, self.geo.cells, self.geo.bits, self.board
        start, landings = capture.start, capture.landings
        end = landings[-1]
        piece_id = ids[start]
        assert piece_id is not None
        route = [cells[start], *map(cells.__getitem__, landings)]
        ops: list[Op] = [scene.path(route, "capture"), scene.move(piece_id, cells[end])]
        gone = 0
        for sq in capture.taken:
            taken_id = ids[sq]
            if taken_id is not None:
                ops.append(scene.remove(taken_id))
            ops.append(scene.mark(cells[sq], "taken"))
            ids[sq] = None
            board[sq] = EMPTY  # make_capture() here and below, the bitboards with it, as in _step()
            gone |= bits[sq]
        ops += [scene.mark(cells[start], "from"), scene.mark(cells[end], "last")]
        ids[start], ids[end] = None, piece_id
        side = self.sides[seat]
        self.men[1 - side] &= ~gone
        self.kings[1 - side] &= ~gone
        piece = board[start]
        board[start] = EMPTY
        if piece == KING[side]:
            board[end] = piece
            self.kings[side] = self.kings[side] & ~bits[start] | bits[end]
        elif capture.king:
            board[end] = KING[side]
            self.men[side] &= ~bits[start]
            self.kings[side] |= bits[end]
            ops += self._crowned(piece_id, cells[end], seat)
        else:
            board[end] = piece
            self.men[side] = self.men[side] & ~bits[start] | bits[end]
        return ops

    def _crowned(self, piece_id: str, cell: str, seat: int) -> list[Op]:
        note = scene.note(N_("{side}'s man is crowned on {cell}"), side=SEATS[seat], cell=cell)
        return [scene.set_kind(piece_id, "king"), note]

    # -- the bitboards --------------------------------------------------------------

    def _jumpers(self, side: int) -> int:
        """The pieces of ``side`` that may capture, as bits: the men that can jump, and every king if one can.

        0: the side has no capture (a first jump goes on into a complete capture; there is none without one).
        """
        geo = self.geo
        near, far = geo.near, geo.far
        men, kings = self.men[side], self.kings[side]
        enemy = self.men[1 - side] | self.kings[1 - side]
        empty = geo.every & ~(men | kings | enemy)
        # From each free square back over an enemy piece: a man there can jump it.
        jumpers = men & ((empty >> near & enemy) >> near | (empty >> far & enemy) >> far
                         | (empty << near & enemy) << near | (empty << far & enemy) << far)
        if not kings:
            return jumpers
        for shift in (near, far):
            # The squares each king reaches along free squares, then an enemy piece with a free square behind it.
            reach = ahead = kings
            while ahead := ahead << shift & empty:
                reach |= ahead
            if (reach << shift & enemy) << shift & empty:
                return jumpers | kings
            reach = ahead = kings
            while ahead := ahead >> shift & empty:
                reach |= ahead
            if (reach >> shift & enemy) >> shift & empty:
                return jumpers | kings
        return jumpers

    def _can_take(self, side: int) -> bool:
        """Whether ``side`` has a capture."""
        return self._jumpers(side) != 0

    def _captures(self, jumpers: int) -> list[Capture]:
        """:func:`legal_captures` of the side whose ``jumpers`` these are, searched from them only, in the same order."""
        geo, board = self.geo, self.board
        maximum, crown_mid = RULES[self.rules]
        found: list[Capture] = []
        square_at = geo.square_at
        while jumpers:
            low = jumpers & -jumpers  # the lowest bit: the squares in order
            found += piece_captures(board, geo, square_at[low.bit_length() - 1], crown_mid)
            jumpers ^= low
        return most(found) if maximum else found

    def _can_move(self, side: int) -> bool:
        """Whether ``side`` has a legal move (:func:`can_move`)."""
        geo = self.geo
        near, far = geo.near, geo.far
        men, kings = self.men[side], self.kings[side]
        empty = geo.every & ~(men | kings | self.men[1 - side] | self.kings[1 - side])
        ahead = men << near | men << far if side == UPPER else men >> near | men >> far  # the upper side moves down
        if (ahead | kings << near | kings << far | kings >> near | kings >> far) & empty:
            return True
        return self._can_take(side)

    # -- the end ------------------------------------------------------------------------

    def settle(self, last: Ply) -> None:
        """After a move: the opponent with no piece or no legal move has lost."""
        seat, loser = 1 - self.turn, self.turn
        other = self.sides[loser]
        if self._can_move(other):
            return
        if not self.men[other] | self.kings[other]:
            last.ops.append(scene.note(N_("{loser} has no pieces left: {winner} wins"), loser=SEATS[loser], winner=SEATS[seat]))
            self.decision = Decision(SEATS[seat], "no-pieces", last.number, reason=N_("all the opponent's pieces captured"))
        else:
            last.ops.append(scene.note(N_("{loser} has no legal move: {winner} wins"), loser=SEATS[loser], winner=SEATS[seat]))
            self.decision = Decision(SEATS[seat], "no-move", last.number, reason=N_("the opponent has no legal move"))

    def ended(self) -> Message:
        return N_(
            "move {number}, {move}: the game was already over at move {end}: {loser} had no legal move; no move may follow"
        ), {"end": self.decision.ply if self.decision else 0, "loser": self.names[self.turn]}

    def off_board(self, move: Move, point: Any) -> Message:
        return N_("move {number}, {move}: there is no square {point} (the squares are 1-{count})"), {
            "point": point[1], "count": self.geo.count
        }


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay a draughts record move by move; stop at the first illegal move.

    The first mover is the side of the first move, as the reader gave it
    from the record's 先手 line.
    """
    first = record.moves[0].side.strip().upper() if record.moves else None
    return DraughtsEngine(game, options, first if first in LETTERS else None).replay(record)

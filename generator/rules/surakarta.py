"""Surakarta (SU) engine: plain steps, captures along the loops, no-pieces end.

The board is 6x6 points. Cells are named as SU records write them: the row
digit, then the column letter (``"2E"`` = row 2, column E); rows count 1-6
from the top, columns A-F from the left.

A *plain move* goes one step to any of the eight neighbouring points, which
must be empty. A *capture* travels along one of the two loops and lands on
the first piece it meets, which must be the opponent's, and the route must
pass through at least one corner arc. Every point on the way must be empty,
except that the moving piece's own start square counts as empty (the route
may pass over it again).

* The *inner loop* runs along the second lines (rows 2 and 5, columns B and
  E) joined by the four small arcs 2A-1B, 1E-2F, 5F-6E, 6B-5A.
* The *outer loop* runs along the third lines (rows 3 and 4, columns C and
  D) joined by the four big arcs 3A-1C, 1D-3F, 4F-6D, 6C-4A.

A point where two lines of one loop cross (2B 2E 5B 5E; 3C 3D 4C 4D) is on
that loop twice; a capture may leave it along either line, either way. The
corners 1A 1F 6A 6F lie on no loop.

Records differ from the standard in ways the replay has to absorb: who moves
first is whoever the first move names; which side starts on top is read from
the board block or, failing that, from the moves (see :func:`replay`);
captures are often written with a plain ``-`` (accepted, with a note).
A side with no pieces left has lost; otherwise the rules decide nothing and
the declared result stands.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from generator import diagnostics, scene
from generator.diagnostics import Diagnostic
from generator.games import GameType, Side
from generator.model import Decision, Move, Op, Ply, Record, Replay
from generator.rules.messages import move_error

UNREADABLE = diagnostics.define(
    "RULE-N201",
    "note",
    "The replay stops at a move that could not be read (Surakarta)",
    "Fix the move's syntax (see the format error reported at the same place); "
    "the moves from there on are shown as not replayed.",
)
WRONG_SIDE = diagnostics.define(
    "RULE-E201",
    "error",
    "Move by the wrong side (Surakarta turn order)",
    "The sides move in turn, starting with the side of the first move; check the "
    "side letters (B = black, R = red) and look for a missing or repeated line.",
)
OFF_BOARD = diagnostics.define(
    "RULE-E202",
    "error",
    "Move from or to a point off the 6x6 board (Surakarta)",
    "Rows are 1-6 from the top and columns A-F from the left; a move is written "
    "row digit then column letter, e.g. B2E-3E.",
)
NO_PIECE = diagnostics.define(
    "RULE-E203",
    "error",
    "Move of a piece that is not there, or not the mover's (Surakarta)",
    "The start point of the move is empty or holds the other side's piece: check "
    "the start point, the side letter, and which side the board block puts on top.",
)
BAD_MOVE = diagnostics.define(
    "RULE-E204",
    "error",
    "Move that is neither one step to an empty point nor a capture (Surakarta)",
    "A plain move goes one step, straight or diagonal, to an empty point; only a "
    "capture goes further. Check the start and end points of the move.",
)
OWN_PIECE = diagnostics.define(
    "RULE-E205",
    "error",
    "Move onto a point held by the mover's own piece (Surakarta)",
    "A piece can neither step onto nor capture a piece of its own side; check "
    "the end point of the move.",
)
BAD_CAPTURE = diagnostics.define(
    "RULE-E206",
    "error",
    "Capture that no loop allows (Surakarta)",
    "A capture travels along the inner or the outer loop through at least one corner "
    "arc, over empty points only, to the first piece it meets; the message says "
    "where the way is blocked.",
)
AFTER_END = diagnostics.define(
    "RULE-E207",
    "error",
    "Move after the game was already decided (Surakarta)",
    "One side had no pieces left, so the game was over; remove the extra moves "
    "or check the earlier captures.",
)
BAD_SETUP = diagnostics.define(
    "RULE-W201",
    "warning",
    "The board block is malformed; the standard start position is used (Surakarta)",
    "Write the start position as six lines of ! followed by six of 0, B and R, "
    "top row first, or leave the block out for the standard start.",
)
FLIPPED_SETUP = diagnostics.define(
    "RULE-W202",
    "warning",
    "The board block is upside down for the moves; it is read rows reversed (Surakarta)",
    "The moves start from the other side's rows; turn the block over (or check "
    "the side letters of the moves) so that the block and the moves agree.",
)
CAPTURE_ONTO_EMPTY = diagnostics.define(
    "RULE-W203",
    "warning",
    "Capture written onto an empty neighbouring point; read as a plain move (Surakarta)",
    "Write the move with - instead of X: nothing is captured.",
)
PLAIN_CAPTURE = diagnostics.define(
    "RULE-N202",
    "note",
    "Capture written with - instead of X (Surakarta)",
    "Nothing to do; writing programs should mark captures with X.",
)
REPETITION = diagnostics.define(
    "RULE-N203",
    "note",
    "Long repetition: the same position recurs a third time (Surakarta)",
    "Nothing to do; the record is replayed as written. Events whose rules end "
    "repeated play can use this to judge the game.",
)

COLUMNS = "ABCDEF"
SIZE = 6
EMPTY = 0

# Cell index = (row - 1) * 6 + column (A = 0); CELLS[i] is its id, "2E".
CELLS: tuple[str, ...] = tuple(f"{i // SIZE + 1}{COLUMNS[i % SIZE]}" for i in range(SIZE * SIZE))
INDEX: dict[str, int] = {cell: i for i, cell in enumerate(CELLS)}


def _neighbours(i: int) -> frozenset[int]:
    r, c = divmod(i, SIZE)
    return frozenset(
        (r + dr) * SIZE + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )


NEIGHBOURS: tuple[frozenset[int], ...] = tuple(_neighbours(i) for i in range(SIZE * SIZE))


@dataclass(frozen=True, slots=True)
class Loop:
    """One circuit: 24 positions in order; ``arc_after[k]`` says k -> k+1 is an arc."""

    name: str  # "inner", "outer"
    lines: str  # for messages: "rows 2 and 5, columns B and E"
    cells: tuple[int, ...]
    arc_after: tuple[bool, ...]
    positions: Mapping[int, tuple[int, ...]]  # cell index -> its places on the loop (1 or 2)

    @property
    def arcs(self) -> list[tuple[str, str]]:
        """The loop's arcs as (cell, cell) in loop order."""
        n = len(self.cells)
        return [(CELLS[self.cells[k]], CELLS[self.cells[(k + 1) % n]]) for k in range(n) if self.arc_after[k]]


def _loop(name: str, lines: str, row_a: int, row_b: int, col_a: str, col_b: str) -> Loop:
    """The circuit along rows a < b and columns a < b, as four straight runs joined by arcs.

    Down column a, arc to row b's left end, right along row b, arc to column
    b's bottom end, up column b, arc to row a's right end, left along row a,
    arc back to column a's top. Each run is a full line of six points.
    """
    runs = [
        [f"{r}{col_a}" for r in range(1, SIZE + 1)],
        [f"{row_b}{c}" for c in COLUMNS],
        [f"{r}{col_b}" for r in range(SIZE, 0, -1)],
        [f"{row_a}{c}" for c in reversed(COLUMNS)],
    ]
    cells = tuple(INDEX[c] for run in runs for c in run)
    arc_after = tuple(k % SIZE == SIZE - 1 for k in range(len(cells)))
    positions: dict[int, tuple[int, ...]] = {}
    for k, i in enumerate(cells):
        positions[i] = positions.get(i, ()) + (k,)
    return Loop(name, lines, cells, arc_after, positions)


INNER = _loop("inner", "rows 2 and 5, columns B and E", 2, 5, "B", "E")
OUTER = _loop("outer", "rows 3 and 4, columns C and D", 3, 4, "C", "D")
LOOPS: tuple[Loop, ...] = (INNER, OUTER)


@dataclass(slots=True)
class Walk:
    """A capture's travel from a start along one loop, one way, to the first piece met."""

    loop: Loop
    route: list[int]  # cell indices from the start to where it stopped, both included
    arc: bool  # whether an arc was passed before stopping
    met: int | None  # the first piece met, or None (the loop was empty but for the mover)


def walks(cells: bytearray | list[int], start: int) -> Iterator[Walk]:
    """Every way a piece at ``start`` can travel: each loop, each place on it, each way."""
    for loop in LOOPS:
        ring = loop.cells
        n = len(ring)
        for k in loop.positions.get(start, ()):
            for step in (1, -1):
                route = [start]
                arc = False
                met = None
                i = k
                for _ in range(n):
                    j = (i + step) % n
                    # The arc between ring positions p and p+1 is flagged at p.
                    if loop.arc_after[i if step == 1 else j]:
                        arc = True
                    c = ring[j]
                    route.append(c)
                    if c != start and cells[c] != EMPTY:  # the start square counts as empty
                        met = c
                        break
                    i = j
                yield Walk(loop, route, arc, met)


def capture_route(cells: bytearray | list[int], start: int, target: int) -> list[int] | None:
    """The shortest legal capture route from ``start`` to ``target`` (cell indices), or None.

    Legal: the walk meets ``target`` first and passed an arc on the way. The
    owner of ``target`` is the caller's business.
    """
    best: list[int] | None = None
    for walk in walks(cells, start):
        if walk.met == target and walk.arc and (best is None or len(walk.route) < len(best)):
            best = walk.route
    return best


def captures(cells: bytearray | list[int], start: int) -> dict[int, list[int]]:
    """Every cell the piece at ``start`` could capture on (any owner), with its shortest route."""
    found: dict[int, list[int]] = {}
    for walk in walks(cells, start):
        if walk.met is not None and walk.arc:
            known = found.get(walk.met)
            if known is None or len(walk.route) < len(known):
                found[walk.met] = walk.route
    return found


# -- the start position --------------------------------------------------------

STANDARD = ("BBBBBB", "BBBBBB", "000000", "000000", "RRRRRR", "RRRRRR")


def parse_setup(rows: list[str] | None) -> tuple[str, ...] | None:
    """The block's rows cleaned (stripped, upper case), or None if it is not 6 rows of 6 of 0/B/R."""
    if rows is None or len(rows) != SIZE:
        return None
    clean = tuple(row.strip().upper() for row in rows)
    if any(len(row) != SIZE or set(row) - set("0BR") for row in clean):
        return None
    return clean


def _setup_problem(rows: list[str]) -> str:
    if len(rows) != SIZE:
        return f"it has {len(rows)} row{'s' if len(rows) != 1 else ''}, not 6"
    for n, row in enumerate(rows, 1):
        row = row.strip().upper()
        if len(row) != SIZE:
            return f"row {n} ({row!r}) has {len(row)} characters, not 6"
        odd = sorted(set(row) - set("0BR"))
        if odd:
            return f"row {n} ({row!r}) holds {', '.join(repr(c) for c in odd)}, not only 0, B and R"
    return "it cannot be read"


def _top_letter(rows: tuple[str, ...]) -> str | None:
    """The side letter with more pieces in the top half of a layout, None if even."""
    top = "".join(rows[: SIZE // 2])
    b, r = top.count("B"), top.count("R")
    return "B" if b > r else "R" if r > b else None


# -- the game state -------------------------------------------------------------


class SurakartaState:
    """A position being played: whose piece is where, under which id, how many each side has.

    ``cells`` holds 0 for an empty point, else 1 or 2 for the side whose
    piece stands there (see ``code``). Sides are known by their letters, so
    the registry's entry and its swapped twin from :meth:`GameType.ordered`
    replay alike. Moves are checked by :meth:`judge`, which returns a reason
    rather than raising.
    """

    __slots__ = ("cells", "code", "counts", "ids", "sides")

    def __init__(self, game: GameType, layout: tuple[str, ...]) -> None:
        # Keyed by letter: "B" -> Black, "R" -> Red.
        self.sides: dict[str, Side] = {game.first.letter: game.first, game.second.letter: game.second}
        self.code = {letter: n + 1 for n, letter in enumerate(self.sides)}
        self.cells = bytearray(SIZE * SIZE)
        self.ids: list[str | None] = [None] * (SIZE * SIZE)
        self.counts = dict.fromkeys(self.sides, 0)
        for i in range(SIZE * SIZE):
            letter = layout[i // SIZE][i % SIZE]
            if letter in self.code:
                self.counts[letter] += 1
                self.cells[i] = self.code[letter]
                self.ids[i] = f"{letter.lower()}{self.counts[letter]}"

    def setup_ops(self) -> list[Op]:
        return [
            scene.add(piece, "piece", self.colour_at(i), CELLS[i]) for i, piece in enumerate(self.ids) if piece
        ]

    def other(self, letter: str) -> str:
        first, second = self.sides
        return second if letter == first else first

    def letter_at(self, i: int) -> str | None:
        value = self.cells[i]
        return next((letter for letter, n in self.code.items() if n == value), None)

    def colour_at(self, i: int) -> str:
        letter = self.letter_at(i)
        return self.sides[letter].colour if letter else ""

    def a_piece(self, i: int) -> str:
        """ "a black piece" """
        return f"a {self.colour_at(i)} piece"

    def key(self, to_move: str) -> bytes:
        """The position with the side to move, for spotting repetitions."""
        return bytes(self.cells) + to_move.encode()

    # -- one move -----------------------------------------------------------------

    def judge(self, letter: str, start: int, target: int, written_capture: bool) -> _Verdict:
        """Whether ``letter`` may move the piece on ``start`` to ``target``, and how.

        The points are on the board and it is ``letter``'s turn; the rest is
        checked here.
        """
        a, b = CELLS[start], CELLS[target]
        mover = self.sides[letter]
        mine = self.code[letter]
        cells = self.cells
        if start == target:
            return _Verdict(BAD_MOVE, f"the move starts and ends on {a}")
        if cells[start] == EMPTY:
            return _Verdict(NO_PIECE, f"no piece at {a}")
        if cells[start] != mine:
            return _Verdict(NO_PIECE, f"{a} holds {self.a_piece(start)}, not {mover.name_en}'s")
        if cells[target] == mine:
            return _Verdict(OWN_PIECE, f"{b} holds {mover.name_en}'s own piece")
        step = target in NEIGHBOURS[start]
        if cells[target] == EMPTY:
            if not step:
                return _Verdict(BAD_MOVE, f"{a} to {b} is neither one step nor a capture ({b} is empty)")
            if written_capture:
                why = f"written as a capture, but {b} is empty: read as a plain step from {a} to {b}"
                return _Verdict(CAPTURE_ONTO_EMPTY, why, legal=True)
            return _Verdict(legal=True)
        route = capture_route(cells, start, target)
        if route is None:
            why = f"{a} cannot capture on {b}: {self.no_capture(start, target)}"
            if step and not written_capture:
                why = f"{b} is occupied (a plain step must go to an empty point), and {why}"
            return _Verdict(BAD_CAPTURE, why)
        if not written_capture:
            why = f"written with -, but {b} holds {self.a_piece(target)}: read as a capture"
            return _Verdict(PLAIN_CAPTURE, why, route, legal=True)
        return _Verdict(route=route, legal=True)

    def play(self, start: int, target: int, route: list[int] | None) -> list[Op]:
        """Move the piece (capturing on ``target`` if ``route``); the ply's ops."""
        piece = self.ids[start]
        ops: list[Op] = []
        if route is not None:
            victim = self.letter_at(target)
            if victim is not None:  # judge() made sure: the opponent's piece
                self.counts[victim] -= 1
            ops.append(scene.remove(self.ids[target]))
        ops.append(scene.move(piece, CELLS[target]))
        if route is not None:
            ops.append(scene.path([CELLS[c] for c in route], "capture"))
        ops += [scene.mark(CELLS[start], "from"), scene.mark(CELLS[target], "last")]
        self.cells[target], self.cells[start] = self.cells[start], EMPTY
        self.ids[target], self.ids[start] = piece, None
        return ops

    # -- why a capture fails -------------------------------------------------------

    def no_capture(self, start: int, target: int) -> str:
        """Why no loop lets the piece at ``start`` capture on ``target``, for an organiser."""
        a, b = CELLS[start], CELLS[target]
        on_a = [loop for loop in LOOPS if start in loop.positions]
        on_b = [loop for loop in LOOPS if target in loop.positions]
        if not on_a:
            return f"{a} lies on no loop (the corner points are on neither), so a piece there cannot capture"
        if not on_b:
            return f"{b} lies on no loop (the corner points are on neither), so no capture can reach it"
        common = [loop for loop in on_a if loop in on_b]
        if not common:
            return (
                f"{a} and {b} are not on a common loop ({a} is on the {on_a[0].name} loop only, "
                f"along {on_a[0].lines}; {b} on the {on_b[0].name} loop only, along {on_b[0].lines})"
            )
        found = list(walks(self.cells, start))
        return "; ".join(self._loop_text(loop, [w for w in found if w.loop is loop], start, target) for loop in common)

    def _loop_text(self, loop: Loop, mine: list[Walk], start: int, target: int) -> str:
        """Why the walks along one loop fail: where each is blocked, or that it passes no arc."""
        a, b = CELLS[start], CELLS[target]
        straight = any(w.met == target and not w.arc for w in mine)
        # Reading order, whatever order the walks came in.
        blockers = sorted({w.met for w in mine if w.met is not None and w.met != target})
        blocked = sum(1 for w in mine if w.met != target)
        where = _and([f"at {CELLS[c]} by {self.a_piece(c)}" for c in blockers])
        texts = []
        if straight:
            texts.append(f"{a} reaches {b} along {_line_name(start, target)} without passing a corner arc")
        if blockers and straight:
            ways, are = ("way", "is") if blocked == 1 else ("ways", "are")
            texts.append(f"the other {ways} along the {loop.name} loop {are} blocked {where}")
        elif blockers:
            if len(blockers) == 1 and blocked > 1:
                where += " (both directions)" if blocked == 2 else " (every direction)"
            texts.append(f"the way along the {loop.name} loop is blocked {where}")
        if not texts:  # cannot happen while the target is on the loop; say something true anyway
            texts.append(f"no way along the {loop.name} loop meets {b}")
        return ", and ".join(texts)


@dataclass(slots=True)
class _Verdict:
    """What :meth:`SurakartaState.judge` found: a diagnostic code and why, a capture route, legality."""

    code: str | None = None  # an error when not legal, else a note or warning (or None)
    why: str = ""
    route: list[int] | None = None  # the capture's route; None for a plain step
    legal: bool = False


def _and(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c" """
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _line_name(start: int, target: int) -> str:
    if start // SIZE == target // SIZE:
        return f"row {start // SIZE + 1}"
    return f"column {COLUMNS[start % SIZE]}"


def _index(point: tuple[str, int]) -> int | None:
    """Cell index of a point as read, ("E", 2); None if off the board."""
    letter, row = point
    letter = letter.strip().upper()
    if len(letter) != 1 or letter not in COLUMNS or not 1 <= row <= SIZE:
        return None
    return (row - 1) * SIZE + COLUMNS.index(letter)


# -- replay --------------------------------------------------------------------


@dataclass(slots=True)
class _Outcome:
    """One replay of the moves from one start layout."""

    setup: list[Op]
    plies: list[Ply] = field(default_factory=list)
    found: list[Diagnostic] = field(default_factory=list)
    stopped: int | None = None  # index of the first move not replayed
    decision: Decision | None = None
    # Positions seen (board and side to move) -> the plies after which they stood (0 = start).
    seen: dict[bytes, list[int]] = field(default_factory=dict)


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay a Surakarta record move by move; stop at the first illegal move.

    Which side starts on top is not fixed: the layout is the board block as
    written (without a block: the standard's, black on top) or the same
    upside down (red on top), whichever replays the longer prefix of the
    moves legally, the written one on a tie. Reading a written block upside
    down is a warning. The first mover is the side of the first move.
    """
    found: list[Diagnostic] = []
    layout: tuple[str, ...] | None = None
    if record.setup is not None:
        layout = parse_setup(record.setup)
        if layout is None:
            why = f"the board block is malformed ({_setup_problem(record.setup)}); the standard start position is used"
            found.append(diagnostics.make(record.path, record.setup_line, 1, BAD_SETUP, why))
    written = layout is not None
    layout = layout or STANDARD
    first_letter = _first_letter(record.moves, game)
    outcome = _play(record, game, layout, first_letter)
    if outcome.stopped is not None:
        upside_down = tuple(reversed(layout))
        if upside_down != layout:
            other = _play(record, game, upside_down, first_letter)
            if len(other.plies) > len(outcome.plies):
                if written:
                    found.append(_flipped_warning(record, game, layout))
                outcome = other
    _note_repetition(record, game, outcome, first_letter)
    found += outcome.found
    not_replayed = list(record.moves[outcome.stopped :]) if outcome.stopped is not None else []
    return Replay(outcome.setup, outcome.plies, not_replayed, outcome.decision, found, first_letter)


def _first_letter(moves: list[Move], game: GameType) -> str | None:
    if not moves:
        return None
    letter = moves[0].side.strip().upper()
    return letter if letter in (game.first.letter, game.second.letter) else None


def _flipped_warning(record: Record, game: GameType, layout: tuple[str, ...]) -> Diagnostic:
    sides = {game.first.letter: game.first, game.second.letter: game.second}
    top, moved = _top_letter(layout), _top_letter(tuple(reversed(layout)))
    if top in sides and moved in sides:
        what = (
            f"the board block puts {sides[top].name_en} on top, but the moves play "
            f"{sides[moved].name_en} from the top rows"
        )
    else:
        what = "the board block as written does not fit the moves"
    why = f"{what}; the block is read upside down (rows 6 to 1), under which more moves replay"
    return diagnostics.make(record.path, record.setup_line, 1, FLIPPED_SETUP, why)


def _play(record: Record, game: GameType, layout: tuple[str, ...], first_letter: str | None) -> _Outcome:
    """Replay the moves from one layout, up to the first illegal one."""
    state = SurakartaState(game, layout)
    sides = state.sides
    out = _Outcome(state.setup_ops())
    to_move = first_letter
    plain: list[tuple[Move, int]] = []  # captures written with "-"
    if to_move is not None:
        out.seen[state.key(to_move)] = [0]
    for n, move in enumerate(record.moves):
        number = n + 1
        error = _unplayable(move, to_move, out.decision, sides)
        if error is None:
            assert to_move is not None and move.point is not None and move.to is not None
            start, target = _index(move.point), _index(move.to)
            assert start is not None and target is not None  # _unplayable checked both
            verdict = state.judge(to_move, start, target, move.capture)
            if not verdict.legal:
                error = (verdict.code or BAD_MOVE, verdict.why)
        if error is not None:
            out.found.append(move_error(record.path, move, number, *error))
            out.stopped = n
            break
        assert to_move is not None
        if verdict.code == PLAIN_CAPTURE:
            plain.append((move, number))  # one note for the whole record, below
        elif verdict.code is not None:
            out.found.append(move_error(record.path, move, number, verdict.code, verdict.why))
        ops = state.play(start, target, verdict.route)
        side = "first" if to_move == first_letter else "second"
        loser = state.other(to_move)
        if state.counts[loser] == 0:
            text = f"{sides[loser].name_en} has no pieces left: {sides[to_move].name_en} wins"
            ops.append(scene.note(text, "no_pieces", loser="second" if side == "first" else "first", winner=side))
            out.decision = Decision(side, "no-pieces", number, ())
        out.plies.append(Ply(number, side, sides[to_move].colour, move.text, ops, move.mark, move.line, move.column))
        to_move = loser
        out.seen.setdefault(state.key(to_move), []).append(number)
    if plain:
        # Some writers mark no capture at all: one note, not one per move.
        first, _ = plain[0]
        numbers = ", ".join(str(n) for _, n in plain[:8]) + (" …" if len(plain) > 8 else "")
        why = (
            f"{len(plain)} capture{'s are' if len(plain) > 1 else ' is'} written with - instead of X "
            f"(move{'s' if len(plain) > 1 else ''} {numbers}); read as captures"
        )
        out.found.append(diagnostics.make(record.path, first.line, first.column, PLAIN_CAPTURE, why))
    return out


def _unplayable(
    move: Move, to_move: str | None, decision: Decision | None, sides: dict[str, Side]
) -> tuple[str, str] | None:
    """(code, why) if the move cannot be judged on the board at all: unread, late, out of turn, off it."""
    if move.point is None or move.to is None:
        return UNREADABLE, "the move cannot be read; the replay stops here"
    if decision is not None:
        # After the deciding capture the loser is the side to move.
        loser = sides[to_move].name_en if to_move in sides else "one side"
        return AFTER_END, (
            f"the game was already over at move {decision.ply}: {loser} had no pieces left; no move may follow"
        )
    letter = move.side.strip().upper()
    if letter not in sides or letter != to_move:
        return WRONG_SIDE, _turn_text(letter, to_move, sides)
    for point in (move.point, move.to):
        if _index(point) is None:
            return OFF_BOARD, f"{point[1]}{point[0]} is off the board (6x6: rows 1-6, columns A-F)"
    return None


def _turn_text(letter: str, to_move: str | None, sides: dict[str, Side]) -> str:
    if letter in sides:
        found = sides[letter].name_en
    else:
        known = ", ".join(f"{s.letter} = {s.name_en}" for s in sides.values())
        found = f"unknown side {letter!r} ({known})"
    if to_move is None:  # only the first move can leave nobody to move
        return f"the first move must name a side: found {found}"
    return f"wrong side to move: expected {sides[to_move].name_en} to move, found {found} (the sides move in turn)"


# -- long repetition -----------------------------------------------------------


def _note_repetition(record: Record, game: GameType, out: _Outcome, first_letter: str | None) -> None:
    """One note where a position first stands for the third time (same board, same side to move)."""
    seen = out.seen
    thirds = [(plies[2], key) for key, plies in seen.items() if len(plies) >= 3]
    if not thirds:
        return
    at, key = min(thirds)
    plies = seen[key]
    first = plies[0]
    letter = key[-1:].decode()
    to_move = (game.first if letter == game.first.letter else game.second).name_en
    since = "the start position" if first == 0 else f"the position after move {first}"
    text = (
        f"long repetition: {since} ({to_move} to move) stands here for the third time; "
        f"the moves repeat from move {first + 1}, and the position occurs {len(plies)} times "
        "by the end of the record"
    )
    since_key = "kind.since_start" if first == 0 else "kind.since_move"
    side = "first" if letter == first_letter else "second"
    args = {"since": since_key, "at": first, "side": side, "start": first + 1, "times": len(plies)}
    out.plies[at - 1].ops.append(scene.note(text, "repetition", **args))
    move = record.moves[at - 1]
    message = f"move {at}, {move.text}: {text}"
    out.found.append(diagnostics.make(record.path, move.line, move.column, REPETITION, message))

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
from generator.i18n import N_, Named, T, Term
from generator.model import Decision, Move, Op, Ply, Record, Replay
from generator.rules.engine import SEATS, Engine, Message, OffBoard

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

    name: str  # "inner", "outer" (a word said in the reader's language)
    lines: str  # for messages: "rows 2 and 5, columns B and E" (likewise)
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


INNER = _loop(T("inner"), T("rows 2 and 5, columns B and E"), 2, 5, "B", "E")
OUTER = _loop(T("outer"), T("rows 3 and 4, columns C and D"), 3, 4, "C", "D")
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


def _setup_problem(record: Record, rows: list[str]) -> Diagnostic:
    """The warning for a malformed board block: what is wrong with it."""
    where = (record.path, record.setup_line, 1, BAD_SETUP)
    if len(rows) != SIZE:
        return diagnostics.make(*where, N_(
            "the board block is malformed (it has {count} rows of the 6 it needs); the standard start position is used"
        ), count=len(rows))
    for n, row in enumerate(rows, 1):
        row = row.strip().upper()
        if len(row) != SIZE:
            return diagnostics.make(*where, N_(
                "the board block is malformed (row {n} ('{row}') has {length} characters, not 6); "
                "the standard start position is used"
            ), n=n, row=row, length=len(row))
        odd = sorted(set(row) - set("0BR"))
        if odd:
            return diagnostics.make(*where, N_(
                "the board block is malformed (row {n} ('{row}') holds {odd}, not only 0, B and R); "
                "the standard start position is used"
            ), n=n, row=row, odd=", ".join(repr(c) for c in odd))
    return diagnostics.make(*where, N_("the board block is malformed; the standard start position is used"))


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
        mover = self.sides[letter].name
        mine = self.code[letter]
        cells = self.cells
        if start == target:
            return _Verdict(BAD_MOVE, N_("move {number}, {move}: the move starts and ends on {a}"), {"a": a})
        if cells[start] == EMPTY:
            return _Verdict(NO_PIECE, N_("move {number}, {move}: no piece at {a}"), {"a": a})
        if cells[start] != mine:
            return _Verdict(NO_PIECE, N_("move {number}, {move}: {a} holds {owner}'s piece, not {mover}'s"), {
                "a": a, "owner": self.name_at(start), "mover": mover
            })
        if cells[target] == mine:
            return _Verdict(OWN_PIECE, N_("move {number}, {move}: {b} holds {mover}'s own piece"), {"b": b, "mover": mover})
        step = target in NEIGHBOURS[start]
        if cells[target] == EMPTY:
            if not step:
                return _Verdict(BAD_MOVE, N_(
                    "move {number}, {move}: {a} to {b} is neither one step nor a capture ({b} is empty)"
                ), {"a": a, "b": b})
            if written_capture:
                return _Verdict(CAPTURE_ONTO_EMPTY, N_(
                    "move {number}, {move}: written as a capture, but {b} is empty: read as a plain step from {a} to {b}"
                ), {"a": a, "b": b}, legal=True)
            return _Verdict(legal=True)
        route = capture_route(cells, start, target)
        if route is None:
            if step and not written_capture:
                return _Verdict(BAD_CAPTURE, N_(
                    "move {number}, {move}: {b} is occupied (a plain step must go to an empty point), and {a} "
                    "cannot capture on {b}: no loop leads from {a} to {b} through a corner arc"
                ), {"a": a, "b": b})
            template, args = self.no_capture(start, target)
            return _Verdict(BAD_CAPTURE, template, args)
        if not written_capture:
            return _Verdict(PLAIN_CAPTURE, route=route, legal=True)
        return _Verdict(route=route, legal=True)

    def name_at(self, i: int) -> Named:
        """The name of the side whose piece stands on ``i`` (there is one)."""
        letter = self.letter_at(i)
        assert letter is not None
        return self.sides[letter].name

    def play(self, start: int, target: int, route: list[int] | None) -> list[Op]:
        """Move the piece (capturing on ``target`` if ``route``); the ply's ops."""
        piece = self.ids[start] or ""  # judge() made sure a piece stands there
        ops: list[Op] = []
        if route is not None:
            victim = self.letter_at(target)
            if victim is not None:  # judge() made sure: the opponent's piece
                self.counts[victim] -= 1
            ops.append(scene.remove(self.ids[target] or ""))
        ops.append(scene.move(piece, CELLS[target]))
        if route is not None:
            ops.append(scene.path([CELLS[c] for c in route], "capture"))
        ops += [scene.mark(CELLS[start], "from"), scene.mark(CELLS[target], "last")]
        self.cells[target], self.cells[start] = self.cells[start], EMPTY
        self.ids[target], self.ids[start] = piece, None
        return ops

    # -- why a capture fails -------------------------------------------------------

    def no_capture(self, start: int, target: int) -> tuple[str, dict[str, Any]]:
        """Why no loop lets the piece at ``start`` capture on ``target``, for an organiser."""
        a, b = CELLS[start], CELLS[target]
        args: dict[str, Any] = {"a": a, "b": b}
        on_a = [loop for loop in LOOPS if start in loop.positions]
        on_b = [loop for loop in LOOPS if target in loop.positions]
        if not on_a:
            return N_(
                "move {number}, {move}: {a} cannot capture on {b}: {a} lies on no loop (the corner points are on "
                "neither), so a piece there cannot capture"
            ), args
        if not on_b:
            return N_(
                "move {number}, {move}: {a} cannot capture on {b}: {b} lies on no loop (the corner points are on "
                "neither), so no capture can reach it"
            ), args
        common = [loop for loop in on_a if loop in on_b]
        if not common:
            return N_(
                "move {number}, {move}: {a} cannot capture on {b}: {a} and {b} are not on a common loop ({a} is on "
                "the {loop_a} loop only, along {lines_a}; {b} on the {loop_b} loop only, along {lines_b})"
            ), {**args, "loop_a": on_a[0].name, "lines_a": on_a[0].lines, "loop_b": on_b[0].name, "lines_b": on_b[0].lines}
        found = [w for w in walks(self.cells, start) if w.loop in common]
        straight = any(w.met == target and not w.arc for w in found)
        # Where the other ways stop, in reading order, whatever order the walks came in.
        blockers = sorted({w.met for w in found if w.met is not None and w.met != target})
        one = sum(1 for w in found if w.met != target) == 1  # one way is blocked, not several
        args["loops"] = _loops_word(common)
        args["cells"] = ", ".join(CELLS[c] for c in blockers)
        if straight and blockers and one:
            return N_(
                "move {number}, {move}: {a} cannot capture on {b}: {a} reaches {b} in a straight line without "
                "passing a corner arc, and the other way along the {loops} is blocked at {cells}"
            ), args
        if straight and blockers:
            return N_(
                "move {number}, {move}: {a} cannot capture on {b}: {a} reaches {b} in a straight line without "
                "passing a corner arc, and the other ways along the {loops} are blocked at {cells}"
            ), args
        if straight:
            return N_(
                "move {number}, {move}: {a} cannot capture on {b}: {a} reaches {b} in a straight line without "
                "passing a corner arc"
            ), args
        if blockers and one:
            return N_(
                "move {number}, {move}: {a} cannot capture on {b}: the way along the {loops} is blocked at {cells}"
            ), args
        if blockers:
            return N_(
                "move {number}, {move}: {a} cannot capture on {b}: the ways along the {loops} are blocked at {cells}"
            ), args
        # Cannot happen while the target is on a common loop; say something true anyway.
        return N_("move {number}, {move}: {a} cannot capture on {b}: no way along the {loops} meets {b}"), args


@dataclass(slots=True)
class _Verdict:
    """What :meth:`SurakartaState.judge` found: a diagnostic (code, template, args), a capture route, legality."""

    code: str | None = None  # an error when not legal, else a note or warning (or None)
    template: str = ""
    args: Mapping[str, Any] = field(default_factory=dict)
    route: list[int] | None = None  # the capture's route; None for a plain step
    legal: bool = False


def _loops_word(loops: list[Loop]) -> Term:
    if len(loops) == 2:
        return T("inner and outer loops")
    return T("inner loop") if loops[0] is INNER else T("outer loop")


def _index(point: tuple[str, int]) -> int | None:
    """Cell index of a point as read, ("E", 2); None if off the board."""
    letter, row = point
    letter = letter.strip().upper()
    if len(letter) != 1 or letter not in COLUMNS or not 1 <= row <= SIZE:
        return None
    return (row - 1) * SIZE + COLUMNS.index(letter)


# -- replay --------------------------------------------------------------------


class SurakartaEngine(Engine):
    """The replay of the moves from one start layout; the first mover is the side of the first move.

    Seats follow the record: seat 0 is the side whose letter the first move
    writes (black or red), seat 1 the other.
    """

    __slots__ = ("plain", "seen", "sides", "state", "to_move")

    def __init__(self, game: GameType, layout: tuple[str, ...], first_letter: str | None) -> None:
        super().__init__(game)
        self.state = state = SurakartaState(game, layout)
        self.sides = state.sides
        self.first_letter = first_letter
        self.to_move = first_letter  # the letter of the side to move
        if first_letter is not None:
            order = (first_letter, state.other(first_letter))
            self.letters = {letter: seat for seat, letter in enumerate(order)}
            self.colours = tuple(self.sides[letter].colour for letter in order)
            self.names = tuple(self.sides[letter].name for letter in order)
        else:
            self.letters = {}  # the first move names no side: it is out of turn, and the replay stops
        self.plain: list[tuple[Move, int]] = []  # captures written with "-"
        # Positions seen (board and side to move) -> the plies after which they stood (0 = start).
        self.seen: dict[bytes, list[int]] = {}
        if first_letter is not None:
            self.seen[state.key(first_letter)] = [0]

    def setup(self) -> list[Op]:
        return self.state.setup_ops()

    def seat_of(self, letter: str) -> int | None:
        return self.letters.get(letter.strip().upper())

    def read(self, move: Move) -> Any:
        if move.point is None or move.to is None:
            return None
        start, target = _index(move.point), _index(move.to)
        if start is None:
            return OffBoard(move.point)
        if target is None:
            return OffBoard(move.to)
        return start, target

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        state, to_move = self.state, self.to_move
        assert to_move is not None
        start, target = at
        verdict = state.judge(to_move, start, target, move.capture)
        if not verdict.legal:
            return self.error(verdict.code or BAD_MOVE, move, number, verdict.template, verdict.args)
        if verdict.code == PLAIN_CAPTURE:
            self.plain.append((move, number))  # one note for the whole record, in finish()
        elif verdict.code is not None:
            self.found.append(self.error(verdict.code, move, number, verdict.template, verdict.args))
        ops = state.play(start, target, verdict.route)
        loser = state.other(to_move)
        if state.counts[loser] == 0:
            ops.append(scene.note(
                N_("{loser} has no pieces left: {winner} wins"), loser=SEATS[1 - seat], winner=SEATS[seat]
            ))
            self.decision = Decision(SEATS[seat], "no-pieces", number, (), reason=N_("all the opponent's pieces captured"))
        self.to_move = loser
        self.turn = 1 - seat
        self.seen.setdefault(state.key(loser), []).append(number)
        return self.ply(move, number, seat, ops)

    def ended(self) -> Message:
        # After the deciding capture the loser is the side to move.
        return N_(
            "move {number}, {move}: the game was already over at move {end}: {loser} had no pieces left; "
            "no move may follow"
        ), {"end": self.decision.ply if self.decision else 0, "loser": self.names[self.turn]}

    def wrong_side(self, move: Move, expected: int, found: int | None) -> Message:
        if found is None:
            return self.unknown_side(move, expected)
        return N_(
            "move {number}, {move}: wrong side to move: expected {expected} to move, found {found} (the sides move in turn)"
        ), {"expected": self.names[expected], "found": self.names[found]}

    def unknown_side(self, move: Move, expected: int) -> Message:
        game = self.game
        args = {
            "letter": move.side.strip().upper(), "expected": self.names[expected],
            "a": game.first.letter, "name_a": game.first.name, "b": game.second.letter, "name_b": game.second.name,
        }
        if self.first_letter is None:  # only the first move can leave nobody to move
            return N_(
                "move {number}, {move}: the first move must name a side: found unknown side '{letter}' "
                "({a} = {name_a}, {b} = {name_b})"
            ), args
        return N_(
            "move {number}, {move}: wrong side to move: expected {expected} to move, "
            "found unknown side '{letter}' ({a} = {name_a}, {b} = {name_b})"
        ), args

    def off_board(self, move: Move, point: Any) -> Message:
        return N_("move {number}, {move}: {point} is off the board (6x6: rows 1-6, columns A-F)"), {
            "point": f"{point[1]}{point[0]}"
        }

    def finish(self, record: Record, replay: Replay) -> None:
        if self.plain:
            # Some writers mark no capture at all: one note, not one per move.
            first, _ = self.plain[0]
            numbers = ", ".join(str(n) for _, n in self.plain[:8]) + (" …" if len(self.plain) > 8 else "")
            where = (record.path, first.line, first.column, PLAIN_CAPTURE)
            if len(self.plain) == 1:
                self.found.append(diagnostics.make(
                    *where, N_("1 capture is written with - instead of X (move {numbers}); read as a capture"),
                    numbers=numbers,
                ))
            else:
                self.found.append(diagnostics.make(
                    *where, N_("{count} captures are written with - instead of X (moves {numbers}); read as captures"),
                    count=len(self.plain), numbers=numbers,
                ))
        self._note_repetition(record, replay)

    def _note_repetition(self, record: Record, replay: Replay) -> None:
        """One note where a position first stands for the third time (same board, same side to move)."""
        seen = self.seen
        thirds = [(plies[2], key) for key, plies in seen.items() if len(plies) >= 3]
        if not thirds:
            return
        at, key = min(thirds)
        plies = seen[key]
        first = plies[0]
        seat = 0 if key[-1:].decode() == self.first_letter else 1
        args = {"start": first + 1, "times": len(plies)}
        move = record.moves[at - 1]
        if first == 0:
            note = scene.note(N_(
                "long repetition: the start position ({side} to move) stands here for the third time; the moves "
                "repeat from move {start}, and the position occurs {times} times by the end of the record"
            ), side=SEATS[seat], **args)
            template = N_(
                "move {number}, {move}: long repetition: the start position ({side} to move) stands here for the "
                "third time; the moves repeat from move {start}, and the position occurs {times} times by the end "
                "of the record"
            )
        else:
            note = scene.note(N_(
                "long repetition: the position after move {at} ({side} to move) stands here for the third time; "
                "the moves repeat from move {start}, and the position occurs {times} times by the end of the record"
            ), side=SEATS[seat], at=first, **args)
            template = N_(
                "move {number}, {move}: long repetition: the position after move {at} ({side} to move) stands here "
                "for the third time; the moves repeat from move {start}, and the position occurs {times} times by "
                "the end of the record"
            )
            args["at"] = first
        replay.plies[at - 1].ops.append(note)
        self.found.append(self.error(REPETITION, move, at, template, {**args, "side": self.names[seat]}))


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
            found.append(_setup_problem(record, record.setup))
    written = layout is not None
    layout = layout or STANDARD
    first_letter = _first_letter(record.moves, game)
    outcome = SurakartaEngine(game, layout, first_letter).replay(record)
    if outcome.not_replayed:
        upside_down = tuple(reversed(layout))
        if upside_down != layout:
            other = SurakartaEngine(game, upside_down, first_letter).replay(record)
            if len(other.plies) > len(outcome.plies):
                if written:
                    found.append(_flipped_warning(record, game, layout))
                outcome = other
    outcome.diagnostics[:0] = found
    return outcome


def _first_letter(moves: list[Move], game: GameType) -> str | None:
    if not moves:
        return None
    letter = moves[0].side.strip().upper()
    return letter if letter in (game.first.letter, game.second.letter) else None


def _flipped_warning(record: Record, game: GameType, layout: tuple[str, ...]) -> Diagnostic:
    sides = {game.first.letter: game.first, game.second.letter: game.second}
    top, moved = _top_letter(layout), _top_letter(tuple(reversed(layout)))
    where = (record.path, record.setup_line, 1, FLIPPED_SETUP)
    if top in sides and moved in sides:
        return diagnostics.make(*where, N_(
            "the board block puts {top} on top, but the moves play {moved} from the top rows; the block is read "
            "upside down (rows 6 to 1), under which more moves replay"
        ), top=sides[top].name, moved=sides[moved].name)
    return diagnostics.make(*where, N_(
        "the board block as written does not fit the moves; the block is read upside down (rows 6 to 1), under "
        "which more moves replay"
    ))

"""k-in-a-row engine: gomoku (C5) and connect6 (C6).

Everything game-specific comes from the registry entry: the board size
(``game.columns`` x ``game.rows``), ``params["k"]`` (stones in a row that win),
``params["first_turn"]`` (stones in the first player's first turn) and
``params["per_turn"]`` (stones per turn after that). Connect6 records write
each stone as its own move, so a turn of two stones is two moves by the same
side; the engine works stone by stone and only the turn order knows about
turns.

Event options (``site.toml``, defaults in ``game.options``):

``exact_five``
    Only a line of exactly ``k`` stones wins; an overline (``k + 1`` or more)
    does not, for either player.
``renju``
    Renju forbidden moves for the first player (black): overline, double four,
    double three. A forbidden move loses at once (the second player wins,
    rule ``"forbidden"``). A move that makes an exact five wins even if it
    also has a forbidden shape, as in the RIF rules. The second player's
    overline still wins unless ``exact_five`` is set too.

What counts as a four and a three (renju), following the RIF definitions
generalised from five to ``k``:

* A *five point* of a line through the new stone is an empty point that,
  filled by black, makes a run of exactly ``k`` containing the new stone.
* A *four* is a line with a five point. One line holds two fours when it has
  two five points that are not the two ends of one unbroken run of ``k - 1``
  (``X.XXX.X`` is a double four in one line; ``.XXXX.`` is one straight four).
* A *straight four* is an unbroken run of ``k - 1`` whose both ends are five
  points.
* A *three* is a line, not already a four, where one more black stone on an
  empty point of that line makes a straight four through the new stone, and
  that point is not itself forbidden for black. This is the recursive part:
  a "three" whose only completing points are forbidden is a fake three and
  does not count. We follow the recursion :data:`RENJU_DEPTH` levels deep and
  count deeper completions as real; positions that need more than that do
  not occur in practice.

Double four: two or more fours through the new stone. Double three: two or
more threes in different lines. A four and a three together are legal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from generator import diagnostics, i18n, scene
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.i18n import N_, T
from generator.model import Decision, Move, Op, Ply, Record, Replay, Result
from generator.rules.engine import Engine, Message, OffBoard
from generator.rules.placement import COLUMN_INDEX, EDGE, EMPTY, OnGrid, PlacesStones, occupied, padded_board, point_xy

Side = Literal["first", "second"]

OCCUPIED = diagnostics.define(
    "RULE-E104",
    "error",
    "Stone placed on an occupied point (k-in-a-row)",
    "The message names the move that occupied the point; the record probably "
    "repeats or mistypes a move.",
)
FORBIDDEN = diagnostics.define(
    "RULE-N101",
    "note",
    "Renju forbidden move by black: black loses",
    "Under the event's renju option black may not make an overline, a double "
    "four or a double three; set `renju = false` for the event if it was "
    "played free-style.",
)

# Board cell contents. EDGE pads the board so that line scans need no bounds checks.
FIRST, SECOND = 1, 2  # stones on the padded board (placement.EMPTY, EDGE around them)

# How many levels of "is the completing point itself forbidden?" to follow.
RENJU_DEPTH = 4

# The renju prohibitions, as words said in the reader's language.
# How each way of ending a game is said on its page (Decision.reason).
REASONS = {
    "line": N_("{k} in a row"),
    "board-full": N_("board full"),
    "forbidden": N_("a forbidden move by {side}"),
}
FORBIDDEN_WORDS = {"overline": T("overline"), "double-four": T("double four"), "double-three": T("double three")}


class ConnectState(PlacesStones):
    """A k-in-a-row position, played stone by stone.

    Coordinates are 0-based: ``x`` is the column (A = 0), ``y`` the row from
    the bottom (row 1 = 0). The board is a flat ``bytearray`` with a border of
    :data:`EDGE` cells, so that the win check after each stone walks the four
    lines through it without bounds checks.
    """

    __slots__ = (
        "game", "columns", "rows", "k", "first_turn", "per_turn", "exact", "renju",
        "ply", "winner", "rule", "winning_cells", "forbidden_kind",
        "_stride", "_board", "_placed", "_dirs", "_cells", "_empty", "_slot", "_size",
    )

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None) -> None:
        options = options or {}
        self.game = game
        self.columns = game.columns
        self.rows = game.rows
        self.k: int = int(game.params["k"])
        self.first_turn: int = int(game.params.get("first_turn", 1))
        self.per_turn: int = int(game.params.get("per_turn", 1))
        self.exact = bool(options.get("exact_five", game.options.get("exact_five", False)))
        self.renju = bool(options.get("renju", game.options.get("renju", False)))
        self.ply = 0
        self.winner: Result | None = None
        self.rule: str | None = None
        self.winning_cells: tuple[str, ...] = ()
        self.forbidden_kind: str | None = None  # "overline", "double-four", "double-three"
        # The padded layout is described in placement.padded_board().
        stride = self._stride = self.columns + 1
        board, cells, empty = padded_board(self.columns, self.rows)
        self._board = bytearray(board)
        self._cells = cells  # shared and never written
        self._placed = [0] * len(board)  # the ply that filled each cell
        # Horizontal, vertical, diagonal, anti-diagonal; a line's cells are
        # reported from its -d end to its +d end.
        self._dirs = (1, stride, stride + 1, 1 - stride)
        self._size = len(empty)  # playable points: the board is full after this many stones
        # Empty cells for O(1) random picks: a list and each cell's slot in it.
        # Made on first use only: a replay never needs them.
        self._empty: list[int] | None = None
        self._slot: dict[int, int] | None = None

    # -- turn order ---------------------------------------------------------

    def side_at(self, ply: int) -> Side:
        """Whose stone the ``ply``-th (0-based) stone of the game is."""
        if ply < self.first_turn:
            return "first"
        return "second" if ((ply - self.first_turn) // self.per_turn) % 2 == 0 else "first"

    def stone_of_turn(self, ply: int) -> tuple[int, int]:
        """(index within its turn, 1-based; stones in that turn) of a 0-based ply."""
        if ply < self.first_turn:
            return ply + 1, self.first_turn
        return (ply - self.first_turn) % self.per_turn + 1, self.per_turn

    @property
    def to_move(self) -> Side:
        """Whose stone comes next."""
        return self.side_at(self.ply)

    @property
    def over(self) -> bool:
        return self.winner is not None

    # -- cells ----------------------------------------------------------------

    def index(self, x: int, y: int) -> int | None:
        """Storage index of a point, or None off the board."""
        if 0 <= x < self.columns and 0 <= y < self.rows:
            return (y + 1) * self._stride + x + 1
        return None

    def cell(self, x: int, y: int) -> str:
        """The scene cell id of a point (``J10``)."""
        i = self.index(x, y)
        return (self._cells[i] if i is not None else None) or scene.grid_cell(x, y + 1)

    def at(self, x: int, y: int) -> Side | None:
        """Whose stone is on a point, or None."""
        i = self.index(x, y)
        value = self._board[i] if i is not None else EMPTY
        return "first" if value == FIRST else "second" if value == SECOND else None

    def placed_at(self, x: int, y: int) -> int:
        """The 1-based ply that put the stone on a point (0 if empty)."""
        i = self.index(x, y)
        return self._placed[i] if i is not None else 0

    def empty_cells(self) -> list[tuple[int, int]]:
        """Every empty point as (x, y), in board order."""
        stride = self._stride
        return sorted(((i % stride) - 1, i // stride - 1) for i in self._tracked())

    def _tracked(self) -> list[int]:
        """The empty points, kept up to date from the first time they are asked for."""
        if self._empty is None:
            board = self._board
            self._empty = [i for i in range(len(board)) if board[i] == EMPTY]
            self._slot = {i: n for n, i in enumerate(self._empty)}
        return self._empty

    def random_empty(self, rng: Any) -> tuple[int, int]:
        """A uniformly random empty point, in O(1) (``rng`` is a ``random.Random``)."""
        empty = self._tracked()
        i = empty[rng.randrange(len(empty))]
        return (i % self._stride) - 1, i // self._stride - 1

    def copy(self) -> ConnectState:
        """An independent copy (for generators that look ahead)."""
        other = object.__new__(ConnectState)
        for name in ConnectState.__slots__:
            setattr(other, name, getattr(self, name))
        other._board = bytearray(self._board)
        other._placed = list(self._placed)
        other._empty = list(self._empty) if self._empty is not None else None
        other._slot = dict(self._slot) if self._slot is not None else None
        return other

    # -- playing --------------------------------------------------------------

    # check() and play() come from placement.PlacesStones. Renju forbidden
    # points are legal to play (they lose): see :meth:`forbidden`.

    def _stone_at(self, x: int, y: int) -> int | None:
        i = self.index(x, y)
        return None if i is None else self._board[i]

    def _put(self, x: int, y: int) -> None:
        self._place((y + 1) * self._stride + x + 1, FIRST if self.to_move == "first" else SECOND)

    def forbidden(self, x: int, y: int) -> str | None:
        """The renju prohibition a first-player stone on (x, y) would break, if any.

        None when renju is off, when the second player is to move, or when the
        point is off the board or occupied.
        """
        i = self.index(x, y)
        if not self.renju or i is None or self._board[i] != EMPTY or self.to_move != "first":
            return None
        return self._forbidden_at(i, 0)

    def _place(self, i: int, colour: int) -> None:
        """Put the next stone, of ``colour`` (the mover's: FIRST or SECOND), on the empty cell i."""
        board = self._board
        # Renju: judged before the stone counts (an exact five still wins).
        kind = self._forbidden_at(i, 0) if self.renju and colour == FIRST else None
        board[i] = colour
        ply = self.ply = self.ply + 1
        self._placed[i] = ply
        # Swap-remove from the empty list (made with its slots, on first use only).
        empty, slot = self._empty, self._slot
        if slot is not None and empty is not None:
            n = slot.pop(i)
            last = empty.pop()
            if last != i:
                empty[n] = last
                slot[last] = n
        if kind is not None:
            self.winner, self.rule, self.forbidden_kind = "second", "forbidden", kind
            self.winning_cells = (self._cells[i],)  # type: ignore[assignment]
            return
        k = self.k
        exact = self.exact or (self.renju and colour == FIRST)
        # The hot path of every replay: _ends() inlined for the four lines through i.
        for d in self._dirs:
            j = i + d
            while board[j] == colour:
                j += d
            h = i - d
            while board[h] == colour:
                h -= d
            n = (j - h) // d - 1  # stones strictly between the two ends
            if n >= k and (n == k or not exact):
                self.winner = "first" if colour == FIRST else "second"
                self.rule = "line"
                cells = self._cells
                self.winning_cells = tuple(cells[c] for c in range(h + d, j, d))  # type: ignore[misc]
                return
        if ply == self._size:
            self.winner, self.rule = "draw", "board-full"

    # -- renju ----------------------------------------------------------------

    def _ends(self, i: int, d: int, colour: int) -> tuple[int, int]:
        """The first cells past the run of ``colour`` through i along d, before and after it."""
        board = self._board
        j = i + d
        while board[j] == colour:
            j += d
        h = i - d
        while board[h] == colour:
            h -= d
        return h, j

    def _run(self, i: int, d: int, colour: int) -> int:
        """Length of the run of ``colour`` through i along d (board[i] must hold colour)."""
        h, j = self._ends(i, d, colour)
        return (j - h) // d - 1

    def _span(self, i: int, d: int) -> list[int]:
        """The cells within k - 1 steps of i along d, on the board side of any edge."""
        board, k = self._board, self.k
        cells = []
        for step in (d, -d):
            j = i
            for _ in range(k - 1):
                j += step
                if board[j] == EDGE:  # the padding stops us before we wrap a row
                    break
                cells.append(j)
        return cells

    def _five_points(self, i: int, d: int) -> list[int]:
        """Empty points on the line through i (a black stone) that make exactly k through i."""
        board, k = self._board, self.k
        points = []
        for q in self._span(i, d):
            if board[q] != EMPTY:
                continue
            board[q] = FIRST
            if self._run(i, d, FIRST) == k:
                points.append(q)
            board[q] = EMPTY
        return sorted(points)

    def _fours(self, i: int, d: int) -> int:
        """How many fours the black stone at i makes along d (0, 1 or 2)."""
        points = self._five_points(i, d)
        if len(points) < 2:
            return len(points)
        # Two five points at the ends of one unbroken run are one straight four.
        if len(points) == 2 and self._straight_pair(points[0], points[1], d):
            return 1
        return len(points)

    def _straight_pair(self, a: int, b: int, d: int) -> bool:
        """True if a and b are the two ends of an unbroken black run of k - 1."""
        lo, hi, step = min(a, b), max(a, b), abs(d)
        if hi - lo != self.k * step:
            return False
        board = self._board
        return all(board[c] == FIRST for c in range(lo + step, hi, step))

    def _straight_four(self, i: int, d: int) -> bool:
        points = self._five_points(i, d)
        return any(
            self._straight_pair(a, b, d) for n, a in enumerate(points) for b in points[n + 1 :]
        )

    def _is_three(self, i: int, d: int, depth: int) -> bool:
        """True if the black stone at i makes a real three along d."""
        board = self._board
        for q in self._span(i, d):
            if board[q] != EMPTY:
                continue
            board[q] = FIRST
            straight = self._straight_four(i, d)
            board[q] = EMPTY
            if not straight:
                continue
            # The recursive part: the completing point must itself be playable.
            if depth >= RENJU_DEPTH or self._forbidden_at(q, depth + 1) is None:
                return True
        return False

    def _forbidden_at(self, i: int, depth: int) -> str | None:
        """The prohibition a black stone on the empty cell i breaks, or None."""
        board, k = self._board, self.k
        board[i] = FIRST
        try:
            runs = [self._run(i, d, FIRST) for d in self._dirs]
            if k in runs:
                return None  # a five wins, whatever else the stone makes
            if max(runs) > k:
                return "overline"
            fours = [self._fours(i, d) for d in self._dirs]
            if sum(fours) >= 2:
                return "double-four"
            threes = sum(
                1 for d, f in zip(self._dirs, fours) if not f and self._is_three(i, d, depth)
            )
            if threes >= 2:
                return "double-three"
            return None
        finally:
            board[i] = EMPTY


# -- replay -------------------------------------------------------------------


class ConnectEngine(OnGrid, Engine):
    """The replay of a k-in-a-row record, stone by stone, on :class:`ConnectState`.

    :meth:`read` gives the storage index of the point on the padded board.
    """

    __slots__ = ("columns", "rows", "state", "stride")

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, options)
        self.state = ConnectState(game, options or {})
        self.columns, self.rows, self.stride = self.state.columns, self.state.rows, self.state._stride

    def read(self, move: Move) -> Any:
        point = move.point
        if point is None:
            return None
        column, row = point
        x = COLUMN_INDEX.get(column)
        if x is None:  # written with spaces, or no letter at all
            xy = point_xy(point)
            if xy is None:
                return OffBoard(point)
            x, row = xy[0], xy[1] + 1
        if 0 <= x < self.columns and 0 < row <= self.rows:
            return row * self.stride + x + 1
        return OffBoard(point)

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        state = self.state
        board = state._board
        if board[at] != EMPTY:
            return occupied(self, OCCUPIED, move, number, state._cells[at] or "", state._placed[at], board[at] - 1)
        # Renju forbidden points are legal to play (they lose): _place() judges them.
        state._place(at, FIRST if seat == 0 else SECOND)
        # ConnectState.side_at() of the next stone as a seat, inlined: this runs for every stone.
        ply, first_turn = state.ply, state.first_turn
        self.turn = 0 if ply < first_turn else 1 - ((ply - first_turn) // state.per_turn) % 2
        cell = state._cells[at]
        colour = self.colours[seat]
        ops: list[Op] = [["add", f"s{number}", "stone", colour, cell], ["mark", cell, "last"]]
        if state.winner is not None:  # this stone decided the game
            rule = state.rule or ""
            said: dict[str, Any] = {}
            if rule == "line":
                said["k"] = state.k
            elif rule == "forbidden":
                said["side"] = self.game.first.name
            self.decision = Decision(
                state.winner, rule, state.ply, state.winning_cells, reason=REASONS.get(rule, ""), reason_args=i18n.args_of(said)
            )
            if state.rule == "line":
                ops.extend(scene.mark(c, "win") for c in state.winning_cells)
            elif state.rule == "forbidden":
                assert cell is not None
                self.forbidden(move, number, cell, ops)
        # The move list names the point as players write it (H8), not the record's B(H,8).
        return self.ply(move, number, seat, ops, label=cell or move.text)

    def forbidden(self, move: Move, number: int, cell: str, ops: list[Op]) -> None:
        """The note and the diagnostic of a renju forbidden move, which loses."""
        kind, args = self.state.forbidden_kind, {"cell": cell, "k": self.state.k}
        ops.append(scene.mark(cell, "forbidden"))
        if kind == "double-four":
            ops.append(scene.note(N_("{cell} is a forbidden move for {side} under renju rules: "
                                     "double four (two fours at once); {side} loses"), side="first", **args))
            template = N_("move {number}, {move}: {cell} is a forbidden move for {side} under renju rules: "
                          "double four (two fours at once); {side} loses")
        elif kind == "double-three":
            ops.append(scene.note(N_("{cell} is a forbidden move for {side} under renju rules: "
                                     "double three (two open threes at once); {side} loses"), side="first", **args))
            template = N_("move {number}, {move}: {cell} is a forbidden move for {side} under renju rules: "
                          "double three (two open threes at once); {side} loses")
        else:
            ops.append(scene.note(N_("{cell} is a forbidden move for {side} under renju rules: "
                                     "overline (more than {k} in a row); {side} loses"), side="first", **args))
            template = N_("move {number}, {move}: {cell} is a forbidden move for {side} under renju rules: "
                          "overline (more than {k} in a row); {side} loses")
        self.found.append(self.error(FORBIDDEN, move, number, template, {**args, "side": self.names[0]}))

    def ended(self) -> Message:
        state = self.state
        if state.rule == "board-full":
            return N_("move {number}, {move}: the board was already full at move {end} (a draw); no move may follow"), {
                "end": state.ply
            }
        if state.rule == "forbidden":
            return N_(
                "move {number}, {move}: the game already ended at move {end}: {first}'s forbidden move "
                "({kind}) lost it; no move may follow"
            ), {"end": state.ply, "first": self.names[0], "kind": FORBIDDEN_WORDS[state.forbidden_kind or "overline"]}
        return N_(
            "move {number}, {move}: the game was already won by {winner} at move {end} ({k} in a row); "
            "no move may follow"
        ), {"winner": self.names[0 if state.winner == "first" else 1], "end": state.ply, "k": len(state.winning_cells)}

    def wrong_side(self, move: Move, expected: int, found: int | None) -> Message:
        state = self.state
        if found is None or (state.per_turn == 1 and state.first_turn == 1):
            return super().wrong_side(move, expected, found)
        index, stones = state.stone_of_turn(state.ply)
        args = {
            "expected": self.names[expected], "found": self.names[found], "first": self.names[0],
            "index": index, "stones": stones, "first_turn": state.first_turn, "per_turn": state.per_turn,
        }
        if stones == 1:
            return N_(
                "move {number}, {move}: wrong side to move: expected {expected} to move, found {found} "
                "({first}'s first turn is {first_turn} stone, then each turn is {per_turn} stones)"
            ), args
        if index == 1:
            return N_(
                "move {number}, {move}: wrong side to move: expected {expected} to begin a new turn of "
                "{stones} stones, found {found} ({first}'s first turn is {first_turn} stone, then each turn "
                "is {per_turn} stones)"
            ), args
        return N_(
            "move {number}, {move}: wrong side to move: expected {expected} to play stone {index} of {stones} "
            "in this turn, found {found} ({first}'s first turn is {first_turn} stone, then each turn is {per_turn} stones)"
        ), args


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay a record stone by stone; stop at the first illegal move.

    Returns the plies up to the first illegal move, the moves from there on as
    ``not_replayed``, the rules' decision (a line, a renju forbidden move, a
    full board) or None when the record stops before the rules decide.
    """
    return ConnectEngine(game, options).replay(record)

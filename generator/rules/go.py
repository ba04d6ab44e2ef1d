"""The Go family: Go (GO, GO13, GO9), NoGo (NG) and Phantom Go (PG).

``game.params["variant"]`` picks the rules; the board size comes from
``game.columns`` x ``game.rows``. Black (the first player) moves first and
the sides alternate; a pass (``B[]``, ``B[tt]``: ``Move.passed``) is a turn.

``"go"`` -- Chinese rules, as the CCGC standard and the project rulings ask:

* A stone is placed on an empty point; opponent groups left without liberties
  are removed. Placing a stone whose own group is then without liberties
  (and captures nothing) is suicide, which is illegal.
* Positional superko: the whole-board position after a move (stones only,
  not whose turn it is) may not repeat any earlier position of the game,
  the empty starting board included. A pass leaves the position as it was
  and so never counts as a repetition.
* Two passes in a row end the game. The score is the area count: stones on
  the board plus the empty regions that touch stones of one colour only
  (Tromp-Taylor), komi (event option ``komi``, 7.5 by default) added to
  White. An integer komi can make a draw.

``"nogo"`` -- NoGo: the player who captures or commits suicide loses, and
passing is not allowed. The player to move who has no legal move has lost;
real records end with that player's forced move, a capture or a suicide,
so a record's last move that captures or is suicide ends the game with the
mover's loss (a note, rule ``"capture"`` or ``"suicide"``). Such a move with
more moves after it is an error, as is any move after the end.

``"phantom"`` -- Phantom Go: captures, superko and the count as in Go, but
each player sees only their own stones. A move onto an occupied point, or
one illegal otherwise (suicide, superko), is a *failed attempt*, not an
error: the record keeps it, the page steps through it, and the same player
tries again. The referee view sees the real board; each player's view sees
their own stones and the opponent stones they have bumped into.

Everything a rule decides goes into a :class:`~generator.model.Decision`:
rule ``"score"`` (two passes; ``score`` holds the area counts and the komi)
or ``"no-legal-move"`` (NoGo). A record that stops before (resignation,
time, a truncated file) gets no decision and the declared result stands.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Literal

from generator import diagnostics, scene
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.i18n import N_, T
from generator.model import Decision, Move, Op, Ply, Record, Replay, Result
from generator.rules.engine import SEATS, Engine, Message, OffBoard
from generator.rules.placement import COLUMN_INDEX, EDGE, EMPTY, OnGrid, occupied, padded_board

# How each way of ending a game is said on its page (Decision.reason).
REASONS = {
    "score": N_("area count after two passes"),
    "no-legal-move": N_("the opponent has no legal move"),
    "capture": N_("the opponent's last move captured, which loses in NoGo"),
    "suicide": N_("the opponent's last move was suicide, which loses in NoGo"),
}

Side = Literal["first", "second"]

# -- diagnostic codes -----------------------------------------------------------

OCCUPIED = diagnostics.define(
    "RULE-E303",
    "error",
    "Stone placed on an occupied point (Go, NoGo)",
    "The message names the move that occupied the point; the record probably repeats or mistypes a move.",
)
SUICIDE = diagnostics.define(
    "RULE-E304",
    "error",
    "Suicide: a stone that leaves its own group without liberties (Go, NoGo)",
    "Under Chinese rules (and in NoGo) a move may not leave its own group without "
    "liberties unless it captures; check the move and the ones before it.",
)
SUPERKO = diagnostics.define(
    "RULE-E305",
    "error",
    "Move that repeats an earlier whole-board position (Go positional superko)",
    "The message names the earlier move after which the same position stood; a ko "
    "may be retaken only after a move elsewhere has changed the board.",
)
NOGO_CAPTURE = diagnostics.define(
    "RULE-E307",
    "error",
    "NoGo move that captures stones (capturing is illegal in NoGo)",
    "In NoGo a move may not take the last liberty of an opponent group; check the "
    "move, or whether the game is really NoGo (code NG).",
)
NOGO_PASS = diagnostics.define(
    "RULE-E308",
    "error",
    "Pass in NoGo (passing is not allowed)",
    "A NoGo player with no legal move has lost; a player with one must play. Check "
    "the end of the record and the declared result.",
)

# Board cell contents. EDGE pads the board, so that the neighbours of a point
# need no bounds checks. BLACK and WHITE are the first and second player.
BLACK, WHITE = 1, 2  # stones on the padded board (placement.EMPTY, EDGE around them)
SIDE_OF = {BLACK: "first", WHITE: "second"}
VALUE_OF = {"first": BLACK, "second": WHITE}


@functools.cache
def _neighbours(columns: int, rows: int) -> tuple[tuple[int, ...], ...]:
    """Each index's on-board neighbours on the padded board of a size (placement.padded_board)."""
    board, _, _ = padded_board(columns, rows)
    stride = columns + 1
    return tuple(
        tuple(j for j in (i - stride, i - 1, i + 1, i + stride) if board[j] != EDGE) if board[i] != EDGE else ()
        for i in range(len(board))
    )


class GoState:
    """A Go-family position with its history, played move by move.

    Coordinates are 0-based: ``x`` is the column (A = 0), ``y`` the row from
    the bottom (row 1 = 0). :meth:`place` and :meth:`pass_turn` are the moves;
    they return what happened and leave the state unchanged when the move is
    illegal, so Phantom Go can treat an illegal move as a failed attempt.
    """

    __slots__ = (
        "adj",
        "board",
        "captures",
        "cells",
        "columns",
        "end_move",
        "game",
        "history",
        "ids",
        "komi",
        "moves",
        "passes",
        "placed",
        "points",
        "removed",
        "rows",
        "rule",
        "stride",
        "to_move",
        "variant",
        "winner",
    )

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None) -> None:
        options = options or {}
        self.game = game
        self.variant: str = str(game.params.get("variant", "go"))
        self.columns = game.columns
        self.rows = game.rows
        self.komi = float(options.get("komi", game.options.get("komi", 7.5)))
        self.stride = self.columns + 1
        board, cells, points = padded_board(self.columns, self.rows)
        self.board = bytearray(board)
        self.cells = cells  # shared, never written
        self.adj = _neighbours(self.columns, self.rows)
        self.points = points
        self.placed = [0] * len(board)  # move number that put the stone on each point
        self.ids: list[str | None] = [None] * len(board)  # scene id of the stone on each point
        self.to_move = BLACK
        self.moves = 0  # moves so far (the record's move number of the last one)
        self.passes = 0  # consecutive passes that ended the last turns
        self.captures = [0, 0, 0]  # stones captured BY black (1) and white (2)
        # Positional superko: every whole-board position so far -> the move after
        # which it first stood (0 = the empty start).
        self.history: dict[bytes, int] = {bytes(self.board): 0}
        self.removed: list[str] = []  # scene ids of the stones the last legal move captured
        self.winner: Result | None = None
        self.rule: str | None = None
        self.end_move = 0  # the move that ended the game

    # -- cells ------------------------------------------------------------------

    def index(self, x: int, y: int) -> int | None:
        """Storage index of a point, or None off the board."""
        if 0 <= x < self.columns and 0 <= y < self.rows:
            return (y + 1) * self.stride + x + 1
        return None

    def at(self, x: int, y: int) -> Side | None:
        """Whose stone is on a point, or None."""
        i = self.index(x, y)
        return SIDE_OF.get(self.board[i]) if i is not None else None  # type: ignore[return-value]

    @property
    def over(self) -> bool:
        return self.end_move > 0

    @property
    def side_to_move(self) -> Side:
        return SIDE_OF[self.to_move]  # type: ignore[return-value]

    # -- groups ---------------------------------------------------------------

    def _dead(self, start: int) -> list[int] | None:
        """The stones of the group at ``start`` if it has no liberty, else None."""
        board, adj = self.board, self.adj
        colour = board[start]
        stack = [start]
        seen = {start}
        while stack:
            p = stack.pop()
            for q in adj[p]:
                v = board[q]
                if v == EMPTY:
                    return None
                if v == colour and q not in seen:
                    seen.add(q)
                    stack.append(q)
        return sorted(seen)

    # -- moves ------------------------------------------------------------------

    def place(self, i: int, stone_id: str | None = None) -> tuple[str | None, list[int], int]:
        """Place the side to move's stone on index i.

        Returns ``(reason, stones, earlier)``. ``reason`` is None for a legal
        move, else ``"occupied"``, ``"suicide"``, ``"superko"`` or (NoGo)
        ``"capture"``; a failed move leaves the state as it was. ``stones``
        are the captured indices (legal move), the group that would die
        (suicide) or that would be captured (NoGo); ``earlier`` is the move
        after which a superko position stood before. The state does not
        refuse moves once the game is over: :func:`replay` does.
        """
        board = self.board
        if board[i] != EMPTY:
            return "occupied", [], 0
        colour = self.to_move
        enemy = 3 - colour
        board[i] = colour
        captured: list[int] = []
        for q in self.adj[i]:
            if board[q] == enemy and q not in captured:
                dead = self._dead(q)
                if dead:
                    captured.extend(dead)
        if captured:
            if self.variant == "nogo":
                board[i] = EMPTY
                return "capture", sorted(captured), 0
            for c in captured:
                board[c] = EMPTY
        else:
            dead = self._dead(i)
            if dead is not None:
                board[i] = EMPTY
                return "suicide", dead, 0
        if self.variant != "nogo":  # NoGo never captures, so its positions never repeat
            # Positional superko as in the Chinese rules: a position is the
            # stones on the board only, not whose turn it is, and it is
            # compared with every earlier position (the empty start included).
            # The board's bytes are the key: exact, and cheap at 19x19.
            key = bytes(board)
            earlier = self.history.get(key)
            if earlier is not None:
                for c in captured:
                    board[c] = enemy
                board[i] = EMPTY
                return "superko", [], earlier
            self.history[key] = self.moves + 1
        self.moves += 1
        self.placed[i] = self.moves
        self.ids[i] = stone_id or f"s{self.moves}"
        ids, placed = self.ids, self.placed
        captured.sort()
        self.removed = [ids[c] or "" for c in captured]
        for c in captured:
            ids[c] = None
            placed[c] = 0
        self.captures[colour] += len(captured)
        self.passes = 0
        self.to_move = enemy
        # NoGo: the standard says only that the player with no legal move loses.
        # We decide it as soon as that player is to move (the record need not
        # write a pass or a resignation), so the last stone is the deciding ply.
        if self.variant == "nogo" and not self.has_legal_move(enemy):
            self.winner, self.rule, self.end_move = SIDE_OF[colour], "no-legal-move", self.moves
        return None, captured, 0

    def fail(self) -> None:
        """Count a Phantom Go failed attempt as a move of the record (same player again).

        A failed attempt is not a turn: the position, the player to move and
        the run of passes stay as they were. So "black passes, white fails at
        D5, white passes" is two passes in a row and ends the game: the two
        turns both ended in a pass, which is what Go's rule looks at.
        """
        self.moves += 1

    def pass_turn(self) -> None:
        """The side to move passes; two passes in a row end the game with the count."""
        self.moves += 1
        self.passes += 1
        self.to_move = 3 - self.to_move
        if self.passes >= 2:
            black, white = self.score()
            # Komi goes to White; equal totals (an integer komi) are a draw.
            margin = black - (white + self.komi)
            self.winner = "first" if margin > 0 else "second" if margin < 0 else "draw"
            self.rule = "score"
            self.end_move = self.moves

    # -- the count and NoGo's end -------------------------------------------------

    def score(self) -> tuple[int, int]:
        """Area count (black, white): stones plus empty regions that touch one colour only.

        Tromp-Taylor: every stone on the board counts as alive. The records
        carry no agreement on dead stones, and programs play on until the
        dead ones are captured, so this is what an organiser would count.
        """
        board, adj = self.board, self.adj
        area = [0, 0, 0, 0]
        seen = bytearray(len(board))
        for p in self.points:
            v = board[p]
            if v != EMPTY:
                area[v] += 1
                continue
            if seen[p]:
                continue
            seen[p] = 1
            stack = [p]
            size = 0
            touches = 0
            while stack:
                q = stack.pop()
                size += 1
                for r in adj[q]:
                    w = board[r]
                    if w == EMPTY:
                        if not seen[r]:
                            seen[r] = 1
                            stack.append(r)
                    else:
                        touches |= w
            if touches in (BLACK, WHITE):  # touching both (3) or none (empty board) is nobody's
                area[touches] += size
        return area[BLACK], area[WHITE]

    def has_legal_move(self, colour: int) -> bool:
        """NoGo: whether ``colour`` has an empty point that neither captures nor is suicide.

        Assumes what NoGo guarantees: no group on the board is without liberties.
        """
        board, adj = self.board, self.adj
        enemy = 3 - colour
        liberties: dict[int, int] = {}  # stone -> liberties of its group, filled as needed

        def count(start: int) -> int:
            n = liberties.get(start)
            if n is None:
                own = board[start]
                stack = [start]
                group = {start}
                libs: set[int] = set()
                while stack:
                    p = stack.pop()
                    for q in adj[p]:
                        v = board[q]
                        if v == EMPTY:
                            libs.add(q)
                        elif v == own and q not in group:
                            group.add(q)
                            stack.append(q)
                n = len(libs)
                for s in group:
                    liberties[s] = n
            return n

        for p in self.points:
            if board[p] != EMPTY:
                continue
            breathes = False
            for q in adj[p]:
                v = board[q]
                if v == EMPTY:
                    breathes = True
                elif v == enemy:
                    if count(q) == 1:  # p is that group's last liberty: playing p captures
                        break
                elif count(q) >= 2:  # joins a group that keeps another liberty
                    breathes = True
            else:
                if breathes:
                    return True
        return False


# -- replay -------------------------------------------------------------------


def point_index(state: GoState, point: tuple[str, int] | None) -> int | None:
    """Storage index of a parsed point like ("D", 5), or None off the board."""
    if point is None:
        return None
    letter, row = point
    x = COLUMN_INDEX.get(letter.strip() if isinstance(letter, str) else letter)
    if x is None or not isinstance(row, int):
        return None
    return state.index(x, row - 1)


PASS = -1  # what GoEngine.read() gives for a pass


class GoEngine(OnGrid, Engine):
    """The replay of a Go, NoGo or Phantom Go record on :class:`GoState`.

    The legality of a stone is found by placing it (:meth:`GoState.place`
    leaves the position as it was when the move is illegal). In Phantom Go
    an illegal stone is no error but a failed attempt, a ply of its own,
    after which the same player is to move. :meth:`read` gives the point's
    index on the padded board, or :data:`PASS`.
    """

    __slots__ = ("attempts", "columns", "failed_before", "last_placed", "moves", "nogo", "phantom", "rows", "state")

    def __init__(self, game: GameType, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, options)
        self.state = state = GoState(game, options or {})
        self.columns, self.rows = state.columns, state.rows
        self.phantom = state.variant == "phantom"
        self.nogo = state.variant == "nogo"
        self.attempts = [0, 0]  # failed attempts per seat (Phantom Go)
        self.failed_before = 0  # the move number of the mover's last failed attempt this turn
        self.last_placed: tuple[int, str] | None = None  # Phantom Go: (move, cell) of the last stone placed
        self.moves = 0  # the record's number of moves: NoGo's losing capture ends a record

    def replay(self, record: Record) -> Replay:
        self.moves = len(record.moves)
        return super().replay(record)

    # -- the driver's hooks ------------------------------------------------------------

    def read(self, move: Move) -> Any:
        if move.passed:
            return PASS
        point = move.point
        if point is None:
            return None
        # Off the board is an error even in Phantom Go: the referee cannot
        # accept such a move, so it is a fault of the record, not an attempt.
        i = point_index(self.state, point)
        return OffBoard(point) if i is None else i

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        state = self.state
        if at == PASS:
            if self.nogo:
                return self.error(
                    NOGO_PASS, move, number,
                    N_("move {number}, {move}: passing is not allowed in NoGo (a player without a legal move has lost)"),
                )
            state.pass_turn()
            self.turn = state.to_move - 1
            self.failed_before = 0
            self.last_placed = None
            ops: list[Op] = [scene.note(N_("{side} passes"), side=SEATS[seat])]
            if state.over:
                ops.append(self._decide())
            # A pass is announced to both players in Phantom Go (the game ends on
            # two of them, so both must know), so its label is public: the word
            # for a pass in the page's language (虚手), the record's W[] on hover.
            return self.ply(move, number, seat, ops, label=T("pass"), alt=move.text)
        cell = state.cells[at] or ""
        owner, by = state.board[at], state.placed[at]
        # GoState.place() applies a legal stone and leaves the position as it was otherwise.
        reason, stones, earlier = state.place(at)
        if reason is not None:
            if self.phantom:  # a failed attempt, not an error: the same player tries again
                return self._failed(move, at, number, seat, reason, cell, owner, by, earlier)
            if self.nogo and reason in ("capture", "suicide") and number == self.moves:
                return self._losing(move, number, seat, reason, cell, stones)
            return self._refused(move, number, reason, cell, owner, by, stones, earlier)
        side, colour = SEATS[seat], self.colours[seat]
        self.turn = state.to_move - 1
        self.failed_before = 0
        self.last_placed = (number, cell)
        stone = [scene.add(state.ids[at] or f"s{number}", "stone", colour, cell), scene.mark(cell, "last")]
        public: list[Op] = []
        if stones:
            public.extend(scene.remove(stone_id) for stone_id in state.removed)
            public.append(scene.counter(f"captures.{side}", state.captures[seat + 1]))
        if state.over and self.nogo and number < self.moves:
            # The opponent has no legal move: the record may go on with its forced, losing move
            # (as real records do); the driver settles it if the record ends here or goes wrong.
            self.unsettled = True
        elif state.over:  # NoGo: the opponent has no legal move
            public.append(self._decide())
        if self.phantom:
            return _hidden_ply(number, side, colour, move, cell, public, [(("referee", side), stone)])  # type: ignore[arg-type]
        # The move list names the point (G4), as players write it; the record's B[G4] on hover.
        return Ply(number, side, colour, cell, stone + public, move.mark, move.line, move.column, alt=move.text)

    def settle(self, last: Ply) -> None:
        """NoGo: the player without a legal move did not play its forced move; it has lost all the same."""
        last.ops.append(self._decide())

    def ended(self) -> Message:
        state = self.state
        loser = {"loser": self.names[1 if state.winner == "first" else 0]}
        if state.rule == "capture":
            return N_(
                "move {number}, {move}: the game ended at move {end}, where {loser}'s move captured (capturing loses "
                "in NoGo); no move may follow"
            ), {"end": state.end_move, **loser}
        if state.rule == "suicide":
            return N_(
                "move {number}, {move}: the game ended at move {end}, where {loser}'s move was suicide (suicide "
                "loses in NoGo); no move may follow"
            ), {"end": state.end_move, **loser}
        if state.rule == "score":
            return N_("move {number}, {move}: the game ended with two passes at move {end}; no move may follow"), {
                "end": state.end_move
            }
        return N_(
            "move {number}, {move}: the game was already decided at move {end}: {loser} had no legal move; "
            "no move may follow"
        ), {"end": state.end_move, "loser": self.names[1 if state.winner == "first" else 0]}

    def wrong_side(self, move: Move, expected: int, found: int | None) -> Message:
        if found is None:
            return super().wrong_side(move, expected, found)
        args = {"expected": self.names[expected], "found": self.names[found]}
        if self.failed_before:
            return N_(
                "move {number}, {move}: wrong side to move: expected {expected} to try again after the failed "
                "attempt at move {failed}, found {found}"
            ), {**args, "failed": self.failed_before}
        if self.phantom and self.last_placed is not None:
            # The usual cause is a move the record's writer took for a failed
            # attempt that the rules allow.
            last, cell = self.last_placed
            return N_(
                "move {number}, {move}: wrong side to move: expected {expected} to move, found {found} "
                "({found}'s move {last} ({cell}) was legal, so it was not a failed attempt)"
            ), {**args, "last": last, "cell": cell}
        return super().wrong_side(move, expected, found)

    # -- what a move did -----------------------------------------------------------------

    def _decide(self) -> Op:
        """Set the decision of the game that just ended; the note that says it."""
        state = self.state
        assert state.winner is not None
        score = None
        if state.rule == "score":
            black, white = state.score()
            score = {"first": float(black), "second": float(white), "komi": state.komi}
        rule = state.rule or ""
        self.decision = Decision(state.winner, rule, state.end_move, (), score, reason=REASONS.get(rule, ""))
        if state.rule == "score":
            return _score_note(state)
        winner = state.winner
        return scene.note(
            N_("{loser} has no legal move: {winner} wins"), loser="second" if winner == "first" else "first", winner=winner
        )

    def _losing(self, move: Move, number: int, seat: int, reason: str, cell: str, stones: list[int]) -> Ply:
        """NoGo: the record's last move captures or is suicide; the mover loses (the forced move of a lost game)."""
        state = self.state
        side, colour = SEATS[seat], self.colours[seat]
        winner = SEATS[1 - seat]
        state.winner, state.rule, state.end_move = winner, reason, number
        self.unsettled = False  # decided here, not by the position before
        self.decision = Decision(winner, reason, number, (), None, reason=REASONS[reason])
        ops: list[Op] = [scene.add(f"s{number}", "stone", colour, cell), scene.mark(cell, "last")]
        ops += [scene.mark(state.cells[c] or "", "failed") for c in stones]
        if reason == "capture":
            ops.append(scene.note(
                N_("{cell} captures {count} {owner} stones ({cells}): capturing loses in NoGo, {winner} wins"),
                cell=cell, count=len(stones), owner=winner, cells=_cells_text(state, stones), winner=winner,
            ))  # fmt: skip
        else:
            note = N_("{cell} is suicide: {side} loses in NoGo, {winner} wins")
            ops.append(scene.note(note, cell=cell, side=side, winner=winner))
        return Ply(number, side, colour, cell, ops, move.mark, move.line, move.column, alt=move.text)

    def _failed(
        self, move: Move, at: int, number: int, seat: int, reason: str, cell: str, owner: int, by: int, earlier: int
    ) -> Ply:
        """A Phantom Go failed attempt: the referee sees why, the mover that it failed."""
        state = self.state
        state.fail()
        self.failed_before = number
        self.attempts[seat] += 1
        side, colour = SEATS[seat], self.colours[seat]
        # The mover learns that the move failed and, when the point held an
        # opponent stone, that stone: from now on their view shows it (until it
        # is captured, which every view sees).
        referee: list[Op] = [scene.mark(cell, "failed"), _failed_note(side, reason, cell, owner, earlier)]
        mine: list[Op] = []
        if owner == 2 - seat:  # the opponent's stone
            mine.append(scene.add(state.ids[at] or f"s{by}", "stone", self.colours[1 - seat], cell))
        mine += [scene.mark(cell, "failed"), scene.note(N_("{cell}: failed attempt, {side} tries again"), cell=cell, side=side)]
        # Everyone sees the attempts counter (the referee announces a failed
        # attempt), nobody but the mover and the referee the point tried.
        public = [scene.counter(f"attempts.{side}", self.attempts[seat])]
        return _hidden_ply(number, side, colour, move, cell, public, [(("referee",), referee), ((side,), mine)])  # type: ignore[arg-type]

    def _refused(
        self, move: Move, number: int, reason: str, cell: str, owner: int, by: int, stones: list[int], earlier: int
    ) -> Diagnostic:
        """The error for a Go or NoGo move that :meth:`GoState.place` refused."""
        state = self.state
        mover = self.names[state.to_move - 1]
        if reason == "occupied":
            return occupied(self, OCCUPIED, move, number, cell, by, owner - 1)
        if reason == "suicide":
            if len(stones) == 1:
                return self.error(SUICIDE, move, number, N_(
                    "move {number}, {move}: suicide: the {mover} stone on {cell} would have no liberties and "
                    "captures nothing; suicide is illegal"
                ), {"mover": mover, "cell": cell})
            return self.error(SUICIDE, move, number, N_(
                "move {number}, {move}: suicide: the {mover} group of {count} stones ({cells}) would have no "
                "liberties and the move captures nothing; suicide is illegal"
            ), {"mover": mover, "count": len(stones), "cells": _cells_text(state, stones)})
        if reason == "superko":
            if earlier:
                return self.error(SUPERKO, move, number, N_(
                    "move {number}, {move}: {cell} would repeat the whole-board position that stood after move "
                    "{earlier} (positional superko); the ko must be retaken only after a move elsewhere"
                ), {"cell": cell, "earlier": earlier})
            return self.error(SUPERKO, move, number, N_(
                "move {number}, {move}: {cell} would repeat the whole-board position that stood at the start "
                "(the empty board) (positional superko); the ko must be retaken only after a move elsewhere"
            ), {"cell": cell})
        # NoGo: a capture.
        args = {"cell": cell, "count": len(stones), "owner": self.names[2 - state.to_move], "cells": _cells_text(state, stones)}
        if len(stones) == 1:
            return self.error(NOGO_CAPTURE, move, number, N_(
                "move {number}, {move}: {cell} would capture {count} {owner} stone ({cells}); capturing loses in NoGo, "
                "so the game would end here, but the record goes on"
            ), args)
        return self.error(NOGO_CAPTURE, move, number, N_(
            "move {number}, {move}: {cell} would capture {count} {owner} stones ({cells}); capturing loses in NoGo, "
            "so the game would end here, but the record goes on"
        ), args)


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay a Go, NoGo or Phantom Go record; stop at the first illegal move.

    Returns the plies up to the first illegal move (in Phantom Go failed
    attempts are plies too), the moves from there on as ``not_replayed``, and
    the rules' decision (the count after two passes, NoGo's player without a
    legal move) or None when the record stops before the rules decide.
    """
    return GoEngine(game, options).replay(record)


def _cells_text(state: GoState, stones: list[int], most: int = 6) -> str:
    """``A1, B1, A2``, cut short with an ellipsis after ``most``."""
    names = [state.cells[s] or "?" for s in stones[:most]]
    return ", ".join(names) + (", …" if len(stones) > most else "")


def _hidden_ply(
    number: int,
    side: Side,
    colour: str,
    move: Move,
    cell: str,
    public: list[Op],
    hidden: list[tuple[tuple[str, ...], list[Op]]],
) -> Ply:
    """A Phantom Go ply: its label (the point) for the mover only, ``public`` ops for every view."""
    return Ply(
        number, side, colour, cell, public, move.mark, move.line, move.column, visible_to=(side,), hidden=hidden, alt=move.text
    )


def _failed_note(side: str, reason: str, cell: str, owner: int, earlier: int) -> Op:
    """Why a Phantom Go attempt failed, for the referee's view."""
    if reason == "occupied" and SIDE_OF.get(owner) == side:
        return scene.note(
            N_("{cell} is occupied by {side}'s own stone: failed attempt, {side} tries again"), cell=cell, side=side
        )
    if reason == "occupied":
        return scene.note(
            N_("{cell} is occupied by {owner}: failed attempt, {side} tries again"), cell=cell, side=side, owner=SIDE_OF[owner]
        )
    if reason == "suicide":
        return scene.note(N_("{cell} would be suicide: failed attempt, {side} tries again"), cell=cell, side=side)
    if earlier:
        return scene.note(
            N_("{cell} would repeat the position after move {n} (superko): failed attempt, {side} tries again"),
            cell=cell, side=side, n=earlier,
        )
    return scene.note(
        N_("{cell} would repeat the empty start position (superko): failed attempt, {side} tries again"), cell=cell, side=side
    )


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _score_note(state: GoState) -> Op:
    """``Black 45, White 36 (komi 7.5): Black wins by 1.5``."""
    black, white = state.score()
    komi, margin = _num(state.komi), black - (white + state.komi)
    args = {"first": "first", "second": "second", "a": black, "b": white, "komi": komi}
    if margin == 0:
        return scene.note(N_("{first} {a}, {second} {b} (komi {komi}): draw"), **args)
    winner = "first" if margin > 0 else "second"
    return scene.note(
        N_("{first} {a}, {second} {b} (komi {komi}): {winner} wins by {margin}"), winner=winner, margin=_num(abs(margin)), **args
    )

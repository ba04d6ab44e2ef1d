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

``"nogo"`` -- NoGo: a move that captures is illegal, and so are suicide and
passing. The player to move who has no legal move has lost.

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
from collections.abc import Callable, Mapping
from typing import Any, Literal

from generator import diagnostics, scene
from generator.diagnostics import Diagnostic
from generator.games import GameType
from generator.model import Decision, Move, Op, Ply, Record, Replay, Result
from generator.rules.messages import reporter, side_found
from generator.rules.placement import COLUMN_INDEX, EDGE, EMPTY, bounds_text, padded_board

Side = Literal["first", "second"]

# -- diagnostic codes -----------------------------------------------------------

UNREADABLE = diagnostics.define(
    "RULE-N301",
    "note",
    "The replay stops at a move that could not be read (Go, NoGo, Phantom Go)",
    "Fix the move's syntax (see the format error reported at the same place); "
    "the moves from there on are shown as not replayed.",
)
WRONG_SIDE = diagnostics.define(
    "RULE-E301",
    "error",
    "Move by the wrong side (Go family turn order)",
    "Black moves first and the sides alternate; a pass is a turn too. In Phantom Go "
    "a player whose attempt failed tries again, so only then may a colour repeat. "
    "Look for a missing, repeated or mislabelled move.",
)
OFF_BOARD = diagnostics.define(
    "RULE-E302",
    "error",
    "Stone placed off the board (Go family)",
    "Check the column letter and row against the board size of the game (9x9: "
    "columns A-I, rows 1-9; 13x13: A-M; 19x19: A-S).",
)
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
AFTER_END = diagnostics.define(
    "RULE-E306",
    "error",
    "Move after the game was already over (Go family)",
    "The game ended earlier (two passes in a row, or in NoGo a player without a "
    "legal move); remove the extra moves or check the earlier ones.",
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
            self.winner, self.rule, self.end_move = SIDE_OF[colour], "no-legal-move", self.moves  # type: ignore[assignment]
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


def replay(record: Record, game: GameType, options: Mapping[str, Any] | None = None) -> Replay:
    """Replay a Go, NoGo or Phantom Go record; stop at the first illegal move.

    Returns the plies up to the first illegal move (in Phantom Go failed
    attempts are plies too), the moves from there on as ``not_replayed``, and
    the rules' decision (the count after two passes, NoGo's player without a
    legal move) or None when the record stops before the rules decide.
    """
    state = GoState(game, options or {})
    phantom = state.variant == "phantom"
    nogo = state.variant == "nogo"
    sides = {"first": game.first, "second": game.second}
    plies: list[Ply] = []
    found: list[Diagnostic] = []
    attempts = {"first": 0, "second": 0}
    failed_before = 0  # the move number of the current player's last failed attempt this turn
    last_placed = ""  # Phantom Go: "move 12 (D5)", the last stone placed, for wrong-side messages
    stopped: int | None = None
    public: list[Op]

    for n, move in enumerate(record.moves):
        number = n + 1
        error = reporter(record.path, move, number)
        side: Side = state.side_to_move
        me, them = sides[side], sides["second" if side == "first" else "first"]
        problem: Diagnostic | None = None
        i: int | None = None
        if move.point is None and not move.passed:
            problem = error(UNREADABLE, "the move cannot be read; the replay stops here")
        elif state.over:
            # Anything after the end is an error, a third pass included: the
            # engines that write these records stop at the end.
            problem = error(AFTER_END, _ended_text(state, game))
        elif game.side_of(move.side) != side:
            problem = error(
                WRONG_SIDE, _turn_text(game, move.side, side, failed_before, last_placed if phantom else "")
            )
        elif move.passed:
            if nogo:
                problem = error(NOGO_PASS, "passing is not allowed in NoGo (a player without a legal move has lost)")
        else:
            i = point_index(state, move.point)
            # Off the board is an error even in Phantom Go: the referee cannot
            # accept such a move, so it is a fault of the record, not an attempt.
            if i is None:
                assert move.point is not None
                letter, row = move.point
                where = f"{str(letter).strip().upper()}{row}"
                problem = error(OFF_BOARD, f"{where} is off the board ({bounds_text(state.columns, state.rows)})")
        if problem is not None:
            found.append(problem)
            stopped = n
            break

        colour = me.colour
        if i is None:  # a pass
            state.pass_turn()
            failed_before = 0
            last_placed = ""
            ops: list[Op] = [scene.note(f"{me.name_en} passes", "pass", side=side)]
            if state.over:
                ops.append(_score_note(state, game))
            # A pass is announced to both players in Phantom Go (the game ends on
            # two of them, so both must know), so its label is public.
            plies.append(Ply(number, side, colour, move.text, ops, move.mark, move.line, move.column))
            continue

        cell = state.cells[i] or ""
        owner = state.board[i]
        by = state.placed[i]
        reason, stones, earlier = state.place(i)
        if reason is not None and not phantom:
            found.append(_illegal(error, state, game, reason, cell, owner, by, stones, earlier))
            stopped = n
            break

        if reason is not None:  # Phantom Go: a failed attempt, the same player tries again
            state.fail()
            failed_before = number
            attempts[side] += 1
            again = f"failed attempt, {me.name_en} tries again"
            # The referee sees why; the mover only that the move failed and, when
            # the point held an opponent stone, that stone: from now on their view
            # shows it (until it is captured, which every view sees).
            referee: list[Op] = [scene.mark(cell, "failed"), _failed_note(state, game, side, reason, cell, owner, earlier)]
            mine: list[Op] = []
            if owner == 3 - VALUE_OF[side]:
                mine.append(scene.add(state.ids[i] or f"s{by}", "stone", them.colour, cell))
            mine += [scene.mark(cell, "failed"), scene.note(f"{cell}: {again}", "failed.mover", cell=cell, side=side)]
            # Everyone sees the attempts counter (the referee announces a failed
            # attempt), nobody but the mover and the referee the point tried.
            public = [scene.counter(f"attempts.{side}", attempts[side])]
            plies.append(_hidden_ply(number, side, colour, move, public, [(("referee",), referee), ((side,), mine)]))
            continue

        failed_before = 0
        last_placed = f"move {number} ({cell})"
        stone = [scene.add(state.ids[i] or f"s{number}", "stone", colour, cell), scene.mark(cell, "last")]
        public = []
        if stones:
            public.extend(scene.remove(stone_id) for stone_id in state.removed)
            public.append(scene.counter(f"captures.{side}", state.captures[VALUE_OF[side]]))
        if state.over and state.rule == "no-legal-move":
            other = "second" if side == "first" else "first"
            text = f"{them.name_en} has no legal move: {me.name_en} wins"
            public.append(scene.note(text, "no_legal_move", loser=other, winner=side))
        if phantom:
            plies.append(_hidden_ply(number, side, colour, move, public, [(("referee", side), stone)]))
        else:
            plies.append(Ply(number, side, colour, move.text, stone + public, move.mark, move.line, move.column))

    decision = None
    if state.over and state.winner is not None:
        score = None
        if state.rule == "score":
            black, white = state.score()
            score = {"first": float(black), "second": float(white), "komi": state.komi}
        decision = Decision(state.winner, state.rule or "", state.end_move, (), score)
    not_replayed = list(record.moves[stopped:]) if stopped is not None else []
    return Replay([], plies, not_replayed, decision, found)


def _name(game: GameType, value: int) -> str:
    return game.first.name_en if value == BLACK else game.second.name_en


def _cells_text(state: GoState, stones: list[int], most: int = 6) -> str:
    names = [state.cells[s] or "?" for s in stones[:most]]
    return ", ".join(names) + (f" and {len(stones) - most} more" if len(stones) > most else "")


def _hidden_ply(
    number: int, side: Side, colour: str, move: Move, public: list[Op], hidden: list[tuple[tuple[str, ...], list[Op]]]
) -> Ply:
    """A Phantom Go ply: its label for the mover only, ``public`` ops for every view."""
    return Ply(number, side, colour, move.text, public, move.mark, move.line, move.column, visible_to=(side,), hidden=hidden)


def _illegal(
    error: Callable[[str, str], Diagnostic],
    state: GoState,
    game: GameType,
    reason: str,
    cell: str,
    owner: int,
    by: int,
    stones: list[int],
    earlier: int,
) -> Diagnostic:
    """The error for a Go or NoGo move that :meth:`GoState.place` refused."""
    mover = _name(game, state.to_move)
    if reason == "occupied":
        return error(OCCUPIED, f"{cell} is already occupied by move {by} ({_name(game, owner)})")
    if reason == "suicide":
        if len(stones) == 1:
            what = f"the {mover} stone on {cell} would have no liberties and captures nothing"
        else:
            what = (
                f"the {mover} group of {len(stones)} stones ({_cells_text(state, stones)}) would have "
                "no liberties and the move captures nothing"
            )
        return error(SUICIDE, f"suicide: {what}; suicide is illegal")
    if reason == "superko":
        when = f"after move {earlier}" if earlier else "at the start (the empty board)"
        return error(
            SUPERKO,
            f"{cell} would repeat the whole-board position that stood {when} "
            "(positional superko); the ko must be retaken only after a move elsewhere",
        )
    # NoGo: a capture.
    count = f"{len(stones)} {_name(game, 3 - state.to_move)} stone{'s' if len(stones) > 1 else ''}"
    return error(
        NOGO_CAPTURE, f"{cell} would capture {count} ({_cells_text(state, stones)}); capturing is illegal in NoGo"
    )


def _failed_note(state: GoState, game: GameType, side: Side, reason: str, cell: str, owner: int, earlier: int) -> Op:
    """Why a Phantom Go attempt failed, for the referee's view."""
    mover = _name(game, VALUE_OF[side])
    again = f"failed attempt, {mover} tries again"
    if reason == "occupied" and owner == VALUE_OF[side]:
        return scene.note(f"{cell} is occupied by {mover}'s own stone: {again}", "failed.own", cell=cell, side=side)
    if reason == "occupied":
        return scene.note(f"{cell} is occupied by {_name(game, owner)}: {again}", "failed.occupied", cell=cell, side=side, owner=SIDE_OF[owner])
    if reason == "suicide":
        return scene.note(f"{cell} would be suicide: {again}", "failed.suicide", cell=cell, side=side)
    if earlier:
        text = f"{cell} would repeat the position after move {earlier} (superko): {again}"
        return scene.note(text, "failed.superko", cell=cell, side=side, n=earlier)
    return scene.note(f"{cell} would repeat the empty start position (superko): {again}", "failed.superko_start", cell=cell, side=side)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _score_note(state: GoState, game: GameType) -> Op:
    """``Black 45, White 36 (komi 7.5): Black wins by 1.5``."""
    black, white = state.score()
    komi, margin = _num(state.komi), black - (white + state.komi)
    first, second = game.first.name_en, game.second.name_en
    text = f"{first} {black}, {second} {white} (komi {komi})"
    args = {"first": "first", "second": "second", "a": black, "b": white, "komi": komi}
    if margin == 0:
        return scene.note(f"{text}: draw", "score.draw", **args)
    winner = "first" if margin > 0 else "second"
    text = f"{text}: {first if margin > 0 else second} wins by {_num(abs(margin))}"
    return scene.note(text, "score.win", winner=winner, margin=_num(abs(margin)), **args)


def _ended_text(state: GoState, game: GameType) -> str:
    if state.rule == "score":
        return f"the game ended with two passes at move {state.end_move}; no move may follow"
    loser = game.second.name_en if state.winner == "first" else game.first.name_en
    return f"the game was already decided at move {state.end_move}: {loser} had no legal move; no move may follow"


def _turn_text(game: GameType, letter: str, expected: str, failed_before: int, last_placed: str = "") -> str:
    want = (game.first if expected == "first" else game.second).name_en
    side = game.side_of(letter)
    found = side_found(game, letter)
    if failed_before:
        return (
            f"wrong side to move: expected {want} to try again after the failed attempt at "
            f"move {failed_before}, found {found}"
        )
    text = f"wrong side to move: expected {want} to move, found {found}"
    if last_placed and side is not None and side != expected:
        # Phantom Go: the usual cause is a move the record's writer took for a
        # failed attempt that the rules allow.
        text += f" ({found}'s {last_placed} was legal, so it was not a failed attempt)"
    return text

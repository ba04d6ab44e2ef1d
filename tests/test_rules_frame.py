"""The replay driver (generator/rules/engine.py) on a tiny invented game of three seats.

"Three in a row on one line": Black, White and Red take turns, in that order,
putting a stone on an empty cell of a row of nine (A1 to I1); whoever has
three adjacent cells first wins. The engine below is all a game needs: where
a move goes (``read``), applying it or refusing it (``play``), and how the
game ended (``ended``); the driver does the rest, with its own codes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from generator import diagnostics, scene
from generator.diagnostics import Diagnostic
from generator.games import GameType, Side
from generator.model import Decision, Metadata, Move, Ply, Record, Replay
from generator.rules import engine
from generator.rules.engine import SEATS, Engine, Message, OffBoard
from generator.rules.placement import COLUMN_INDEX, OnGrid

BLACK, WHITE, RED = Side("B", "black", "黑方", "Black"), Side("W", "white", "白方", "White"), Side("R", "red", "红方", "Red")
ROW = GameType(
    code="ROW3", name_zh="一行三子", name_en="Three in a row", format="brace", rules="connect", board="grid",
    first=BLACK, second=WHITE, columns=9, rows=1,
)
TAKEN = "TEST-E901"  # the invented game's own code, defined only while a test runs


@pytest.fixture(autouse=True)
def taken_code() -> Iterator[None]:
    # Defined for the test and removed after it: the codes table of the docs lists real codes only.
    diagnostics.define(TAKEN, "error", "Stone on a taken cell (three in a row)")
    yield
    diagnostics.CATALOG.pop(TAKEN, None)


class RowEngine(OnGrid, Engine):
    __slots__ = ("cells", "columns", "finished", "rows")

    def __init__(self, game: GameType) -> None:
        super().__init__(game)
        seats = (BLACK, WHITE, RED)  # a third seat: the registry's GameType names two
        self.colours = tuple(side.colour for side in seats)
        self.names = tuple(side.name for side in seats)
        self.letters = {side.letter: seat for seat, side in enumerate(seats)}
        self.columns, self.rows = game.columns, game.rows
        self.cells: list[int | None] = [None] * game.columns  # the seat on each cell
        self.finished = False

    def read(self, move: Move) -> Any:
        if move.point is None:
            return None
        x, row = COLUMN_INDEX.get(move.point[0]), move.point[1]
        if x is None or not (0 <= x < self.columns and row == 1):
            return OffBoard(move.point)
        return x

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        cell = scene.grid_cell(at, 1)
        if self.cells[at] is not None:
            return self.error(TAKEN, move, number, "move {number}, {move}: {cell} is taken", {"cell": cell})
        self.cells[at] = seat
        self.turn = (seat + 1) % 3
        ops = [scene.add(f"s{number}", "stone", self.colours[seat], cell)]
        line = [x for x in range(max(0, at - 2), min(self.columns, at + 3)) if self.cells[x] == seat]
        if any(line[i : i + 3] == list(range(line[i], line[i] + 3)) for i in range(len(line) - 2)):
            self.decision = Decision(SEATS[seat], "line", number)  # type: ignore[arg-type]
        return self.ply(move, number, seat, ops)

    def ended(self) -> Message:
        assert self.decision is not None
        return "move {number}, {move}: {winner} already won at move {end}", {
            "winner": self.names[SEATS.index(self.decision.winner)], "end": self.decision.ply
        }

    def finish(self, record: Record, replay: Replay) -> None:
        self.finished = True


def record(*moves: str) -> Record:
    """``B3`` is Black on C1 (cell 3); ``B?`` cannot be read; ``BJ`` names column J."""
    out = []
    for n, text in enumerate(moves):
        side, where = text[0], text[1:]
        point = None if where == "?" else ((where, 1) if where.isalpha() else ("ABCDEFGHI"[int(where) - 1], 1))
        out.append(Move(side, text, point, 1, 1 + 4 * n))
    return Record("row.txt", "ROW3", Metadata(), out)


def run(*moves: str) -> tuple[Replay, RowEngine]:
    found = RowEngine(ROW)
    return found.replay(record(*moves)), found


def test_three_seats_take_turns_and_the_rules_decide() -> None:
    replay, used = run("B1", "W9", "R5", "B2", "W8", "R6", "B3")
    assert [(p.number, p.side, p.colour, p.label) for p in replay.plies[:4]] == [
        (1, "first", "black", "B1"), (2, "second", "white", "W9"), (3, "third", "red", "R5"), (4, "first", "black", "B2"),
    ]
    assert replay.decision == Decision("first", "line", 7)
    assert replay.diagnostics == [] and replay.not_replayed == []
    assert used.finished  # the hook for what only the whole record shows ran
    assert scene.position_after(replay.setup, replay.plies).pieces["s3"].side == "red"


def test_the_third_seat_out_of_turn_is_the_drivers_error_and_stops_the_replay() -> None:
    replay, _ = run("B1", "R5", "W9")
    [error] = replay.diagnostics
    assert (error.code, error.severity, error.line, error.column) == (engine.WRONG_SIDE, "error", 1, 5)
    assert error.message == "move 2, R5: wrong side to move: expected White to move, found Red"
    assert error.say("zh-CN") == "第 2 手 R5：走子方不对：应由白方走，这里却是红方"
    assert [p.label for p in replay.plies] == ["B1"] and [m.text for m in replay.not_replayed] == ["R5", "W9"]


def test_a_letter_that_names_no_seat_lists_the_seats() -> None:
    replay, _ = run("B1", "Q2")
    [error] = replay.diagnostics
    assert error.code == engine.WRONG_SIDE
    assert error.message == (
        "move 2, Q2: wrong side to move: expected White to move, found unknown side 'Q' (the sides are B, W, R)"
    )


def test_unreadable_and_off_the_board_moves_get_the_drivers_codes() -> None:
    unread, _ = run("B1", "W?", "R3")
    assert [(d.code, d.severity) for d in unread.diagnostics] == [(engine.UNREADABLE, "note")]
    assert unread.diagnostics[0].message == "move 2, W?: the move cannot be read; the replay stops here"
    assert len(unread.plies) == 1 and len(unread.not_replayed) == 2
    off, _ = run("B1", "WJ")
    [error] = off.diagnostics
    assert error.code == engine.OFF_BOARD
    assert error.message == "move 2, WJ: J1 is off the board (the board is 9x1, columns A-I, rows 1-1)"
    assert error.say("zh-CN") == "第 2 手 WJ：J1 在棋盘之外（棋盘为 9x1，列 A-I，行 1-1）"


def test_the_engines_own_refusal_stops_the_replay_and_leaves_the_position() -> None:
    replay, used = run("B1", "W1", "R2")
    [error] = replay.diagnostics
    assert (error.code, error.message) == (TAKEN, "move 2, W1: A1 is taken")
    assert used.cells[:2] == [0, None] and used.turn == 1  # White is still to move
    assert [m.text for m in replay.not_replayed] == ["W1", "R2"]


def test_a_move_after_the_end_says_how_the_engine_ended_the_game() -> None:
    replay, _ = run("B1", "W9", "R5", "B2", "W8", "R6", "B3", "W7")
    [error] = replay.diagnostics
    assert error.code == engine.AFTER_END
    assert error.message == "move 8, W7: Black already won at move 7"
    assert len(replay.plies) == 7 and [m.text for m in replay.not_replayed] == ["W7"]


def test_the_checks_run_in_their_order_unreadable_first() -> None:
    # After the end, an unreadable move is still reported as unreadable (a note), as every engine did.
    replay, _ = run("B1", "W9", "R5", "B2", "W8", "R6", "B3", "R?")
    assert [d.code for d in replay.diagnostics] == [engine.UNREADABLE]
    # Out of turn and off the board: out of turn is said.
    replay, _ = run("B1", "RJ")
    assert [d.code for d in replay.diagnostics] == [engine.WRONG_SIDE]


def test_the_drivers_codes_are_defined_once_with_a_chinese_title() -> None:
    for code in (engine.UNREADABLE, engine.WRONG_SIDE, engine.OFF_BOARD, engine.AFTER_END):
        entry = diagnostics.CATALOG[code]
        assert entry.code.startswith("RULE-") and entry.code[6:8] == "00" and entry.help
        assert diagnostics.title(code, "zh-CN") != entry.title


class LazyRowEngine(RowEngine):
    """The same game, where a full row ends it too (the player to move has nowhere to go and loses).

    That end is the kind an engine may leave open (as xiangqi leaves mate):
    play() sets ``unsettled`` and the driver asks settle() only where it matters.
    """

    __slots__ = ("settled",)

    def __init__(self, game: GameType) -> None:
        super().__init__(game)
        self.settled: list[int] = []  # the plies settle() was asked about

    def play(self, move: Move, at: Any, number: int, seat: int) -> Ply | Diagnostic:
        ply = super().play(move, at, number, seat)
        if isinstance(ply, Ply) and self.decision is None:
            self.unsettled = True
        return ply

    def settle(self, last: Ply) -> None:
        self.settled.append(last.number)
        if None not in self.cells:
            self.decision = Decision(last.side, "blocked", last.number)  # type: ignore[arg-type]
            last.ops.append(scene.note("the row is full"))

    def ended(self) -> Message:
        assert self.decision is not None
        return "move {number}, {move}: the row was full after move {end}", {"end": self.decision.ply}


FULL = ("B1", "W2", "R3", "B4", "W5", "R6", "B7", "W8", "R9")  # nobody has three in a row


def lazy(*moves: str) -> tuple[Replay, LazyRowEngine]:
    found = LazyRowEngine(ROW)
    return found.replay(record(*moves)), found


def test_an_end_left_open_is_settled_after_the_last_move_only() -> None:
    replay, used = lazy(*FULL)
    assert used.settled == [9]  # not once per move: each next move proved the game went on
    assert replay.decision == Decision("third", "blocked", 9)
    assert replay.plies[-1].ops[-1] == scene.note("the row is full")
    going_on, used = lazy("B1", "W9", "R5")
    assert used.settled == [3] and going_on.decision is None and going_on.diagnostics == []


def test_a_move_after_an_end_left_open_is_reported_as_after_the_end() -> None:
    # B2 would be refused (taken), but the game was over first: that is what is said.
    replay, used = lazy(*FULL, "B2")
    [error] = replay.diagnostics
    assert (error.code, error.message) == (engine.AFTER_END, "move 10, B2: the row was full after move 9")
    assert used.settled == [9] and replay.decision == Decision("third", "blocked", 9)
    # Out of turn after the end: the end is what is said, as with an end decided at once.
    replay, _ = lazy(*FULL, "W2")
    assert [d.code for d in replay.diagnostics] == [engine.AFTER_END]
    # Unreadable stays unreadable, but the end is still known.
    replay, _ = lazy(*FULL, "B?")
    assert [d.code for d in replay.diagnostics] == [engine.UNREADABLE] and replay.decision is not None
    # A refused move where the game went on stays the engine's own refusal.
    replay, used = lazy("B1", "W1")
    assert [d.code for d in replay.diagnostics] == [TAKEN] and used.settled == [1] and replay.decision is None

"""The k-in-a-row engine (C5 gomoku, C6 connect6): turn order, errors, wins, renju."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest
from conftest import brace_moves

from generator import games, scene
from generator.model import Decision, Metadata, Record, Text
from generator.rules import connect, engine
from generator.rules.connect import ConnectState, replay

C5 = games.GAMES["C5"]
C6 = games.GAMES["C6"]
RENJU = {"renju": True}
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
HAVE_BRACE = importlib.util.find_spec("generator.formats.brace") is not None


def record(text: str, line: int = 1) -> Record:
    """A record whose moves are the ``;``-separated entries of one line (see conftest.brace_moves)."""
    moves = brace_moves(text, line)
    return Record("game.txt", None, Metadata(), moves)


def at(x: int, y: int) -> str:
    """``(J,10)`` for 0-based x, y."""
    return f"({scene.COLUMN_LETTERS[x]},{y + 1})"


def sequence(game, black, white, last: str | None = None, last_side: str = "first") -> str:
    """A legal move list placing these stones, padded with far-away fillers.

    Stones go in the given order, each side's stones when it is that side's
    turn; fillers (every other point of the bottom row for black, of the top
    row for white: far from the tested shapes and never a line) keep the turn
    order. With ``last``, fillers go on until ``last_side`` is to move, and
    ``last`` (like ``(H,8)``) is that side's stone.
    """
    state = ConnectState(game, {})
    black_fillers = [(x, 0) for x in range(0, game.columns, 2)]
    white_fillers = [(x, game.rows - 1) for x in range(0, game.columns, 2)]
    black, white = list(black), list(white)
    entries = []

    def put(side: str, stones: list, fillers: list) -> None:
        x, y = stones.pop(0) if stones else fillers.pop(0)
        state.play(x, y)
        entries.append(("B" if side == "first" else "W") + at(x, y))

    while black or white or (last and state.to_move != last_side):
        if state.to_move == "first":
            put("first", black, black_fillers)
        else:
            put("second", white, white_fillers)
    if last:
        entries.append(("B" if last_side == "first" else "W") + last)
    return ";".join(entries)


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


# -- turn order ---------------------------------------------------------------


def test_connect6_turn_order_is_one_then_two_stones_per_turn():
    state = ConnectState(C6, {})
    order = []
    for n in range(9):
        order.append("B" if state.to_move == "first" else "W")
        state.play(n, 5)
    assert "".join(order) == "BWWBBWWBB"


def test_gomoku_turns_alternate():
    state = ConnectState(C5, {})
    order = []
    for n in range(6):
        order.append("B" if state.to_move == "first" else "W")
        state.play(n, 3)
    assert "".join(order) == "BWBWBW"


def test_the_connect6_example_of_the_standard_replays_without_errors():
    text = "B(J,10);W(I,11);W(I,9);B(K,9);B(K,11);W(K,10);W(I,10);B(J,11);B(J,9)"
    result = replay(record(text), C6, {})
    assert result.diagnostics == []
    assert [p.side for p in result.plies] == ["first", "second", "second", "first", "first",
                                              "second", "second", "first", "first"]
    assert [p.colour for p in result.plies][:3] == ["black", "white", "white"]
    assert result.decision is None  # nobody has six: the declared result stands
    assert result.not_replayed == []


# -- errors -------------------------------------------------------------------


def test_connect6_black_instead_of_whites_second_stone():
    text = "B(J,10);W(I,11);B(K,9);W(I,9)"
    result = replay(record(text), C6, {})
    assert codes(result) == [engine.WRONG_SIDE]
    d = result.diagnostics[0]
    assert (d.path, d.line, d.column) == ("game.txt", 1, text.index("B(K,9)") + 1)
    assert "move 3" in d.message and "B(K,9)" in d.message
    assert "expected White to play stone 2 of 2 in this turn, found Black" in d.message
    assert [p.label for p in result.plies] == ["J10", "I11"]  # the move list names points as players do
    assert [m.text for m in result.not_replayed] == ["B(K,9)", "W(I,9)"]


def test_connect6_white_playing_a_third_stone():
    result = replay(record("B(J,10);W(I,11);W(I,9);W(K,9)"), C6, {})
    assert codes(result) == [engine.WRONG_SIDE]
    assert "move 4" in result.diagnostics[0].message
    assert "expected Black to begin a new turn of 2 stones, found White" in result.diagnostics[0].message


def test_gomoku_same_colour_twice():
    result = replay(record("B(H,8);B(H,9)"), C5, {})
    assert codes(result) == [engine.WRONG_SIDE]
    assert "move 2" in result.diagnostics[0].message
    assert "expected White to move, found Black" in result.diagnostics[0].message


def test_unknown_side_letter_is_a_turn_error():
    result = replay(record("B(H,8);R(H,9)"), C5, {})
    assert codes(result) == [engine.WRONG_SIDE]
    assert "unknown side 'R'" in result.diagnostics[0].message


def test_off_the_board_names_the_board_size():
    text = "B(H,8);W(P,3)"
    result = replay(record(text), C5, {})
    assert codes(result) == [engine.OFF_BOARD]
    d = result.diagnostics[0]
    assert d.column == text.index("W(P,3)") + 1
    assert "move 2" in d.message and "P3 is off the board" in d.message and "15x15" in d.message
    assert len(result.plies) == 1


def test_row_off_the_board():
    result = replay(record("B(H,8);W(H,16)"), C5, {})
    assert codes(result) == [engine.OFF_BOARD]
    assert "H16" in result.diagnostics[0].message
    # S is on the connect6 board, not on the gomoku board
    assert replay(record("B(S,19)"), C6, {}).diagnostics == []
    assert codes(replay(record("B(S,1)"), C5, {})) == [engine.OFF_BOARD]


def test_occupied_point_names_the_move_that_took_it():
    text = "B(H,8);W(H,9);B(I,8);W(H,8);B(J,8)"
    result = replay(record(text), C5, {})
    assert codes(result) == [connect.OCCUPIED]
    d = result.diagnostics[0]
    assert d.column == text.index("W(H,8)") + 1
    assert "move 4" in d.message and "H8 is already occupied by move 1 (Black)" in d.message
    assert [m.text for m in result.not_replayed] == ["W(H,8)", "B(J,8)"]


def test_lower_case_column_letters_are_the_same_point():
    result = replay(record("B(h,8);W(H,8)"), C5, {})
    assert codes(result) == [connect.OCCUPIED]


def test_unreadable_move_stops_the_replay():
    result = replay(record("B(H,8);W(H,9);B??;W(J,9)"), C5, {})
    assert codes(result) == [engine.UNREADABLE]
    assert "move 3" in result.diagnostics[0].message
    assert len(result.plies) == 2
    assert [m.text for m in result.not_replayed] == ["B??", "W(J,9)"]


def test_move_after_the_game_was_won():
    text = "B(A,1);W(A,2);B(B,1);W(B,2);B(C,1);W(C,2);B(D,1);W(D,2);B(E,1);W(E,2);B(O,15)"
    result = replay(record(text), C5, {})
    assert result.decision == Decision("first", "line", 9, ("A1", "B1", "C1", "D1", "E1"))
    assert codes(result) == [engine.AFTER_END]
    d = result.diagnostics[0]
    assert d.column == text.index("W(E,2)") + 1
    assert "move 10" in d.message and "won by Black at move 9" in d.message
    assert len(result.plies) == 9
    assert [m.text for m in result.not_replayed] == ["W(E,2)", "B(O,15)"]


def test_connect6_second_stone_after_the_winning_first_stone_is_an_error():
    # Black's six is complete with the first stone of its turn; the record
    # still writes the turn's second stone.
    black = [(3, 9), (4, 9), (5, 9), (6, 9), (7, 9)]
    white = [(3, 2), (5, 2), (7, 2), (9, 2), (11, 2), (13, 2)]
    text = sequence(C6, black, white)  # B WW BB WW BB WW: Black's turn comes next
    text += ";B" + at(8, 9) + ";B" + at(12, 12)
    result = replay(record(text), C6, {})
    assert result.decision == Decision("first", "line", 12, ("D10", "E10", "F10", "G10", "H10", "I10"))
    assert codes(result) == [engine.AFTER_END]
    assert "move 13" in result.diagnostics[0].message
    assert [m.text for m in result.not_replayed] == ["B(M,13)"]


def test_only_the_first_illegal_move_is_reported():
    result = replay(record("B(H,8);W(H,8);B(Z,1);W(H,8)"), C5, {})
    assert codes(result) == [connect.OCCUPIED]
    assert len(result.not_replayed) == 3


# -- wins -------------------------------------------------------------------

DIRECTIONS = {
    "horizontal": (1, 0),
    "vertical": (0, 1),
    "diagonal": (1, 1),
    "anti-diagonal": (1, -1),
}


def line_of(n: int, start: tuple[int, int], step: tuple[int, int]) -> list[tuple[int, int]]:
    return [(start[0] + i * step[0], start[1] + i * step[1]) for i in range(n)]


@pytest.mark.parametrize("game", [C5, C6], ids=["C5", "C6"])
@pytest.mark.parametrize("direction", list(DIRECTIONS))
def test_k_in_a_row_wins_in_every_direction(game, direction):
    k = game.params["k"]
    step = DIRECTIONS[direction]
    start = (4, 12) if step[1] < 0 else (4, 4)
    stones = line_of(k, start, step)
    # The winning stone goes in the middle of the line: the check must look both ways.
    order = stones[:2] + stones[3:] + [stones[2]]
    text = sequence(game, order[:-1], [], last=at(*order[-1]))
    result = replay(record(text), game, {})
    assert result.diagnostics == []
    expected = tuple(scene.grid_cell(x, y + 1) for x, y in stones)
    assert result.decision == Decision("first", "line", len(result.plies), expected)
    assert result.plies[-1].ops[2:] == [scene.mark(c, "win") for c in expected]


def test_white_wins_too():
    black = [(0, 10), (2, 10), (4, 10), (6, 10), (8, 10)]
    white = [(5, 5), (6, 5), (7, 5), (8, 5), (9, 5)]
    result = replay(record(sequence(C5, black, white)), C5, {})
    assert result.decision == Decision("second", "line", 10, ("F6", "G6", "H6", "I6", "J6"))


def six_for_black(game, last: tuple[int, int]) -> str:
    """Black gets B..D and F..G in row 8, then plays ``last``."""
    black = [(1, 7), (2, 7), (3, 7), (5, 7), (6, 7)]
    white = [(1, 3), (3, 3), (5, 3), (7, 3), (9, 3)]
    return sequence(game, black, white) + ";B" + at(*last)


def test_free_style_overline_wins_with_the_whole_line():
    result = replay(record(six_for_black(C5, (4, 7))), C5, {})
    assert result.decision == Decision("first", "line", 11, ("B8", "C8", "D8", "E8", "F8", "G8"))


def test_exact_five_overline_does_not_win():
    result = replay(record(six_for_black(C5, (4, 7))), C5, {"exact_five": True})
    assert result.diagnostics == []
    assert result.decision is None


def test_exact_five_still_wins_with_exactly_five():
    black = [(1, 7), (2, 7), (3, 7), (4, 7)]
    white = [(1, 3), (3, 3), (5, 3), (7, 3)]
    text = sequence(C5, black, white) + ";B" + at(5, 7)
    result = replay(record(text), C5, {"exact_five": True})
    assert result.decision == Decision("first", "line", 9, ("B8", "C8", "D8", "E8", "F8"))


def test_exact_five_and_overline_in_two_lines_wins():
    # One stone makes six across and exactly five down: the five counts.
    black = [(1, 7), (2, 7), (3, 7), (5, 7), (6, 7), (4, 3), (4, 4), (4, 5), (4, 6)]
    white = [(9, 3), (9, 5), (11, 3), (11, 5), (13, 3), (13, 5), (9, 1), (11, 1), (13, 1)]
    text = sequence(C5, black, white) + ";B" + at(4, 7)
    result = replay(record(text), C5, {"exact_five": True})
    assert result.decision is not None
    assert result.decision.cells == ("E4", "E5", "E6", "E7", "E8")


def test_connect6_overline_wins():
    black = [(2, 9), (3, 9), (4, 9), (6, 9), (7, 9), (8, 9)]
    white = [(2, 2), (4, 2), (6, 2), (8, 2), (10, 2), (12, 2)]
    text = sequence(C6, black, white)
    state = ConnectState(C6, {})
    for m in record(text).moves:
        state.play(*connect.point_xy(m.point))
    assert state.to_move == "first"
    result = replay(record(text + ";B" + at(5, 9)), C6, {})
    assert result.decision is not None and result.decision.winner == "first"
    assert len(result.decision.cells) == 7


def test_five_is_not_enough_in_connect6():
    black = [(2, 9), (3, 9), (4, 9), (5, 9), (6, 9)]
    white = [(2, 2), (4, 2), (6, 2), (8, 2)]
    result = replay(record(sequence(C6, black, white)), C6, {})
    assert result.diagnostics == [] and result.decision is None


def test_board_full_is_a_draw():
    tiny = dataclasses.replace(C5, columns=3, rows=3)
    text = "B(A,1);W(B,1);B(C,1);W(A,2);B(B,2);W(C,2);B(A,3);W(B,3);B(C,3)"
    result = replay(record(text), tiny, {})
    assert result.decision == Decision("draw", "board-full", 9)
    assert result.diagnostics == []


def test_move_after_a_full_board():
    tiny = dataclasses.replace(C5, columns=2, rows=2)
    result = replay(record("B(A,1);W(B,1);B(A,2);W(B,2);B(A,1)"), tiny, {})
    assert result.decision == Decision("draw", "board-full", 4)
    assert codes(result) == [engine.AFTER_END]
    assert "full at move 4" in result.diagnostics[0].message


def test_small_k_on_a_tiny_board_wins_instead_of_filling():
    tiny = dataclasses.replace(C5, columns=3, rows=3, params={**C5.params, "k": 3})
    result = replay(record("B(A,1);W(A,2);B(B,2);W(A,3);B(C,3)"), tiny, {})
    assert result.decision == Decision("first", "line", 5, ("A1", "B2", "C3"))


# -- frames -------------------------------------------------------------------


def test_ply_ops_and_fields():
    text = "B(H,8)MARK[2];W(H,9)MARK[-1];B(I,8)"
    result = replay(record(text, line=3), C5, {})
    first, second, third = result.plies
    assert result.setup == []
    assert first.ops == [["add", "s1", "stone", "black", "H8"], ["mark", "H8", "last"]]
    assert second.ops == [["add", "s2", "stone", "white", "H9"], ["mark", "H9", "last"]]
    assert (first.number, first.side, first.colour, first.label) == (1, "first", "black", "H8")
    assert (first.mark, second.mark, third.mark) == (2, -1, None)
    assert (second.line, second.column) == (3, text.index("W(H,9)") + 1)
    shown = scene.position_after(result.setup, result.plies)
    assert {p.at: p.side for p in shown.pieces.values()} == {"H8": "black", "H9": "white", "I8": "black"}
    assert shown.marks == [("I8", "last")]


def test_winning_ply_marks_the_line():
    text = "B(A,1);W(A,2);B(B,1);W(B,2);B(C,1);W(C,2);B(D,1);W(D,2);B(E,1)"
    result = replay(record(text), C5, {})
    last = result.plies[-1]
    assert last.ops == [
        ["add", "s9", "stone", "black", "E1"],
        ["mark", "E1", "last"],
        *[["mark", c, "win"] for c in ("A1", "B1", "C1", "D1", "E1")],
    ]
    assert result.plies[-2].ops[2:] == []


# -- the incremental API -------------------------------------------------------


def test_state_check_and_play():
    state = ConnectState(C5, {})
    assert state.check(7, 7) is None
    state.play(7, 7)
    assert state.check(7, 7) == "occupied"
    assert state.check(15, 0) == "off-board"
    assert state.check(-1, 0) == "off-board"
    with pytest.raises(ValueError, match="occupied"):
        state.play(7, 7)
    assert state.ply == 1 and state.to_move == "second"
    assert state.at(7, 7) == "first" and state.placed_at(7, 7) == 1
    assert len(state.empty_cells()) == 15 * 15 - 1 and (7, 7) not in state.empty_cells()
    for x in range(4):
        state.play(x, 0)
        state.play(8 + x, 7)
    assert state.over and state.winner == "first" and state.rule == "line"
    assert state.winning_cells == ("H8", "I8", "J8", "K8", "L8")
    assert state.check(0, 5) == "game-over"


def test_random_empty_picks_only_empty_points():
    import random

    tiny = dataclasses.replace(C5, columns=4, rows=4)
    state = ConnectState(tiny, {})
    rng = random.Random(7)
    while not state.over:
        x, y = state.random_empty(rng)
        assert state.check(x, y) is None
        state.play(x, y)
    assert state.winner == "draw" and state.empty_cells() == []


def test_copy_is_independent():
    state = ConnectState(C5, {})
    state.play(7, 7)
    other = state.copy()
    other.play(8, 8)
    assert state.ply == 1 and state.at(8, 8) is None and other.at(8, 8) == "second"


# -- renju ------------------------------------------------------------------

# Shapes around the black stone to play at H8 (x=7, y=7), white fillers far away.
FAR_WHITE = [(0, 12), (2, 12), (4, 12), (0, 10), (2, 10), (4, 10), (0, 2), (2, 2), (4, 2)]
FAR_BLACK = [(14, 12), (12, 12), (10, 12), (14, 10), (12, 10), (10, 10), (14, 2), (12, 2), (10, 2)]

SHAPES = {
    # . X X [H8] .  across and up: two open threes
    "double-three": [(5, 7), (6, 7), (7, 8), (7, 9)],
    # X X X [H8] across, blocked on the left; X X X [H8] down, blocked below
    "double-four": [(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
    # X . X X [H8] . X: two fours in one line
    "double-four-one-line": [(3, 7), (5, 7), (6, 7), (9, 7)],
    # X X X [H8] X X
    "overline": [(4, 7), (5, 7), (6, 7), (8, 7), (9, 7)],
}
BLOCKERS = {
    "double-three": [],
    "double-four": [(3, 7), (7, 3)],
    "double-four-one-line": [],
    "overline": [],
}


def renju_game(shape: str, mover: str) -> str:
    """Moves that build ``shape`` for ``mover`` ("first"/"second"), then H8 by the same side."""
    own, blockers = SHAPES[shape], BLOCKERS[shape]
    if mover == "first":
        black, white = own, blockers + FAR_WHITE[: max(0, len(own) - len(blockers))]
    else:
        white, black = own, blockers + FAR_BLACK[: max(0, len(own) + 1 - len(blockers))]
    return sequence(C5, black, white, last="(H,8)", last_side=mover)


@pytest.mark.parametrize("shape", list(SHAPES))
def test_renju_forbidden_moves_lose_for_black(shape):
    text = renju_game(shape, "first")
    result = replay(record(text), C5, RENJU)
    n = len(result.plies)
    assert result.plies[-1].label == "H8" and result.plies[-1].side == "first"
    assert result.decision == Decision("second", "forbidden", n, ("H8",))
    assert codes(result) == [connect.FORBIDDEN]
    words = {"double-three": "double three", "double-four": "double four",
             "double-four-one-line": "double four", "overline": "overline"}[shape]
    assert words in result.diagnostics[0].message and f"move {n}" in result.diagnostics[0].message
    assert ["mark", "H8", "forbidden"] in result.plies[-1].ops


@pytest.mark.parametrize("shape", ["double-three", "double-four", "double-four-one-line"])
def test_renju_same_shapes_are_fine_for_white(shape):
    text = renju_game(shape, "second")
    result = replay(record(text), C5, RENJU)
    assert result.plies[-1].label == "H8" and result.plies[-1].side == "second"
    assert result.diagnostics == [] and result.decision is None


def test_renju_white_overline_wins_unless_exact_five():
    text = renju_game("overline", "second")
    assert replay(record(text), C5, RENJU).decision.winner == "second"
    assert replay(record(text), C5, {"renju": True, "exact_five": True}).decision is None


@pytest.mark.parametrize("shape", list(SHAPES))
def test_without_renju_the_shapes_are_legal(shape):
    result = replay(record(renju_game(shape, "first")), C5, {})
    expected = "first" if shape == "overline" else None
    assert result.computed == expected
    assert result.diagnostics == []


def test_renju_five_beats_a_forbidden_shape():
    # H8 makes D8-H8 (exactly five) and at the same time two fours, down the
    # H file and along the E5-H8 diagonal: the five wins.
    black = [(3, 7), (4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6), (4, 4), (5, 5), (6, 6)]
    white = [(2, 7), (7, 3), (3, 3)] + FAR_WHITE[:7]
    result = replay(record(sequence(C5, black, white, last="(H,8)")), C5, RENJU)
    assert result.decision == Decision("first", "line", 21, ("D8", "E8", "F8", "G8", "H8"))
    assert result.diagnostics == []
    # Without D8 the same stone makes fours only, and is forbidden.
    result = replay(record(sequence(C5, black[1:], white, last="(H,8)")), C5, RENJU)
    assert result.computed == "second" and result.decision.rule == "forbidden"


def test_renju_four_three_is_legal():
    black = [(4, 7), (5, 7), (6, 7), (7, 5), (7, 6)]
    white = [(3, 7)] + FAR_WHITE[:4]
    result = replay(record(sequence(C5, black, white, last="(H,8)")), C5, RENJU)
    assert result.diagnostics == [] and result.decision is None


def fake_three_position(with_overline_column: bool) -> ConnectState:
    """Black to move; G8 makes an open three up the G file and a three across row 8.

    Row 8 is ``O . X X [G8] . . O`` (C8 to J8): the only point that turns the
    row into a straight four is H8. With black stones on H6 H7 H9 H10 H11,
    H8 would be an overline for black, so the row is a fake three, and G8
    (one real three, one fake) is legal.
    """
    black = [(4, 7), (5, 7), (6, 8), (6, 9)]
    if with_overline_column:
        black += [(7, 5), (7, 6), (7, 8), (7, 9), (7, 10)]
    white = [(2, 7), (9, 7)] + FAR_WHITE[: len(black) - 2]
    state = ConnectState(C5, RENJU)
    for m in record(sequence(C5, black, white)).moves:
        state.play(*connect.point_xy(m.point))
    assert state.to_move == "first"
    return state


def test_renju_fake_three_does_not_count():
    assert fake_three_position(with_overline_column=False).forbidden(6, 7) == "double-three"
    state = fake_three_position(with_overline_column=True)
    assert state.forbidden(7, 7) == "overline"
    assert state.forbidden(6, 7) is None
    state.play(6, 7)
    assert not state.over


def test_renju_forbidden_query_is_only_for_black():
    state = ConnectState(C5, RENJU)
    state.play(0, 0)
    assert state.to_move == "second" and state.forbidden(7, 7) is None
    assert ConnectState(C5, {}).forbidden(7, 7) is None


# -- the brace reader and the real records ----------------------------------


@pytest.mark.skipif(not HAVE_BRACE, reason="generator.formats.brace not written yet")
def test_brace_records_replay():
    from generator.formats import brace

    text = Text(
        "C5.txt",
        "{[C5][先手参赛队 B][后手参赛队 W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];"
        "B (J,10)MARK[1];W(L,10);B(J,11);W(I,12);B(H,10);W(H,8);B(K,8)}",
        "utf-8",
    )
    result = replay(brace.parse(text, C5), C5, {})
    assert result.diagnostics == [] and len(result.plies) == 7
    assert result.plies[0].mark == 1 and result.plies[0].ops[0] == ["add", "s1", "stone", "black", "J10"]

    bad = Text("C6.txt", "{[C6][A][B][先手胜][2017.07.29 14:00 重庆][E];\nB(J,10);W(I,11);\nW(J,10);B(K,9)}", "utf-8")
    result = replay(brace.parse(bad, C6), C6, {})
    assert codes(result) == [connect.OCCUPIED]
    d = result.diagnostics[0]
    assert (d.path, d.line, d.column) == ("C6.txt", 3, 1)
    assert [m.text for m in result.not_replayed] == ["W(J,10)", "B(K,9)"]


def corpus_records():
    folder = CORPUS / "C6"
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.txt"))


@pytest.mark.skipif(not HAVE_BRACE, reason="generator.formats.brace not written yet")
def test_real_connect6_records_replay_without_rule_errors():
    files = corpus_records()
    if not files:
        pytest.skip("no connect6 corpus at ../shared/corpus/C6")
    from generator.formats import brace

    decided = 0
    for path in files:
        text = Text(path.name, path.read_bytes().decode("gb18030"), "gb18030")
        rec = brace.parse(text, C6)
        result = replay(rec, C6, {})
        assert [d for d in result.diagnostics if d.code.startswith("RULE-")] == [], path.name
        assert result.not_replayed == [] and len(result.plies) == len(rec.moves)
        if result.decision is not None:
            decided += 1
            assert result.decision.rule == "line" and len(result.decision.cells) >= 6
            # Where the rules decide, they agree with the organisers' header.
            assert result.decision.winner == rec.header.result, path.name
            assert result.decision.ply == len(rec.moves), "the record stops at the winning stone"
    assert decided >= 1

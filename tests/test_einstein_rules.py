"""EinStein würfelt nicht (WTN) rules: the die, the steps, captures of either colour, the two ways to win."""

from __future__ import annotations

from test_einstein_format import EXAMPLE

from generator import formats, games
from generator.model import Text
from generator.rules import einstein as wtn
from generator.scene import position_after

WTN = games.GAMES["WTN"]
HEADER = "#[WTN][甲 {first}][乙 {second}][未决胜][2025.08.02 10:00 合肥][赛];\n"
STANDARD = "R:A5-1;B5-2;C5-3;A4-4;B4-5;A3-6\nB:E3-1;D2-2;E2-3;C1-4;D1-5;E1-6\n"


def replay(moves: str, first: str = "R", setup: str = STANDARD):
    text = HEADER.format(first=first, second=wtn.OTHER[first]) + setup + moves
    (record,) = formats.read_games(Text("x.txt", text, "utf-8"), "WTN")
    return wtn.replay(record, WTN)


def pieces(done) -> dict[str, str]:
    """Piece id -> cell after the replayed moves."""
    return {pid: piece.at for pid, piece in position_after(done.setup, done.plies).pieces.items()}


def error(done):
    assert len(done.diagnostics) == 1, [d.message for d in done.diagnostics]
    return done.diagnostics[0]


def test_the_standards_example_replays_and_a_piece_may_take_its_own_side() -> None:
    (record,) = formats.read_games(Text("x.txt", EXAMPLE, "utf-8"), "WTN")
    done = wtn.replay(record, WTN)
    assert done.diagnostics == [] and len(done.plies) == 4 and done.decision is None
    at = pieces(done)
    # Move 3, red's 4 from A4 to A3, took red's own 6.
    assert "R6" not in at and at["R4"] == "A3" and at["R5"] == "C3" and at["B1"] == "D4" and at["B4"] == "B2"
    # The die, the piece and its step (x where it takes), as players say a move; the record's text on hover.
    assert [p.label for p in done.plies] == ["5: R5 B4-C3", "1: B1 E3-D4", "4: R4 A4xA3", "4: B4 C1-B2"]
    assert [p.alt for p in done.plies] == ["5;(R5,C3)", "1;(B1,D4)", "4;(R4,A3)", "4;(B4,B2)"]
    assert [(p.side, p.colour) for p in done.plies[:2]] == [("first", "red"), ("second", "blue")]


def test_the_die_is_shown_at_every_move_and_said_in_the_note() -> None:
    done = replay("1:5;(R5,C3)\n2:1;(B1,D4)\n3:5;(R5,D2)\n")
    counts = [[op for op in ply.ops if op[0] == "count"] for ply in done.plies]
    assert counts == [[["count", "die", 5]], [["count", "die", 1]], [["count", "die", 5]]]
    notes = [[op[1] for op in ply.ops if op[0] == "note"] for ply in done.plies]
    assert notes[0] == ["die {die}: {side} moves piece {piece}"]
    assert "{owner}'s piece {taken} is taken" in notes[2]  # red's 5 took blue's 2 on D2
    assert position_after(done.setup, done.plies).counts == {"die": 5}


def test_the_die_chooses_the_piece_or_the_nearest_lower_or_higher_one_left() -> None:
    assert wtn.allowed({1, 2, 3, 4, 5, 6}, 4) == (4,)
    assert wtn.allowed({1, 2, 5, 6}, 4) == (2, 5)
    assert wtn.allowed({5, 6}, 1) == (5,) and wtn.allowed({1, 2}, 6) == (2,)
    # Piece 6 is on the board: with a 6 only it may move.
    bad = error(replay("1:6;(R5,C3)\n"))
    assert bad.code == "RULE-E602" and (bad.line, bad.column) == (4, 1)
    assert bad.message == "move 1, 6;(R5,C3): the die shows 6, so Red must move piece 6, not piece 5"
    # Red's 6 taken by red's 4 (A4-A3): a 6 now lets 5 move (nearest lower), and nothing higher is left.
    done = replay("1:4;(R4,A3)\n2:1;(B1,D4)\n3:6;(R5,C3)\n")
    assert done.diagnostics == [] and len(done.plies) == 3
    bad = error(replay("1:4;(R4,A3)\n2:1;(B1,D4)\n3:6;(R3,D4)\n"))
    assert bad.code == "RULE-E602" and "piece 6 is gone, so Red may move only piece 5, not piece 3" in bad.message
    # Both neighbours of a missing number may move: red's 1 takes red's 4, then a 4 lets 3 or 5 move, not 6.
    moves = "1:1;(R1,A4)\n2:1;(B1,D4)\n"
    assert replay(moves + "3:4;(R3,D4)\n").diagnostics == [] and replay(moves + "3:4;(R5,C3)\n").diagnostics == []
    bad = error(replay(moves + "3:4;(R6,B3)\n"))
    assert bad.message == "move 3, 4;(R6,B3): the die shows 4 and piece 4 is gone, so Red may move only piece 3 / 5, not piece 6"


def test_a_piece_steps_one_square_toward_the_far_corner_only() -> None:
    bad = error(replay("1:5;(R5,A5)\n"))  # back into red's own corner
    assert bad.code == "RULE-E603"
    assert bad.message == "move 1, 5;(R5,A5): Red's piece 5 cannot go from B4 to A5; it may go to C4 B3 C3"
    assert error(replay("1:2;(R2,D5)\n")).code == "RULE-E603"  # two squares
    assert error(replay("1:1;(B1,E4)\n2:2;(R2,A5)\n", first="B")).code == "RULE-E603"  # blue up: fine; red left
    assert error(replay("1:1;(B1,E2)\n", first="B")).code == "RULE-E603"  # blue down
    assert wtn.forward("R", wtn.INDEX["E3"]) == [wtn.INDEX["E2"]]
    assert sorted(wtn.CELLS[i] for i in wtn.forward("B", wtn.INDEX["C3"])) == ["B3", "B4", "C4"]


def test_moves_written_as_squares_check_the_piece_and_the_side() -> None:
    done = replay("1:5;(B4,C3)\n2:1;(E3,D4)\n")
    assert done.diagnostics == [] and pieces(done)["R5"] == "C3"
    bad = error(replay("1:5;(B4,C3)\n2:1;(C3,D2)\n"))
    assert bad.code == "RULE-E001"
    assert bad.message == "move 2, 1;(C3,D2): C3 holds Red's piece 5, but it is Blue's turn"
    assert error(replay("1:5;(C4,D3)\n")).code == "RULE-E601"  # nothing on C4
    assert error(replay("1:5;(B4,F3)\n")).code == "RULE-E002"


def test_reaching_the_far_corner_wins_and_no_move_may_follow() -> None:
    setup = "R:D2-1;B5-2;C5-3;A4-4;B4-5;A3-6\nB:E3-1;A2-2;E2-3;C1-4;D1-5;B1-6\n"
    done = replay("1:1;(R1,E1)\n2:1;(B1,D4)\n", setup=setup)
    assert done.decision is not None and (done.decision.winner, done.decision.rule, done.decision.ply) == ("first", "corner", 1)
    assert done.decision.cells == ("E1",)
    after = error(done)
    assert after.code == "RULE-E003" and "far corner E1" in after.message and after.line == 5
    # Blue moving first and reaching A5.
    setup = "R:A5-1;B5-2;C5-3;A4-4;C4-5;A3-6\nB:E3-1;D2-2;E2-3;C1-4;D1-5;B4-6\n"
    done = replay("1:6;(B6,A5)\n", first="B", setup=setup)
    assert done.decision is not None and done.decision.winner == "first" and done.first_letter == "B"


def test_taking_the_last_enemy_piece_wins() -> None:
    engine = wtn.EinsteinEngine(WTN, None, {"R": [("C3", 1), ("A5", 2)], "B": [("D2", 4)]}, "R")
    (record,) = formats.read_games(Text("x.txt", STANDARD + "1:3;(R2,B4)\n2:5;(B4,C3)\n", "utf-8"), "WTN")
    done = engine.replay(record)
    # Blue's only piece 4 took red's 1; then red has only 2 left: a 3 lets 2 move.
    assert done.diagnostics == [] and done.decision is None
    engine = wtn.EinsteinEngine(WTN, None, {"R": [("C3", 1), ("A5", 2)], "B": [("D2", 4)]}, "R")
    (record,) = formats.read_games(Text("x.txt", STANDARD + "1:1;(R1,D2)\n", "utf-8"), "WTN")
    done = engine.replay(record)
    assert done.decision is not None and (done.decision.winner, done.decision.rule) == ("first", "no-pieces")


def test_a_die_no_die_shows_and_a_move_without_a_die() -> None:
    assert error(replay("1:7;(R5,C3)\n")).code == "RULE-E604"
    done = replay("1:(R6,B3)\n")  # no die: the piece is not checked, the step is
    assert done.diagnostics == [] and done.plies[0].label == "?: R6 A3-B3"
    assert done.plies[0].ops[0] == ["count", "die", 0]

"""The rules of Amazons (rules/amazons.py): queen moves, arrows, burnt squares, and who cannot move loses."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from generator import games
from generator.formats import amazons as fmt
from generator.model import Source, Text
from generator.pipeline import process, sha256
from generator.rules import amazons
from generator.scene import position_after

AM = games.GAMES["AM"]
HEADER = "#[AM][甲][乙][{result}][2025.3.1 北京][杯];\n"


def replay(moves: str, game=AM, result: str = "未决胜"):
    [record] = fmt.parse_games(Text("AM-甲 vs 乙.txt", HEADER.format(result=result) + moves, "utf-8"), game)
    return record, amazons.replay(record, game)


def errors(replayed) -> list[tuple[str, int, int, str]]:
    return [(d.code, d.line, d.column, d.message) for d in replayed.diagnostics if d.severity == "error"]


def test_the_start_position() -> None:
    _, done = replay("")
    pieces = position_after(done.setup, []).pieces.values()
    where = {(p.side, p.at) for p in pieces}
    assert where == {("white", c) for c in ("a4", "d1", "g1", "j4")} | {("black", c) for c in ("a7", "d10", "g10", "j7")}
    assert {p.kind for p in pieces} == {"queen"}


def test_a_turn_moves_the_queen_burns_a_square_and_draws_the_flight() -> None:
    _, done = replay("1 d1d8(b6) g10g3(i5)\n")
    assert len(done.plies) == 2 and done.diagnostics == [] and done.decision is None
    first = done.plies[0]
    assert (first.side, first.colour, first.label) == ("first", "white", "d1d8(b6)")
    assert ["path", ["d1", "d8"], "queen"] in first.ops and ["path", ["d8", "b6"], "arrow"] in first.ops
    position = position_after(done.setup, done.plies)
    by_cell = {p.at: (p.kind, p.side) for p in position.pieces.values()}
    assert by_cell["d8"] == ("queen", "white") and by_cell["g3"] == ("queen", "black")
    assert by_cell["b6"][0] == by_cell["i5"][0] == "arrow"
    assert "d1" not in by_cell and "g10" not in by_cell
    # Only the last turn's flight is drawn.
    assert position.paths == [(["g10", "g3"], "queen"), (["g3", "i5"], "arrow")]


def test_the_arrow_may_fly_over_or_land_on_the_square_the_queen_left() -> None:
    _, done = replay("1 d1d5(d1) g10g6(g10)\n2 g1g2(g1) j7j8(j6)\n")
    assert len(done.plies) == 4 and errors(done) == []
    _, done = replay("1 d1d5(d1) a7a8(a6)\n2 g1f2(h0)\n")  # h0: off the board
    assert errors(done)[0][0] == "RULE-E002" and "h0 is off the board (columns a-j, rows 1-10)" in errors(done)[0][3]


def test_a_queen_moves_along_lines_over_empty_squares_only() -> None:
    cases = {
        "1 d1e3(e4)": "the queen cannot go from d1 to e3: not along a row, a column or a diagonal",
        "1 d1d10(d9)": "the queen cannot go from d1 to d10: a queen stands on d10",
        "1 a4a8(a9)": "the queen cannot go from a4 to a8: a queen stands on a7",
        "1 d1d1(d2)": "the queen must leave d1",
    }
    for moves, why in cases.items():
        record, done = replay(moves + "\n")
        (problem,) = errors(done)
        assert problem[:3] == ("RULE-E411", 2, 3) and why in problem[3], problem
        assert done.plies == [] and [m.text for m in done.not_replayed] == [record.moves[0].text]


def test_a_queen_cannot_cross_a_burnt_square() -> None:
    _, done = replay("1 d1d5(d7) a7b7(a6)\n2 d5d8(d9)\n")
    (problem,) = errors(done)
    assert problem[0] == "RULE-E411" and "a burnt square stands on d7" in problem[3]
    assert len(done.plies) == 2


def test_the_arrow_flies_like_a_queen_from_the_landing_square() -> None:
    cases = {
        "1 d1d5(e7)": "the arrow cannot fly from d5 to e7: not along a row, a column or a diagonal",
        "1 d1d5(d5)": "the arrow cannot land on d5, where the queen stands",
        "1 d1d6(d10)": "the arrow cannot fly from d6 to d10: a queen stands on d10",
        "1 j4f4(a4)": "the arrow cannot fly from f4 to a4: a queen stands on a4",
    }
    for moves, why in cases.items():
        _, done = replay(moves + "\n")
        (problem,) = errors(done)
        assert problem[0] == "RULE-E412" and why in problem[3], problem
        # The position is as it was: the queen still on its square.
        assert {p.at for p in position_after(done.setup, done.plies).pieces.values()} >= {"d1", "j4"}


def test_a_move_must_start_from_a_queen_of_the_mover() -> None:
    cases = {
        "1 e1e2(e3)": "there is no queen on e1",
        "1 a7a6(a5)": "the queen on a7 is Black's; White is to move",
        "1 d1d5(d7) a7b7(a6)\n2 d7d8(d9)": "d7 is a burnt square, not a queen",
    }
    for moves, why in cases.items():
        _, done = replay(moves + "\n")
        (problem,) = errors(done)
        assert problem[0] == "RULE-E410" and why in problem[3], problem


def test_a_turn_by_the_wrong_side_is_reported_at_that_move() -> None:
    # A line with one move in the middle: the next line's first move is the first player's again.
    _, done = replay("1 d1d5(d7)\n2 g1g2(g3) a7b7(a6)\n")
    (problem,) = errors(done)
    assert problem[:3] == ("RULE-E001", 3, 3) and "expected Black to move, found White" in problem[3]


# A board of one row: white's queen on a1, black's on d1. After a1b1(c1) black's queen
# has no empty square next to it: black cannot move, white has won.
ROW = dataclasses.replace(AM, columns=4, rows=1, params=MappingProxyType({"start": (("a1",), ("d1",))}))


def test_the_player_who_cannot_move_loses() -> None:
    _, done = replay("1 a1b1(c1)\n", ROW)
    assert done.decision is not None and (done.decision.winner, done.decision.rule, done.decision.ply) == ("first", "no-move", 1)
    assert done.decision.said("en") == "the opponent could not move"
    note = [op for op in done.plies[-1].ops if op[0] == "note"]
    assert note == [["note", "{loser} cannot move: {winner} wins", {"loser": "second", "winner": "first"}]]


def test_no_move_may_follow_the_end() -> None:
    _, done = replay("1 a1b1(c1) d1c1(d1)\n", ROW)
    (problem,) = errors(done)
    assert problem[0] == "RULE-E003" and "already over at move 1: Black could not move" in problem[3]
    assert len(done.plies) == 1 and done.decision is not None


def test_a_declared_result_against_the_rules_is_an_error() -> None:
    text = "#[AMROW][甲][乙][后手胜][2025.3.1 北京][杯];\n1 a1b1(c1)\n"
    data = text.encode()
    with games.registered(dataclasses.replace(ROW, code="AMROW")):
        done = process(Source("cup/甲 vs 乙.txt", data, sha256(data)), encoding=None, options={})
    assert done.code == "AMROW" and done.replay is not None and done.replay.computed == "first"
    (problem,) = [d for d in done.diagnostics if d.severity == "error"]
    assert "declares 'second player wins' but the rules decide 'first player wins' at move 1" in problem.message


def test_the_end_is_seen_only_after_the_turn_that_makes_it() -> None:
    # Black is boxed in on a larger board by white's arrows; a queen with one free neighbour can still move.
    board = amazons.Board(3, 3)
    centre = board.index(("b", 2))
    assert centre is not None
    board.squares = [amazons.ARROW] * 9
    board.squares[centre] = 2
    assert not board.can_move([centre])
    board.squares[board.index(("c", 3)) or 0] = amazons.EMPTY
    assert board.can_move([centre])

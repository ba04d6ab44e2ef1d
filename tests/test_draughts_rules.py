"""The draughts engine (DR10, DR8 Russian and Brazilian) and its checkered board."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from svg_pieces import pieces_shown
from test_draughts_format import DR8_EXAMPLE, DR10_EXAMPLE

from generator import config as site_config
from generator import formats, games
from generator.boards import checkered
from generator.model import Metadata, Move, Record, Source, Text
from generator.pipeline import process, sha256
from generator.rules import draughts as dr
from generator.rules.draughts import LOWER, UPPER, DraughtsEngine, geometry, piece_of
from generator.scene import position_after

DR10, DR8 = games.GAMES["DR10"], games.GAMES["DR8"]
MAN_U, KING_U = piece_of(UPPER, False), piece_of(UPPER, True)
MAN_L, KING_L = piece_of(LOWER, False), piece_of(LOWER, True)
SVG = "{http://www.w3.org/2000/svg}"


def parse(text: str, code: str = "DR10"):
    return formats.read(Text(f"{code}-a vs b-平局-2018.03.10.txt", text, "utf-8"), code)


def moves_record(moves: str, first: str = "W") -> Record:
    """A record of space-separated moves as the reader makes them, the first by ``first``."""
    out = []
    for n, text in enumerate(moves.split()):
        sign = "x" if "x" in text else "-"
        squares = [("", int(s)) for s in text.split(sign)]
        side = first if n % 2 == 0 else ("B" if first == "W" else "W")
        out.append(Move(side, text, squares[0], 10 + n, 1, to=squares[1], capture=sign == "x", parts=tuple(squares[2:])))
    return Record("game.txt", None, Metadata(), out)


def from_position(game, position: dict[int, int], moves: str, first: str = "W", rules: str | None = None):
    options = {"rules": rules} if rules else None
    record = moves_record(moves, first)
    return DraughtsEngine(game, options, first, position).replay(record)


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


def squares_of(result, count: int | None = None) -> dict[str, tuple[str, str]]:
    """The position after ``count`` plies: cell -> (kind, colour)."""
    return {p.at: (p.kind, p.side) for p in position_after(result.setup, result.plies, count).pieces.values()}


# -- the board's numbers -----------------------------------------------------------


def test_squares_are_numbered_from_the_top_left_on_the_dark_squares():
    geo = geometry(10)
    assert (geo.rows[1], geo.columns[1]) == (0, 1)
    assert (geo.rows[6], geo.columns[6]) == (1, 0)
    assert (geo.rows[50], geo.columns[50]) == (9, 8)
    assert geo.rays[28][0] == (22, 17, 11, 6)  # up-left from 28
    eight = geometry(8)
    assert (eight.rows[29], eight.columns[29]) == (7, 0)  # a1 of the 8x8 board
    assert eight.crown == (frozenset({29, 30, 31, 32}), frozenset({1, 2, 3, 4}))


# -- whole records -------------------------------------------------------------------


def test_the_standards_examples_replay_to_their_end():
    for text, code in ((DR10_EXAMPLE, "DR10"), (DR8_EXAMPLE, "DR8")):
        record = parse(text, code)
        result = games.GAMES[code].module("rules").replay(record, games.GAMES[code], None)
        assert len(result.plies) == len(record.moves) and not result.not_replayed, result.diagnostics
        assert result.decision is None and not result.diagnostics


def test_a_men_capture_backwards_through_its_landing_squares():
    record = parse(DR8_EXAMPLE, "DR8")
    result = dr.replay(record, DR8)
    ply = result.plies[14]  # 8. 14x23x16: down over 18, then back up over 19
    assert ply.label == "14x23x16"
    assert ["path", ["14", "23", "16"], "capture"] in ply.ops
    assert sorted(op[1] for op in ply.ops if op[0] == "mark" and op[2] == "taken") == ["18", "19"]
    after = squares_of(result, 15)
    assert after["16"] == ("man", "black") and "18" not in after and "19" not in after


def test_a_capture_written_without_its_landing_squares_is_found():
    text = DR10_EXAMPLE.replace("29x18x27", "29x27")
    result = dr.replay(parse(text), DR10)
    assert not result.diagnostics and len(result.plies) == 24
    assert ["path", ["29", "18", "27"], "capture"] in result.plies[7].ops


def test_capturing_is_mandatory():
    text = DR10_EXAMPLE.replace("2. 24x33 38x29", "2. 19-23 38x29")
    result = dr.replay(parse(text), DR10)
    (error,) = result.diagnostics
    assert error.code == "RULE-E802" and error.line == 9
    assert "capturing is mandatory" in error.message and "24x33" in error.message
    assert len(result.plies) == 2 and len(result.not_replayed) == 22


def test_a_capture_written_with_a_dash_is_read_as_one_with_a_warning():
    text = DR10_EXAMPLE.replace("2. 24x33 38x29", "2. 24-33 38-29")
    result = dr.replay(parse(text), DR10)
    assert codes(result) == ["RULE-W801", "RULE-W801"] and len(result.plies) == 24


def test_the_wrong_piece_or_an_empty_square():
    result = dr.replay(parse(DR10_EXAMPLE.replace("1. 20-24 33-29", "1. 25-30 33-29")), DR10)
    assert codes(result) == ["RULE-E801"] and "square 25 is empty" in result.diagnostics[0].message
    result = dr.replay(parse(DR10_EXAMPLE.replace("1. 20-24 33-29", "1. 20-24 19-23")), DR10)
    assert codes(result) == ["RULE-E801"] and "square 19 holds a piece of the other side" in result.diagnostics[0].message


def test_a_man_does_not_step_backwards_or_far():
    result = from_position(DR10, {28: MAN_L, 5: MAN_U}, "28-33")
    assert codes(result) == ["RULE-E803"] and "one square diagonally forward" in result.diagnostics[0].message
    result = from_position(DR10, {28: MAN_L, 5: MAN_U}, "28-17")
    assert codes(result) == ["RULE-E803"]
    result = from_position(DR10, {28: MAN_L, 5: MAN_U}, "28-27")
    assert "not on a diagonal" in result.diagnostics[0].message


def test_a_king_flies_but_not_through_pieces():
    result = from_position(DR10, {46: KING_L, 23: MAN_L, 1: MAN_U}, "46-05")
    assert codes(result) == ["RULE-E803"] and "blocked on 23" in result.diagnostics[0].message
    result = from_position(DR10, {46: KING_L, 1: MAN_U}, "46-14 01-06")
    assert not result.diagnostics and squares_of(result)["14"] == ("king", "white")


def test_a_king_captures_from_afar_and_lands_beyond():
    # White king on 46, black man on 23, far up the long diagonal: it may land on 19, 14, 10 or 5.
    for landing in ("19", "14", "05"):
        result = from_position(DR10, {46: KING_L, 23: MAN_U, 3: MAN_U}, f"46x{landing}")
        assert not result.diagnostics, result.diagnostics
        assert squares_of(result)[str(int(landing))] == ("king", "white") and "23" not in squares_of(result)


def test_the_maximum_capture_is_mandatory_in_international_draughts():
    position = {28: MAN_L, 33: MAN_L, 22: MAN_U, 23: MAN_U, 12: MAN_U, 1: MAN_U}
    result = from_position(DR10, position, "28x19")
    (error,) = result.diagnostics
    assert error.code == "RULE-E805" and "takes 1, but 2 can be taken (28x17x08)" in error.message
    result = from_position(DR10, position, "28x17")
    assert codes(result) == ["RULE-E806"] and "from 17 the piece can capture again" in result.diagnostics[0].message
    for written in ("28x08", "28x17x08"):
        assert not from_position(DR10, position, written).diagnostics


def test_a_circular_capture_written_either_way_or_short_is_one_capture():
    # 28 takes 22, 12, 13 and 23 round the diamond and comes back: pydraughts lists both directions.
    position = {28: MAN_L, 22: MAN_U, 12: MAN_U, 23: MAN_U, 13: MAN_U, 1: MAN_U}
    for written in ("28x28", "28x17x08x19x28", "28x19x08x17x28"):
        result = from_position(DR10, position, written)
        assert not result.diagnostics, (written, result.diagnostics)
        assert set(squares_of(result)) == {"28", "1"}
    assert codes(from_position(DR10, position, "28x08")) == ["RULE-E806"]


def test_captures_that_end_alike_but_take_other_pieces_are_ambiguous():
    # Two candidates for "28x08" that take different pieces (as a flying king may have).
    found = [dr.Capture(28, (17, 8), (22, 12), False), dr.Capture(28, (19, 8), (23, 13), False)]
    assert dr.matching(found, (28, 8)) == found and dr.ambiguous(found)
    assert dr.matching(found, (28, 19, 8)) == found[1:] and not dr.ambiguous(found[1:])
    loop = [dr.Capture(28, (17, 8, 19, 28), (22, 12, 13, 23), False), dr.Capture(28, (19, 8, 17, 28), (23, 13, 12, 22), False)]
    assert not dr.ambiguous(loop)


def test_pieces_are_taken_only_when_the_capture_ends():
    # The king takes 37 and lands on 32 (28 is in the way), then takes 28: both leave at the end.
    result = from_position(DR10, {46: KING_L, 37: MAN_U, 28: MAN_U, 1: MAN_U}, "46x32x19")
    assert not result.diagnostics, result.diagnostics
    ops = result.plies[0].ops
    assert [op[1] for op in ops if op[0] == "remove"] == ["p37", "p28"]
    geo = geometry(10)
    board = [0] * 51
    board[46], board[37], board[28] = KING_L, MAN_U, MAN_U
    assert {frozenset(c.taken) for c in dr.legal_captures(board, geo, LOWER, "international")} == {frozenset({37, 28})}


def test_a_man_is_crowned_only_where_its_move_ends_under_international_rules():
    # White man 11 takes 7 landing on 2, on the far row, and goes on backwards over 8 to 13: a man still.
    position = {11: MAN_L, 7: MAN_U, 8: MAN_U, 45: MAN_U}
    result = from_position(DR10, position, "11x02x13")
    assert not result.diagnostics, result.diagnostics
    assert squares_of(result)["13"] == ("man", "white")
    assert not [op for op in result.plies[0].ops if op[0] == "set"]
    assert codes(from_position(DR10, position, "11x02")) == ["RULE-E806"]


# Russian: f6 (11) takes e7 (7) landing on d8 (2), crowned, and goes on as a king
# over b6 (9) to a5 (13); Brazilian: it stops on d8 (ORACLES.md 3.6).
CROWN_POSITION = {11: MAN_L, 29: MAN_L, 7: MAN_U, 9: MAN_U, 4: MAN_U}


def test_russian_a_man_crowned_during_a_capture_goes_on_as_a_king():
    result = from_position(DR8, CROWN_POSITION, "11x02x13")
    assert not result.diagnostics
    ops = result.plies[0].ops
    assert ["set", "p11", "king"] in ops and squares_of(result)["13"] == ("king", "white")


def test_brazilian_the_man_stops_on_the_far_row():
    result = from_position(DR8, CROWN_POSITION, "11x02", rules="brazilian")
    assert not result.diagnostics and squares_of(result)["2"] == ("king", "white")


def test_a_move_legal_only_under_the_other_rules_says_so():
    result = from_position(DR8, CROWN_POSITION, "11x02")  # Russian: the king must go on
    (error,) = result.diagnostics
    assert error.code == "RULE-E808"
    assert error.message.endswith(
        "not allowed under Russian rules (a man crowned during a capture goes on capturing as a king), but allowed "
        "under Brazilian rules; this event plays Russian rules (option rules in site.toml)"
    )
    result = from_position(DR8, CROWN_POSITION, "11x02x13", rules="brazilian")
    assert codes(result) == ["RULE-E808"] and "allowed under Russian rules" in result.diagnostics[0].message
    # 21 can take one piece (21x14), 27 two (27x18x11): Russian lets either be chosen, Brazilian wants the most.
    position = {21: MAN_L, 27: MAN_L, 17: MAN_U, 23: MAN_U, 15: MAN_U, 1: MAN_U}
    assert not from_position(DR8, position, "21x14").diagnostics
    assert not from_position(DR8, position, "27x18x11", rules="brazilian").diagnostics
    result = from_position(DR8, position, "21x14", rules="brazilian")
    assert codes(result) == ["RULE-E808"] and "(the maximum capture is mandatory)" in result.diagnostics[0].message


def test_a_side_with_no_pieces_left_loses():
    result = from_position(DR10, {28: MAN_L, 23: MAN_U}, "28x19")
    assert result.decision is not None and (result.decision.winner, result.decision.rule) == ("first", "no-pieces")
    after = from_position(DR10, {28: MAN_L, 23: MAN_U, 1: MAN_U}, "28x19 01-06 19-14")
    assert after.decision is None and not after.diagnostics


def test_a_blocked_side_loses_and_no_move_may_follow():
    # Black's only man, on 36, has one square forward (41, taken by white) and cannot jump it (47 is taken).
    position = {36: MAN_U, 41: MAN_L, 47: MAN_L, 30: MAN_L}
    result = from_position(DR10, position, "30-24 36-31", first="W")
    assert result.decision is not None and result.decision.rule == "no-move" and result.decision.winner == "first"
    assert codes(result) == ["RULE-E003"] and "had no legal move" in result.diagnostics[0].message


def test_the_end_is_noted_on_the_ply_that_ends_the_game():
    # The engine decides whether the opponent can still move only after the last move (settle()).
    taken = from_position(DR10, {28: MAN_L, 23: MAN_U}, "28x19")
    assert taken.plies[-1].ops[-1][:2] == ["note", "{loser} has no pieces left: {winner} wins"]
    blocked = from_position(DR10, {36: MAN_U, 41: MAN_L, 47: MAN_L, 30: MAN_L}, "30-24 36-31", first="W")
    assert len(blocked.plies) == 1 and blocked.decision is not None and blocked.decision.ply == 1
    assert blocked.plies[0].ops[-1][:2] == ["note", "{loser} has no legal move: {winner} wins"]
    going_on = from_position(DR10, {36: MAN_U, 41: MAN_L, 47: MAN_L, 30: MAN_L, 1: MAN_U}, "30-24 01-06", first="W")
    assert going_on.decision is None and not any(op[0] == "note" for ply in going_on.plies for op in ply.ops)


@pytest.mark.parametrize("code, rules", [("DR10", "international"), ("DR8", "russian"), ("DR8", "brazilian")])
def test_the_engines_bitboards_answer_as_the_board_does(code, rules):
    """The engine's shortcuts (bitboards) against the plain functions on the board, on random positions."""
    import random

    game = games.GAMES[code]
    geo = geometry(int(game.params["size"]))
    rng = random.Random(f"bitboards:{code}:{rules}")
    crown_mid = dr.RULES[rules][1]
    for _ in range(300):
        squares = rng.sample(range(1, geo.count + 1), rng.randint(2, 24))
        position = {sq: rng.choice((MAN_U, MAN_U, MAN_L, MAN_L, KING_U, KING_L)) for sq in squares}
        engine = DraughtsEngine(game, {"rules": rules}, "W", position)
        board = engine.board
        for side in (UPPER, LOWER):
            assert engine._can_take(side) == bool(dr.all_captures(board, geo, side, crown_mid)), position
            assert engine._captures(engine._jumpers(side)) == dr.legal_captures(board, geo, side, rules), position
            assert engine._can_move(side) == dr.can_move(board, geo, side), position


@pytest.mark.parametrize("code, rules", [("DR10", "international"), ("DR8", "russian")])
def test_the_bitboards_follow_the_moves(code, rules):
    """After random games (steps, captures, crownings) the engine's bitboards hold what its board holds."""
    import random

    game = games.GAMES[code]
    geo = geometry(int(game.params["size"]))
    rng = random.Random(f"follow:{code}")
    for _ in range(6):
        board, side, moves = geo.start(), LOWER, []
        for _ in range(rng.randint(60, 240)):
            captures = dr.legal_captures(board, geo, side, rules)
            if captures:
                capture = rng.choice(captures)
                moves.append("x".join(str(sq) for sq in (capture.start, *capture.landings)))
                dr.make_capture(board, capture)
            else:
                steps = [(sq, to) for sq in range(1, geo.count + 1)
                         if board[sq] and dr.owner(board[sq]) == side for to in dr.steps(board, geo, sq)]
                if not steps:
                    break
                start, to = rng.choice(steps)
                moves.append(f"{start}-{to}")
                dr.make_step(board, geo, start, to)
            side = 1 - side
        engine = DraughtsEngine(game, {"rules": rules}, "W")
        result = engine.replay(moves_record(" ".join(moves)))
        assert not result.diagnostics and len(result.plies) == len(moves)
        assert engine.board == board
        assert (result.decision is not None) == (not dr.can_move(board, geo, side))
        for s in (UPPER, LOWER):
            assert engine.men[s] == sum(geo.bits[sq] for sq, p in enumerate(board) if p == piece_of(s, False))
            assert engine.kings[s] == sum(geo.bits[sq] for sq, p in enumerate(board) if p == piece_of(s, True))


# -- the site.toml option ------------------------------------------------------------


def test_the_rules_option_takes_only_its_choices(tmp_path):
    (tmp_path / "content").mkdir()
    for rules, ok in (("brazilian", True), ("pool", False)):
        (tmp_path / "site.toml").write_text(
            f'[events.e]\nname = "e"\n[events.e.games.DR8]\noptions = {{ rules = "{rules}" }}\n', encoding="utf-8"
        )
        cfg, found = site_config.load_config(tmp_path / "site.toml")
        assert (not [d for d in found if d.severity == "error"]) == ok, found
        if ok:
            assert cfg.rules_for("e", "DR8").options["rules"] == "brazilian"


def test_an_event_option_reaches_the_engine():
    data = DR8_EXAMPLE.encode()
    source = Source("g/DR8-a vs b-平局-2018.03.10.txt", data, sha256(data))
    done = process(source, encoding=None, options={"DR8": {"rules": "brazilian"}})
    assert not [d for d in done.diagnostics if d.severity == "error"] and len(done.replay.plies) == 16
    assert DraughtsEngine(DR8, {"rules": "brazilian"}, "B").rules == "brazilian"
    assert DraughtsEngine(DR8, None, "B").rules == "russian"
    assert DraughtsEngine(DR10, None, "B").rules == "international"


# -- the board -----------------------------------------------------------------------


def _svg(game, result, count=None) -> ET.Element:
    board = checkered.board_for(game)
    svg = board.svg(position_after(result.setup, result.plies, count), label="test")
    return ET.fromstring(svg)


def test_the_board_draws_men_on_the_numbered_dark_squares():
    result = dr.replay(parse(DR10_EXAMPLE), DR10)
    root = _svg(DR10, result, 0)
    shown = pieces_shown(root)
    assert len(shown) == 40
    assert sum("q-black" in s.classes for s in shown) == 20 and sum("q-white" in s.classes for s in shown) == 20
    numbers = [t.text for g in root.iter(SVG + "g") if "q-square-numbers" in (g.get("class") or "") for t in g]
    assert numbers == [str(n) for n in range(1, 51)]
    board = checkered.board_for(DR10)
    x1, y1 = board.cells["1"]
    x6, y6 = board.cells["6"]
    assert x6 < x1 and y6 > y1  # 1 is the second square of the top row, 6 the first of the next


def test_a_king_is_drawn_with_a_crown_and_the_capture_path_is_drawn():
    result = from_position(DR8, CROWN_POSITION, "11x02x13")
    root = _svg(DR8, result)
    kings = [s for s in pieces_shown(root) if "q-crown" in s.classes]
    assert len(kings) == 1 and "q-white" in kings[0].classes
    paths = [p for p in root.iter(SVG + "path") if "q-path-capture" in (p.get("class") or "")]
    assert len(paths) == 1
    scene = checkered.board_for(DR8).scene()
    assert scene["symbols"]["king"]["white"] != scene["symbols"]["man"]["white"]


@pytest.mark.parametrize("code, count", [("DR10", 50), ("DR8", 32)])
def test_every_square_of_the_engine_is_a_cell_of_the_board(code, count):
    board = checkered.board_for(games.GAMES[code])
    assert sorted(board.cells, key=int) == [str(n) for n in range(1, count + 1)]

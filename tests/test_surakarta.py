"""The Surakarta engine (SU) and its board: steps, captures along the loops, layouts, ops."""

from __future__ import annotations

import json
import re
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from svg_pieces import pieces_shown

from generator import diagnostics, games, scene
from generator.boards import surakarta as su_board
from generator.model import Decision, Metadata, Move, Record
from generator.rules import engine, surakarta
from generator.rules.surakarta import replay
from generator.scene import Piece, Position, position_after

SU = games.GAMES["SU"]
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "SU"
SVG = "{http://www.w3.org/2000/svg}"

_MOVE = re.compile(r"([A-Za-z])(\d)([A-Za-z])([-Xx×])(\d)([A-Za-z])")


def move(text: str, line: int = 10) -> Move:
    """A Move as the SU reader makes it from ``B2E-3E`` / ``B4AX6C``; ``?`` stays unreadable."""
    m = _MOVE.fullmatch(text)
    if m is None:
        return Move(text[:1], text, None, line, 1)
    side, r1, c1, sign, r2, c2 = m.groups()
    capture = sign in "Xx×"
    normal = f"{side}{r1}{c1.upper()}{'X' if capture else '-'}{r2}{c2.upper()}"
    return Move(side, normal, (c1.upper(), int(r1)), line, 1, to=(c2.upper(), int(r2)), capture=capture)


def record(moves: str, setup: list[str] | None = None) -> Record:
    """A record of space-separated moves, one per line from line 10 (the block, if any, at line 3)."""
    parsed = [move(text, 10 + n) for n, text in enumerate(moves.split())]
    return Record("game.txt", "SU", Metadata(), parsed, setup=setup, setup_line=3 if setup else 0)


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


def board(result, count: int | None = None) -> list[str]:
    """The position after ``count`` plies as six strings of 0/B/R, top row first."""
    rows = [["0"] * 6 for _ in range(6)]
    for piece in position_after(result.setup, result.plies, count).pieces.values():
        i = surakarta.INDEX[piece.at]
        rows[i // 6][i % 6] = piece.side[0].upper()
    return ["".join(row) for row in rows]


def ops(result, n: int, name: str) -> list[list]:
    return [op for op in result.plies[n - 1].ops if op[0] == name]


# Black 2A and 1F, red 3B and 6F: 2A captures 3B round the top-left small arc.
INNER = ["00000B", "B00000", "0R0000", "000000", "000000", "00000R"]
# Black 3A and 3C, red 4D: 3C blocks the outer loop both ways.
BLOCKED = ["000000", "000000", "B0B000", "000R00", "000000", "000000"]
# Black 1B 2B 4B, red 2E: 2B reaches 2E straight; every other way is blocked.
STRAIGHT = ["0B0000", "0B00R0", "000000", "0B0000", "000000", "000000"]
# Black 2E, red 5E and 6A: the shortest capture of 5E leaves by 2F, round to
# 1E and down column E, over 2E, its own start square.
OVER_START = ["000000", "0000B0", "000000", "000000", "0000R0", "R00000"]


# -- the loops ---------------------------------------------------------------


def test_loops_run_along_the_second_and_third_lines():
    inner = {surakarta.CELLS[i] for i in surakarta.INNER.cells}
    outer = {surakarta.CELLS[i] for i in surakarta.OUTER.cells}
    assert len(surakarta.INNER.cells) == len(surakarta.OUTER.cells) == 24
    assert inner == {f"{r}{c}" for r in (2, 5) for c in "ABCDEF"} | {f"{r}{c}" for r in range(1, 7) for c in "BE"}
    assert outer == {f"{r}{c}" for r in (3, 4) for c in "ABCDEF"} | {f"{r}{c}" for r in range(1, 7) for c in "CD"}
    assert {"1A", "1F", "6A", "6F"}.isdisjoint(inner | outer)
    # Crossing points are on their loop twice.
    assert {c for c in inner if len(surakarta.INNER.positions[surakarta.INDEX[c]]) == 2} == {"2B", "2E", "5B", "5E"}
    assert {c for c in outer if len(surakarta.OUTER.positions[surakarta.INDEX[c]]) == 2} == {"3C", "3D", "4C", "4D"}
    arcs = {frozenset(a) for loop in surakarta.LOOPS for a in loop.arcs}
    assert arcs == {
        frozenset(p)
        for p in [("2A", "1B"), ("1E", "2F"), ("5F", "6E"), ("6B", "5A"),
                  ("3A", "1C"), ("1D", "3F"), ("4F", "6D"), ("6C", "4A")]
    }


def test_no_capture_in_the_start_position():
    cells = surakarta.SurakartaState(SU, surakarta.STANDARD).cells
    for i in range(36):
        if cells[i]:
            # Round the arcs every piece first meets one of its own side.
            assert all(cells[c] == cells[i] for c in surakarta.captures(cells, i)), surakarta.CELLS[i]
    assert {surakarta.CELLS[c] for c in surakarta.captures(cells, surakarta.INDEX["2A"])} == {"1B"}
    # Once 2A and 1B have stepped away, 2B sees along row 2 round the arc down column B: 5B is red.
    cells[surakarta.INDEX["2A"]] = cells[surakarta.INDEX["1B"]] = 0
    found = surakarta.captures(cells, surakarta.INDEX["2B"])
    assert [surakarta.CELLS[c] for c in found[surakarta.INDEX["5B"]]] == ["2B", "2A", "1B", "2B", "3B", "4B", "5B"]


# -- plain moves and turn order ----------------------------------------------


def test_standard_first_move_black_from_the_top():
    result = replay(record("B2E-3E"), SU)
    assert result.diagnostics == []
    assert result.first_letter == "B"
    assert len(result.setup) == 24
    (ply,) = result.plies
    assert (ply.number, ply.side, ply.colour, ply.label) == (1, "first", "black", "B2E-3E")
    assert ply.ops == [["move", "b11", "3E"], ["mark", "2E", "from"], ["mark", "3E", "last"]]
    assert board(result)[1:3] == ["BBBB0B", "0000B0"]
    assert result.decision is None and result.not_replayed == []


def test_plain_steps_go_to_any_of_the_eight_neighbours():
    result = replay(record("B2B-3C R5E-4D B3C-3D R4D-4C B3D-4E R4C-3C B4E-3E"), SU)
    assert result.diagnostics == []
    assert len(result.plies) == 7


def test_red_may_move_first():
    result = replay(record("R5E-4E B2E-3E R4E-4F"), SU)
    assert result.diagnostics == []
    assert result.first_letter == "R"
    assert [(p.side, p.colour) for p in result.plies] == [("first", "red"), ("second", "black"), ("first", "red")]


def test_wrong_side():
    result = replay(record("B2E-3E B2D-3D R5E-4E"), SU)
    assert codes(result) == [engine.WRONG_SIDE]
    d = result.diagnostics[0]
    assert d.line == 11 and d.severity == "error"
    assert d.message.startswith("move 2, B2D-3D: ")
    assert "expected Red to move, found Black" in d.message
    assert len(result.plies) == 1
    assert [m.text for m in result.not_replayed] == ["B2D-3D", "R5E-4E"]


def test_unknown_side_letter():
    result = replay(record("B2E-3E W5E-4E"), SU)
    assert codes(result) == [engine.WRONG_SIDE]
    assert "unknown side 'W'" in result.diagnostics[0].message


def test_no_piece_at_the_start_point():
    result = replay(record("B3C-4C"), SU)
    assert codes(result) == [surakarta.NO_PIECE]
    assert result.diagnostics[0].message == "move 1, B3C-4C: no piece at 3C"
    assert result.plies == []


def test_the_other_sides_piece_at_the_start_point():
    result = replay(record("B2E-3E R2A-3A"), SU)
    assert codes(result) == [surakarta.NO_PIECE]
    assert result.diagnostics[0].message == "move 2, R2A-3A: 2A holds Black's piece, not Red's"


def test_step_onto_own_piece():
    result = replay(record("B1A-2A"), SU)
    assert codes(result) == [surakarta.OWN_PIECE]
    assert result.diagnostics[0].message == "move 1, B1A-2A: 2A holds Black's own piece"


def test_step_onto_an_enemy_piece_that_cannot_be_captured():
    # After these, black 4C stands next to red 5C, but no loop takes 4C to 5C.
    result = replay(record("B2C-3C R5A-4A B3C-4C R4A-3A B4C-5C"), SU)
    assert codes(result) == [surakarta.BAD_CAPTURE]
    message = result.diagnostics[0].message
    assert message.startswith("move 5, B4C-5C: 5C is occupied (a plain step must go to an empty point)")
    assert "4C cannot capture on 5C" in message


def test_neither_a_step_nor_a_capture():
    result = replay(record("B2C-4C"), SU)
    assert codes(result) == [surakarta.BAD_MOVE]
    assert "2C to 4C is neither one step nor a capture" in result.diagnostics[0].message


def test_off_the_board():
    result = replay(record("B2E-7E"), SU)
    assert codes(result) == [engine.OFF_BOARD]
    assert "7E is off the board" in result.diagnostics[0].message


def test_unreadable_move_stops_the_replay_with_a_note():
    result = replay(record("B2E-3E R?? B2D-3D"), SU)
    assert codes(result) == [engine.UNREADABLE]
    assert len(result.plies) == 1 and len(result.not_replayed) == 2


# -- captures ------------------------------------------------------------------


def test_capture_along_the_inner_loop():
    result = replay(record("B2AX3B", INNER), SU)
    assert result.diagnostics == []
    assert ops(result, 1, "path") == [["path", ["2A", "1B", "2B", "3B"], "capture"]]
    assert board(result)[2] == "0B0000"


def test_capture_along_the_outer_loop_and_the_ops():
    moves = "B2A-3A R5B-4B B3A-4A R4B-3B B4AX6C R3BX1C"
    result = replay(record(moves), SU)
    assert result.diagnostics == []
    capture = result.plies[4]
    # The piece from 2A (b7) takes red's 6C (r9) over the big arc 4A-6C.
    assert capture.ops == [
        ["remove", "r9"],
        ["move", "b7", "6C"],
        ["path", ["4A", "6C"], "capture"],
        ["mark", "4A", "from"],
        ["mark", "6C", "last"],
    ]
    # Red's 3B goes along row 3, round the arc 3A-1C, onto 1C: both arc ends are in the path.
    assert ops(result, 6, "path") == [["path", ["3B", "3A", "1C"], "capture"]]
    assert ops(result, 6, "remove") == [["remove", "b3"]]
    position = position_after(result.setup, result.plies)
    assert position.paths == [(["3B", "3A", "1C"], "capture")]
    assert sum(1 for p in position.pieces.values() if p.side == "black") == 11
    assert sum(1 for p in position.pieces.values() if p.side == "red") == 11


def test_setup_ops_put_24_pieces():
    result = replay(record("B2E-3E"), SU)
    adds = [op for op in result.setup if op[0] == "add"]
    assert len(adds) == 24
    assert adds[0] == ["add", "b1", "piece", "black", "1A"]
    assert adds[-1] == ["add", "r12", "piece", "red", "6F"]
    assert {op[3] for op in adds} == {"black", "red"}


def test_capture_blocked_on_the_way():
    result = replay(record("B3AX4D", BLOCKED), SU)
    assert codes(result) == [surakarta.BAD_CAPTURE]
    assert result.diagnostics[0].message == (
        "move 1, B3AX4D: 3A cannot capture on 4D: the ways along the outer loop are blocked at 3C"
    )


def test_straight_line_without_an_arc_is_no_capture():
    result = replay(record("B2BX2E", STRAIGHT), SU)
    assert codes(result) == [surakarta.BAD_CAPTURE]
    message = result.diagnostics[0].message
    assert "2B reaches 2E in a straight line without passing a corner arc" in message
    assert "the other ways along the inner loop are blocked at 1B, 4B" in message


def test_a_neighbour_on_the_same_line_is_no_capture():
    result = replay(record("B2E-3E R5A-4A B3E-3D R5C-4B B2B-3A R4B-3B B3AX3B"), SU)
    assert codes(result) == [surakarta.BAD_CAPTURE]
    assert result.diagnostics[0].message == (
        "move 7, B3AX3B: 3A cannot capture on 3B: 3A reaches 3B in a straight line without passing a "
        "corner arc, and the other way along the outer loop is blocked at 1C"
    )


def test_not_on_a_common_loop():
    setup = ["000000", "0B0000", "000000", "00R000", "000000", "000000"]
    result = replay(record("B2BX4C", setup), SU)
    assert codes(result) == [surakarta.BAD_CAPTURE]
    assert "2B and 4C are not on a common loop" in result.diagnostics[0].message
    setup = ["B00000", "000000", "000000", "00R000", "000000", "00000R"]
    result = replay(record("B1AX4C", setup), SU)
    assert "1A lies on no loop" in result.diagnostics[0].message


def test_capture_onto_own_piece():
    result = replay(record("B2AX1B"), SU)
    assert codes(result) == [surakarta.OWN_PIECE]
    assert result.diagnostics[0].message == "move 1, B2AX1B: 1B holds Black's own piece"


def test_capture_over_its_own_start_square():
    result = replay(record("B2EX5E", OVER_START), SU)
    assert result.diagnostics == []
    assert ops(result, 1, "path") == [["path", ["2E", "2F", "1E", "2E", "3E", "4E", "5E"], "capture"]]


def test_capture_written_with_a_dash_is_accepted_with_a_note():
    result = replay(record("B2A-3B", INNER), SU)
    assert codes(result) == [surakarta.PLAIN_CAPTURE]
    assert result.diagnostics[0].severity == "note"
    assert ops(result, 1, "remove") == [["remove", "r1"]]


def test_capture_written_onto_an_empty_neighbour_is_a_plain_step():
    result = replay(record("B2EX3E R5E-4E"), SU)
    assert codes(result) == [surakarta.CAPTURE_ONTO_EMPTY]
    assert result.diagnostics[0].severity == "warning"
    assert len(result.plies) == 2
    assert ops(result, 1, "remove") == [] and ops(result, 1, "path") == []


def test_last_piece_captured_ends_the_game():
    setup = ["000000", "B00000", "0R0000", "000000", "000000", "000000"]
    result = replay(record("B2AX3B", setup), SU)
    assert result.diagnostics == []
    assert result.decision == Decision("first", "no-pieces", 1, ())
    assert [scene.note_text(op, ("Black", "Red")) for op in ops(result, 1, "note")] == ["Red has no pieces left: Black wins"]
    # Black moves first and loses its last piece: the second player (red) wins.
    setup = ["000000", "R00000", "0B0000", "000000", "000000", "000000"]
    result = replay(record("B3B-2B R2AX2B", setup), SU)
    assert result.decision == Decision("second", "no-pieces", 2, ())
    assert ops(result, 2, "path") == [["path", ["2A", "1B", "2B"], "capture"]]


def test_move_after_the_end_is_an_error():
    setup = ["000000", "B00000", "0R0000", "000000", "000000", "00000B"]
    result = replay(record("B2AX3B R5F-4F", setup), SU)
    assert result.decision == Decision("first", "no-pieces", 1, ())
    assert codes(result) == [engine.AFTER_END]
    assert result.diagnostics[0].message == (
        "move 2, R5F-4F: the game was already over at move 1: Red had no pieces left; no move may follow"
    )
    assert len(result.plies) == 1 and [m.text for m in result.not_replayed] == ["R5F-4F"]


# -- layouts -------------------------------------------------------------------


RED_ON_TOP = ["RRRRRR", "RRRRRR", "000000", "000000", "BBBBBB", "BBBBBB"]


def test_block_upside_down_for_the_moves_is_read_flipped_with_a_warning():
    result = replay(record("B2A-3A R5F-4F B2D-3E", RED_ON_TOP), SU)
    assert codes(result) == [surakarta.FLIPPED_SETUP]
    d = result.diagnostics[0]
    assert d.severity == "warning" and d.line == 3
    assert "puts Red on top, but the moves play Black from the top rows" in d.message
    assert len(result.plies) == 3 and result.not_replayed == []
    assert board(result, 0)[0] == "BBBBBB"


def test_block_as_written_is_kept_when_it_fits():
    result = replay(record("R2A-3B B5A-4B", RED_ON_TOP), SU)
    assert result.diagnostics == [] and result.first_letter == "R"
    assert board(result, 0)[0] == "RRRRRR"


def test_no_block_red_on_top_is_found_from_the_moves_silently():
    result = replay(record("R2A-3B B5A-4B R2B-3C"), SU)
    assert result.diagnostics == []
    assert board(result, 0)[0] == "RRRRRR"


def test_tie_keeps_the_written_block():
    # Both readings fail at move 1: the block stands as written, no warning.
    result = replay(record("B3C-4C", RED_ON_TOP), SU)
    assert codes(result) == [surakarta.NO_PIECE]
    assert board(result, 0)[0] == "RRRRRR"


@pytest.mark.parametrize(
    ("rows", "why"),
    [
        (["BBBBBB", "BBBBBB", "000000", "000000", "RRRRRR"], "it has 5 rows of the 6 it needs"),
        (["BBBBBB", "BBBBB", "000000", "000000", "RRRRRR", "RRRRRR"], "row 2 ('BBBBB') has 5 characters"),
        (["BBBBBB", "BBBBBB", "00X000", "000000", "RRRRRR", "RRRRRR"], "row 3 ('00X000') holds 'X'"),
    ],
)
def test_malformed_block_falls_back_to_the_standard_layout(rows, why):
    result = replay(record("B2E-3E R5E-4E", rows), SU)
    assert codes(result) == [surakarta.BAD_SETUP]
    assert result.diagnostics[0].severity == "warning" and why in result.diagnostics[0].message
    assert len(result.plies) == 2 and board(result, 0)[0] == "BBBBBB"


def test_block_with_spaces_and_lower_case_is_read():
    rows = [" bbbbbb ", "BBBBBB", "000000", "000000", "RRRRRR", "rrrrrr"]
    result = replay(record("B2E-3E", rows), SU)
    assert result.diagnostics == []


# -- repetition ------------------------------------------------------------------


def test_long_repetition_is_one_note():
    moves = " ".join(["B2A-3A R5A-4A B3A-2A R4A-5A"] * 3)
    result = replay(record(moves), SU)
    assert codes(result) == [surakarta.REPETITION]
    d = result.diagnostics[0]
    assert d.severity == "note" and d.line == 17  # move 8, where the start position stands a third time
    assert d.message.startswith("move 8, R4A-5A: long repetition: the start position (Black to move)")
    assert "the moves repeat from move 1" in d.message and "occurs 4 times" in d.message
    assert [op for op in result.plies[7].ops if op[0] == "note"] != []
    assert all(op[0] != "note" for p in result.plies if p.number != 8 for op in p.ops)
    # On a Chinese page the note is said in Chinese.
    from generator.render.strings import LANGUAGES
    from generator.render.viewer import viewer_context

    shown = viewer_context(SU, result, strings=LANGUAGES["zh-CN"], label="x", side_names=("黑方", "红方"))
    data = json.loads(str(shown["data"]))
    assert [op[1] for op in data["plies"][7]["o"] if op[0] == "note"] == [
        "长重复：开局局面（黑方走）第三次出现；从第 1 手起重复，到棋谱结束共出现 4 次"
    ]


def test_twice_is_no_repetition():
    result = replay(record("B2A-3A R5A-4A B3A-2A R4A-5A B2A-3A"), SU)
    assert result.diagnostics == []


# -- diagnostics catalogue -------------------------------------------------------


def test_codes_are_in_the_rule_2xx_block_with_help():
    mine = [
        engine.UNREADABLE, engine.WRONG_SIDE, engine.OFF_BOARD, surakarta.NO_PIECE,
        surakarta.BAD_MOVE, surakarta.OWN_PIECE, surakarta.BAD_CAPTURE, engine.AFTER_END,
        surakarta.BAD_SETUP, surakarta.FLIPPED_SETUP, surakarta.CAPTURE_ONTO_EMPTY,
        surakarta.PLAIN_CAPTURE, surakarta.REPETITION,
    ]
    assert len(set(mine)) == len(mine)
    for code in mine:
        entry = diagnostics.CATALOG[code]
        assert re.fullmatch(r"RULE-[EWN](2\d\d|00\d)", code)
        assert entry.severity[0].upper() == code[5]
        assert entry.title and entry.help


# -- the corpus (optional) ---------------------------------------------------------


def _read_corpus_file(path: Path) -> Record:
    """A throwaway reader: the board block and the move lines, rows shifted if counted from 0."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("gb18030")
    moves, setup, setup_line = [], [], 0
    pattern = re.compile(r"([A-Za-z])\s*(\d)\s*([A-Za-z])\s*([-xX×])\s*(\d)\s*([A-Za-z])")
    for number, line in enumerate(text.splitlines(), 1):
        line = unicodedata.normalize("NFKC", line.strip())
        if line.startswith("!"):
            setup_line = setup_line or number
            setup.append(line[1:])
        elif m := pattern.fullmatch(line):
            moves.append(move("".join(m.groups()), number))
    if any(p[1] == 0 for mv in moves for p in (mv.point, mv.to)):
        for mv in moves:
            mv.point, mv.to = (mv.point[0], mv.point[1] + 1), (mv.to[0], mv.to[1] + 1)
    return Record(path.name, "SU", Metadata(), moves, setup=setup or None, setup_line=setup_line)


# Where the real records stop, and why (see the report in the pull request).
CORPUS_STOPS = {
    "SU_06": (engine.AFTER_END, 34),  # red lost its last piece at move 33; the repeated tail follows
    "SU_11": (surakarta.BAD_CAPTURE, 12),  # 4D (outer loop) "captures" 1E (inner loop)
    "SU_12": (surakarta.NO_PIECE, 1),  # does not start from the standard position, however read
}


def test_corpus_records_replay():
    files = sorted(CORPUS.glob("*.txt")) if CORPUS.is_dir() else []
    if not files:
        pytest.skip("no Surakarta corpus at ../shared/corpus/SU")
    for path in files:
        result = replay(_read_corpus_file(path), SU)
        errors = [d for d in result.diagnostics if d.severity == "error"]
        stop = CORPUS_STOPS.get(path.name[:5])
        if stop is None:
            assert errors == [], path.name
            assert result.not_replayed == [], path.name
        else:
            assert [(d.code, int(d.message.split(",")[0].split()[1])) for d in errors] == [stop], path.name
        if path.name.startswith("SU_04"):
            assert surakarta.FLIPPED_SETUP in codes(result)


# -- the board -----------------------------------------------------------------------


@pytest.fixture
def su() -> su_board.SurakartaBoard:
    return su_board.board_for(SU)


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def find_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [el for el in root.iter(SVG + tag) if cls in classes(el)]


def test_scene_has_36_cells_and_16_curves(su):
    scene = json.loads(json.dumps(su.scene()))
    assert len(scene["cells"]) == 36
    assert len(scene["curves"]) == 16
    assert scene["curves"]["2A|1B"].startswith("A60 60 0 1 ")
    assert scene["curves"]["3A|1C"].startswith("A120 120 0 1 ")
    # Each curve ends on its second cell's point; the two senses sweep opposite ways.
    for key, arc in scene["curves"].items():
        a, b = key.split("|")
        assert arc.split()[-2:] == [str(v) for v in scene["cells"][b]]
        assert arc.split()[4] != scene["curves"][f"{b}|{a}"].split()[4]
    assert scene["symbols"] == {"piece": {"black": "q-su-piece-black", "red": "q-su-piece-red"}}
    assert scene["marks"]["last"] < scene["marks"]["from"] < scene["radius"]


def test_row_1_is_on_top_and_column_a_on_the_left(su):
    xs = [x for x, _ in su.cells.values()]
    ys = [y for _, y in su.cells.values()]
    assert su.cells["1A"] == (min(xs), min(ys))
    assert su.cells["6F"] == (max(xs), max(ys))
    assert su.cells["2E"][1] < su.cells["3E"][1]


def test_static_drawing_has_both_loops_and_labels(su):
    root = ET.fromstring(su.svg(None, label="SU"))
    assert "q-board" in classes(root)
    (inner,) = find_class(root, "path", "q-loop-inner")
    (outer,) = find_class(root, "path", "q-loop-outer")
    assert inner.get("d").count("A") == 4 and outer.get("d").count("A") == 4
    assert sorted(t.text for t in find_class(root, "text", "q-col")) == sorted("ABCDEF" * 2)
    assert sorted(t.text for t in find_class(root, "text", "q-row")) == sorted("123456" * 2)
    # The big arcs and the labels fit inside the drawing.
    width = float(root.get("viewBox").split()[2])
    left = su.cells["1A"][0]
    assert left - 2 * su_board.STEP > 0
    assert all(0 < float(t.get("x")) < width for t in find_class(root, "text", "q-coord"))
    assert su.STATIC_MARK in su.svg(None, label="SU", static=False)
    assert su.static_markup in su.svg(None, label="SU")


def test_svg_draws_pieces_marks_and_the_capture_path(su):
    result = replay(record("B2A-3A R5B-4B B3A-4A R4B-3B B4AX6C"), SU)
    root = ET.fromstring(su.svg(position_after(result.setup, result.plies), label="x"))
    pieces = pieces_shown(root)
    assert len(pieces) == 23
    assert {p.classes for p in pieces} == {frozenset({"q-piece", "q-black"}), frozenset({"q-piece", "q-red"})}
    (path,) = find_class(root, "path", "q-path")
    assert classes(path) == {"q-path", "q-path-capture"}
    assert path.get("d") == f"M{su.cells['4A'][0]} {su.cells['4A'][1]}" + su.curves["4A|6C"]
    assert {m.get("class") for m in find_class(root, "circle", "q-mark")} == {"q-mark q-mark-from", "q-mark q-mark-last"}
    # A plain move shows no path.
    root = ET.fromstring(su.svg(position_after(result.setup, result.plies, 4), label="x"))
    assert find_class(root, "path", "q-path") == []


def test_path_data_mixes_lines_and_arcs(su):
    d = su.path_data(["3B", "3A", "1C"])
    x, y = su.cells["3A"]
    assert d.startswith(f"M{su.cells['3B'][0]} {su.cells['3B'][1]}L{x} {y}A120 120 0 1 ")
    assert su.path_data(["3B", "Z9"]) == ""
    position = Position(pieces={"x": Piece("piece", "black", "Z9", 0)}, paths=[(["Z9"], "capture")])
    root = ET.fromstring(su.svg(position, label="x"))
    assert find_class(root, "path", "q-path") == [] and pieces_shown(root) == []

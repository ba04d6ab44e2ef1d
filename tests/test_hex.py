"""Hex: the engine (turns, errors, the winning chain, red_joins) and the board drawing."""

from __future__ import annotations

import itertools
import math
import random
import xml.etree.ElementTree as ET

import pytest
from conftest import brace_moves
from svg_pieces import pieces_shown

from generator import games, pipeline, scene
from generator.boards import hex as hex_board
from generator.model import Metadata, Record, Source
from generator.rules import engine
from generator.rules import hex as hex_rules
from generator.rules.hex import NEIGHBOURS, HexState, replay

HEX = games.GAMES["HEX"]
COLUMNS = {"red_joins": "columns"}
SVG = "{http://www.w3.org/2000/svg}"
LETTERS = "ABCDEFGHIJK"


def notes(ops: list) -> list[str]:
    """The English text of a ply's notes (a note is a template and its arguments)."""
    return [scene.note_text(op, ("Red", "Blue")) for op in ops if op[0] == "note"]


def record(text: str, line: int = 1) -> Record:
    """A record whose moves are the ``;``-separated entries of one line (see conftest.brace_moves)."""
    moves = brace_moves(text, line)
    return Record("game.hex.txt", "HEX", Metadata(), moves)


def interleave(red: list[str], blue: list[str]) -> str:
    """``R(E,1);B(K,1);...`` from cell names like "E1", red first, alternating."""
    entries = []
    for i in range(max(len(red), len(blue))):
        for side, cells in (("R", red), ("B", blue)):
            if i < len(cells):
                cell = cells[i]
                entries.append(f"{side}({cell[0]},{cell[1:]})")
    return ";".join(entries)


def cells(spec: str) -> list[str]:
    return spec.split()


# Red's group: column E from row 1 to row 11 and a loop beside it
# (F4 G4 G5 G6 F7) that is longer; E2 comes last and completes it.
RED_GROUP = cells("E1 E3 E4 E5 F4 G4 G5 G6 F7 E6 E7 E8 E9 E10 E11 E2")
COLUMN_E = tuple(f"E{r}" for r in range(1, 12))
# Blue touches row 1 and column K only: no win under either variant.
BLUE_FILL = cells("I1 I2 I3 I4 I5 I6 I7 J1 J2 J3 J4 J5 J6 J7 K1")


# -- the engine ---------------------------------------------------------------


def test_red_joins_rows_with_the_shortest_chain():
    text = interleave(RED_GROUP, BLUE_FILL)
    result = replay(record(text), HEX, {})
    assert result.diagnostics == []
    assert result.not_replayed == []
    decision = result.decision
    assert decision is not None
    assert (decision.winner, decision.rule, decision.ply) == ("first", "connection", 31)
    # The chain, not the whole group: the loop F4 G4 G5 G6 F7 is left out.
    assert decision.cells == COLUMN_E
    assert result.variant is None
    last = result.plies[-1]
    assert last.number == 31 and last.side == "first" and last.colour == "red"
    assert last.ops[0] == ["add", "s31", "stone", "red", "E2"]
    assert ["mark", "E2", "last"] in last.ops
    assert [op[1] for op in last.ops if op[0] == "mark" and op[2] == "win"] == list(COLUMN_E)
    assert "Red joins rows 1 and 11" in notes(last.ops)
    position = scene.position_after(result.setup, result.plies)
    assert len(position.pieces) == 31
    assert position.notes == [op[1] for op in last.ops if op[0] == "note"]  # the last ply's note, said by the page
    assert {cell for cell, style in position.marks if style == "win"} == set(COLUMN_E)
    # Earlier plies carry no win marks and no note.
    assert all(op[0] in ("add", "mark") and op[-1] != "win" for ply in result.plies[:-1] for op in ply.ops)


def test_red_joins_columns_turns_the_same_record_into_no_win():
    text = interleave(RED_GROUP, BLUE_FILL)
    result = replay(record(text), HEX, COLUMNS)
    assert result.decision is None
    assert result.diagnostics == []
    assert len(result.plies) == 31
    assert result.variant == "columns"
    assert all(op[0] != "note" for ply in result.plies for op in ply.ops)


def test_red_joins_columns_red_wins_across():
    red = cells("A6 B6 C6 D6 E6 G6 H6 I6 J6 K6 F6")
    blue = cells("A1 B1 C1 D1 E1 F1 G1 H1 I1 J1")
    text = interleave(red, blue)
    result = replay(record(text), HEX, COLUMNS)
    assert result.diagnostics == []
    assert result.decision is not None
    assert (result.decision.winner, result.decision.ply) == ("first", 21)
    assert result.decision.cells == tuple(f"{c}6" for c in LETTERS)
    assert "Red joins columns A and K" in notes(result.plies[-1].ops)
    assert result.variant == "columns"
    # Under the default the row across is no win for red.
    default = replay(record(text), HEX, {})
    assert default.decision is None and default.variant is None
    assert default.diagnostics == []


def test_blue_wins_by_joining_columns_a_and_k_along_the_diagonal():
    # A11 B10 ... K1: each step is (+1, -1), one of the two diagonal neighbours.
    blue = [f"{LETTERS[i]}{11 - i}" for i in range(11)]
    red = cells("A1 B1 C1 D1 E1 F1 G1 H1 I1 J1 A2")  # K1 stays free for blue
    text = interleave(red, blue)
    result = replay(record(text), HEX, {})
    assert result.diagnostics == []
    decision = result.decision
    assert decision is not None
    assert (decision.winner, decision.rule, decision.ply) == ("second", "connection", 22)
    assert decision.cells == tuple(blue)  # from column A to column K
    assert result.plies[-1].colour == "blue"
    assert "Blue joins columns A and K" in notes(result.plies[-1].ops)


def test_blue_joins_rows_under_the_columns_variant():
    blue = [f"F{r}" for r in range(1, 12)]
    red = cells("A1 A2 A3 A4 A5 A6 A7 A8 A9 A10 B1")
    result = replay(record(interleave(red, blue)), HEX, COLUMNS)
    assert result.decision is not None
    assert result.decision.winner == "second"
    assert result.decision.cells == tuple(blue)
    assert "Blue joins rows 1 and 11" in notes(result.plies[-1].ops)


def test_the_other_diagonal_is_not_adjacent():
    # A1 B2 ... K11 touches rows 1 and 11, but (x+1, y+1) is not a neighbour.
    red = [f"{LETTERS[i]}{i + 1}" for i in range(11)]
    blue = cells("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 J1")
    result = replay(record(interleave(red, blue)), HEX, {})
    assert result.diagnostics == []
    assert result.decision is None


def test_neighbours_are_the_documented_six():
    assert set(NEIGHBOURS) == {(1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1)}
    state = HexState(HEX)
    assert sorted(state.neighbours(0, 0)) == [(0, 1), (1, 0)]  # A1: acute corner
    assert sorted(state.neighbours(10, 10)) == [(9, 10), (10, 9)]  # K11: acute corner
    assert len(state.neighbours(10, 0)) == 3  # K1: obtuse corner
    assert len(state.neighbours(0, 10)) == 3  # A11: obtuse corner
    assert len(state.neighbours(5, 5)) == 6


def _error(text: str, options=None):
    result = replay(record(text), HEX, options or {})
    assert len(result.diagnostics) == 1, result.diagnostics
    return result, result.diagnostics[0]


def test_wrong_side_is_an_error_naming_the_move():
    result, d = _error("R(E,7);B(E,6);B(F,7);R(D,6)")
    assert d.code == "RULE-E001" and d.severity == "error"
    assert d.message.startswith("move 3, B(F,7): wrong side to move: expected Red")
    assert (d.path, d.line, d.column) == ("game.hex.txt", 1, 15)
    assert len(result.plies) == 2
    assert [m.text for m in result.not_replayed] == ["B(F,7)", "R(D,6)"]
    # Blue may not open either: red moves first.
    _, d = _error("B(E,7)")
    assert d.code == "RULE-E001" and "move 1, B(E,7)" in d.message


def test_unknown_side_letter_is_a_wrong_side():
    _, d = _error("R(E,7);W(E,6)")
    assert d.code == "RULE-E001" and "unknown side 'W'" in d.message


def test_occupied_cell_is_an_error_naming_the_first_stone():
    result, d = _error("R(E,7);B(F,6);R(D,6);B(E,7)")
    assert d.code == "RULE-E403"
    assert d.message == "move 4, B(E,7): E7 is already occupied by move 1 (Red)"
    assert len(result.plies) == 3 and len(result.not_replayed) == 1


@pytest.mark.parametrize("move", ["R(L,1)", "R(A,12)", "R(A,0)", "R(Z,5)"])
def test_off_board_is_an_error(move):
    result, d = _error(f"{move};B(E,6)")
    assert d.code == "RULE-E002"
    assert d.message.startswith(f"move 1, {move}: ")
    assert "columns A-K, rows 1-11" in d.message
    assert result.plies == [] and len(result.not_replayed) == 2


def test_moves_after_the_win_are_errors():
    text = interleave(RED_GROUP, BLUE_FILL) + ";B(H,9);R(H,10)"
    result, d = _error(text)
    assert d.code == "RULE-E003"
    assert d.message.startswith("move 32, B(H,9): the game was already won by Red at move 31")
    assert "rows 1 and 11" in d.message
    assert result.decision is not None and result.decision.ply == 31
    assert len(result.plies) == 31
    assert [m.text for m in result.not_replayed] == ["B(H,9)", "R(H,10)"]


def test_an_unreadable_move_stops_the_replay_with_a_note():
    result, d = _error("R(E,7);B(E,6);?;R(F,7)")
    assert d.code == "RULE-N001" and d.severity == "note"
    assert "move 3" in d.message
    assert len(result.plies) == 2 and len(result.not_replayed) == 2


def test_lower_case_letters_are_read():
    result = replay(record("r(e,7);b(e,6)"), HEX, {})
    assert result.diagnostics == []
    assert [p.ops[0][4] for p in result.plies] == ["E7", "E6"]


def test_random_games_always_end_with_a_valid_shortest_looking_chain():
    """Hex has no draw: every full random game has a winner, and the chain joins the edges."""
    rng = random.Random(7)
    for joins in ("rows", "columns"):
        for _ in range(25):
            state = HexState(HEX, {"red_joins": joins})
            while not state.over:
                state.play(*rng.choice(state.empty_cells()))
            chain = [(LETTERS.index(c[0]), int(c[1:]) - 1) for c in state.winning_cells]
            winner = state.winner
            assert all(state.at(x, y) == winner for x, y in chain)
            assert all(b in state.neighbours(*a) for a, b in itertools.pairwise(chain))
            rows = state.joins_rows(winner)
            axis = 1 if rows else 0
            assert chain[0][axis] == 0 and chain[-1][axis] == 10
            # A shortest chain never steps twice onto the same line across it.
            assert len({c[axis] for c in chain}) == 11
            assert len(set(chain)) == len(chain)


# -- the board ----------------------------------------------------------------


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _hexagons(root: ET.Element) -> dict[str, list[tuple[float, float]]]:
    out = {}
    for poly in root.iter(f"{SVG}polygon"):
        if "q-hex" in poly.get("class", "").split():
            points = [tuple(float(v) for v in p.split(",")) for p in poly.get("points", "").split()]
            out[poly.get("data-cell")] = points
    return out


def _centre(points: list[tuple[float, float]]) -> tuple[float, float]:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def test_svg_parses_with_121_hexagons_labels_and_both_edge_colours():
    board = hex_board.board_for(HEX)
    root = _parse(board.svg(None, label="Hex <empty>"))
    hexagons = _hexagons(root)
    assert len(hexagons) == 121
    assert all(len(points) == 6 for points in hexagons.values())
    assert set(hexagons) == {f"{c}{r}" for c in LETTERS for r in range(1, 12)}
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for label in list(LETTERS) + [str(r) for r in range(1, 12)]:
        assert texts.count(label) == 2, label  # on two opposite edges
    classes = [p.get("class", "") for p in root.iter(f"{SVG}path")]
    assert any("q-hex-edge-red" in c for c in classes)
    assert any("q-hex-edge-blue" in c for c in classes)
    assert root.find(f"{SVG}title").text == "Hex <empty>"


def test_row_1_is_at_the_bottom_and_column_a_on_the_left():
    board = hex_board.board_for(HEX)
    a1, k1, a11 = board.cells["A1"], board.cells["K1"], board.cells["A11"]
    assert a1[1] == k1[1] > a11[1]  # row 1 lower on the page (larger y)
    assert a1[0] < k1[0]
    assert 0 < min(x for x, _ in board.cells.values()) and max(x for x, _ in board.cells.values()) < board.width
    assert 0 < min(y for _, y in board.cells.values()) and max(y for _, y in board.cells.values()) < board.height


def test_rule_neighbours_are_exactly_the_hexagons_drawn_next_to_each_other():
    board = hex_board.board_for(HEX)
    hexagons = _hexagons(_parse(board.svg(None, label="Hex")))
    centres = {cell: _centre(points) for cell, points in hexagons.items()}
    state = HexState(HEX)
    for x in range(11):
        for y in range(11):
            cell = f"{LETTERS[x]}{y + 1}"
            rule = {f"{LETTERS[nx]}{ny + 1}" for nx, ny in state.neighbours(x, y)}
            distances = {other: math.dist(centres[cell], c) for other, c in centres.items() if other != cell}
            nearest = min(distances.values())
            drawn = {other for other, d in distances.items() if d < nearest + 0.1}
            assert drawn == rule, cell
            # All six (or fewer at the edges) at one distance, and each shares a side.
            assert max(distances[o] for o in rule) - nearest < 0.05
            for other in rule:
                shared = [p for p in hexagons[cell] if any(math.dist(p, q) < 0.05 for q in hexagons[other])]
                assert len(shared) == 2, (cell, other)
            # The scene's centres are the drawing's.
            assert math.dist(board.cells[cell], centres[cell]) < 0.05


def _edge_colour(board, name: str) -> str:
    root = _parse(board.svg(None, label="Hex"))
    for path in root.iter(f"{SVG}path"):
        if path.get("data-edge") == name:
            return "red" if "q-hex-edge-red" in path.get("class") else "blue"
    raise AssertionError(name)


def test_edges_are_coloured_per_variant():
    rows = hex_board.board_for(HEX)
    columns = hex_board.board_for(HEX, "columns")
    assert [_edge_colour(rows, e) for e in ("row-low", "row-high", "col-low", "col-high")] == ["red", "red", "blue", "blue"]
    assert [_edge_colour(columns, e) for e in ("row-low", "row-high", "col-low", "col-high")] == ["blue", "blue", "red", "red"]
    # Every outer side of the rhombus is coloured: 21 whole sides per edge,
    # and half of the side an obtuse corner (K1, A11) turns to the outside.
    sides = rows.edge_sides()
    assert {name: len(s) for name, s in sides.items()} == {"row-low": 22, "row-high": 22, "col-low": 22, "col-high": 22}
    lengths = sorted(round(math.dist(a, b), 2) for s in sides.values() for a, b in s)
    assert lengths[:4] == [round(hex_board.SIDE / 2, 2)] * 4
    assert set(lengths[4:]) == {round(hex_board.SIDE, 2)}


def test_board_for_is_cached_per_variant():
    assert hex_board.board_for(HEX) is hex_board.board_for(HEX, None) is hex_board.board_for(HEX, "rows")
    assert hex_board.board_for(HEX, "columns") is not hex_board.board_for(HEX)
    assert hex_board.board_for(HEX, "columns").variant == "columns"
    with pytest.raises(ValueError):
        hex_board.HexBoard(variant="diagonals")


def test_position_stones_and_marks_in_the_svg_and_the_scene():
    result = replay(record(interleave(RED_GROUP, BLUE_FILL)), HEX, {})
    board = hex_board.board_for(HEX, result.variant)
    position = scene.position_after(result.setup, result.plies)
    svg = board.svg(position, label="final", numbers=True)
    root = _parse(svg)
    circles = list(root.iter(f"{SVG}circle"))
    stones = pieces_shown(root)
    assert len(stones) == 31
    assert sum(s.classes == {"q-stone", "q-red"} for s in stones) == 16
    assert sum(s.classes == {"q-stone", "q-blue"} for s in stones) == 15
    wins = [c for c in circles if "q-mark-win" in c.get("class", "")]
    assert len(wins) == 11
    e2 = board.cells["E2"]
    last = [c for c in circles if "q-mark-last" in c.get("class", "")]
    assert [(float(c.get("cx")), float(c.get("cy"))) for c in last] == [pytest.approx(e2, abs=0.01)]
    assert "31" in [t.text for t in root.iter(f"{SVG}text")]
    # The browser viewer gets the same geometry and classes.
    data = board.scene()
    assert data["cells"]["E2"] == [e2[0], e2[1]]
    assert len(data["cells"]) == 121
    assert data["radius"] == hex_board.STONE_RADIUS
    assert data["marks"]["win"] > data["marks"]["last"] and "*" in data["marks"]
    assert data["symbols"] == {"stone": {"red": "q-hex-stone-red", "blue": "q-hex-stone-blue"}}
    assert {s.symbol for s in stones} == {"q-hex-stone-red", "q-hex-stone-blue"}
    assert data["numberSizes"][0][0] == 100


def test_static_false_leaves_the_static_drawing_out():
    board = hex_board.board_for(HEX)
    full = board.svg(None, label="x")
    light = board.svg(None, label="x", static=False)
    assert board.STATIC_MARK in light and "<polygon" not in light
    assert light.replace(board.STATIC_MARK, board.static_markup) == full
    assert board.static_markup.count("<polygon") == 121


def test_viewer_css_styles_the_new_classes():
    from pathlib import Path

    css = (Path(__file__).resolve().parents[1] / "static" / "viewer.css").read_text(encoding="utf-8")
    for name in (".q-red", ".q-blue", ".q-hex ", ".q-hex-edge-red", ".q-hex-edge-blue"):
        assert name in css, name


# -- the standard's example, through the whole per-file pipeline ---------------

STANDARD = (
    "{[HEX][先手参赛队 R][后手参赛队 B][先手胜][2017.07.29 14:00 重庆][2017 CCGC]; "
    "R(E,7)MARK[1];B(E,6);R(F,7);B(G,7);R(D,6);B(F,6);R(C,6);B(G,6)}"
)


@pytest.mark.parametrize("options", [{}, {"HEX": {"red_joins": "rows"}}, {"HEX": {"red_joins": "columns"}}])
def test_the_standards_example_replays_without_error(options):
    data = STANDARD.encode("gb18030")
    name = "HEX-先手参赛队 R vs 后手参赛队 B-先手胜-2017.07.29 14:00 重庆-2017 CCGC.txt"
    processed = pipeline.process(Source(name, data, pipeline.sha256(data)), encoding=None, options=options)
    assert processed.code == "HEX"
    assert [d for d in processed.diagnostics if d.severity == "error"] == []
    replayed = processed.replay
    assert replayed is not None
    assert replayed.not_replayed == [] and replayed.decision is None
    # R(E,7), B(E,6) ... in the record; the move list names the cells as players do.
    assert [p.label for p in replayed.plies] == ["E7", "E6", "F7", "G7", "D6", "F6", "C6", "G6"]
    assert replayed.plies[0].mark == 1
    assert [p.colour for p in replayed.plies[:2]] == ["red", "blue"]
    joins = options.get("HEX", {}).get("red_joins", "rows")
    assert replayed.variant == (None if joins == "rows" else joins)
    assert processed.meta.result == "first"  # declared; the rules did not decide


def test_codes_are_in_the_catalog():
    from generator.diagnostics import CATALOG

    for code in (engine.UNREADABLE, engine.WRONG_SIDE, engine.OFF_BOARD, hex_rules.OCCUPIED, engine.AFTER_END):
        assert code in CATALOG
    assert CATALOG["RULE-N001"].severity == "note"
    assert {CATALOG[c].severity for c in ("RULE-E001", "RULE-E002", "RULE-E403", "RULE-E003")} == {"error"}

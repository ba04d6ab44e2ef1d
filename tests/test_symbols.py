"""Pieces are symbols: declared once in a board's <defs>, placed with <use>, switched by ``set``.

The board and game here are invented (tests/symbol_boards.py): 車 and 馬 on
discs in two colours, draughts kings, a shogi piece facing either way,
playing cards, a face-down piece and a burnt square, drawn by the same frame
as the stones of Go.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from svg_pieces import SVG, Shown, pieces_shown, symbols_of
from symbol_boards import PREFIX, TINY_PLIES, TINY_SETUP, TinyBoard, tiny_game, tiny_replay

from generator import games
from generator.boards import symbols as sym
from generator.render.viewer import STRINGS, viewer_context
from generator.scene import Piece, Position, position_after


@pytest.fixture
def board() -> TinyBoard:
    return TinyBoard()


def shown_after(board: TinyBoard, count: int | None = None) -> dict[str, Shown]:
    """Cell -> what is drawn there after ``count`` plies, as the page without JavaScript shows it."""
    position = position_after(TINY_SETUP, TINY_PLIES, count)
    return {cell(board, s.at): s for s in pieces_shown(board.svg(position, label="tiny"))}


def cell(board: TinyBoard, at: tuple[float, float]) -> str:
    (name,) = [name for name, xy in board.cells.items() if xy == at]
    return name


def test_each_drawing_is_declared_once_and_placed_by_reference(board: TinyBoard) -> None:
    markup = board.svg(position_after(TINY_SETUP, TINY_PLIES), label="tiny")
    root = ET.fromstring(markup)
    declared = symbols_of(root)  # fails on an id declared twice
    assert set(declared) == {PREFIX + name for name in board.symbols.drawings}
    # Every piece on the board is one <use> of a declared drawing; no shape is drawn twice.
    (layer,) = [g for g in root.iter(SVG + "g") if g.get("class") == "q-pieces"]
    assert {el.tag for el in layer} == {SVG + "use"}
    assert len(pieces_shown(root)) == 11
    assert markup.count("<circle") == 8  # the discs of the drawings, once each; no mark on the last ply
    assert markup.count(">車<") == 2 and markup.count(">金<") == 1


def test_xiangqi_pieces_are_characters_on_discs_in_two_colours(board: TinyBoard) -> None:
    start = shown_after(board, 0)
    assert (start["a1"].texts, start["a1"].classes) == (("車",), frozenset({"q-piece", "q-red", "q-glyph"}))
    assert (start["e5"].texts, start["e5"].classes) == (("車",), frozenset({"q-piece", "q-black", "q-glyph"}))
    assert start["b1"].texts == start["d5"].texts == ("馬",)
    assert "q-red" in start["b1"].classes and "q-black" in start["d5"].classes


def test_a_draughts_man_is_crowned_when_set_to_king(board: TinyBoard) -> None:
    before, after = shown_after(board, 1), shown_after(board, 2)
    assert before["b3"].symbol == PREFIX + "man-white" and "q-crown" not in before["b3"].classes
    assert "b3" not in after
    assert after["b5"].symbol == PREFIX + "king-white"
    assert {"q-stone", "q-white", "q-crown"} <= after["b5"].classes
    assert position_after(TINY_SETUP, TINY_PLIES, 2).pieces["m1"] == Piece("king", "white", "b5", 0)


def test_a_shogi_piece_faces_either_way(board: TinyBoard) -> None:
    start = shown_after(board, 0)
    sente, gote = start["c1"], start["c5"]
    assert sente.texts == gote.texts == ("金",) and sente.classes == gote.classes
    assert (sente.turned, gote.turned) == (False, True)
    # The second side's piece is the first side's drawing turned round, not a copy of it.
    declared = symbols_of(ET.fromstring(board.svg(None, label="x")))
    (turned,) = declared[PREFIX + "gold-down"]
    assert (turned.tag, turned.get("href"), turned.get("transform")) == (SVG + "use", f"#{PREFIX}gold-up", "rotate(180)")


def test_a_face_down_piece_is_turned_face_up_by_set(board: TinyBoard) -> None:
    before, after = shown_after(board, 2), shown_after(board, 3)
    assert before["e1"].symbol == PREFIX + "back" and before["e1"].texts == ()
    assert after["e1"].symbol == PREFIX + "horse-red" and after["e1"].texts == ("馬",)


def test_an_arrow_burns_a_square_and_cards_show_rank_and_suit(board: TinyBoard) -> None:
    assert "c3" not in shown_after(board, 3)
    burnt = shown_after(board, 4)["c3"]
    assert burnt.symbol == PREFIX + "burnt" and "q-burnt" in burnt.classes
    cards = shown_after(board, 5)
    assert cards["a4"].texts == ("Q", "♥") and cards["e4"].texts == ("10", "♠")
    assert "q-card" in cards["a4"].classes


def test_a_capture_removes_and_a_piece_without_a_symbol_is_not_drawn(board: TinyBoard) -> None:
    final = shown_after(board)
    assert final["b1"].symbol == PREFIX + "horse-black"  # took the red horse there
    assert "d5" not in final and "d2" not in final  # the "dragon": no drawing for it on this board
    assert "u1" in position_after(TINY_SETUP, TINY_PLIES).pieces  # still in the position


def test_move_numbers_are_drawn_over_any_symbol(board: TinyBoard) -> None:
    root = ET.fromstring(board.svg(position_after(TINY_SETUP, TINY_PLIES), label="x", numbers=True))
    numbers = sorted(
        (t.text, cell(board, (float(t.get("x")), float(t.get("y")))))
        for t in root.iter(SVG + "text")
        if "q-num" in t.get("class", "").split()
    )
    # The pieces the plies added and that are drawn: the burnt square, the two cards (set-up pieces have none).
    assert numbers == [("4", "c3"), ("5", "a4"), ("5", "e4")]


def test_the_viewer_gets_the_symbols_the_page_declares(board: TinyBoard) -> None:
    viewer = viewer_context(tiny_game(), tiny_replay(), strings=STRINGS["en"], label="tiny", board=board)
    data = json.loads(str(viewer["data"]))
    assert data["scene"]["board"] == "tiny"
    assert data["scene"]["symbols"] == board.symbols.table()
    declared = symbols_of(ET.fromstring(str(viewer["svg"])))
    assert {symbol for sides in data["scene"]["symbols"].values() for symbol in sides.values()} <= set(declared)
    assert data["scene"]["symbols"]["gold"] == {"black": PREFIX + "gold-up", "white": PREFIX + "gold-down"}
    assert data["scene"]["symbols"]["arrow"] == {"*": PREFIX + "burnt"}
    # The operations are the engines' own: kinds and sides, no symbol ids.
    assert data["plies"][1]["o"][1] == ["set", "m1", "king"]
    assert viewer["svg"].count("<use") == 11 + 1  # the pieces, and the turned gold in <defs>


def test_stones_of_go_are_symbols_too() -> None:
    board = games.get("GO9").module("board").board_for(games.get("GO9"))
    position = Position(pieces={"s1": Piece("stone", "black", "E5", 1), "s2": Piece("stone", "white", "C3", 2)})
    markup = board.svg(position, label="x")
    assert markup.count('<use href="#q-grid-stone-black" ') == 1 and markup.count('<use href="#q-grid-stone-white" ') == 1
    assert {s.classes for s in pieces_shown(markup)} == {frozenset({"q-stone", "q-black"}), frozenset({"q-stone", "q-white"})}


def test_symbol_text_and_attributes_are_escaped() -> None:
    hostile = '</text><script>alert(1)</script>&"'
    symbols = sym.Symbols(
        "q-t-",
        {"odd": sym.disc('q-x" onload="alert(1)', 10, fill='"><script>') + sym.glyph(hostile, "q-glyph", 12)},
        {"odd": {"*": "odd"}},
    )
    markup = symbols.defs()
    assert "<script" not in markup
    (drawing,) = ET.fromstring(markup)
    circle, text = drawing
    assert circle.get("class") == 'q-x" onload="alert(1)' and circle.get("onload") is None
    assert text.text == hostile


@pytest.mark.parametrize(
    ("prefix", "drawings", "pieces"),
    [
        ("q-t-", {'x" onload="y': ""}, {}),  # an id that would need escaping
        ("q t-", {"x": ""}, {}),
        ("", {"1x": ""}, {}),
        ("q-t-", {"x": ""}, {"stone": {"black": "y"}}),  # a piece drawn by nothing declared
    ],
)
def test_symbols_refuse_ids_that_are_not_plain_and_pieces_drawn_by_nothing(prefix: str, drawings: dict, pieces: dict) -> None:
    with pytest.raises(ValueError):
        sym.Symbols(prefix, drawings, pieces)
    with pytest.raises(ValueError):
        sym.turned('x" onload="y')


def test_a_side_of_its_own_comes_before_any_side() -> None:
    symbols = sym.Symbols("q-t-", {"a": "", "b": ""}, {"k": {"red": "a", "*": "b"}})
    assert symbols.id_of("k", "red") == "q-t-a"
    assert symbols.id_of("k", "blue") == symbols.id_of("k", "") == "q-t-b"
    assert symbols.id_of("other", "red") is None


def test_a_grid_of_intersections_can_draw_other_symbols() -> None:
    """車 on the points of a grid (as xiangqi places them): the same board with another set of symbols."""
    from generator.boards.grid import GridBoard

    stones, pieces = GridBoard(5, 5), GridBoard(5, 5, symbols=TinyBoard().symbols)
    assert stones.static_markup != pieces.static_markup  # each set keys its own drawing
    assert stones.static_markup.split("</defs>")[1] == pieces.static_markup.split("</defs>")[1]  # the same grid
    shown = pieces_shown(pieces.svg(Position(pieces={"r": Piece("chariot", "red", "C3", 0)}), label="x"))
    assert [(s.symbol, s.texts, s.at) for s in shown] == [(PREFIX + "chariot-red", ("車",), pieces.cells["C3"])]

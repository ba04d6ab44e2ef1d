"""The lettered-grid board: geometry, star points, labels, pieces, escaping."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from svg_pieces import pieces_shown, symbols_of

from generator import games
from generator.boards.grid import GridBoard, board_for, star_points
from generator.model import Ply
from generator.scene import Piece, Position, add, mark, position_after

NS = {"svg": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def find_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [el for el in root.iter(SVG + tag) if cls in classes(el)]


def layer(root: ET.Element, cls: str) -> ET.Element:
    (g,) = find_class(root, "g", cls)
    return g


@pytest.fixture
def c5() -> GridBoard:
    return board_for(games.get("C5"))


@pytest.fixture
def c6() -> GridBoard:
    return board_for(games.get("C6"))


def test_cells_cover_the_board_with_a1_bottom_left(c5: GridBoard, c6: GridBoard) -> None:
    assert len(c5.cells) == 225
    assert len(c6.cells) == 361
    assert len(set(c6.cells.values())) == 361  # no two cells share a point
    xs = [x for x, _ in c5.cells.values()]
    ys = [y for _, y in c5.cells.values()]
    # A1 is the bottom-left intersection: smallest x, largest y (SVG y grows downward).
    assert c5.cells["A1"] == (min(xs), max(ys))
    assert c5.cells["O15"] == (max(xs), min(ys))
    assert c5.cells["H8"] == ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    # Columns include I, as the standards write them.
    assert "I9" in c5.cells and "P1" not in c5.cells
    assert "S19" in c6.cells and "T1" not in c6.cells


def test_svg_is_well_formed_and_labelled(c5: GridBoard) -> None:
    root = parse(c5.svg(None, label="C5 board"))
    assert root.tag == SVG + "svg"
    assert root.get("role") == "img"
    assert root.get("aria-label") == "C5 board"
    assert root.find("svg:title", NS).text == "C5 board"
    x0, y0, w, h = (float(v) for v in root.get("viewBox").split())
    assert (x0, y0) == (0, 0) and w > 0 and h > 0
    # Every cell lies inside the drawing.
    assert all(0 < x < w and 0 < y < h for x, y in c5.cells.values())


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("C5", {"D4", "L4", "H8", "D12", "L12"}),
        ("C6", {"D4", "J4", "P4", "D10", "J10", "P10", "D16", "J16", "P16"}),
        ("GO", {"D4", "J4", "P4", "D10", "J10", "P10", "D16", "J16", "P16"}),
        ("GO13", {"D4", "J4", "G7", "D10", "J10"}),
        ("GO9", {"C3", "G3", "E5", "C7", "G7"}),
        ("PG", {"C3", "G3", "E5", "C7", "G7"}),
    ],
)
def test_star_points_are_drawn_where_the_standard_puts_them(code: str, expected: set[str]) -> None:
    board = board_for(games.get(code))
    root = parse(board.svg(None, label=code))
    drawn = {(float(c.get("cx")), float(c.get("cy"))) for c in find_class(root, "circle", "q-star")}
    assert drawn == {board.cells[cell] for cell in expected}


def test_star_points_of_go_boards() -> None:
    assert set(star_points(9, 9)) == {"C3", "G3", "E5", "C7", "G7"}
    # GO13 letters its columns A-M with I included (the standard), so the
    # fourth line from the right is J; boards that skip I would call it K.
    assert set(star_points(13, 13)) == {"D4", "J4", "G7", "D10", "J10"}
    assert len(star_points(19, 19)) == 9
    assert star_points(6, 6) == []


def test_19_line_go_labels_rows_with_letters_as_its_standard_writes_them() -> None:
    board = board_for(games.get("GO"))
    root = parse(board.svg(None, label="GO"))
    rows = find_class(root, "text", "q-row")
    assert sorted(t.text for t in rows) == sorted("ABCDEFGHIJKLMNOPQRS" * 2)
    # Row letter A is row 1, at the bottom; S is row 19 at the top.
    y_of = {t.text: float(t.get("y")) for t in rows}
    assert y_of["A"] > y_of["J"] > y_of["S"]
    assert abs(y_of["I"] - board.cells["A9"][1]) < 10
    # GO13 and GO9 keep numbers.
    nine = parse(board_for(games.get("GO9")).svg(None, label="GO9"))
    assert sorted(t.text for t in find_class(nine, "text", "q-row")) == sorted([str(n) for n in range(1, 10)] * 2)


def test_coordinate_labels_on_all_four_sides(c5: GridBoard) -> None:
    root = parse(c5.svg(None, label="x"))
    letters = find_class(root, "text", "q-col")
    numbers = find_class(root, "text", "q-row")
    assert sorted(t.text for t in letters) == sorted("ABCDEFGHIJKLMNO" * 2)
    assert sorted(t.text for t in numbers) == sorted([str(n) for n in range(1, 16)] * 2)

    top = min(y for _, y in c5.cells.values())
    bottom = max(y for _, y in c5.cells.values())
    left = min(x for x, _ in c5.cells.values())
    right = max(x for x, _ in c5.cells.values())
    for t in letters:
        x, y = float(t.get("x")), float(t.get("y"))
        assert x == c5.cells[f"{t.text}1"][0]  # centred on its column
        assert y > bottom or y < top  # below or above the grid
    assert {float(t.get("y")) > bottom for t in letters} == {True, False}
    for t in numbers:
        x, y = float(t.get("x")), float(t.get("y"))
        assert x < left or x > right  # left or right of the grid
        assert abs(y - c5.cells[f"A{t.text}"][1]) < 10  # on its row
    # Row 1 at the bottom: its label is lower (larger y) than row 15's.
    y_of = {t.text: float(t.get("y")) for t in numbers}
    assert y_of["1"] > y_of["8"] > y_of["15"]


def test_pieces_and_marks_of_a_position(c5: GridBoard) -> None:
    plies = [
        Ply(1, "first", "black", "B(H,8)", [add("s1", "stone", "black", "H8"), mark("H8", "last")]),
        Ply(2, "second", "white", "W(I,9)", [add("s2", "stone", "white", "I9"), mark("I9", "last")]),
    ]
    root = parse(c5.svg(position_after([], plies), label="x"))
    # Each stone is a <use> of a disc declared once in the board's <defs>.
    by_class = {shown.classes: shown.at for shown in pieces_shown(root)}
    assert by_class == {
        frozenset({"q-stone", "q-black"}): c5.cells["H8"],
        frozenset({"q-stone", "q-white"}): c5.cells["I9"],
    }
    # Only the current ply's mark is shown: the last move.
    (last,) = find_class(layer(root, "q-marks"), "circle", "q-mark")
    assert "q-mark-last" in classes(last)
    assert (float(last.get("cx")), float(last.get("cy"))) == c5.cells["I9"]


def test_empty_position_draws_empty_layers(c5: GridBoard) -> None:
    root = parse(c5.svg(None, label="x"))
    assert list(layer(root, "q-pieces")) == []
    assert list(layer(root, "q-marks")) == []


def test_move_numbers_toggle(c5: GridBoard) -> None:
    position = Position(pieces={"a": Piece("stone", "black", "H8", 1), "b": Piece("stone", "white", "J10", 12)})
    plain = parse(c5.svg(position, label="x"))
    assert find_class(plain, "text", "q-num") == []
    numbered = parse(c5.svg(position, label="x", numbers=True))
    nums = {t.text: (float(t.get("x")), float(t.get("y"))) for t in find_class(numbered, "text", "q-num")}
    assert nums == {"1": c5.cells["H8"], "12": c5.cells["J10"]}


def test_user_text_is_escaped(c5: GridBoard) -> None:
    label = 'A队 vs </title><script>alert(1)</script> & "B"'
    position = Position(pieces={"x": Piece("stone", '"><script>', "H8", 1)})
    markup = c5.svg(position, label=label, numbers=True)
    assert "<script" not in markup
    root = parse(markup)
    assert root.get("aria-label") == label
    assert root.find("svg:title", NS).text == label


def test_pieces_off_the_board_are_skipped(c5: GridBoard) -> None:
    position = Position(pieces={"x": Piece("stone", "black", "Z99", 1)}, marks=[("Z99", "last")])
    root = parse(c5.svg(position, label="x"))
    assert list(layer(root, "q-pieces")) == [] and list(layer(root, "q-marks")) == []


def test_board_is_drawn_once_per_game_type(c5: GridBoard, monkeypatch: pytest.MonkeyPatch) -> None:
    assert board_for(games.get("C5")) is c5
    assert board_for(games.get("C6")) is not c5
    # svg() reuses the cached drawing rather than drawing the grid again.
    c5.svg(None, label="x")
    import svgwrite

    monkeypatch.setattr(svgwrite, "Drawing", None)
    assert c5.svg(None, label="x").count('class="q-star"') == 5


def test_a_remembered_drawing_is_used_without_svgwrite(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build keeps static drawings in its state so a quick rebuild never imports svgwrite."""
    from generator import boards

    board = board_for(games.get("GO9"))
    drawn = board.static_markup
    assert boards.drawings()[repr(board)] == drawn
    monkeypatch.setattr(boards, "_DRAWINGS", {})
    boards.remember({repr(board): drawn})
    monkeypatch.setattr(type(board), "_draw_static", lambda self: pytest.fail("drawn again"))
    assert board.static_markup == drawn and drawn in board.svg(None, label="x")


def test_scene_matches_the_drawing(c6: GridBoard) -> None:
    scene = json.loads(json.dumps(c6.scene()))
    assert {cell: tuple(xy) for cell, xy in scene["cells"].items()} == c6.cells
    assert scene["radius"] > 0
    # The viewer places the same symbols the final position uses: declared in the drawing's <defs>.
    declared = symbols_of(parse(c6.svg(None, label="x")))
    assert set(scene["symbols"]) == {"stone"}
    for colour in ("black", "white"):
        (circle,) = declared[scene["symbols"]["stone"][colour]]
        assert classes(circle) == {"q-stone", f"q-{colour}"}
    assert scene["marks"]["last"] < scene["radius"] < scene["marks"]["win"]

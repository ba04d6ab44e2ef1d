"""The viewer's JSON (plies by orjson where it is installed, the scene by hand) is the text the standard encoder writes."""

from __future__ import annotations

import json

import pytest

from generator import games
from generator.model import Ply
from generator.render import viewer
from generator.render.viewer import _plies_json, _ply_data, _scene_json
from generator.scene import add, counter, mark, note, path


def encoded(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def stone(n: int, label: str, colour: str = "black", cell: str = "J10", **kw: object) -> Ply:
    return Ply(n, "first", colour, label, [add(f"s{n}", "stone", colour, cell), mark(cell, "last")], **kw)  # type: ignore[arg-type]


ODD_PLIES = [
    stone(1, "B(J,10)"),
    stone(2, "B(J,10)", mark=-2),
    stone(3, "黑(J,10)", mark=0),
    stone(4, 'B"(J,10)'),
    stone(5, "B\\(J,10)"),
    stone(6, "B(J,10)\n"),
    stone(7, "B(J,10)\u2028"),
    stone(8, "B(J,10)", colour='bl"ack'),
    stone(9, "B(J,10)", cell="J\t10"),
    stone(10, "B(J,10)", mark=True),
    stone(11, "B(J,10)", visible_to=("first",)),
    stone(12, "B(J,10)", hidden=[(("first",), [mark("J10", "x")])]),
    Ply(13, "first", "black", "B(J,10)", []),
    Ply(14, "first", "black", "B(J,10)", [counter("captures.first", 2)]),
    Ply(15, "first", "black", "B(J,10)", [path(["J10", "J11"], "capture"), note("</script>")]),
    Ply(16, "first", "black", "B(J,10)", [note("{side} may not play at {cell}", side="first", cell="J10</script>")]),
    Ply(17, "first", "black", "B(J,10)", [["mark"], []]),
    Ply(18, "first", "black", "B(J,10)", [("mark", "J10", "last")]),
    # What orjson refuses and the standard encoder writes: a lone surrogate (a damaged
    # file's text), an integer over 64 bits. And a float, which both write as Python does.
    stone(19, "B(J,10)\udcff"),
    Ply(20, "first", "black", "B(J,10)", [counter("captures.first", 2**70)]),
    Ply(21, "first", "black", "B(J,10)", [counter("captures.first", 2.5)]),
]


@pytest.fixture(params=["orjson", "standard"], autouse=True)
def encoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test twice: with orjson, and as on a machine without it (the standard encoder alone)."""
    if request.param == "standard":
        monkeypatch.setattr(viewer, "_orjson", None)
    elif viewer._orjson is None:
        pytest.skip("orjson is not installed")
    return str(request.param)


@pytest.mark.parametrize("ply", ODD_PLIES, ids=lambda p: str(p.number))
def test_each_ply_is_written_as_the_encoder_writes_it(ply: Ply) -> None:
    assert _plies_json([ply]) == encoded([_ply_data(ply)])


def test_a_page_of_plies_is_written_as_the_encoder_writes_it() -> None:
    assert _plies_json(ODD_PLIES) == encoded([_ply_data(ply) for ply in ODD_PLIES])
    assert _plies_json([]) == "[]"


PLAIN_PLIES = [stone(n, f"B(J,{n})", mark=[None, -2, 0, 2][n % 4], colour=["black", "white"][n % 2]) for n in range(1, 40)]


def test_a_plain_page_is_written_as_the_encoder_writes_it() -> None:
    assert _plies_json(PLAIN_PLIES) == encoded([_ply_data(ply) for ply in PLAIN_PLIES])


@pytest.mark.parametrize("odd", ODD_PLIES, ids=lambda p: str(p.number))
def test_one_odd_ply_among_plain_ones_is_written_as_the_encoder_writes_it(odd: Ply) -> None:
    # orjson takes all the plies at once: a single ply it refuses anywhere must send them all to the standard encoder.
    for at in (0, 17, len(PLAIN_PLIES)):
        plies = PLAIN_PLIES[:at] + [odd] + PLAIN_PLIES[at:]
        assert _plies_json(plies) == encoded([_ply_data(ply) for ply in plies])


@pytest.mark.parametrize("code", ["C5", "C6", "GO9", "HEX", "SU"])
def test_the_scene_keeps_only_the_cells_used(code: str) -> None:
    game = games.get(code)
    assert game is not None
    board = game.module("board").board_for(game)
    scene = board.scene()
    some = sorted(scene["cells"])[::7] + ["not a cell"]
    for used in (set(some), set(), set(scene["cells"])):
        expected = dict(scene, cells={cell: scene["cells"][cell] for cell in sorted(used) if cell in scene["cells"]})
        assert _scene_json(board, used) == encoded(expected)
        assert board.scene() == scene  # the board's own scene is left as it was

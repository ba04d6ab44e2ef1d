"""The Amazons board in the step-through viewer, in a real browser (as tests/test_browser.py).

Three turns of the standard's example: stepping to a turn moves the queen,
burns its arrow's square, and draws that turn's flight (a dashed red line
with an arrowhead) from where the queen landed; stepping back takes the
burnt square off again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from svg_pieces import pieces_shown
from test_browser import USES, _harness, browser, colour_at, page  # noqa: F401  (fixtures)

from generator import formats, games
from generator.boards.amazons import board_for
from generator.model import Text
from generator.render.viewer import STRINGS, viewer_context
from generator.rules import amazons
from generator.scene import position_after

pytestmark = pytest.mark.browser

AM = games.GAMES["AM"]
RECORD = "#[AM][甲][乙][未决胜][2025.3.1 北京][杯];\n1 d1d8(b6) g10g3(i5)\n2 j4f4(c7)\n"


def test_turns_step_forward_and_back_with_their_flight(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    record = formats.read(Text("AM-甲 vs 乙.txt", RECORD, "utf-8"), "AM")
    replay = amazons.replay(record, AM)
    assert not replay.diagnostics and len(replay.plies) == 3
    board = board_for(AM)
    viewer = viewer_context(AM, replay, strings=STRINGS["en"], label="amazons", board=board)

    def expected(n: int) -> list[tuple[str, float, float]]:
        shown = pieces_shown(board.svg(position_after(replay.setup, replay.plies, n), label="x"))
        return sorted((f"#{s.symbol}", *s.at) for s in shown)

    def uses() -> list[tuple[str, float, float]]:
        return sorted(tuple(u) for u in page.evaluate(USES))

    page.goto(_harness(tmp_path, [viewer], "am.html").as_uri())
    assert uses() == expected(3) and len(uses()) == 11  # eight queens, three burnt squares
    page.focus(".q-viewer")
    page.keyboard.press("Home")
    assert uses() == expected(0) and len(uses()) == 8
    flights = page.locator(".q-viewer svg.q-board .q-marks path.q-path-arrow")
    assert flights.count() == 0
    page.keyboard.press("ArrowRight")
    assert ("#q-am-arrow", *board.cells["b6"]) in uses() and ("#q-am-queen-white", *board.cells["d8"]) in uses()
    assert flights.count() == 1 and flights.first.get_attribute("d") == board.path_data(["d8", "b6"])
    # The flight is drawn in red, half-way between the landing square and the arrow (c7).
    red = colour_at(page, board.cells["c7"], 0, 0)
    assert red[0] > 150 and red[1] < 90 and red[2] < 90, red
    page.keyboard.press("ArrowRight")
    assert flights.first.get_attribute("d") == board.path_data(["g3", "i5"])
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert uses() == expected(0) and flights.count() == 0

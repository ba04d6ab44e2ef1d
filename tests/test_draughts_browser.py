"""The draughts board in the step-through viewer, in a real browser (as tests/test_browser.py).

A Russian capture in which a man is crowned on the far row and goes on as a
king: stepping to it draws the capture's path, takes the two pieces off,
and shows the crowned king; stepping back restores the men.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from svg_pieces import pieces_shown
from test_browser import USES, _harness, browser, colour_at, page  # noqa: F401  (fixtures)
from test_draughts_rules import CROWN_POSITION, DR8, from_position

from generator.boards.checkered import board_for
from generator.render.viewer import STRINGS, viewer_context
from generator.scene import position_after

pytestmark = pytest.mark.browser


def test_a_crowning_capture_steps_forward_and_back(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    replay = from_position(DR8, CROWN_POSITION, "11x02x13 04-08")
    assert not replay.diagnostics and len(replay.plies) == 2
    board = board_for(DR8)
    viewer = viewer_context(DR8, replay, strings=STRINGS["en"], label="draughts", board=board)

    def expected(n: int) -> list[tuple[str, float, float]]:
        shown = pieces_shown(board.svg(position_after(replay.setup, replay.plies, n), label="x"))
        return sorted((f"#{s.symbol}", *s.at) for s in shown)

    def uses() -> list[tuple[str, float, float]]:
        return sorted(tuple(u) for u in page.evaluate(USES))

    page.goto(_harness(tmp_path, [viewer], "dr.html").as_uri())
    assert uses() == expected(2)
    page.focus(".q-viewer")
    page.keyboard.press("Home")
    assert uses() == expected(0) and len(uses()) == 5
    paths = page.locator(".q-viewer svg.q-board .q-marks path.q-path")
    assert paths.count() == 0
    page.keyboard.press("ArrowRight")
    assert uses() == expected(1) and len(uses()) == 3
    assert ("#q-dr-king-white", *board.cells["13"]) in uses()
    assert paths.count() == 1 and paths.first.get_attribute("d") == board.path_data(["11", "2", "13"])
    assert "crowned" in page.locator(".q-viewer .q-notes").inner_text()
    crown = colour_at(page, board.cells["13"], 9, 3)  # beside the mark of the last move
    assert crown[0] > 200 and crown[2] < 90, crown  # the gold crown
    page.keyboard.press("ArrowRight")
    assert paths.count() == 0 and uses() == expected(2)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert uses() == expected(0)
    assert ("#q-dr-man-white", *board.cells["11"]) in uses()

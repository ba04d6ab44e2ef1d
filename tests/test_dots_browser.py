"""The dots and boxes board in the step-through viewer, in a real browser (as tests/test_browser.py).

A box closed by the fourth edge: stepping to it fills the box in the mover's
colour, counts it beside the board and says that the same player moves
again; stepping back empties it and counts it back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from svg_pieces import pieces_shown
from test_browser import USES, _harness, browser, page  # noqa: F401  (fixtures)
from test_dots_rules import BOX_A1, GAME, replay

from generator.boards.dots import board_for
from generator.render.viewer import STRINGS, viewer_context
from generator.scene import position_after

pytestmark = pytest.mark.browser


def test_a_box_fills_and_counts_as_the_viewer_steps(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    played = replay([*BOX_A1, "b(c1,h)"])
    assert not played.diagnostics and len(played.plies) == 5
    board = board_for(GAME)
    viewer = viewer_context(GAME, played, strings=STRINGS["en"], label="dots", board=board)

    def expected(n: int) -> list[tuple[str, float, float]]:
        shown = pieces_shown(board.svg(position_after(played.setup, played.plies, n), label="x"))
        return sorted((f"#{s.symbol}", *s.at) for s in shown)

    def uses() -> list[tuple[str, float, float]]:
        return sorted(tuple(u) for u in page.evaluate(USES))

    def counted() -> dict[str, str]:
        cells = page.locator(".q-viewer .q-counters [data-count]")
        return {cells.nth(i).get_attribute("data-count"): cells.nth(i).inner_text() for i in range(cells.count())}

    page.goto(_harness(tmp_path, [viewer], "db.html").as_uri())
    assert uses() == expected(5)
    page.focus(".q-viewer")
    page.keyboard.press("Home")
    assert uses() == [] and counted() == {"boxes.first": "0", "boxes.second": "0"}
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert uses() == expected(3) and len(uses()) == 3
    page.keyboard.press("ArrowRight")
    assert uses() == expected(4) and ("#q-db-box-blue", *board.cells["a1"]) in uses()
    assert counted() == {"boxes.first": "0", "boxes.second": "1"}
    assert "Blue completes a box and moves again" in page.locator(".q-viewer .q-notes").inner_text()
    page.keyboard.press("ArrowLeft")
    assert ("#q-db-box-blue", *board.cells["a1"]) not in uses() and counted()["boxes.second"] == "0"

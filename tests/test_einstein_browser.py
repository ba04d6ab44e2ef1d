"""The EinStein board in the step-through viewer, in a real browser (as tests/test_browser.py).

Stepping through the standard's example shows at every move the die thrown
beside the board and the pieces where the Python side puts them; the move
in which red's 4 takes red's own 6 takes that piece off, and stepping back
puts it back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from svg_pieces import pieces_shown
from test_browser import USES, _harness, browser, page  # noqa: F401  (fixtures)
from test_einstein_format import EXAMPLE

from generator import formats, games
from generator.boards.einstein import board_for
from generator.model import Text
from generator.render.viewer import STRINGS, viewer_context
from generator.rules import einstein as wtn
from generator.scene import position_after

pytestmark = pytest.mark.browser


def test_the_die_is_beside_the_board_at_every_move(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    game = games.GAMES["WTN"]
    (record,) = formats.read_games(Text("x.txt", EXAMPLE, "utf-8"), "WTN")
    replay = wtn.replay(record, game)
    board = board_for(game)
    viewer = viewer_context(game, replay, strings=STRINGS["en"], label="einstein", board=board)

    def expected(n: int) -> list[tuple[str, float, float]]:
        shown = pieces_shown(board.svg(position_after(replay.setup, replay.plies, n), label="x"))
        return sorted((f"#{s.symbol}", *s.at) for s in shown)

    def uses() -> list[tuple[str, float, float]]:
        return sorted(tuple(u) for u in page.evaluate(USES))

    def die() -> str:
        return page.locator('.q-viewer .q-counters dd[data-count="die"]').inner_text()

    page.goto(_harness(tmp_path, [viewer], "wtn.html").as_uri())
    assert page.locator(".q-viewer .q-counters dt").inner_text() == "die"
    assert uses() == expected(4) and die() == "4"
    page.focus(".q-viewer")
    page.keyboard.press("Home")
    assert uses() == expected(0) and len(uses()) == 12
    for n, thrown in enumerate((5, 1, 4, 4), 1):
        page.keyboard.press("ArrowRight")
        assert uses() == expected(n) and die() == str(thrown), n
        assert f"die {thrown}" in page.locator(".q-viewer .q-notes").inner_text()
    assert len(uses()) == 11 and ("#q-wtn-n6-red", *board.cells["A3"]) not in uses()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert uses() == expected(2) and ("#q-wtn-n6-red", *board.cells["A3"]) in uses() and die() == "1"

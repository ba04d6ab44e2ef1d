"""The army chess board in the step-through viewer, in a real browser (as tests/test_browser.py).

The standard's example, seen three ways: the referee sees every piece; each
player sees its own pieces and the opponent's face down, at the start and
after every move, exactly as the Python scene says; the move list is the
same in every view, each move with the outcome the players heard.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from svg_pieces import pieces_shown
from test_armychess_format import EXAMPLE
from test_browser import USES, _harness, browser, page  # noqa: F401  (fixtures)

from generator import formats, games
from generator.boards.armychess import board_for
from generator.model import Text
from generator.render.viewer import STRINGS, viewer_context
from generator.rules import armychess
from generator.scene import position_after

pytestmark = pytest.mark.browser

AC2 = games.GAMES["AC2"]


def test_each_view_shows_what_its_player_knows(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    record = formats.read(Text("AC2-甲 vs 乙.txt", EXAMPLE, "utf-8"), "AC2")
    replay = armychess.replay(record, AC2)
    assert not replay.diagnostics and len(replay.plies) == 4
    board = board_for(AC2)
    viewer = viewer_context(AC2, replay, strings=STRINGS["en"], label="army chess", board=board)

    def expected(n: int, view: str) -> list[tuple[str, float, float]]:
        position = position_after(replay.setup, replay.plies, n, view=view, setup_hidden=replay.setup_hidden)
        return sorted((f"#{s.symbol}", *s.at) for s in pieces_shown(board.svg(position, label="x")))

    def uses() -> list[tuple[str, float, float]]:
        return sorted(tuple(u) for u in page.evaluate(USES))

    page.goto(_harness(tmp_path, [viewer], "ac2.html").as_uri())
    assert page.locator(".q-view option").count() == 3
    for view in ("referee", "first", "second"):
        page.select_option(".q-view", view)
        page.focus(".q-viewer")
        page.keyboard.press("Home")
        for n in range(5):
            shown = uses()
            assert shown == expected(n, view), (view, n)
            backs = [u for u in shown if u[0].startswith("#q-ac-back-")]
            # Each of the four moves wins a battle: black loses a piece on moves 1 and 3, red on 2 and 4.
            hidden = {"referee": 0, "first": 25 - (n + 1) // 2, "second": 25 - n // 2}[view]
            assert len(backs) == hidden, (view, n)
            page.keyboard.press("ArrowRight")
        labels = page.locator(".q-viewer .q-moves li").all_inner_texts()
        assert any("G0F0×" in label for label in labels), labels

"""The hold'em table in the step-through viewer, in a real browser (as tests/test_browser.py).

The standard's example hand: before the deal only the blinds are on the
table; the referee's view shows both hands from the deal on, each seat's
view its own cards and the other's backs until the showdown, and the board
comes card by card. The browser must show, at every step and in every view,
exactly the position Python computes for it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from svg_pieces import pieces_shown
from test_browser import USES, _harness, browser, page  # noqa: F401  (fixtures)

from generator import games
from generator.boards.holdem import board_for
from generator.model import Source
from generator.pipeline import process_games
from generator.render.viewer import STRINGS, viewer_context
from generator.scene import position_after

pytestmark = pytest.mark.browser
LINE = "STATE:7:r223c/cr646r1170c/cc/cr2340r7898c:6cQh|Ah6s/7h9d5h/8d/As:0|0:红队|蓝队\n"


def test_each_view_shows_what_python_computes_at_every_step(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    data = LINE.encode("utf-8")
    (game,) = process_games(Source("t/THP-x.txt", data, hashlib.sha256(data).hexdigest()), encoding=None, options={})
    thp = games.GAMES["THP"]
    played = game.replay
    board = board_for(thp)
    viewer = viewer_context(thp, played, strings=STRINGS["en"], label="hold'em", board=board)
    count = len(played.plies)

    def expected(n: int, view: str) -> list[tuple[str, float, float]]:
        shown = pieces_shown(board.svg(position_after(played.setup, played.plies, n, view), label="x"))
        return sorted((f"#{s.symbol}", *s.at) for s in shown)

    def uses() -> list[tuple[str, float, float]]:
        return sorted(tuple(u) for u in page.evaluate(USES))

    page.goto(_harness(tmp_path, [viewer], "thp.html").as_uri())
    assert uses() == expected(count, "referee")
    for view in ("first", "second", "referee"):
        page.select_option(".q-viewer .q-view", view)
        page.focus(".q-viewer")
        page.keyboard.press("Home")
        assert uses() == expected(0, view)
        for n in range(1, count + 1):
            page.keyboard.press("ArrowRight")
            assert uses() == expected(n, view), (view, n)
    backs = [u for u in expected(1, "first") if u[0] == "#q-hold-back"]
    assert len(backs) == 2  # the big blind sees its own cards, the small blind's backs
    assert not [u for u in expected(count, "first") if u[0] == "#q-hold-back"]  # shown down

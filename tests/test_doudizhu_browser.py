"""The Dou Dizhu table in the step-through viewer, in a real browser (as tests/test_browser.py).

A deal the landlord A plays out as a spring: in the referee's view every
hand lies face up; in B's view A's and C's hands are face down and B's
own face up; stepping through, each play is laid face up in front of its
seat in every view, and the view drawn by the viewer is the one
generator/scene.py computes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from svg_pieces import pieces_shown
from test_browser import USES, _harness, browser, page  # noqa: F401  (fixtures)
from test_doudizhu_rules import SPRING, _spring_lines, bottom_line, deal, record

from generator import formats, games
from generator.boards.table import board_for
from generator.model import Text
from generator.render.viewer import STRINGS, viewer_context
from generator.rules import doudizhu
from generator.scene import position_after

pytestmark = pytest.mark.browser

P2T1 = games.GAMES["P2T1"]


def test_each_view_shows_its_own_hand_and_the_plays_face_up(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    hands, bottom = deal(landlord="A", A=SPRING)
    text = record(hands, ["BA[1]", "BB[0]", "BC[0]", bottom_line("A", bottom), *_spring_lines()], over="A")
    [rec] = formats.read_games(Text("P2T1-甲 vs 乙 vs 丙.txt", text, "utf-8"), "P2T1")
    replay = doudizhu.replay(rec, P2T1)
    assert not replay.diagnostics and replay.decision is not None
    board = board_for(P2T1)
    names = tuple(side.name_en for side in P2T1.seats)
    viewer = viewer_context(P2T1, replay, strings=STRINGS["en"], label="doudizhu", board=board, side_names=names)
    back = "#q-table-back"

    def expected(n: int, view: str) -> list[tuple[str, float, float]]:
        shown = pieces_shown(board.svg(position_after(replay.setup, replay.plies, n, view=view), label="x"))
        return sorted((f"#{s.symbol}", *s.at) for s in shown)

    def uses() -> list[tuple[str, float, float]]:
        return sorted(tuple(u) for u in page.evaluate(USES))

    page.goto(_harness(tmp_path, [viewer], "ddz.html").as_uri())
    page.focus(".q-viewer")
    page.keyboard.press("Home")
    for _ in range(7):  # the deals, the bids, the bottom cards
        page.keyboard.press("ArrowRight")
    assert uses() == expected(7, "referee") and not [u for u in uses() if u[0] == back]
    page.select_option(".q-view", "second")
    shown = uses()
    assert shown == expected(7, "second")
    assert sum(u[0] == back for u in shown) == 20 + 17  # A's twenty and C's seventeen, face down
    page.keyboard.press("ArrowRight")  # A's straight: twelve cards laid face up in front of A
    shown = uses()
    assert shown == expected(8, "second") and sum(u[0] == back for u in shown) == 8 + 17
    page.keyboard.press("End")
    assert uses() == expected(len(replay.plies), "second")

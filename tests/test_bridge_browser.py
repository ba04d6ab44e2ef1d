"""The bridge table in the step-through viewer, in a real browser (as tests/test_browser.py).

The championship standard's example board: at the start the four hands are
dealt; stepping through the auction fills the four-column table from the
dealer; the opening lead leaves East's hand for the table; the fourth card
of a trick counts it; a seat's view shows its own hand face up, the others
face down, and dummy face up once the lead is made.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_bridge_rules import CCGC, read
from test_browser import USES, _harness, browser, page  # noqa: F401  (fixtures)

from generator import games
from generator.boards.bridge import board_for
from generator.render.viewer import STRINGS, viewer_context

pytestmark = pytest.mark.browser

BR = games.GAMES["BR"]


def test_the_board_is_dealt_bid_and_played_in_the_viewer(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    (done,) = read(CCGC)
    assert done.replay is not None
    board = board_for(BR)
    names = tuple(side.name_en for side in BR.seats)
    viewer = viewer_context(BR, done.replay, strings=STRINGS["en"], label="board 1", board=board, side_names=names)
    page.goto(_harness(tmp_path, [viewer], "br.html").as_uri())

    def placed() -> dict[str, tuple[float, float]]:
        return {href: (x, y) for href, x, y in page.evaluate(USES)}

    def at(cell: str) -> list[str]:
        x, y = board.cells[cell]
        return [href for href, (px, py) in placed().items() if (px, py) == (x, y)]

    page.focus(".q-viewer")
    page.keyboard.press("Home")
    assert sum(1 for href in placed() if href.startswith("#q-bridge-h-")) == 52
    assert at("call-head-0") == ["#q-bridge-label-E"]  # the auction's first column is the dealer's
    for _ in range(11):  # the auction
        page.keyboard.press("ArrowRight")
    assert at("call-0-2") == ["#q-bridge-call-1H"] and at("call-2-2") == ["#q-bridge-call-P"]
    page.keyboard.press("ArrowRight")  # East leads the seven of hearts
    assert at("trick-E") == ["#q-bridge-c-H7"] and "#q-bridge-h-H7" not in placed()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    counts = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('.q-counters div')]"
        ".map(d => [d.querySelector('dt').textContent, d.querySelector('dd').textContent]))"
    )
    assert counts == {"NS tricks": "1", "EW tricks": "0"}  # North's ace took the first trick
    # East's view: own hand face up, North and West face down, dummy (South) face up after the lead.
    page.select_option("select.q-view", "second")
    shown = placed()
    assert "#q-bridge-h-SK" in shown and "#q-bridge-h-HK" not in shown and "#q-bridge-h-SA" in shown
    assert sum(1 for href in page.evaluate(USES) if href[0] == "#q-bridge-back") == 13 - 1 + 13 - 1
    page.keyboard.press("Home")
    assert "#q-bridge-h-SA" not in placed()  # before the lead dummy is not seen either

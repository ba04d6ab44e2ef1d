"""The step-through viewer in a real browser (Debian's chromium through Playwright).

The page under test is a game page of a real build (``python -m generator
build``) of a small content folder written here. Should that build fail, the
tests fall back to a harness page rendered from ``templates/_viewer.html``,
so the viewer can still be checked on its own. A second harness page holds
two viewers (independence) and a game with hidden plies (view selector).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import unavailable

from generator import games
from generator.model import Ply, Replay
from generator.render.viewer import STRINGS, viewer_context
from generator.scene import add, mark, note

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STONES = ".q-viewer .q-pieces use"  # each stone a <use> of a symbol in the board's <defs>

# Black makes five on row 8; nine plies. The second record is a short game
# that ends by resignation, so the build has more than one page.
WIN = "B(H,8)MARK[1];W(H,9);B(I,8);W(I,9)MARK[-2];B(J,8);W(J,9);B(K,8);W(K,9);B(L,8)MARK[2]"
RECORDS = {
    "r1.txt": f"{{[C5][A队 B][B队 W][先手胜][2025.01.02 10:00 北京][测试赛];{WIN}}}",
    "r2.txt": "{[C5][B队 B][A队 W][后手胜][2025.01.02 11:00 北京][测试赛];B(H,8);W(I,9);B(H,9);W(I,8)}",
}


def _unavailable(why: str) -> None:
    unavailable(f"{why}: install Debian's chromium: apt-get install chromium (and pip install playwright)")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is missing")
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(executable).exists():
        _unavailable("chromium is missing")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _build_site(root: Path) -> Path | None:
    """The game page of record r1 from a real build, or None if the build fails."""
    content = root / "content" / "2025测试赛"
    content.mkdir(parents=True)
    for name, text in RECORDS.items():
        (content / name).write_text(text, encoding="utf-8")
    out = root / "site"
    # Run from the temporary folder so the build cache lands there, not in the
    # repository; PYTHONPATH finds the package without installing it.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "generator", "build", "--content", "content", "--out", "site", "--jobs", "1"],
            cwd=root,
            env=env,
            capture_output=True,
            timeout=300,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    for page in sorted(out.glob("games/**/*.html")):
        if 'data-count="9"' in page.read_text(encoding="utf-8"):
            return page
    return None


def _harness(root: Path, viewers: list[dict], name: str) -> Path:
    """A minimal page around templates/_viewer.html, like the game page's."""
    from generator.render.env import make_env

    env = make_env()  # the site's own environment, with its globals
    page = env.from_string(
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>viewer</title>'
        '<link rel="stylesheet" href="{{ root }}static/viewer.css">'
        '<script src="{{ root }}static/viewer.js" defer></script></head>'
        '<body><h1 tabindex="-1">Viewer</h1>'
        "{% for viewer in viewers %}<section>{% include '_viewer.html' %}</section>{% endfor %}"
        "<p>End of page</p></body></html>"
    )
    static = root / "static"
    static.mkdir(exist_ok=True)
    for asset in ("viewer.js", "viewer.css"):
        shutil.copy(REPO / "static" / asset, static / asset)
    path = root / name
    path.write_text(page.render(viewers=viewers, root=""), encoding="utf-8")
    return path


def _replay(cells: list[str], visible: bool = True) -> Replay:
    plies = []
    for i, cell in enumerate(cells):
        side = "first" if i % 2 == 0 else "second"
        colour = "black" if side == "first" else "white"
        ops = [add(f"s{i + 1}", "stone", colour, cell), mark(cell, "last")]
        if i == 2:
            ops.append(note("Note <b>three</b>"))
        label = f"{colour[0].upper()}({cell[0]},{cell[1:]})"
        if visible:
            plies.append(Ply(i + 1, side, colour, label, ops))
        else:  # seen by the referee and the mover only, as Phantom Go's engine writes them
            plies.append(Ply(i + 1, side, colour, label, [], visible_to=(side,), hidden=[(("referee", side), ops)]))
    return Replay([], plies, [], None)


def _viewer(cells: list[str], visible: bool = True) -> dict:
    return viewer_context(games.get("C5"), _replay(cells, visible), strings=STRINGS["en"], label="harness")


@pytest.fixture(scope="module")
def game_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    """URL of the page under test: a real game page when the build works."""
    root = tmp_path_factory.mktemp("site")
    page = _build_site(root)
    if page is None:  # fallback while the build is unavailable
        page = _harness(root, [_viewer(["H8", "H9", "I8", "I9", "J8", "J9", "K8", "K9", "L8"])], "game.html")
    return page.as_uri()


@pytest.fixture(scope="module")
def harness_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("harness")
    long_game = [f"{letter}{row}" for row in range(1, 16) for letter in "ACEG"][:60]
    viewers = [_viewer(long_game), _viewer(["D5", "E5", "E4", "D4"], visible=False)]
    return _harness(root, viewers, "two.html").as_uri()


@pytest.fixture
def page(browser):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    yield tab
    context.close()
    assert errors == []


def stones(page, viewer: int = 0) -> int:  # type: ignore[no-untyped-def]
    return page.locator(".q-viewer").nth(viewer).locator(".q-pieces use").count()


def hash_of(page) -> str:  # type: ignore[no-untyped-def]
    return page.evaluate("location.hash")


def test_final_position_on_load(page, game_page: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(game_page)
    assert page.locator(".q-viewer.q-js").count() == 1
    assert stones(page) == 9
    assert page.locator(".q-viewer .q-controls").is_visible()
    assert page.locator(".q-readout").inner_text().count("9") == 2  # "9 / 9"
    assert page.locator(".q-slider").get_attribute("max") == "9"  # the shared controls get this game's count
    assert not page.locator(".q-view-label").is_visible()  # nothing hidden in gomoku: no view selector
    assert hash_of(page) == ""


def test_keyboard_steps_and_updates_the_hash(page, game_page: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(game_page)
    page.focus(".q-viewer")
    page.keyboard.press("ArrowLeft")
    assert stones(page) == 8 and hash_of(page) == "#ply=8"
    page.keyboard.press("Home")
    assert stones(page) == 0 and hash_of(page) == "#ply=0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert stones(page) == 2 and hash_of(page) == "#ply=2"
    page.keyboard.press("End")
    assert stones(page) == 9 and hash_of(page) == "#ply=9"
    # Keys also work while a control of the viewer has the focus.
    page.focus(".q-viewer .q-prev")
    page.keyboard.press("ArrowLeft")
    assert stones(page) == 8


def test_keys_work_when_the_page_opens(page, game_page: str) -> None:  # type: ignore[no-untyped-def]
    """The only board of a page takes the arrow keys at once, with nothing focused
    (issue 23 reverses the earlier rule that keys act only on the focused board);
    keys typed into a select are the select's."""
    page.goto(game_page)
    assert page.evaluate("document.activeElement === document.body")
    page.keyboard.press("ArrowLeft")
    assert stones(page) == 8 and hash_of(page) == "#ply=8"
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert stones(page) == 1
    before = page.evaluate("window.scrollY")
    page.keyboard.press("End")
    assert stones(page) == 9 and page.evaluate("window.scrollY") == before  # the keys do not scroll the page
    page.focus(".q-viewer .q-speed")
    page.keyboard.press("ArrowUp")
    assert stones(page) == 9 and page.locator(".q-viewer .q-speed").input_value() == "2000"


def test_buttons_and_slider(page, game_page: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(game_page)
    page.click(".q-viewer .q-first")
    assert stones(page) == 0
    page.click(".q-viewer .q-next")
    assert stones(page) == 1
    page.locator(".q-viewer .q-slider").fill("4")
    assert stones(page) == 4 and hash_of(page) == "#ply=4"
    page.click(".q-viewer .q-last")
    assert stones(page) == 9
    page.click(".q-viewer .q-prev")
    assert stones(page) == 8


def test_move_list_click_jumps_and_highlights(page, game_page: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(game_page)
    page.click(".q-viewer .q-moves a[href='#ply=5']")
    assert stones(page) == 5 and hash_of(page) == "#ply=5"
    current = page.locator(".q-viewer .q-moves li.q-current")
    assert current.count() == 1 and current.get_attribute("data-ply") == "5"
    assert page.locator(".q-viewer .q-slider").input_value() == "5"


def test_deep_link_and_hashchange(page, game_page: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(game_page + "#ply=3")
    assert stones(page) == 3
    # The last-move mark comes from the ops of ply 3.
    assert page.locator(".q-viewer .q-marks .q-mark-last").count() == 1
    page.evaluate("location.hash = '#ply=6'")
    page.wait_for_function("document.querySelector('.q-viewer').dataset.ply === '6'")
    assert stones(page) == 6
    page.goto(game_page + "#ply=999")  # clamped to the last ply
    page.reload()
    assert stones(page) == 9


def test_move_numbers_on_stones(page, game_page: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(game_page + "#ply=4")
    numbers = page.locator(".q-viewer .q-pieces text.q-num")
    assert numbers.count() == 0
    page.check(".q-viewer .q-numbers")
    assert sorted(numbers.all_text_contents()) == ["1", "2", "3", "4"]
    page.uncheck(".q-viewer .q-numbers")
    assert numbers.count() == 0


def test_autoplay_advances(page, game_page: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(game_page + "#ply=0")
    page.select_option(".q-viewer .q-speed", "250")
    page.click(".q-viewer .q-play")
    page.wait_for_function("Number(document.querySelector('.q-viewer').dataset.ply) >= 2")
    page.click(".q-viewer .q-play")  # pause
    paused = stones(page)
    assert paused >= 2
    assert page.get_attribute(".q-viewer .q-play", "aria-pressed") == "false"


def test_without_javascript(browser, game_page: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(game_page)
    assert stones(page) == 9  # the final position, drawn by Python
    assert not page.locator(".q-viewer .q-controls").is_visible()
    assert page.locator(".q-viewer .q-moves li").count() == 9
    assert page.locator(".q-viewer .q-moves li").first.is_visible()
    context.close()


def test_phone_layout(browser, game_page: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(game_page)
    board = page.locator(".q-viewer svg.q-board").bounding_box()
    controls = page.locator(".q-viewer .q-nav").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= 390  # scales to the width
    assert controls["y"] >= board["y"] + board["height"]  # controls below the board
    for button in page.locator(".q-viewer .q-nav button").all():
        assert button.bounding_box()["height"] >= 40  # large enough for a finger
    page.locator(".q-viewer .q-prev").tap()
    assert stones(page) == 8
    context.close()


def test_two_viewers_are_independent(page, harness_page: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(harness_page)
    assert stones(page, 0) == 60 and stones(page, 1) == 4
    second = page.locator(".q-viewer").nth(1)
    second.focus()
    page.keyboard.press("Home")
    assert stones(page, 1) == 0 and stones(page, 0) == 60
    second.locator(".q-moves a[href='#ply=2']").click()
    assert stones(page, 1) == 2 and stones(page, 0) == 60
    assert hash_of(page) == ""  # only the first viewer owns the hash


def test_notes_belong_to_their_ply(page, harness_page: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(harness_page + "#ply=3")
    notes = page.locator(".q-viewer").first.locator(".q-notes")
    assert notes.inner_text() == "Note <b>three</b>"  # shown as text, not markup
    page.focus(".q-viewer")
    page.keyboard.press("ArrowRight")
    assert notes.inner_text() == ""


def test_stepping_scrolls_the_move_list_not_the_page(page, harness_page: str) -> None:  # type: ignore[no-untyped-def]
    page.set_viewport_size({"width": 1280, "height": 700})
    page.goto(harness_page + "#ply=0")
    page.focus(".q-viewer")
    moves = page.locator(".q-viewer").first.locator(".q-moves")
    before = page.evaluate("window.scrollY")
    assert moves.evaluate("el => el.scrollTop") == 0
    page.keyboard.press("End")
    assert moves.evaluate("el => el.scrollTop") > 0
    current = moves.locator("li.q-current")
    # The current entry is inside the list's visible box ...
    box, entry = moves.bounding_box(), current.bounding_box()
    assert box["y"] <= entry["y"] and entry["y"] + entry["height"] <= box["y"] + box["height"] + 1
    # ... and the page itself did not move.
    assert page.evaluate("window.scrollY") == before


def test_view_selector_hides_plies(page, harness_page: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(harness_page)
    second = page.locator(".q-viewer").nth(1)
    select = second.locator("select.q-view")
    assert select.is_visible() and not page.locator(".q-viewer").nth(0).locator(".q-view-label").is_visible()
    assert select.locator("option").all_inner_texts() == ["Referee", "Black's view", "White's view"]
    assert stones(page, 1) == 4
    select.select_option("first")
    assert stones(page, 1) == 2  # only the first player's own stones
    assert second.locator(".q-moves li.q-hidden").count() == 2
    select.select_option("referee")
    assert stones(page, 1) == 4


def test_surakarta_capture_path_is_drawn_on_its_ply_only(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from generator.boards.surakarta import board_for
    from generator.model import Metadata, Move, Record
    from generator.rules import surakarta

    def su_move(side: str, start: str, sign: str, end: str) -> Move:
        text = f"{side}{start}{sign}{end}"
        return Move(side, text, (start[1], int(start[0])), 1, 1, to=(end[1], int(end[0])), capture=sign == "X")

    # Ply 5 takes red's 6C from 4A over the big arc; ply 6 goes 3B, 3A, round to 1C.
    moves = [("B", "2A", "-", "3A"), ("R", "5B", "-", "4B"), ("B", "3A", "-", "4A"),
             ("R", "4B", "-", "3B"), ("B", "4A", "X", "6C"), ("R", "3B", "X", "1C")]
    record = Record("su.txt", "SU", Metadata(), [su_move(*m) for m in moves])
    game = games.get("SU")
    replay = surakarta.replay(record, game)
    assert replay.diagnostics == [] and len(replay.plies) == 6
    viewer = viewer_context(game, replay, strings=STRINGS["en"], label="surakarta")
    page.goto(_harness(tmp_path, [viewer], "su.html").as_uri() + "#ply=4")
    paths = page.locator(".q-viewer svg.q-board .q-marks path.q-path")
    assert paths.count() == 0  # a plain move: no route
    page.focus(".q-viewer")
    page.keyboard.press("ArrowRight")
    assert paths.count() == 1
    board = board_for(game)
    assert paths.first.get_attribute("d") == board.path_data(["4A", "6C"])  # as the page's Python draws it
    assert "q-path-capture" in paths.first.get_attribute("class")
    page.keyboard.press("ArrowRight")
    assert paths.first.get_attribute("d") == board.path_data(["3B", "3A", "1C"])
    assert page.locator(".q-viewer .q-pieces use[href^='#q-su-piece-']").count() == 22
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert paths.count() == 0


PHANTOM = "([PG][甲队 B][乙队 W][未决胜][2025.12.07 10:00 北京][测试赛];B[E5];W[D5];B[D5];B[C3];W[E5];W[F5])"


def test_phantom_go_views_and_counters(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A real Phantom Go page: each side's view hides the other's stones, found stones appear, counters step."""
    content = tmp_path / "content" / "2025-pg"
    content.mkdir(parents=True)
    (content / "PG-甲队 B vs 乙队 W-未决胜-2025.12.07 10.00 北京-测试赛.txt").write_text(PHANTOM, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    done = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--content", "content", "--out", "site", "--jobs", "1"],
        cwd=tmp_path, env=env, capture_output=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (game,) = (tmp_path / "site" / "games").rglob("*.html")
    page.goto(game.as_uri())
    viewer = page.locator(".q-viewer")
    attempts = viewer.locator('dd[data-count="attempts.first"]')
    assert stones(page) == 4 and attempts.inner_text() == "1"  # the referee sees every stone
    viewer.locator("select.q-view").select_option("first")
    # Black sees its two stones and the white stone its failed attempt at D5 found, not F5.
    shown = page.evaluate("[...document.querySelectorAll('.q-viewer .q-pieces use')].map(u => u.getAttribute('href'))")
    assert sorted(shown) == ["#q-grid-stone-black", "#q-grid-stone-black", "#q-grid-stone-white"]
    assert viewer.locator(".q-moves li.q-hidden").count() == 3  # White's three plies
    page.focus(".q-viewer")
    page.keyboard.press("Home")
    assert stones(page) == 0 and attempts.inner_text() == "0"
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert attempts.inner_text() == "1" and hash_of(page) == "#ply=3"
    assert viewer.locator(".q-notes").inner_text() == "D5：尝试失败，黑方再下"  # in the page language


# -- pieces are symbols: placed with <use>, looking as they did ---------------------

USES = (
    "[...document.querySelectorAll('.q-viewer .q-pieces use')]"
    ".map(u => [u.getAttribute('href'), +u.getAttribute('x'), +u.getAttribute('y')])"
)


def _rgb(png: bytes) -> tuple[int, int, int]:
    """The colour of a 1x1 PNG screenshot (8-bit RGB or RGBA: what Chromium writes)."""
    at, data, kind = 8, b"", b""
    while kind != b"IEND":
        length = int.from_bytes(png[at : at + 4], "big")
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            assert body[8] == 8 and body[9] in (2, 6), "not 8-bit RGB(A)"
        elif kind == b"IDAT":
            data += body
        at += 12 + length
    # One pixel: every PNG filter predicts 0 from the bytes before the first, so they are the colour.
    row = zlib.decompress(data)
    return row[1], row[2], row[3]


def colour_at(page, at: tuple[float, float], dx: float = 0, dy: float = 0) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    """The colour on screen at a point of the first board: ``at`` (a cell's centre) moved by (dx, dy) board units."""
    point = page.evaluate(
        """([x, y]) => {
            const svg = document.querySelector('.q-viewer svg.q-board');
            svg.scrollIntoView({block: 'center'});
            const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
            return [p.x, p.y];
        }""",
        [at[0] + dx, at[1] + dy],
    )
    return _rgb(page.screenshot(clip={"x": point[0], "y": point[1], "width": 1, "height": 1}))


def dark(rgb: tuple[int, int, int]) -> bool:
    return max(rgb) < 70


def light(rgb: tuple[int, int, int]) -> bool:
    return min(rgb) > 225


def test_stones_look_as_they_did(browser, game_page: str) -> None:  # type: ignore[no-untyped-def]
    cells = games.get("C5").module("board").board_for(games.get("C5")).cells
    # H8 is black's first stone, H9 white's; K8 is played at ply 7 (gomoku: black makes five on row 8).
    for javascript in (True, False):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=javascript)
        page = context.new_page()
        page.goto(game_page + "#ply=6")
        if javascript:
            page.wait_for_function("document.querySelector('.q-viewer').dataset.ply === '6'")
        assert dark(colour_at(page, cells["H8"])) and dark(colour_at(page, cells["H8"], 14, 0))  # a black disc, filled
        assert light(colour_at(page, cells["H9"])) and light(colour_at(page, cells["H9"], -14, 0))
        wood = colour_at(page, cells["A15"], 10, 10)  # off the lines: the board shows
        assert wood[0] > wood[2] + 60, wood
        context.close()


def test_a_symbol_board_steps_forward_and_back(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """An invented board of 車 and 馬, draughts kings, shogi, cards, a face-down piece and a burnt square."""
    from svg_pieces import pieces_shown
    from symbol_boards import TINY_PLIES, TINY_SETUP, TinyBoard, tiny_game, tiny_replay

    from generator.scene import position_after

    board = TinyBoard()
    viewer = viewer_context(tiny_game(), tiny_replay(), strings=STRINGS["en"], label="tiny", board=board)

    def expected(n: int) -> list[tuple[str, float, float]]:
        """The pieces after n plies as Python draws them for the page without JavaScript."""
        shown = pieces_shown(board.svg(position_after(TINY_SETUP, TINY_PLIES, n), label="x"))
        return sorted((f"#{s.symbol}", *s.at) for s in shown)

    def uses() -> list[tuple[str, float, float]]:
        return sorted(tuple(u) for u in page.evaluate(USES))

    url = _harness(tmp_path, [viewer], "tiny.html").as_uri()
    page.goto(url)
    assert uses() == expected(6) and len(uses()) == 11  # the final position, as without JavaScript
    page.focus(".q-viewer")
    page.keyboard.press("Home")
    seen = [uses()]
    for _ in range(6):
        page.keyboard.press("ArrowRight")
        seen.append(uses())
    assert seen == [expected(n) for n in range(7)]
    for n in range(5, -1, -1):
        page.keyboard.press("ArrowLeft")
        assert uses() == expected(n), n
    # What the symbols look like: the red disc of 車, the second player's shogi piece turned round
    # (its flat base up: a corner the first player's piece leaves empty), the crowned king.
    page.keyboard.press("End")
    cells = board.cells
    red, wood = colour_at(page, cells["a2"], -17, 0), colour_at(page, cells["a3"], 10, 10)
    assert red[0] > 150 and red[1] < 90 and red[2] < 90, red
    assert abs(wood[2] - colour_at(page, cells["c1"], 16, -19)[2]) < 12  # beside the tip of sente's 金: wood
    assert colour_at(page, cells["c5"], 16, -19)[2] > wood[2] + 25  # gote's 金 turned round: its base is there
    crown = colour_at(page, cells["b5"], 0, 3)
    assert crown[0] > 200 and crown[2] < 80, crown  # the gold crown on the white king
    assert page.locator(".q-viewer .q-notes").inner_text() == ""
    page.keyboard.press("Home")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.locator(".q-viewer .q-notes").inner_text() == "turned face up"
    assert colour_at(page, cells["e1"], -17, 0)[0] > 150  # the face-down piece is now a red 馬
    # One declaration of each symbol on the page.
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids))

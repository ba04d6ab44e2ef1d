"""The game page as players expect it, on a laptop (1366x768) and a phone (390x844): issue 23.

Every check runs in Debian's chromium through Playwright (as tests/test_browser.py)
on pages of the repository's demo archive, built once here: one game page of
every game in it (the longest), its event page, a team page, the home page.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO
from test_browser import browser  # noqa: F401  (fixture)

from generator.model import Ply
from generator.render.viewer import turn_layout

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}

# The rectangle of the first element a selector finds, in the window's coordinates.
BOX = """sel => { const e = document.querySelector(sel); if (!e) return null;
  const b = e.getBoundingClientRect(); return {x: b.x, y: b.y, w: b.width, h: b.height, r: b.right, b: b.bottom}; }"""


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo archive of the repository, built as a new user builds it (its own cache: no other build's)."""
    work = tmp_path_factory.mktemp("demo")
    out = work / "site"
    done = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--config", str(REPO / "site.toml"),
         "--out", str(out), "--cache", str(work / "cache")],
        cwd=work, capture_output=True, text=True, encoding="utf-8", timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def games(demo: Path) -> dict[str, tuple[Path, int]]:
    """Game code -> (its longest game page in the demo, the page's number of plies)."""
    found: dict[str, tuple[Path, int]] = {}
    for page in sorted((demo / "games").glob("*/*.html")):
        text = page.read_text(encoding="utf-8")
        code = re.search(r"\(([A-Z][A-Z0-9]*)\)</dd>", text)
        count = re.search(r'class="q-viewer"[^>]*data-count="(\d+)"', text)
        if code and count and int(count[1]) > found.get(code[1], (page, -1))[1]:
            found[code[1]] = (page, int(count[1]))
    assert len(found) >= 16, sorted(found)
    return found


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def tab(browser, size: str) -> Iterator[object]:  # type: ignore[no-untyped-def]  # noqa: F811
    width, height = SIZES[size]
    phone = size == "phone"
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert errors == []


def box(page, selector: str) -> dict[str, float]:  # type: ignore[no-untyped-def]
    found = page.evaluate(BOX, selector)
    assert found is not None, selector
    return found


def ply(page) -> int:  # type: ignore[no-untyped-def]
    return int(page.evaluate("document.querySelector('.q-viewer').dataset.ply"))


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"] - 1
        and inner["y"] >= outer["y"] - 1
        and inner["r"] <= outer["r"] + 1
        and inner["b"] <= outer["b"] + 1
    )


def window_of(page) -> dict[str, float]:  # type: ignore[no-untyped-def]
    width, height = page.evaluate("[document.documentElement.clientWidth, window.innerHeight]")
    return {"x": 0, "y": 0, "r": width, "b": height}


# -- 1. keys work when the page opens ---------------------------------------------


@pytest.mark.browser
def test_keys_step_every_game_as_soon_as_the_page_opens(tab, games) -> None:  # type: ignore[no-untyped-def]
    page = tab
    for code, (path, count) in sorted(games.items()):
        if count < 2:
            continue
        page.goto(path.as_uri())
        assert page.evaluate("document.activeElement === document.body"), code  # nothing clicked, nothing focused
        assert ply(page) == count
        page.keyboard.press("ArrowLeft")
        assert ply(page) < count, code
        page.keyboard.press("Home")
        assert ply(page) == 0, code
        page.keyboard.press("ArrowRight")
        assert 0 < ply(page) < count, code
        page.keyboard.press("End")
        assert ply(page) == count and page.evaluate("window.scrollY") == 0, code  # the keys step, the page stays


@pytest.mark.browser
def test_keys_typed_into_a_select_are_left_alone(tab, games) -> None:  # type: ignore[no-untyped-def]
    page = tab
    path, count = games["C5"]
    page.goto(path.as_uri())
    page.focus(".q-viewer .q-speed")
    page.keyboard.press("ArrowDown")
    assert ply(page) == count and page.locator(".q-viewer .q-speed").input_value() == "500"
    page.focus(".q-viewer .q-numbers")  # a checkbox takes no arrows: they step the game
    page.keyboard.press("ArrowLeft")
    assert ply(page) == count - 1


# -- 2. board, controls and moves on one screen -----------------------------------


@pytest.mark.browser
def test_board_controls_and_moves_fit_one_screen(tab, size: str, games) -> None:  # type: ignore[no-untyped-def]
    page = tab
    for code, (path, count) in sorted(games.items()):
        page.goto(path.as_uri())
        screen = window_of(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= screen["r"], code  # nothing overflows sideways
        board, buttons, slider = box(page, ".q-viewer svg.q-board"), box(page, ".q-nav"), box(page, ".q-slider")
        moves = box(page, ".q-viewer .q-moves")
        assert inside(board, screen), (code, board)  # the whole board
        assert inside(buttons, screen) and inside(slider, screen), code
        if size == "laptop":
            assert moves["x"] >= board["r"], code  # the list beside the board ...
            assert moves["y"] < screen["b"] - 40, code  # ... and on the first screen
            if count:
                assert inside(box(page, ".q-moves li.q-current"), screen), code
            assert board["h"] > 0.6 * screen["b"] or board["w"] > 0.45 * screen["r"], (code, board)  # it takes the room there is
        else:
            assert buttons["y"] >= board["b"] and moves["y"] >= slider["b"], code  # board, controls, then the list
            assert board["w"] > 0.85 * screen["r"] or board["h"] > 0.5 * screen["b"], (code, board)


# -- 3. a deep link shows the board -----------------------------------------------


@pytest.mark.browser
def test_a_deep_link_shows_the_whole_board_and_the_move(tab, games) -> None:  # type: ignore[no-untyped-def]
    page = tab
    long = {code: path for code, (path, count) in games.items() if count >= 45}
    assert len(long) >= 8, sorted(long)
    for code, path in sorted(long.items()):
        page.goto(path.as_uri() + "#ply=40")
        page.wait_for_timeout(50)
        assert ply(page) == 40, code
        assert page.evaluate("window.scrollY") == 0, code  # not scrolled down to the list entry
        assert inside(box(page, ".q-viewer svg.q-board"), window_of(page)), code
        current = page.locator(".q-moves li.q-current")
        assert current.count() == 1 and current.get_attribute("data-ply") == "40", code
        assert inside(box(page, ".q-moves li.q-current"), box(page, ".q-viewer .q-moves")), code  # scrolled within its box


# -- 4. a move list people read ---------------------------------------------------


def entry(page, n: int) -> dict[str, float]:  # type: ignore[no-untyped-def]
    return box(page, f".q-moves li[data-ply='{n}']")


@pytest.mark.browser
def test_two_sides_share_a_row_per_move_number(tab, games) -> None:  # type: ignore[no-untyped-def]
    page = tab
    for code in ("C5", "GO9", "CC", "DR10", "AM", "HEX"):
        path, count = games[code]
        page.goto(path.as_uri() + "#ply=0")
        one, two, three = entry(page, 1), entry(page, 2), entry(page, 3)
        assert abs(one["y"] - two["y"]) < 2 and two["x"] > one["r"] - 1, code  # 1. first | second
        assert three["y"] >= one["b"] - 1 and abs(three["x"] - one["x"]) < 2, code  # 2. under 1.
        numbers = page.locator(".q-moves li .q-n").all_inner_texts()
        assert numbers[:3] == ["1.", "2.", "3."] and len(numbers) == math.ceil(count / 2), code


@pytest.mark.browser
def test_connect6_turns_are_one_row_one_step_and_both_stones_are_last(tab, games) -> None:  # type: ignore[no-untyped-def]
    page = tab
    path, count = games["C6"]
    page.goto(path.as_uri() + "#ply=0")
    one, two, three, four, five = (entry(page, n) for n in range(1, 6))
    assert abs(two["y"] - three["y"]) < 2 and three["x"] > two["x"]  # White's two stones, one turn
    assert abs(one["y"] - two["y"]) < 2  # move 1: black's one stone, then white's two
    assert abs(four["y"] - five["y"]) < 2 and four["y"] > one["y"]  # move 2: black's two ...
    turns = (count + 1) // 2  # one stone, then two a turn
    page.keyboard.press("ArrowRight")
    assert ply(page) == 1
    page.keyboard.press("ArrowRight")
    assert ply(page) == 3  # a step is a turn
    assert page.locator(".q-viewer .q-marks .q-mark-last").count() == 2  # both stones of it are the last move
    assert page.locator(".q-readout").inner_text().replace(" ", "") in (f"第2/{turns}手", f"2/{turns}")
    page.keyboard.press("ArrowLeft")
    assert ply(page) == 1 and page.locator(".q-viewer .q-marks .q-mark-last").count() == 1


@pytest.mark.browser
def test_four_seats_play_a_round_a_row(tab, games) -> None:  # type: ignore[no-untyped-def]
    page = tab
    path, count = games["BR"]
    page.goto(path.as_uri())
    rows = page.evaluate(
        "[...document.querySelectorAll('.q-moves li[data-ply]')].map(li => Math.round(li.getBoundingClientRect().top))"
    )
    assert len(rows) == count
    per_row = [rows.count(y) for y in sorted(set(rows))]
    assert max(per_row) == 4 and per_row.count(4) >= 10, per_row  # the auction's round, then each trick


@pytest.mark.browser
def test_the_move_list_is_one_tab_stop_with_arrow_keys_inside(tab, games) -> None:  # type: ignore[no-untyped-def]
    page = tab
    path, count = games["C5"]
    page.goto(path.as_uri() + "#ply=10")
    stops = page.locator(".q-moves a:not([tabindex='-1'])")
    assert stops.count() == 1 and stops.first.get_attribute("href") == "#ply=10"
    stops.first.focus()
    page.keyboard.press("ArrowUp")
    assert ply(page) == 9
    assert page.evaluate("document.activeElement.getAttribute('href')") == "#ply=9"  # the focus follows
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert ply(page) == 11 and page.evaluate("document.activeElement.getAttribute('href')") == "#ply=11"
    assert page.locator(".q-moves a:not([tabindex='-1'])").count() == 1


# -- 5. navigation that scales ----------------------------------------------------


@pytest.mark.browser
def test_events_are_a_menu_and_the_page_is_marked_current(tab, size: str, demo: Path) -> None:  # type: ignore[no-untyped-def]
    page = tab
    page.goto((demo / "index.html").as_uri())
    header = box(page, ".q-header")
    assert header["h"] <= (0.12 if size == "phone" else 0.08) * SIZES[size][1], header
    events = page.locator(".q-header details.q-menu ul a")
    assert events.count() >= 16 and not events.first.is_visible()  # folded away
    page.locator(".q-header details.q-menu summary").click()
    assert events.first.is_visible()
    events.first.click()
    current = page.locator(".q-header a[aria-current='page']")
    assert current.count() == 1 and current.evaluate("a => a.href") == page.url


@pytest.mark.browser
def test_a_skip_link_leads_to_the_content(tab, demo: Path) -> None:  # type: ignore[no-untyped-def]
    page = tab
    page.goto(next((demo / "games").glob("*/*.html")).as_uri())
    page.keyboard.press("Tab")
    skip = page.locator("a.q-skip")
    assert page.evaluate("document.activeElement.className") == "q-skip"
    assert inside(box(page, "a.q-skip"), window_of(page)) and skip.get_attribute("href") == "#main"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


# -- 6. tables on phones ----------------------------------------------------------

# Where the first two cells of a table's first body row are (its rank and its team).
FIRST_CELLS = (
    "table => [...document.querySelector(table + ' tbody tr').children].slice(0, 2).map(c => c.getBoundingClientRect().x)"
)


@pytest.mark.browser
def test_standings_and_crosstables_scroll_in_their_box(tab, size: str, demo: Path) -> None:  # type: ignore[no-untyped-def]
    page = tab
    for event in ("2025-c5", "2025-su", "2025-br"):
        page.goto((demo / "events" / event / "index.html").as_uri())
        screen = window_of(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= screen["r"], event
        heads = page.evaluate(
            "[...document.querySelectorAll('.q-scroll thead th')].map(th => [th.textContent.trim(),"
            " th.getBoundingClientRect().height, parseFloat(getComputedStyle(th).lineHeight) || 20])"
        )
        for text, height, line in heads:
            assert height < 2.2 * line + 12, (event, text, height)  # one line, not one character per line
        for table in (".q-standings", ".q-cross"):
            if not page.locator(f".q-scroll > {table}").count():
                continue
            wrap = page.locator(f".q-scroll:has(> {table})").first
            before = page.evaluate(FIRST_CELLS, table)
            wrap.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
            after = page.evaluate(FIRST_CELLS, table)
            if size == "phone" and wrap.evaluate("el => el.scrollWidth > el.clientWidth"):
                assert after == pytest.approx(before, abs=1), (event, table)  # rank and team stay in view
            last = page.evaluate(f"document.querySelector('{table} thead tr').lastElementChild.getBoundingClientRect().right")
            assert last <= screen["r"] + 1, (event, table)  # the last column can be reached


# -- 7. legible boards ------------------------------------------------------------


@pytest.mark.browser
def test_coordinates_and_the_last_move_are_legible(tab, games) -> None:  # type: ignore[no-untyped-def]
    page = tab
    for code in ("C6", "HEX", "GO9", "CC"):
        path, _ = games[code]
        page.goto(path.as_uri() + "#ply=6")  # a move on the board (a game may end with passes)
        heights = page.evaluate(
            "[...document.querySelectorAll('.q-board .q-coords text')].map(t => t.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= 10, (code, min(heights))
        marks = page.evaluate(
            "[...document.querySelectorAll('.q-board :is(.q-mark-last, .q-mark-to)')].map(m => m.getBoundingClientRect().width)"
        )
        assert marks and all(width >= 7.5 for width in marks), (code, marks)
        if code in ("C6", "GO9"):  # move numbers on the stones
            page.check(".q-viewer .q-numbers")
            numbers = page.evaluate(
                "[...document.querySelectorAll('.q-pieces text.q-num')].map(t => t.getBoundingClientRect().height)"
            )
            assert numbers and min(numbers) >= 9, (code, min(numbers))


# -- 8. print ---------------------------------------------------------------------


@pytest.mark.browser
def test_a_printed_game_is_the_final_position_and_every_move(tab, games) -> None:  # type: ignore[no-untyped-def]
    page = tab
    path, count = games["GO9"]
    page.goto(path.as_uri() + "#ply=5")
    page.emulate_media(media="print")
    page.wait_for_function(f"document.querySelector('.q-viewer').dataset.ply === '{count}'")
    assert not page.locator(".q-viewer .q-controls").is_visible()
    assert not page.locator(".q-header nav").is_visible()
    moves = page.locator(".q-viewer .q-moves")
    assert moves.evaluate("el => el.scrollHeight <= el.clientHeight + 1")  # nothing hidden behind a scroll bar
    assert page.locator(".q-moves li:visible").count() == count
    page.emulate_media(media="screen")
    page.wait_for_function("document.querySelector('.q-viewer').dataset.ply === '5'")


# -- 9. accessibility: headings in order, no empty table headers --------------------

AUDIT = """() => {
  const found = [];
  const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter(h => h.getClientRects().length);
  if (document.querySelectorAll('h1').length !== 1) found.push('h1 count ' + document.querySelectorAll('h1').length);
  let level = 0;
  for (const h of headings) {
    const n = +h.tagName[1];
    if (n > level + 1) found.push('heading ' + h.tagName + ' after h' + level + ': ' + h.textContent.trim().slice(0, 40));
    level = n;
  }
  for (const th of document.querySelectorAll('th')) {
    if (!th.textContent.trim() && !th.getAttribute('aria-label')) found.push('empty th in ' + (th.closest('table').className || 'table'));
  }
  if (!document.documentElement.lang) found.push('no lang');
  for (const b of document.querySelectorAll('button')) {
    if (!(b.getAttribute('aria-label') || b.textContent.trim())) found.push('unnamed button');
  }
  for (const s of document.querySelectorAll('svg.q-board')) {
    if (s.getAttribute('role') !== 'img' || !s.getAttribute('aria-label')) found.push('unlabelled board');
  }
  if (!document.querySelector('a.q-skip[href="#main"]') || !document.getElementById('main')) found.push('no skip link');
  return found;
}"""


@pytest.mark.browser
def test_pages_keep_heading_order_and_name_every_table_header(tab, demo: Path, games) -> None:  # type: ignore[no-untyped-def]
    page = tab
    pages = [demo / "index.html", demo / "teams" / "index.html", demo / "problems" / "index.html"]
    pages += sorted((demo / "events").glob("*/index.html"))
    pages += sorted((demo / "teams").glob("*.html"))[:3]
    pages += [path for path, _ in games.values()]
    for path in pages:
        page.goto(path.as_uri())
        assert page.evaluate(AUDIT) == [], path.relative_to(demo)


# -- the move list's grid, as generator/render/viewer.py works it out ---------------


def plies_of(sides: str) -> list[Ply]:
    seat = {"1": "first", "2": "second", "3": "third", "4": "fourth"}
    return [Ply(n, seat[s], "black", f"m{n}", []) for n, s in enumerate(sides, 1)]


def test_two_sides_alternate_in_two_columns_a_row_a_move() -> None:
    columns, rows, turns, given = turn_layout(plies_of("12121"))  # type: ignore[misc]
    assert columns == [2, 3, 2, 3, 2] and rows == [1, 0, 2, 0, 3] and turns == [] and given is None


def test_a_side_that_moves_again_starts_a_row_and_a_second_side_first_leaves_a_gap() -> None:
    columns, rows, _, given = turn_layout(plies_of("11212"))  # type: ignore[misc]
    assert columns == [2, 2, 3, 2, 3] and rows == [1, 2, 0, 3, 0] and given is None
    columns, rows, _, _ = turn_layout(plies_of("212"))  # type: ignore[misc]
    assert columns == [3, 2, 3] and rows == [1, 2, 0]  # 1. … second | 2. first second


def test_connect6_turns_of_two_stones_share_a_row_and_end_turns() -> None:
    columns, rows, turns, _ = turn_layout(plies_of("1221122"))  # type: ignore[misc]
    assert columns == [2, 4, 5, 2, 3, 4, 5] and rows == [1, 0, 0, 2, 0, 0, 0] and turns == [1, 3, 5, 7]


def test_four_seats_play_rounds_whoever_leads() -> None:
    columns, rows, turns, given = turn_layout(plies_of("12342341"))  # type: ignore[misc]
    assert columns == [2, 3, 4, 5, 3, 4, 5, 2] and rows == [1, 0, 0, 0, 2, 0, 0, 0] and turns == []
    assert given == [1, 1, 1, 1, 2, 2, 2, 2]  # the fourth's card goes in the row its trick began


def test_a_side_that_is_no_seat_gets_a_plain_list() -> None:
    assert turn_layout([Ply(1, "referee", "black", "x", [])]) is None and turn_layout([]) is None

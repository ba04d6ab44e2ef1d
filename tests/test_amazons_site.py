"""Amazons game pages from a real build: the board, queens and burnt squares, the last flight, every game of a file."""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_amazons_format import EXAMPLE

from generator import games
from generator.boards import amazons as board_module
from generator.build import Builder
from generator.config import load_config
from generator.scene import Position, apply


def build(tmp_path: Path, files: dict[str, str]) -> tuple[Path, list[dict]]:
    folder = tmp_path / "content" / "2025-am"
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    out = tmp_path / "site"
    config, _ = load_config(content=tmp_path / "content", output=out)
    Builder(config, cache_dir=tmp_path / "cache").build()
    listed = [json.loads(line) for line in (out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    return out, listed


def board_of(page: str) -> str:
    svg = page[page.index('class="q-board q-board-amazons"') :]
    return svg[: svg.index("</svg>")]


def test_the_standards_example_builds_into_a_game_page(tmp_path: Path) -> None:
    out, listed = build(tmp_path, {"AM-北理工马爷 666 vs 知于行-后手胜-2017.07.28 重庆-国赛.txt": EXAMPLE})
    (game,) = listed
    assert game["code"] == "AM"
    page = (out / game["url"]).read_text(encoding="utf-8")
    for move in ("d1d8(b6)", "g10g3(i5)", "b8a7(c9)"):
        assert f">{move}<" in page, move
    svg = board_of(page)
    # The final position without JavaScript: eight queens, eighty burnt squares, the last turn's flight.
    assert len(re.findall(r'<use href="#q-am-queen-(?:white|black)"', svg)) == 8
    assert len(re.findall(r'<use href="#q-am-arrow"', svg)) == 80
    assert 'class="q-path q-path-arrow"' in svg and 'class="q-path q-path-queen"' in svg
    assert 'marker id="q-am-head"' in svg and "marker-end:url(#q-am-head)" in svg
    # Coordinates a-j and 1-10 round the board.
    assert all(f">{c}</text>" in svg for c in "abcdefghij") and ">10</text>" in svg


def test_the_last_flight_is_drawn_where_the_arrow_flew() -> None:
    board = board_module.board_for(games.GAMES["AM"])
    position = Position()
    apply(position, [["add", "q", "queen", "white", "d1"]], 0)
    apply(position, [["move", "q", "d8"], ["add", "x1", "arrow", "white", "b6"], ["path", ["d8", "b6"], "arrow"]], 1)
    svg = board.svg(position, label="d1d8(b6)")
    d8, b6 = board.cells["d8"], board.cells["b6"]
    assert f'd="M{d8[0]:g} {d8[1]:g}L{b6[0]:g} {b6[1]:g}"' in svg
    # a1 at the bottom-left, j10 at the top-right.
    assert board.cells["a1"][0] < board.cells["j1"][0] and board.cells["a1"][1] > board.cells["a10"][1]


def test_every_game_of_a_file_gets_its_own_page(tmp_path: Path) -> None:
    text = (
        "#[AM][甲][乙][先手胜][2025.3.1 10:00 北京][杯];\n1 d1d8(b6) g10g3(i5)\n"
        "#[AM][乙][甲][后手胜][2025.3.1 11:00 北京][杯];\n1 j4i4(h4) d10d4(g4)\n"
    )
    out, listed = build(tmp_path, {"AM-甲 vs 乙.txt": text})
    assert len(listed) == 2 and len({g["url"] for g in listed}) == 2
    pages = [(out / g["url"]).read_text(encoding="utf-8") for g in listed]
    assert ">d1d8(b6)<" in pages[0] and ">j4i4(h4)<" in pages[1]
    assert ">j4i4(h4)<" not in pages[0]

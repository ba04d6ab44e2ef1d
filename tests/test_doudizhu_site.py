"""Dou Dizhu game pages from a real build: the card table, the views, every deal of a session."""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_doudizhu_rules import EXAMPLE, SPRING, _spring_lines, bottom_line, deal, record

from generator import games
from generator.boards import table
from generator.build import Builder
from generator.config import load_config
from generator.scene import ops_for, position_after

NAME = "P2T1-甲队 vs 乙队 vs 丙队-2025.12.20 09:00 北京-测试赛.txt"


def build(tmp_path: Path, files: dict[str, str]) -> tuple[Path, list[dict]]:
    folder = tmp_path / "content" / "2025-p2t1"
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    out = tmp_path / "site"
    config, _ = load_config(content=tmp_path / "content", output=out)
    Builder(config, cache_dir=tmp_path / "cache").build()
    listed = [json.loads(line) for line in (out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    return out, listed


def data_of(page: str) -> dict:
    found = re.search(r'<script type="application/json" class="q-data">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def board_of(page: str) -> str:
    svg = page[page.index('class="q-board q-board-table"') :]
    return svg[: svg.index("</svg>")]


def test_a_session_builds_a_page_per_deal_with_the_table_and_four_views(tmp_path: Path) -> None:
    hands, bottom = deal(landlord="A", A=SPRING)
    spring = record(hands, ["BA[1]", "BB[0]", "BC[0]", bottom_line("A", bottom), *_spring_lines()], over="A")
    out, listed = build(tmp_path, {NAME: EXAMPLE + spring})
    assert [game["code"] for game in listed] == ["P2T1", "P2T1"]
    pages = {game["url"]: (out / game["url"]).read_text(encoding="utf-8") for game in listed}
    example = next(page for page in pages.values() if "选手 1 名称" in page)
    played = next(page for page in pages.values() if "选手 1 名称" not in page)
    for page in pages.values():
        data = data_of(page)
        assert [view for view, _ in data["views"]] == ["referee", "first", "second", "third"]
        # The deal lines are read by their seat and the referee only.
        assert [ply.get("v") for ply in data["plies"][:3]] == [["referee", "first"], ["referee", "second"], ["referee", "third"]]
    # The example stops after C's trio with a pair: its final table (no JavaScript) holds the landlord's crown,
    # the three bottom cards in the middle, 17 + 17 + 20 - 13 cards in hand, C's five cards played.
    svg = board_of(example)
    assert len(re.findall(r'<use href="#q-table-token-0"', svg)) == 1
    assert len(re.findall(r'<use href="#q-table-card-\d+"', svg)) == 3 + 17 + 17 + 7 + 5
    assert ">8♠ 8♥ 8♣ 2♥ 2♦<" not in example and ">C 8♠ 8♥ 8♣ 2♥ 2♦<" in example
    # The spring: the points of each seat, the landlord's row marked won.
    scores = re.findall(r'<tr( class="q-won")?><th>([ABC])方</th><td>[^<]*</td><td class="q-num-cell">(-?\d+)</td>', played)
    assert scores == [(' class="q-won"', "A", "4"), ("", "B", "-2"), ("", "C", "-2")]


def test_the_table_of_three_seats_has_hands_plays_the_bottom_row_and_tokens() -> None:
    board = table.board_for(games.GAMES["P2T1"])
    cells = board.cells
    assert {f"{seat}-h{k}" for seat in ("first", "second", "third") for k in range(1, 21)} <= set(cells)
    assert {"centre-1", "centre-2", "centre-3", "first-token", "second-token", "third-token"} <= set(cells)
    # A at the bottom, its hand behind its plays; B and C side by side above the middle, hands behind.
    assert cells["first-h1"][1] > cells["first-1"][1] > cells["centre-1"][1] > cells["second-1"][1] > cells["second-h1"][1]
    assert cells["second-20"][0] < cells["third-1"][0] and cells["second-1"][1] == cells["third-1"][1]
    # Fanned rows: the cards overlap by the game's step, the corner (rank and suit) stays visible.
    assert cells["first-h2"][0] - cells["first-h1"][0] == 18
    assert table.row_cells("first", "h", 17, 20) == [f"first-h{k}" for k in range(2, 19)]
    assert table.row_cells("centre", "", 3, 3) == ["centre-1", "centre-2", "centre-3"]
    # Every card of the deck has its drawing, the jokers and the crown too.
    for name in ("3♠", "10♥", "2♣", "BJ", "RJ", "hidden", "landlord"):
        assert board.symbols.id_of(name, "red") is not None, name
    assert ">★</text>" in table.card("RJ") and "#c0392b" in table.card("RJ") and "#c0392b" not in table.card("BJ")


def test_a_view_of_one_seat_sees_the_others_hands_face_down_until_played(tmp_path: Path) -> None:
    hands, bottom = deal(landlord="A", A=SPRING)
    out, [game] = build(tmp_path, {NAME: record(hands, ["BA[1]", "BB[0]", "BC[0]", bottom_line("A", bottom), *_spring_lines()])})
    data = data_of((out / game["url"]).read_text(encoding="utf-8"))
    from generator.model import Ply

    plies = [Ply(p["n"], "", "", p["l"], p["o"], visible_to=tuple(p["v"]) if "v" in p else None,
                 hidden=[(tuple(v), ops) for v, ops in p.get("h", [])]) for p in data["plies"]]  # fmt: skip
    for view, hidden in (("referee", 0), ("first", 34), ("second", 37), ("third", 37)):
        after_bidding = position_after(data["setup"], plies, 7, view=view)
        assert sum(piece.kind == "hidden" for piece in after_bidding.pieces.values()) == hidden, view
    # A's chain, once played, is face up for everyone.
    chain_ply = plies[7]
    for view in ("second", "third"):
        shown = position_after(data["setup"], plies, 8, view=view)
        played = [piece for piece in shown.pieces.values() if re.fullmatch(r"first-\d+", piece.at)]
        assert len(played) == 12 and "hidden" not in {piece.kind for piece in played}
    assert ops_for(chain_ply, "second") == chain_ply.ops  # a play hides nothing


def test_rows_of_a_table_with_hands_never_overlap_for_two_three_or_four_seats() -> None:
    """The table's layout is general (hold'em, bridge may use it): cards of different rows never overlap."""
    seats = (("A", "red"), ("B", "blue"), ("C", "green"), ("D", "black"))
    for count in (2, 3, 4):
        board = table.TableBoard(seats[:count], 13, 13, 18.0, 5, (("dealer", "D"),))
        rows: dict[str, list[tuple[float, float]]] = {}
        for cell, xy in board.cells.items():
            rows.setdefault(re.sub(r"\d+$", "", cell), []).append(xy)
        half = {row: (11, 11) if row.endswith("-token") else (18, 25) for row in rows}  # a token, a card
        boxes = {
            row: (
                min(x for x, _ in xys) - half[row][0], min(y for _, y in xys) - half[row][1],
                max(x for x, _ in xys) + half[row][0], max(y for _, y in xys) + half[row][1],
            )
            for row, xys in rows.items()
        }
        for a, (ax0, ay0, ax1, ay1) in boxes.items():
            assert 0 <= ax0 and ax1 <= board.width and 0 <= ay0 and ay1 <= board.height, (count, a)
            for b, (bx0, by0, bx1, by1) in boxes.items():
                if a < b:
                    assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (count, a, b)

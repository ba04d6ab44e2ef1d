"""A dots and boxes game page from a real build: the board, the final position, the move list, the score."""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_dots_rules import full_game, record_text

from generator.build import Builder
from generator.config import load_config


def test_a_game_played_out_builds_into_a_page_with_its_boxes_and_score(tmp_path: Path) -> None:
    pieces, boxes = full_game(11)
    # Blue moves first in this record: the first piece says so.
    pieces = [("b" if p[0] == "r" else "r") + p[1:] for p in pieces]
    text = record_text(pieces, winner="B" if boxes[0] > boxes[1] else "R", RScore=boxes[1], BScore=boxes[0], Event="测试赛")
    folder = tmp_path / "content" / "2025-db"
    folder.mkdir(parents=True)
    (folder / "DB-蓝队 vs 红队-先手胜-2025.12.20 北京-测试赛.txt").write_text(text, encoding="utf-8")
    out = tmp_path / "site"
    config, _ = load_config(content=tmp_path / "content", output=out)
    Builder(config, cache_dir=tmp_path / "cache").build()
    (game,) = [json.loads(line) for line in (out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert game["code"] == "DB"
    page = (out / game["url"]).read_text(encoding="utf-8")
    assert "q-board-dots" in page
    # The move list names each line by its two dots; the record's text shows on hover.
    for piece in (pieces[0], pieces[1], pieces[-1]):
        m = re.fullmatch(r"[rb]\(([a-f])(\d),([hv])\)", piece)
        assert m is not None, piece
        column, row, direction = m[1], int(m[2]), m[3]
        other = f"{chr(ord(column) + 1)}{row}" if direction == "h" else f"{column}{row + 1}"
        assert f'title="{piece}"' in page and f">{column}{row}-{other}<" in page, piece
    # The final position drawn without JavaScript: 60 edges, 25 boxes, in the two colours.
    board = page[page.index("q-board-dots") :]
    board = board[: board.index("</svg>")]
    edges = re.findall(r'<use href="#q-db-[hv]-(red|blue)"', board)
    taken = re.findall(r'<use href="#q-db-box-(red|blue)"', board)
    assert len(edges) == 60 and len(taken) == 25
    assert (taken.count("blue"), taken.count("red")) == tuple(boxes)
    # Every dot's column and row labelled as the pieces write them.
    assert all(f">{c}</text>" in board for c in "abcdef") and all(f">{r}</text>" in board for r in "123456")
    # The score per side beside the board, and the running score under it.
    scores = page[page.index('class="q-scores"') :]
    scores = scores[: scores.index("</table>")]
    assert [int(v) for v in re.findall(r'q-num-cell">(\d+)<', scores)] == boxes
    assert f'data-count="boxes.first">{boxes[0]}<' in page and f'data-count="boxes.second">{boxes[1]}<' in page

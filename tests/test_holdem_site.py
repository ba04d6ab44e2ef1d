"""Hold'em hand pages from a real build: one page per hand, the table, the views, the chips."""

from __future__ import annotations

import json
import re
from pathlib import Path

from generator.build import Builder
from generator.config import load_config

HANDS = [
    # The standard's example: a split pot of two straights.
    "STATE:1:r223c/cr646r1170c/cc/cr2340r7898c:6cQh|Ah6s/7h9d5h/8d/As:0|0:红队|蓝队;",
    # 蓝队 (big blind) folds to a raise and loses its 100, but the chips are written the wrong way round.
    "STATE:2:r300f:9s8h|KcQd:300|-300:蓝队|红队;",
    # 红队 bets the flop and the river; 蓝队 folds the river and loses the 200 it had put in.
    "STATE:3:cc/r200c/cc/r600f:Td9d|2c2h/Jd8s3c/Kh/4d:200|-200:红队|蓝队;",
]
CLOSING = "{[THP][红队][蓝队][蓝队 赢得 100 个筹码][2025.11.25 14:00 重庆][2025 CCGC]}"  # 0 - 300 + 200, as written


def test_a_match_builds_a_page_per_hand_with_the_table_and_each_seats_view(tmp_path: Path) -> None:
    folder = tmp_path / "content" / "2025-thp"
    folder.mkdir(parents=True)
    (folder / "THP-红队 vs 蓝队-红队胜-202511251400-2025 CCGC.txt").write_bytes(
        ("\r\n".join([*HANDS, CLOSING]) + "\r\n").encode("gb18030")
    )
    out = tmp_path / "site"
    config, _ = load_config(content=tmp_path / "content", output=out)
    Builder(config, cache_dir=tmp_path / "cache").build()
    found = [json.loads(line) for line in (out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [g["code"] for g in found] == ["THP"] * 3
    pages = [(out / g["url"]).read_text(encoding="utf-8") for g in found]
    first = next(p for p in pages if "6♣ Q♥ | A♥ 6♠" in p)
    assert "q-board-holdem" in first
    # The final position without JavaScript: both hands shown down, the whole board.
    board = first[first.index("q-board-holdem") :]
    board = board[: board.index("</svg>")]
    shown = re.findall(r'<use href="#q-hold-card-(\w\w)"', board)
    assert sorted(shown) == sorted(["6c", "Qh", "Ah", "6s", "7h", "9d", "5h", "8d", "As"])
    assert 'href="#q-hold-back"' not in board
    # The referee's view and each seat's are offered.
    assert first.count('class="q-view"') == 1
    assert all(f'"{view}"' in first for view in ("referee", "first", "second"))
    # The move list: the deal, the actions in the page's words (the ACPC text on hover), the board card by card.
    for label in ("加注至 223", "跟注", "过牌", "加注至 1170", "7♥ 9♦ 5♥", "8♦", "A♠", "加注至 7898"):
        assert f">{label}<" in first, label
    assert 'title="r7898"' in first
    # The second hand declares the wrong chips: its page says so, and the counted chips stand.
    second = next(p for p in pages if "9♠ 8♥ | K♣ Q♦" in p)
    assert "RULE-E1214" in second
    third = next(p for p in pages if "10♦ 9♦ | 2♣ 2♥" in p)
    assert "RULE-" not in third and "FMT-E" not in third

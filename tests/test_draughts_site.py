"""A draughts game page from a real build: the board, the final position, the move list, the result."""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_draughts_format import DR10_EXAMPLE

from generator.build import Builder
from generator.config import load_config
from generator.model import Text


def test_the_standards_example_builds_into_a_game_page(tmp_path: Path) -> None:
    folder = tmp_path / "content" / "2025-dr10"
    folder.mkdir(parents=True)
    name = "DR10-重庆理工大学 1 队 vs 重庆理工大学 2 队-平局-2018.03.10 重庆-示例.txt"
    (folder / name).write_text(DR10_EXAMPLE, encoding="utf-8")
    out = tmp_path / "site"
    config, _ = load_config(content=tmp_path / "content", output=out)
    Builder(config, cache_dir=tmp_path / "cache").build()
    (game,) = [json.loads(line) for line in (out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert game["code"] == "DR10"
    page = (out / game["url"]).read_text(encoding="utf-8")
    assert "q-board-checkered" in page
    # The move list in the standard's notation, captures through their landing squares.
    for move in ("20-24", "24x33", "29x18x27", "05x14", "34x23"):
        assert f">{move}<" in page, move
    # The final position drawn without JavaScript: the pieces left after the 24 moves.
    from generator import formats, games
    from generator.rules import draughts
    from generator.scene import position_after

    record = formats.read(Text(name, DR10_EXAMPLE, "utf-8"), "DR10")
    replay = draughts.replay(record, games.GAMES["DR10"])
    left = position_after(replay.setup, replay.plies).pieces
    board_svg = page[page.index("q-board-checkered") :]
    board_svg = board_svg[: board_svg.index("</svg>")]
    assert len(re.findall(r"<use href=\"#q-dr-(?:man|king)-", board_svg)) == len(left) == 30  # 10 taken
    # Every square's number on the board.
    assert all(f">{n}</text>" in board_svg for n in range(1, 51))

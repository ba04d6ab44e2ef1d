"""Army chess from real files to game pages: the corpus (../shared/corpus/AC2), the three views, the board."""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_armychess_format import EXAMPLE

from generator import games
from generator.boards import armychess as board_module
from generator.build import Builder
from generator.config import load_config
from generator.model import Source
from generator.pipeline import Processed, process, sha256
from generator.rules import armychess as ac
from generator.scene import position_after

AC2 = games.GAMES["AC2"]


def corpus_game(corpus: Path, name: str) -> Processed:
    data = (corpus / "AC2" / name).read_bytes()
    return process(Source(f"AC2/{name}", data, sha256(data)), encoding=None, options={})


def test_both_corpus_files_read_and_replay_to_the_end(corpus: Path) -> None:
    names = sorted(p.name for p in (corpus / "AC2").iterdir())
    assert len(names) == 2
    for name in names:
        done = corpus_game(corpus, name)
        assert done.code == "AC2" and done.record is not None and done.replay is not None
        text = (corpus / "AC2" / name).read_bytes().decode("gb18030")
        assert len(done.record.moves) == text.count(";M") and not done.replay.not_replayed
        assert (done.meta.first, done.meta.second) == ("oppo", "将军2")
        codes = [d.code for d in done.diagnostics]
        # Their deviations, each said where it is: the first player above and AB not reversed; AB the
        # same string as AA; the flag letter of the mover; and then the first player's layout unknown.
        assert {"FMT-N1001", "FMT-W1004", "FMT-N1004", "RULE-N1010"} <= set(codes), (name, codes)
        # With the first player's pieces unknown, every move and every battle of the second fits the rules.
        assert not [d for d in done.diagnostics if d.code.startswith("RULE-E")], name
        for d in done.diagnostics:
            assert d.line >= 1 and d.column >= 1 and d.message, (name, d)


def test_the_second_corpus_game_ends_with_the_flag_the_referee_showed(corpus: Path) -> None:
    done = corpus_game(corpus, "AC2_02_oppo_vs_jiangjun2_20191007142354.txt")
    decision = done.replay.decision
    assert (decision.rule, decision.winner, decision.ply, decision.cells) == ("flag", "second", 68, ("A1",))
    # EA[1]EB[0] says the first player won; the rules (and the file's original name, 后手) say the second.
    assert [d.code for d in done.diagnostics if d.code.startswith("RES-")] == ["RES-E001"]
    # Move 58: both pieces fell, the referee showed the first player's flag on A1 (FB[A1]).
    shown = position_after(done.replay.setup, done.replay.plies, 58, view="second", setup_hidden=done.replay.setup_hidden)
    assert [p.kind for p in shown.pieces.values() if p.at == "A1"] == ["flag"]


def test_the_three_views_of_a_game() -> None:
    data = EXAMPLE.encode("utf-8")
    done = process(Source("AC2-a vs b.txt", data, sha256(data)), encoding=None, options={}).replay
    views = {
        view: position_after(done.setup, done.plies, 2, view=view, setup_hidden=done.setup_hidden)
        for view in ("referee", "first", "second")
    }
    kinds = {view: {(p.side, p.kind) for p in pos.pieces.values()} for view, pos in views.items()}
    assert ("black", "hidden") not in kinds["referee"] and ("red", "hidden") not in kinds["referee"]
    assert {k for s, k in kinds["first"] if s == "black"} == {"hidden"}
    assert {k for s, k in kinds["second"] if s == "red"} == {"hidden"}
    assert ("red", "commander") in kinds["first"] and ("black", "commander") in kinds["second"]
    # Every view sees the same cells taken and the outcome as the players heard it; the referee also the pieces.
    assert {p.at for p in views["first"].pieces.values()} == {p.at for p in views["referee"].pieces.values()}
    ply = done.plies[0]
    assert ["note", "battle on {cell}: {side}'s piece won", {"side": "first", "cell": "F0"}] in ply.ops
    assert ply.hidden and ply.hidden[0][0] == ("referee",)
    assert ply.hidden[0][1][0][2] == {"attacker": "司令", "defender": "旅长"}


def test_the_board_as_players_know_it() -> None:
    board = board_module.board_for(AC2)
    svg = board.svg(None, label="board")
    assert len(board.cells) == 60
    # Bold railways, camps as circles, the headquarters marked.
    assert 'class="q-ac-rail"' in svg and 'stroke-width="6"' in svg
    assert svg.count("<circle") >= 10 and svg[svg.index('class="q-ac-hq"') :].count("<path") >= 4
    for name in ("司令", "军长", "师长", "旅长", "团长", "营长", "连长", "排长", "工兵", "地雷", "炸弹", "军旗"):
        assert svg.count(f">{name}</text>") == 4, name  # a tile per colour, and its deduced face-down tile
    assert "q-ac-back-red" in svg and "q-ac-back-black" in svg
    # The halves stand apart: row G lies further below row F than the rows of a half apart.
    assert board.cells["G0"][1] - board.cells["F0"][1] > board.cells["F0"][1] - board.cells["E0"][1]


def test_a_built_page_offers_the_three_views(tmp_path: Path) -> None:
    folder = tmp_path / "content" / "2025-ac2"
    folder.mkdir(parents=True)
    (folder / "AC2-先手玩家 vs 后手玩家-后手胜.txt").write_text(EXAMPLE, encoding="utf-8")
    out = tmp_path / "site"
    config, _ = load_config(content=tmp_path / "content", output=out)
    Builder(config, cache_dir=tmp_path / "cache").build()
    (game,) = [json.loads(line) for line in (out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    page = (out / game["url"]).read_text(encoding="utf-8")
    for label in ("G0F0×", "F4G4×", "F0E0×", "G4H4×"):
        assert f">{label}<" in page
    data = json.loads(re.search(r'<script type="application/json"[^>]*>(.*?)</script>', page, re.S)[1])
    assert [view for view, _ in data["views"]] == ["referee", "first", "second"]
    assert {tuple(views) for views, _ in data["setupHidden"]} == {("first",), ("second",)}
    # Without JavaScript the page shows the referee's final position: every piece face up.
    svg = page[page.index('class="q-board q-board-armychess"') :]
    assert "#q-ac-back-" not in svg[: svg.index("</svg>")] and "q-ac-commander-red" in svg
    assert ac.CHINESE["a"] == "司令"

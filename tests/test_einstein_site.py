"""WTN records as an organiser meets them: the real files, the demo event, and the pages a build makes."""

from __future__ import annotations

import collections
import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest
from conftest import REPO
from test_einstein_format import EXAMPLE

from generator.build import Builder
from generator.config import load_config
from generator.model import Metadata, Source
from generator.pipeline import process_games, sha256

# The real files (../shared/corpus/WTN): what each must give. None: replayed to the end, and
# the rules' winner is the one the writer's path line names.
CORPUS = {
    "WTN_01_generalzero_human_vs_az_20180802.txt": None,
    "WTN_02_generalzero_az_vs_mcts_20180802.txt": ("RULE-E602", 4, 0),  # move 1 moves red's 3 on a 4
    "WTN_03_generalzero_human_wins_20180802.txt": None,
    "WTN_04_generalzero_20180711.txt": None,
    "WTN_05_generalzero_illegal_jump.txt": ("RULE-E603", 8, 4),  # move 5 jumps B5-D2
}


def _original_names(corpus: Path) -> dict[str, str]:
    """Saved name -> the file's name in its repository (the manifest's path)."""
    names = {}
    for line in (corpus / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        names[entry["saved"]] = entry["path"].rsplit("/", 1)[-1]
    return names


def test_every_real_file_reads_and_replays_or_says_why(corpus: Path) -> None:
    folder = corpus / "WTN"
    if not folder.is_dir():
        pytest.skip("../shared/corpus/WTN is not present")
    names = _original_names(corpus)
    assert sorted(p.name for p in folder.iterdir()) == sorted(CORPUS)
    for saved, expected in CORPUS.items():
        data = (folder / saved).read_bytes()
        (done,) = process_games(Source(f"wtn/{names[saved]}", data, sha256(data)), encoding=None, options={})
        assert done.code == "WTN" and done.replay is not None, saved
        # Nothing lost: every numbered line is a move of the record.
        lines = [line for line in data.decode("ascii").splitlines() if re.match(r"[0-9]+:", line)]
        assert len(done.record.moves) == len(lines), saved
        assert (done.meta.first, done.meta.event) == (("alphazero" if "az_vs" in saved else "human"), "2018CCGC"), saved
        errors = [(d.code, d.line) for d in done.diagnostics if d.severity == "error"]
        if expected is None:
            assert errors == [] and len(done.replay.plies) == len(lines), saved
            decision = done.replay.decision
            assert decision is not None and decision.rule == "corner" and decision.winner == done.meta.result, saved
        else:
            code, line, replayed = expected
            assert errors == [(code, line)] and len(done.replay.plies) == replayed, saved
        assert all(d.severity != "warning" for d in done.diagnostics), [d.message for d in done.diagnostics]


# -- the demo event ------------------------------------------------------------------------


def _demo():
    spec = importlib.util.spec_from_file_location("demo_wtn", REPO / "benchmarks" / "demo_wtn.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("demo_wtn", module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_demo_event_is_a_round_robin_of_matches_with_its_two_faults() -> None:
    folder = REPO / "content" / "2025-wtn"
    if not folder.is_dir():
        pytest.skip("content/2025-wtn is not there: python benchmarks/demo_wtn.py")
    demo = _demo()
    files = demo.event_files()
    # What is in content/ is what the demo player writes, byte for byte.
    assert {p.name: p.read_bytes() for p in folder.glob("WTN-*")} == files
    done = []
    for name, data in sorted(files.items()):
        done += process_games(
            Source(f"2025-wtn/{name}", data, sha256(data)), encoding=None, options={}, folder=Metadata(event=demo.EVENT)
        )
    assert len(done) == 6 * demo.GAMES_PER_MATCH
    pairs = collections.Counter(frozenset((d.meta.first, d.meta.second)) for d in done)
    assert len(pairs) == 6 and set(pairs.values()) == {demo.GAMES_PER_MATCH}
    assert sum(d.replay.first_letter == "B" for d in done if d.replay) == 12  # blue moved first in games 2 and 4
    errors = collections.Counter(d.code for g in done for d in g.diagnostics if d.severity == "error")
    assert errors == {"RULE-E602": 1, "RES-E001": 1}
    for game in done:
        if any(d.severity == "error" for d in game.diagnostics):
            continue
        assert game.replay is not None and game.replay.decision is not None and not game.replay.not_replayed
        assert game.meta.result in (None, game.replay.decision.winner)


# -- pages ----------------------------------------------------------------------------------


def test_a_match_file_builds_a_page_per_game_with_the_die_beside_the_board(tmp_path: Path) -> None:
    folder = tmp_path / "content" / "cup"
    folder.mkdir(parents=True)
    second = EXAMPLE.replace("[先手参赛队 R][后手参赛队 B][后手胜]", "[后手参赛队 B][先手参赛队 R][先手胜]").replace(
        "1:5;(R5,C3)\n2:1;(B1,D4)MARK[3]\n3:4;(R4,A3)\n4:4;(B4,B2)\n", "1:6;(B6,D2)\n2:2;(R2,C4)\n"
    )
    name = "WTN-先手参赛队 vs 后手参赛队-后手胜-2017.07.29 重庆-2017 CCGC.txt"
    (folder / name).write_text(EXAMPLE + second, encoding="gb18030")
    out = tmp_path / "site"
    config, _ = load_config(content=tmp_path / "content", output=out)
    Builder(config, cache_dir=tmp_path / "cache").build()
    listed = [json.loads(line) for line in (out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(g["code"], g["result"]) for g in listed] == [("WTN", "second"), ("WTN", "first")]
    first, second_page = ((out / g["url"]).read_text(encoding="utf-8") for g in listed)
    assert "q-board-einstein" in first
    # The die beside the board: a counter the viewer sets at every move, its last value shown without JavaScript.
    assert re.search(r"<dt>骰子</dt><dd data-count=\"die\">4</dd>", first)
    assert re.search(r"<dt>骰子</dt><dd data-count=\"die\">2</dd>", second_page)
    # The move list in players' words, the record's text on hover.
    for label, written in (("5: R5 B4-C3", "5;(R5,C3)"), ("1: B1 E3-D4", "1;(B1,D4)"), ("4: R4 A4xA3", "4;(R4,A3)")):
        assert re.search(rf'title="{re.escape(written)}">(<span class="q-n">[^<]*</span> ?)?<span class="q-label">{label}<', first), label
    # The final position without JavaScript: eleven numbered pieces (red's 6 was taken by red's 4).
    board = first[first.index("q-board-einstein") :]
    board = board[: board.index("</svg>")]
    assert len(re.findall(r'<use href="#q-wtn-n[1-6]-(?:red|blue)"', board)) == 11
    assert '<use href="#q-wtn-n4-red" x="66" y="194"/>' in board  # on A3
    data = json.loads(re.search(r'<script type="application/json" class="q-data">(.*?)</script>', first, re.S)[1])
    assert [ply["o"][0] for ply in data["plies"]] == [["count", "die", d] for d in (5, 1, 4, 4)]

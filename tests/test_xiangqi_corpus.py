"""Real xiangqi records (../shared/corpus/CC) and the demo's xiangqi event, built as a user builds them.

Every corpus file must read and replay to its end with no error, and the files
built as one event must give standings that agree with the results they
declare. The corpus tests skip where ../shared/corpus is absent.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DEMO_CONTENT

from generator.model import Source
from generator.pipeline import process, sha256

# The moves in each real file (full moves and plies), counted by hand from the files.
PLIES = {
    "CC_01_ccgc2006_r1_baodao_vs_xiangyan.pgn": 26,
    "CC_02_ccgc2006_r2_draw.pgn": 61,
    "CC_03_ccgc2006_xuanfeng_wins.pgn": 123,
    "CC_04_ccgc2006_r13_long.pgn": 174,
    "CC_05_ccgc2006_r23_longest_draw.pgn": 221,
    "CC_06_ccgc2006_r20.pgn": 66,
    "CC_07_xqbase_xqftools_sample.pgn": 75,
    "CC_08_hbsxcjp_iccs_lowercase_comments.pgn": 29,
}
DECLARED = {
    "CC_01_ccgc2006_r1_baodao_vs_xiangyan.pgn": ("宝岛一号", "相眼竞技", "second"),
    "CC_02_ccgc2006_r2_draw.pgn": ("相眼竞技", "宝岛一号", "draw"),
    "CC_03_ccgc2006_xuanfeng_wins.pgn": ("象棋旋风", "相眼竞技", "first"),
    "CC_04_ccgc2006_r13_long.pgn": ("相眼竞技", "将神传说", "second"),
    "CC_05_ccgc2006_r23_longest_draw.pgn": ("相眼竞技", "天机", "draw"),
    "CC_06_ccgc2006_r20.pgn": ("棋天大圣", "相眼竞技", "first"),
    "CC_07_xqbase_xqftools_sample.pgn": ("许银川", "聂卫平", "first"),
    "CC_08_hbsxcjp_iccs_lowercase_comments.pgn": (None, None, "unknown"),
}


def qipu(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8"
    )


@pytest.mark.parametrize("name", sorted(PLIES))
def test_every_real_file_reads_and_replays_to_its_end(corpus, name):
    data = (corpus / "CC" / name).read_bytes()
    processed = process(Source(f"2006-cc/{name}", data, sha256(data)), encoding=None, options={})
    assert processed.code == "CC"
    errors = [d.format() for d in processed.diagnostics if d.severity == "error"]
    assert errors == []
    assert processed.replay is not None and processed.replay.not_replayed == []
    assert processed.plies == PLIES[name]
    first, second, result = DECLARED[name]
    assert (processed.meta.first, processed.meta.second, processed.declared) == (first, second, result)
    # Every ply is labelled in Chinese notation; the files in Chinese notation read back as written.
    labels = [p.label for p in processed.replay.plies]
    assert all(re.fullmatch(r"[前后中]?[帅仕相马车炮兵将士象卒][一二三四五六七八九１-９]?[进退平][一二三四五六七八九１-９]", label) for label in labels)
    if processed.record is not None and processed.record.moves[0].parts:
        assert labels == [m.text.replace("後", "后") for m in processed.record.moves]


def test_the_decided_games_end_as_declared(corpus):
    # A game that ends in checkmate: the rules decide, and they agree with the file.
    for name in ("CC_03_ccgc2006_xuanfeng_wins.pgn", "CC_04_ccgc2006_r13_long.pgn"):
        data = (corpus / "CC" / name).read_bytes()
        processed = process(Source(name, data, sha256(data)), encoding=None, options={})
        if processed.replay and processed.replay.decision:
            assert processed.replay.decision.winner == processed.declared


def _standings(page: str) -> dict[str, tuple[int, int, int, int]]:
    """Team -> (games, wins, draws, losses) from the first standings table of an event page."""
    table = page.split('<table class="q-standings">', 1)[1].split("</table>", 1)[0]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        cells = re.findall(r"<td>(.*?)</td>", row, re.S)
        if len(cells) >= 6:
            team = html.unescape(re.sub(r"<[^>]+>", "", cells[1])).strip()
            rows[team] = tuple(int(re.sub(r"<[^>]+>", "", c)) for c in cells[2:6])
    return rows


def _expected(lines: list[dict]) -> dict[str, tuple[int, int, int, int]]:
    tally: dict[str, list[int]] = {}
    for game in lines:
        result = game["result"]
        if not game["first"] or not game["second"] or result not in ("first", "second", "draw"):
            continue
        for seat, team in (("first", game["first"]), ("second", game["second"])):
            row = tally.setdefault(team, [0, 0, 0, 0])
            row[0] += 1
            row[1 if result == seat else 2 if result == "draw" else 3] += 1
    return {team: (g, w, d, lost) for team, (g, w, d, lost) in tally.items()}


def test_the_corpus_built_as_one_event_gives_standings_of_the_declared_results(corpus, tmp_path):
    content = tmp_path / "content" / "2006-cc"
    content.mkdir(parents=True)
    for name in PLIES:
        (content / name).write_bytes((corpus / "CC" / name).read_bytes())  # a temporary copy only
    done = qipu("build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "site"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    lines = [json.loads(line) for line in (site / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == len(PLIES) and all(g["code"] == "CC" for g in lines)
    # Where the rules decide they agree with the file; the result that counts is the declared one.
    assert all(g["result"] == g["declared"] for g in lines if g["declared"] != "unknown")
    page = (site / "events" / "2006-cc" / "index.html").read_text(encoding="utf-8")
    table = _standings(page)
    expected = _expected(lines)
    assert {team: table[team] for team in expected} == expected
    assert table["相眼竞技"] == (6, 1, 2, 3)  # by hand: the six 2006 files it played


def test_the_demo_event_builds_with_standings_and_its_faults(tmp_path):
    folder = DEMO_CONTENT / "2025-cc"
    if not folder.is_dir():
        pytest.skip("content/2025-cc is made by benchmarks/demo_cc.py")
    records = sorted(folder.glob("CC-*.txt"))
    assert len(records) == 12
    found = {}
    for path in records:
        data = path.read_bytes()
        processed = process(Source(f"2025-cc/{path.name}", data, sha256(data)), encoding=None, options={})
        assert processed.code == "CC" and processed.replay is not None
        found[path.name] = processed
    # The two faults on purpose: a checkmate declared the other way (by the header and the file name),
    # a Chinese move named by its crowded file.
    wrong = [name for name, p in found.items() if any(d.code == "RES-E001" for d in p.diagnostics)]
    crowded = [name for name, p in found.items() if any(d.code == "RULE-W501" for d in p.diagnostics)]
    assert len(wrong) == 1 and len(crowded) == 1
    assert found[wrong[0]].result == "first" and found[wrong[0]].declared == "second"
    errors = [d for p in found.values() for d in p.diagnostics if d.severity == "error" and d.code != "RES-E001"]
    assert errors == []
    assert all(not p.replay.not_replayed for p in found.values())
    teams = {t for p in found.values() for t in (p.meta.first, p.meta.second)}
    assert len(teams) == 4

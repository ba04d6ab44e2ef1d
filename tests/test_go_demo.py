"""The demo archive's GO9, NoGo, Phantom Go and Hex events, as an organiser checks them.

Every record goes through the whole pipeline with the event's options from
site.toml: each pairing played twice with each side first once, the only
errors are the ones put there on purpose, the rules decide most games and
agree with the declared result, Phantom Go records hold failed attempts, and
the built event pages show standings with every team.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from generator.build import build_site
from generator.config import load_config
from generator.model import Source
from generator.pipeline import Processed, event_key, process, sha256

REPO = Path(__file__).resolve().parents[1]
CONTENT = REPO / "content"
EVENTS = {"2025-go9": "GO9", "2025-ng": "NG", "2025-pg": "PG", "2025-hex": "HEX"}

# Broken on purpose, and the one error each must show.
BROKEN = {
    "2025-go9/GO9-电子科大·蜀道 B vs 东大·白山 W-后手胜-2025.12.06 13.30 北京-2025 计算机博弈锦标赛 九路围棋.txt": "RULE-E304",
    "2025-ng/NG-西电·无围 B vs 重大·山城 W-后手胜-2025.12.07 10.00 北京-2025 计算机博弈锦标赛 不围棋.txt": "RULE-E307",
    "2025-hex/HEX-华科·龟甲 R vs 北理工·六角 B-后手胜-2025.12.08 13.30 北京-2025 计算机博弈锦标赛 海克斯棋.txt": "RES-E001",
}


@pytest.fixture(scope="module")
def games() -> dict[str, list[Processed]]:
    if not all((CONTENT / e).is_dir() for e in EVENTS):
        pytest.skip("the demo content is not there")
    cfg, found = load_config(REPO / "site.toml")
    assert found == []
    out: dict[str, list[Processed]] = {}
    for event in EVENTS:
        for path in sorted((CONTENT / event).glob("*.txt")):
            rel = path.relative_to(CONTENT).as_posix()
            data = path.read_bytes()
            options = {code: dict(rules.options) for code, rules in cfg.events[event].games.items()}
            out.setdefault(event, []).append(process(Source(rel, data, sha256(data)), encoding=None, options=options))
    return out


def errors(p: Processed) -> list[str]:
    return sorted({d.code for d in p.diagnostics if d.severity == "error"})


def test_each_event_is_a_double_round_robin(games):
    for event, code in EVENTS.items():
        played = games[event]
        assert {p.code for p in played} == {code}
        pairs = Counter((p.meta.first, p.meta.second) for p in played)
        teams = {t for pair in pairs for t in pair}
        assert len(teams) >= 4, event
        assert set(pairs.values()) == {1}, "each side first once"
        assert len(pairs) == len(teams) * (len(teams) - 1), event


def test_only_the_broken_records_have_errors(games):
    for p in (p for played in games.values() for p in played):
        assert errors(p) == ([BROKEN[p.source]] if p.source in BROKEN else []), p.source


def test_the_rules_decide_most_games_and_agree_with_the_declared_result(games):
    rules = {"GO9": "score", "NG": "no-legal-move", "PG": "score", "HEX": "connection"}
    for event, code in EVENTS.items():
        decided = [p for p in games[event] if p.replay.decision is not None]
        assert len(decided) >= len(games[event]) - 3, event
        for p in decided:
            assert p.replay.decision.rule == rules[code]
            if p.source not in BROKEN:
                assert p.computed == p.declared, p.source
    # Go games that end with two passes carry their area count.
    scored = [p.replay.decision for p in games["2025-go9"] if p.replay.decision]
    assert all(d.score and d.score["komi"] == 7.5 for d in scored)
    # Two GO9 games were resigned: the declared result stands.
    assert sum(1 for p in games["2025-go9"] if p.replay.decision is None and not errors(p)) == 2


def test_phantom_go_records_hold_failed_attempts(games):
    for p in games["2025-pg"]:
        sides = [m.side for m in p.record.moves]
        assert any(a == b for a, b in zip(sides, sides[1:])), "the same colour twice: a failed attempt"
        counts = [op for ply in p.replay.plies for op in ply.ops if op[0] == "count" and op[1].startswith("attempts.")]
        assert counts, p.source
        # Every move is hidden from the opponent; a pass is announced to both.
        for ply, move in zip(p.replay.plies, p.record.moves):
            assert ply.visible_to == (None if move.passed else (ply.side,)), ply.label


def test_each_team_plays_once_per_round_and_the_stronger_teams_lead(games):
    for event in EVENTS:
        slots = Counter((team, p.meta.time) for p in games[event] for team in (p.meta.first, p.meta.second))
        assert set(slots.values()) == {1}, f"{event}: a team plays two games at one time"
    # The demo's players differ in strength (benchmarks/demo_go.py): the first-listed,
    # strongest GO9 team scores more than the last-listed, weakest one.
    points = Counter()
    for p in games["2025-go9"]:
        if p.result in ("first", "second"):
            points[p.meta.first if p.result == "first" else p.meta.second] += 2
    assert points["北邮·星弈"] > points["电子科大·蜀道"]


def test_the_writers_habits_are_read_as_the_standard_means(games):
    """The records vary as real writers' do, and the reader takes each habit in its stride."""
    played = [p for ps in games.values() for p in ps]
    raw = {p.source: (CONTENT / p.source).read_bytes() for p in played}

    def having(habit: bytes, at_start: bool = False) -> list[Processed]:
        found = [p for p in played if (raw[p.source].startswith(habit) if at_start else habit in raw[p.source])]
        assert found, f"no demo record has {habit!r}"
        for p in found:
            assert p.record is not None and p.record.moves, p.source
        return found

    having(b"\xef\xbb\xbf", at_start=True)  # UTF-8 with a BOM: read, the mark not taken for text
    assert sum(1 for b in raw.values() if not b.startswith(b"\xef\xbb\xbf")) > len(raw) // 2, "mostly GBK"
    for p in having("；".encode("gbk")):  # full-width semicolons: read as ';', with a note
        assert "FMT-N101" in {d.code for d in p.diagnostics}, p.source
    for habit in (b"[tt]", b"B[]"):  # both ways to pass
        for p in having(habit):
            assert any(m.passed for m in p.record.moves), p.source
    for p in having(b"[(GO9)", at_start=True):  # the standard's own bracket slip: a warning, and read
        assert "FMT-W301" in {d.code for d in p.diagnostics}, p.source
    marks = {m.mark for p in having(b"MARK[-") for m in p.record.moves}
    assert {-1, -2} & marks, "negative MARK values are kept"


def test_the_built_event_pages_show_every_team(tmp_path, games):
    cfg, _ = load_config(REPO / "site.toml", output=tmp_path / "site")
    report = build_site(cfg, jobs=1, cache_dir=tmp_path / "cache")
    assert report.published
    for event in EVENTS:
        html = (tmp_path / "site" / "events" / event / "index.html").read_text(encoding="utf-8")
        for team in {p.meta.first for p in games[event]}:
            assert team in html, (event, team)
    # A Phantom Go page offers the three views and shows the attempt counters without JavaScript.
    pg = next((tmp_path / "site" / "games" / "2025-pg").glob("*.html")).read_text(encoding="utf-8")
    assert '"views":[["referee"' in pg and "黑方视角" in pg and "白方视角" in pg
    assert 'data-count="attempts.first"' in pg and "黑方失败尝试" in pg
    assert "尝试失败" in pg and "failed attempt" not in pg  # the engine's notes in the page language
    # A Go page shows the count behind the computed result.
    go = [f.read_text(encoding="utf-8") for f in (tmp_path / "site" / "games" / "2025-go9").glob("*.html")]
    assert any("数子：黑方" in html and "贴目 7.5" in html for html in go)
    assert event_key(games["2025-hex"][0].source) == "2025-hex"

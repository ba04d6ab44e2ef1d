"""The demo's Dou Dizhu event (content/2025-p2t1), checked as an organiser would.

Six teams, two rounds of two tables: four session files of six deals each.
The deals wrong on purpose (benchmarks/demo_p2t1.py) give exactly their
diagnostics; every other deal replays to its end (or is void), and its
declared OVER agrees with the rules.
"""

from __future__ import annotations

import collections
import hashlib
import sys
from pathlib import Path

import pytest

from generator import pipeline
from generator.model import Metadata, Source

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "content" / "2025-p2t1"
# code -> deals that have it: the platform's card off by one, the logger's OVER naming the other
# farmer, the logger's full-width semicolons.
FAULTS = {"RULE-E1113": 1, "RULE-E1118": 1, "FMT-N1107": 1, "RULE-N1119": 1}


@pytest.fixture(scope="module")
def done() -> list[pipeline.Processed]:
    if not FOLDER.is_dir():
        pytest.skip("content/2025-p2t1 is not there: python benchmarks/demo_p2t1.py")
    out = []
    for file in sorted(FOLDER.glob("*.txt")):
        data = file.read_bytes()
        source = Source(f"2025-p2t1/{file.name}", data, hashlib.sha256(data).hexdigest())
        out += pipeline.process_games(source, encoding=None, options={}, folder=Metadata(event="2025-p2t1"))
    return out


def test_four_sessions_of_six_deals_every_team_in_two(done: list[pipeline.Processed]) -> None:
    assert len(done) == 24 and all(d.code == "P2T1" for d in done)
    sessions = collections.Counter(d.source for d in done)
    assert len(sessions) == 4 and set(sessions.values()) == {6}
    assert sorted(d.game for d in done)[:6] == [1, 1, 1, 1, 2, 2]
    teams = collections.Counter(team for d in done if d.game == 1 for team in d.players)
    assert len(teams) == 6 and set(teams.values()) == {2}
    assert all(None not in d.players for d in done)  # the logger names the teams in its first deal only


def test_only_the_deals_wrong_on_purpose_have_problems(done: list[pipeline.Processed]) -> None:
    seen: collections.Counter[str] = collections.Counter()
    for d in done:
        problems = {x.code for x in d.diagnostics if x.code in FAULTS or x.severity in ("error", "warning")}
        seen.update(problems)
        assert d.replay is not None
        if "RULE-E1113" not in problems:
            assert not d.replay.not_replayed and d.replay.decision is not None, (d.id, d.diagnostics)
        if d.replay.decision is not None and d.replay.decision.rule == "hand-empty":
            assert d.declared == d.computed, d.id
    assert dict(seen) == FAULTS


def test_scores_are_points_per_seat_that_sum_to_nothing(done: list[pipeline.Processed]) -> None:
    scored = [d for d in done if d.score]
    assert len(scored) >= 22
    for d in scored:
        assert set(d.score) == {"first", "second", "third"} and sum(d.score.values()) == 0
        assert max(abs(v) for v in d.score.values()) <= 2 * 24  # MS[24] caps each farmer's points
    assert any(d.replay.decision.rule == "void" for d in scored)
    # Landlords and farmers both win some deals.
    assert any("+" in d.computed for d in scored) and any("+" not in d.computed and d.computed != "draw" for d in scored)


def test_the_content_is_what_the_demo_player_writes() -> None:
    if not FOLDER.is_dir():
        pytest.skip("content/2025-p2t1 is not there: python benchmarks/demo_p2t1.py")
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import demo_p2t1
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    files = demo_p2t1.event_files()
    assert {p.name: p.read_bytes() for p in FOLDER.glob("*.txt")} == files

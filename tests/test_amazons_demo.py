"""The demo's Amazons event (content/2025-am), checked as an organiser would.

Every file goes through the per-record pipeline: every pair of six teams
played two games, each team moving first once, and the engine log of one
team holds both games of its pairings in one file; the records that are
wrong on purpose (benchmarks/demo_am.py) give exactly their diagnostics, and
every other game replays to its end with the result the rules decide.
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
FOLDER = REPO / "content" / "2025-am"
# The faults put in on purpose (code -> games that have it). The GUI's 输赢未定 beside the file name's
# result is a note (META-N001), the file name's result used; META-W003: a name and a header that disagree.
FAULTS = {"RULE-E412": 1, "FMT-W403": 1, "RES-E001": 1, "META-W003": 1}


@pytest.fixture(scope="module")
def done() -> list[pipeline.Processed]:
    if not FOLDER.is_dir():
        pytest.skip("content/2025-am is not there: python benchmarks/demo_am.py")
    out = []
    for file in sorted(FOLDER.glob("*.txt")):
        data = file.read_bytes()
        source = Source(f"2025-am/{file.name}", data, hashlib.sha256(data).hexdigest())
        out += pipeline.process_games(source, encoding=None, options={}, folder=Metadata(event="2025-am"))
    return out


def test_every_pair_played_twice_each_team_first_once(done: list[pipeline.Processed]) -> None:
    assert len(done) == 30 and all(d.code == "AM" for d in done)
    pairs = collections.Counter((d.meta.first, d.meta.second) for d in done)
    teams = {t for pair in pairs for t in pair}
    assert len(teams) == 6 and all(count == 1 for count in pairs.values())
    assert all((b, a) in pairs for a, b in pairs)
    # The engine log: both games of a pairing in one file, each its own game.
    logs = [d for d in done if d.game]
    assert len(logs) == 10 and {d.game for d in logs} == {1, 2}


def test_only_the_games_wrong_on_purpose_have_problems(done: list[pipeline.Processed]) -> None:
    seen: collections.Counter[str] = collections.Counter()
    for d in done:
        problems = {x.code for x in d.diagnostics if x.severity in ("error", "warning")}
        seen.update(problems)
        assert d.replay is not None
        if "RULE-E412" not in problems:
            assert not d.replay.not_replayed, (d.source, d.diagnostics)
        if d.replay.decision is not None and "RES-E001" not in problems:
            # The GUI's 输赢未定 declares nothing; every other header the winner the rules find.
            assert d.declared == d.replay.decision.winner or d.record.header.result_text == "输赢未定", d.source
    assert dict(seen) == FAULTS


def test_most_games_are_decided_by_the_rules(done: list[pipeline.Processed]) -> None:
    decided = [d for d in done if d.replay and d.replay.decision is not None]
    assert len(decided) >= 20 and all(d.replay.decision.rule == "no-move" for d in decided)


def test_the_content_is_what_the_demo_player_writes() -> None:
    if not FOLDER.is_dir():
        pytest.skip("content/2025-am is not there: python benchmarks/demo_am.py")
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import demo_am
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    files = demo_am.event_files()
    assert {p.name: p.read_bytes() for p in FOLDER.glob("*.txt")} == files

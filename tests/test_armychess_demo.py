"""The demo's army chess event (content/2025-ac2), checked as an organiser would.

Every pair of four teams played two games, each team moving first once; one
team's own referee tool wrote its files (no suffix, AB not reversed, the
flag with the mover's letter, GBK). The records wrong on purpose
(benchmarks/demo_ac2.py) give exactly their diagnostics; every other game
replays to its end with the result the rules decide.
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
FOLDER = REPO / "content" / "2025-ac2"
# The faults put in on purpose (code -> games that have it); META-W003: the swapped EA/EB beside the file name.
FAULTS = {"RULE-E1014": 1, "RES-E001": 1, "META-W003": 1}


@pytest.fixture(scope="module")
def done() -> list[pipeline.Processed]:
    if not FOLDER.is_dir():
        pytest.skip("content/2025-ac2 is not there: python benchmarks/demo_ac2.py")
    out = []
    for file in sorted(FOLDER.iterdir()):
        data = file.read_bytes()
        source = Source(f"2025-ac2/{file.name}", data, hashlib.sha256(data).hexdigest())
        out.append(pipeline.process(source, encoding=None, options={}, folder=Metadata(event="2025-ac2")))
    return out


def test_every_pair_played_twice_each_team_first_once(done: list[pipeline.Processed]) -> None:
    assert len(done) == 12 and all(d.code == "AC2" for d in done)
    pairs = collections.Counter((d.meta.first, d.meta.second) for d in done)
    assert len({t for pair in pairs for t in pair}) == 4 and all(n == 1 for n in pairs.values())
    assert all((b, a) in pairs for a, b in pairs)


def test_only_the_games_wrong_on_purpose_have_problems(done: list[pipeline.Processed]) -> None:
    seen: collections.Counter[str] = collections.Counter()
    tool = 0
    for d in done:
        problems = {x.code for x in d.diagnostics if x.severity in ("error", "warning")}
        seen.update(problems)
        assert d.replay is not None and not d.replay.not_replayed, d.source
        if "FMT-N1001" in {x.code for x in d.diagnostics}:
            tool += 1
        if d.replay.decision is not None and "RES-E001" not in problems:
            assert d.declared == d.replay.decision.winner, d.source
    assert dict(seen) == FAULTS
    assert tool == 5  # the team's own tool wrote five of its six games (the sixth is the organiser's, with a fault)


def test_the_games_end_by_the_rules(done: list[pipeline.Processed]) -> None:
    rules = collections.Counter(d.replay.decision.rule for d in done if d.replay and d.replay.decision)
    assert sum(rules.values()) >= 10 and rules["flag"] >= 2


def test_the_content_is_what_the_demo_player_writes() -> None:
    if not FOLDER.is_dir():
        pytest.skip("content/2025-ac2 is not there: python benchmarks/demo_ac2.py")
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import demo_ac2
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    assert {p.name: p.read_bytes() for p in FOLDER.iterdir()} == demo_ac2.event_files()

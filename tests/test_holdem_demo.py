"""The demo's hold'em event (content/2025-thp), checked as an organiser would.

Every file goes through the per-record pipeline: every pair of four teams
played one match of 70 hands, the teams taking the big blind in turn; the
faults put in on purpose (benchmarks/demo_thp.py) give exactly their
diagnostics, and every other hand replays to its fold or showdown with the
chips the file declares.
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
FOLDER = REPO / "content" / "2025-thp"
# The faults and variants put in on purpose (code -> how many games say it): a raise too small, a
# mistyped closing total, the dealer's logs without a closing line, the standard's A|B names.
FAULTS = {"RULE-E1210": 1, "FMT-E1206": 1, "FMT-W1204": 3, "FMT-N1202": 1}


@pytest.fixture(scope="module")
def done() -> list[pipeline.Processed]:
    if not FOLDER.is_dir():
        pytest.skip("content/2025-thp is not there: python benchmarks/demo_thp.py")
    out = []
    for file in sorted(FOLDER.iterdir()):
        data = file.read_bytes()
        source = Source(f"2025-thp/{file.name}", data, hashlib.sha256(data).hexdigest())
        out += pipeline.process_games(source, encoding=None, options={}, folder=Metadata(event="2025-thp"))
    return out


def test_every_pair_played_one_match_of_70_hands_taking_the_blinds_in_turn(done: list[pipeline.Processed]) -> None:
    assert len(done) == 6 * 70 and all(d.code == "THP" for d in done)
    matches = collections.defaultdict(list)
    for d in done:
        matches[d.source].append(d)
    assert len(matches) == 6
    pairs = set()
    for hands in matches.values():
        assert [h.game for h in hands] == list(range(1, 71))
        teams = {hands[0].meta.first, hands[0].meta.second}
        assert len(teams) == 2 and all({h.meta.first, h.meta.second} == teams for h in hands)
        # The big blind changes hands every hand.
        assert all(a.meta.first == b.meta.second for a, b in zip(hands, hands[1:]))
        pairs.add(frozenset(teams))
    assert len(pairs) == 6 and len({t for pair in pairs for t in pair}) == 4


def test_only_the_faults_put_in_on_purpose_are_reported(done: list[pipeline.Processed]) -> None:
    seen: collections.Counter[str] = collections.Counter()
    for d in done:
        seen.update({x.code for x in d.diagnostics})
        assert d.replay is not None
        if "RULE-E1210" in {x.code for x in d.diagnostics}:
            assert d.replay.not_replayed and d.replay.decision is None
            assert d.score == d.meta.score  # the declared chips stand
            continue
        assert not d.replay.not_replayed and d.replay.decision is not None, d.source
        decision = d.replay.decision.score
        assert decision == d.meta.score, (d.source, d.game)
    assert dict(seen) == FAULTS


def test_chips_per_team_add_up_to_zero_over_the_event(done: list[pipeline.Processed]) -> None:
    won: collections.Counter[str] = collections.Counter()
    for d in done:
        assert d.score is not None
        won[d.meta.first] += d.score["first"]
        won[d.meta.second] += d.score["second"]
    assert len(won) == 4 and sum(won.values()) == 0


def test_the_demo_is_made_again_the_same() -> None:
    sys.path.insert(0, str(REPO / "benchmarks"))
    import demo_thp

    files = demo_thp.event_files()
    on_disk = {f.name: f.read_bytes() for f in FOLDER.iterdir()} if FOLDER.is_dir() else {}
    assert len(files) == 6
    if on_disk:
        assert files == on_disk

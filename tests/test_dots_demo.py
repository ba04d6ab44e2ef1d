"""The demo's dots and boxes event (content/2025-db), checked as an organiser would.

Every record goes through the per-record pipeline with the event's name from
site.toml (the folder's name while the event has no table there): every pair
of teams played twice, each team moving first once; the records that are
wrong on purpose (benchmarks/demo_db.py) give exactly their diagnostics, and
every other record is played to its last edge with the result and the score
the rules decide.
"""

from __future__ import annotations

import collections
import hashlib
import sys
from pathlib import Path

import pytest

from generator import config as site_config
from generator import pipeline
from generator.model import Metadata, Source

REPO = Path(__file__).resolve().parents[1]
EVENT = "2025-db"
# The faults put in on purpose: how many records of the event have each.
FAULTS = {"FMT-E901": 1, "RULE-E902": 1, "FMT-W901": 1}


def _processed():
    folder = REPO / "content" / EVENT
    if not folder.is_dir():
        pytest.skip(f"content/{EVENT} is not there: python benchmarks/demo_db.py")
    cfg, _ = site_config.load_config(REPO / "site.toml")
    name = cfg.events[EVENT].name if EVENT in cfg.events else EVENT
    out = []
    for file in sorted(folder.glob("*.txt")):
        data = file.read_bytes()
        rel = file.relative_to(REPO / "content").as_posix()
        out.append(pipeline.process(Source(rel, data, hashlib.sha256(data).hexdigest()), encoding=None, options={},
                                    folder=Metadata(event=name)))
    return out


def test_a_double_round_robin_each_team_first_once():
    done = _processed()
    assert len(done) == 12 and all(d.code == "DB" for d in done)
    pairs = collections.Counter((d.meta.first, d.meta.second) for d in done)
    teams = {t for pair in pairs for t in pair}
    assert len(teams) == 4 and all(count == 1 for count in pairs.values())
    assert all((b, a) in pairs for a, b in pairs)
    # Either colour moved first somewhere (the contest GUI always lets red begin).
    assert {d.replay.first_letter for d in done} == {"R", "B"}


def test_only_the_records_wrong_on_purpose_have_problems():
    seen: collections.Counter[str] = collections.Counter()
    for d in _processed():
        problems = {x.code for x in d.diagnostics if x.severity in ("error", "warning")}
        seen.update(problems)
        if "FMT-E901" in problems:
            # Cut off while saving: what was written replays, the declared result stands.
            assert d.replay.decision is None and d.result == d.declared and d.plies > 0
            continue
        assert not d.replay.not_replayed, (d.source, d.diagnostics)
        if d.replay.decision is not None:
            assert d.plies == 60 and d.declared == d.replay.decision.winner, d.source
            assert sum(d.score.values()) == 25
    assert dict(seen) == FAULTS


def test_the_aborted_game_is_a_declared_result():
    (aborted,) = [d for d in _processed() if d.replay.decision is None and not d.diagnostics]
    assert 0 < aborted.plies < 60 and aborted.result == aborted.declared == "second"


def test_the_swapped_score_is_named_and_the_boxes_count():
    done = _processed()
    (swapped,) = [d for d in done if any(x.code == "RULE-E902" for x in d.diagnostics)]
    (error,) = [x for x in swapped.diagnostics if x.code == "RULE-E902"]
    first, second = swapped.score["first"], swapped.score["second"]
    assert f"but the boxes taken are Red {first:g}, Blue {second:g}" in error.message
    assert f"the record declares Red {second:g}, Blue {first:g}" in error.message


def test_the_demo_writer_is_reproducible():
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import demo_db
    finally:
        sys.path.pop(0)
    files = demo_db.event_files()
    on_disk = {p.name: p.read_bytes() for p in (REPO / "content" / EVENT).glob("*.txt")}
    assert files == on_disk

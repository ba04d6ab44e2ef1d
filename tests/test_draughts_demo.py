"""The demo's draughts events (content/2025-dr10, content/2025-dr8), checked as an organiser would.

Every record goes through the per-record pipeline with the event's rule
options (site.toml; the game's defaults where the event has no table yet):
every pair of teams played twice, each team moving first once; the records
that are wrong on purpose (benchmarks/demo_dr.py) give exactly their
diagnostics, and every other record replays to its end with the result the
rules decide, where they decide one.
"""

from __future__ import annotations

import collections
import hashlib
from pathlib import Path

import pytest

from generator import config as site_config
from generator import games, pipeline
from generator.model import Metadata, Source

REPO = Path(__file__).resolve().parents[1]
EVENTS = {"2025-dr10": "DR10", "2025-dr8": "DR8"}
# The faults put in on purpose: code -> how many records of the event have it.
FAULTS = {
    "2025-dr10": {"RULE-E805": 1, "RES-E001": 1},  # a smaller capture than the majority rule allows; 1-0 misread
    "2025-dr8": {"RULE-E808": 1, "FMT-W802": 1},  # Brazilian capture in a Russian event; no 先手 line
}


def _processed(event: str):
    cfg, _ = site_config.load_config(REPO / "site.toml")
    code = EVENTS[event]
    folder = REPO / "content" / event
    if not folder.is_dir():
        pytest.skip(f"content/{event} is not there: python benchmarks/demo_dr.py")
    out = []
    for file in sorted(folder.glob("*.txt")):
        rel = file.relative_to(REPO / "content").as_posix()
        data = file.read_bytes()
        known = event in cfg.events
        options = {code: cfg.rules_for(event, code).options} if known else {code: dict(games.GAMES[code].options)}
        name = cfg.events[event].name if known else event
        done = pipeline.process(
            Source(rel, data, hashlib.sha256(data).hexdigest()), encoding=None, options=options, folder=Metadata(event=name)
        )
        out.append(done)
    return out


@pytest.mark.parametrize("event", sorted(EVENTS))
def test_a_double_round_robin_each_team_first_once(event):
    done = _processed(event)
    assert len(done) == 12
    pairs = collections.Counter((d.meta.first, d.meta.second) for d in done)
    teams = {t for pair in pairs for t in pair}
    assert len(teams) == 4 and all(count == 1 for count in pairs.values())
    assert all((b, a) in pairs for a, b in pairs)
    assert all(d.code == EVENTS[event] for d in done)


@pytest.mark.parametrize("event", sorted(EVENTS))
def test_only_the_records_wrong_on_purpose_have_problems(event):
    done = _processed(event)
    seen: collections.Counter[str] = collections.Counter()
    for d in done:
        problems = {x.code for x in d.diagnostics if x.severity in ("error", "warning") and not x.code.startswith("META-")}
        seen.update(problems)
        if not problems & {"RULE-E805", "RULE-E808"}:
            assert not d.replay.not_replayed, (d.path, d.diagnostics)
        if d.replay.decision is not None and "RES-E001" not in problems:
            assert d.record.header.result == d.replay.decision.winner, d.path
    assert dict(seen) == FAULTS[event]


def test_the_brazilian_capture_is_named_as_such():
    done = _processed("2025-dr8")
    (error,) = [x for d in done for x in d.diagnostics if x.code == "RULE-E808"]
    assert "not allowed under Russian rules (a man crowned during a capture goes on capturing as a king)" in error.message
    assert "but allowed under Brazilian rules" in error.message


def test_some_games_are_decided_by_the_rules_and_others_declared():
    done = [d for event in EVENTS for d in _processed(event)]
    decided = [d for d in done if d.replay.decision is not None]
    assert decided and len(decided) < len(done)

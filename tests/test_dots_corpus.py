"""The real dots and boxes files of ../shared/corpus/DB: every one becomes a game, nothing lost.

The corpus is read where it lies (never copied into the project); the tests
skip when it is not there.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from generator import pipeline
from generator.model import Source

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus" / "DB"


def _files() -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(f"the real-file corpus is not there: {CORPUS}")
    return sorted(p for p in CORPUS.iterdir() if p.is_file())


def _process(path: Path) -> pipeline.Processed:
    data = path.read_bytes()
    return pipeline.process(Source(f"corpus/{path.name}", data, hashlib.sha256(data).hexdigest()), encoding=None, options={})


def test_every_real_file_reads_and_replays_every_piece():
    files = _files()
    assert files
    for path in files:
        done = _process(path)
        assert done.code == "DB", path.name
        assert not [d for d in done.diagnostics if d.severity == "error"], (path.name, done.diagnostics)
        # Nothing lost: every piece of the file's JSON is a move, and every move replays.
        pieces = [entry["piece"] for entry in json.loads(path.read_bytes())["game"]]
        assert [m.text for m in done.record.moves] == pieces, path.name
        assert len(done.replay.plies) == len(pieces) and not done.replay.not_replayed


def test_the_gotack_record_an_aborted_game_of_three_moves():
    path = next((p for p in _files() if p.name == "DB_01_gotack_record.txt"), None)
    if path is None:
        pytest.skip("DB_01_gotack_record.txt is not in the corpus")
    done = _process(path)
    # Lower-case "winner", scores as numbers, "2023-11-3", both teams "B0"; blue wrote the first piece.
    assert [d.code for d in done.diagnostics] == []
    assert done.replay.first_letter == "B" and [p.colour for p in done.replay.plies] == ["blue", "red", "blue"]
    assert (done.meta.first, done.meta.second, done.meta.date, done.meta.event) == ("B0", "B0", "2023-11-03", "tack")
    # Three edges decide nothing: the declared winner (blue, who moved first) stands, with its declared 0:0.
    assert done.replay.decision is None
    assert (done.declared, done.result, done.score) == ("first", "first", {"first": 0.0, "second": 0.0})

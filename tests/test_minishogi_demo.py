"""The demo's minishogi event (content/2025-msk): a double round robin, read and replayed as a build does."""

from __future__ import annotations

import collections
import hashlib
import sys
from pathlib import Path

import pytest

from generator import pipeline
from generator.model import Metadata, Source

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "content" / "2025-msk"
sys.path.insert(0, str(REPO / "benchmarks"))

import demo_msk  # noqa: E402


@pytest.fixture(scope="module")
def done() -> dict[str, pipeline.Processed]:
    out = {}
    for file in sorted(FOLDER.glob("*.txt")):
        data = file.read_bytes()
        source = Source(f"2025-msk/{file.name}", data, hashlib.sha256(data).hexdigest())
        out[file.name] = pipeline.process(source, encoding=None, options={}, folder=Metadata(event=demo_msk.EVENT))
    return out


def test_the_folder_is_what_the_generator_writes():
    files = demo_msk.event_files()
    assert sorted(files) == sorted(p.name for p in FOLDER.glob("*.txt"))
    for name, data in files.items():
        assert (FOLDER / name).read_bytes() == data, name


def test_every_pair_plays_twice_with_each_side_first_once(done):
    pairs = collections.Counter((p.meta.first, p.meta.second) for p in done.values())
    assert len(pairs) == 12 and set(pairs.values()) == {1}
    assert {p.code for p in done.values()} == {"MSK"}
    assert {p.meta.first for p in done.values()} == set(demo_msk.TEAMS)


def test_the_records_replay_and_only_the_faults_made_on_purpose_are_errors(done):
    errors = {name: [d.code for d in p.diagnostics if d.severity == "error"] for name, p in done.items()}
    faulty = {name: codes for name, codes in errors.items() if codes}
    assert sorted(faulty.values()) == [["RES-E001"], ["RULE-E704"]]
    for name, p in done.items():
        assert p.replay is not None and not p.replay.not_replayed, name  # the wrong piece code does not stop it
        warnings = [d.code for d in p.diagnostics if d.severity == "warning"]
        # The file name typed by hand also disagrees with the record's own %TORYO.
        assert warnings == (["META-W003"] if "RES-E001" in errors[name] else []), (name, warnings)
    wrong_piece = next(p for name, p in done.items() if errors[name] == ["RULE-E704"])
    bad = next(d for d in wrong_piece.diagnostics if d.code == "RULE-E704")
    assert wrong_piece.record is not None
    assert wrong_piece.record.moves[[m.line for m in wrong_piece.record.moves].index(bad.line)].text.endswith("HI")


def test_results_come_from_mates_and_resignations(done):
    decided = [p for p in done.values() if p.computed is not None]
    assert decided, "some games end in checkmate"
    assert all(p.result in ("first", "second") for p in done.values())
    resigned = [p for p in done.values() if p.computed is None]
    assert all(p.record is not None and p.record.header.result_text == "%TORYO" for p in resigned)


def test_the_move_list_is_in_japanese_notation(done):
    labels = [ply.label for p in done.values() if p.replay for ply in p.replay.plies]
    assert all(label[0] in "▲△" for label in labels)
    assert any(label.endswith("打") for label in labels)
    assert any(label.endswith("成") for label in labels)
    assert any("同" in label for label in labels)

"""The demo's bridge event (content/2025-br), checked as an organiser would.

Four teams, a round robin of three rounds, each match sixteen boards at two
tables: twelve PBN files of sixteen boards. The boards wrong on purpose
(benchmarks/demo_br.py) give exactly their diagnostics; every other board
replays to its end or to its claim, and the two tables of each board give
the IMPs their files declare.
"""

from __future__ import annotations

import collections
import hashlib
from pathlib import Path

import pytest

from generator import pipeline
from generator.model import Metadata, Source
from generator.rules import bridge

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "content" / "2025-br"
FAULTS = {"RULE-E1314": 1, "RULE-E1317": 1}


@pytest.fixture(scope="module")
def done() -> list[pipeline.Processed]:
    if not FOLDER.is_dir():
        pytest.skip("content/2025-br is not there: python benchmarks/demo_br.py")
    out = []
    for file in sorted(FOLDER.glob("*.pbn")):
        data = file.read_bytes()
        source = Source(f"2025-br/{file.name}", data, hashlib.sha256(data).hexdigest())
        out += pipeline.process_games(source, encoding=None, options={}, folder=Metadata(event="2025-br"))
    return out


def test_twelve_files_of_sixteen_boards_at_two_tables(done: list[pipeline.Processed]) -> None:
    assert len(done) == 12 * 16 and all(d.code == "BR" for d in done)
    assert collections.Counter(d.meta.room for d in done) == {"Open": 96, "Closed": 96}
    assert {d.meta.board for d in done} == {str(n) for n in range(1, 17)}
    teams = {d.meta.first for d in done} | {d.meta.second for d in done}
    assert len(teams) == 4
    # Each team sits North-South in one room and East-West in the other.
    for d in done:
        players = d.meta.players
        assert players[0] == players[2] and players[1] == players[3] and players[0] != players[1]


def test_only_the_boards_wrong_on_purpose_have_problems(done: list[pipeline.Processed]) -> None:
    seen: collections.Counter[str] = collections.Counter()
    for d in done:
        problems = {x.code for x in d.diagnostics if x.severity in ("error", "warning")}
        seen.update(problems)
        assert d.replay is not None and d.score is not None
        if "RULE-E1314" not in problems:
            assert not d.replay.not_replayed and d.replay.decision is not None, d.id
    assert seen == FAULTS


def test_the_two_tables_give_the_declared_imps(done: list[pipeline.Processed]) -> None:
    tables: dict[tuple[str, str], dict[str, pipeline.Processed]] = collections.defaultdict(dict)
    for d in done:
        home = d.meta.first if d.meta.room == "Open" else d.meta.second
        match = (str(home), d.source.split("-闭室")[0].split("-开室")[0])
        tables[(match[1], str(d.meta.board))][str(d.meta.room)] = d
    assert len(tables) == 6 * 16
    compared = 0
    for pair in tables.values():
        open_room, closed = pair["Open"], pair["Closed"]
        assert open_room.record is not None and closed.record is not None
        assert open_room.record.tags["Deal"] == closed.record.tags["Deal"]
        assert open_room.score is not None and closed.score is not None
        difference = int(open_room.score[bridge.NS] - closed.score[bridge.NS])
        if "RULE-E1317" not in {x.code for x in closed.diagnostics}:
            assert open_room.record.tags["ScoreIMP"] == f"NS {bridge.imps(difference)}"
            compared += 1
    assert compared == 6 * 16 - 1

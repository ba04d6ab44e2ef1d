"""Invariants of random army chess games (no oracle exists: ../shared/ORACLES.md, 3.7).

Random games are played by the demo's player (benchmarks/demo_ac2.py),
written as the standard's records and replayed through the reader and the
rules. Whatever the game, a user checks: no error; pieces only ever leave
the board; mines and flags never move; no piece in a camp is attacked; the
game ends where the player's referee ended it; each player's view shows the
opponent's pieces face down except the flag the rules reveal; and the same
game mirrored left to right replays to the mirrored end.

    AC2_LONG=2000 python -m pytest tests/test_armychess_random.py -m armychess_long -p no:warnings
"""

from __future__ import annotations

import collections
import os
import random
import re
import sys
from pathlib import Path

import pytest

from generator import games
from generator.formats import armychess as fmt
from generator.model import Text
from generator.rules import armychess as ac
from generator.scene import Position, apply, ops_for

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
try:
    import demo_ac2 as demo
finally:
    sys.path.remove(str(REPO / "benchmarks"))

AC2 = games.GAMES["AC2"]
CAMP_CELLS = {ac.CELLS[i] for i in ac.CAMPS}


def random_game(seed: int) -> demo.Game:
    # One game in five by a timid player that never attacks: those end by SL (no battle) or a blocked side.
    return demo.play(random.Random(seed), demo.Game("甲", "乙", "09:00"), eager=0.0 if seed % 5 == 0 else 0.85)


def replay_text(text: str):
    record = fmt.parse(Text("AC2-甲 vs 乙.txt", text, "utf-8"), AC2)
    return record, ac.replay(record, AC2)


def mirrored(text: str) -> str:
    """The record mirrored left to right: every cell's column c becomes 4 - c, each layout row reversed."""
    out = []
    for line in text.splitlines():
        if line.startswith((";AA[", ";AB[")):
            name, value = line[1:3], line[4:-1]
            rows, at = [], 0
            for size in _row_sizes(top=name == "AB"):
                rows.append(value[at : at + size][::-1])
                at += size
            out.append(f";{name}[{''.join(rows)}]")
            continue
        out.append(re.sub(r"(?<=[\[A-L0-9])([A-L])([0-4])", lambda m: f"{m[1]}{4 - int(m[2])}", line) if line.startswith(";M") else line)
    return "\n".join(out) + "\n"


def _row_sizes(top: bool) -> list[int]:
    rows = range(0, 6) if top else range(6, 12)
    return [sum(1 for c in range(5) if r * 5 + c not in ac.CAMPS) for r in rows]


def check_game(seed: int) -> tuple[str, int]:
    game = random_game(seed)
    text = demo.standard_text(game)
    record, done = replay_text(text)
    assert [d for d in done.diagnostics if d.severity == "error"] == [], seed
    assert len(done.plies) == len(game.moves) and not done.not_replayed
    # The game ends where the player's referee ended it.
    if game.rule == "stopped":
        assert done.decision is None
    else:
        assert done.decision is not None and (done.decision.rule, done.decision.winner) == (game.rule, game.result)
    # Pieces only leave; mines and flags never move; no camp is attacked.
    views = {view: Position() for view in ("referee", "first", "second")}
    for view, position in views.items():
        apply(position, done.setup, 0)
        for views_named, group in done.setup_hidden:
            if view in views_named:
                apply(position, group, 0)
    counts = collections.Counter(p.side for p in views["referee"].pieces.values())
    assert counts == {"red": 25, "black": 25}
    still = {pid: p.at for pid, p in views["referee"].pieces.items() if p.kind in ("mine", "flag")}
    deduced = collections.Counter[str]()
    for ply, move in zip(done.plies, game.moves, strict=True):
        before = {p.at: p for p in views["referee"].pieces.values()}
        if move.to in before:
            assert move.to not in CAMP_CELLS, (seed, ply.number)
        for view, position in views.items():
            apply(position, ops_for(ply, view), ply.number)
        now = collections.Counter(p.side for p in views["referee"].pieces.values())
        assert all(now[side] <= counts[side] for side in now) and sum(now.values()) >= sum(counts.values()) - 2
        counts = now
        for pid, at in still.items():
            piece = views["referee"].pieces.get(pid)
            assert piece is None or piece.at == at, (seed, ply.number, pid)
        # Each player sees the opponent's pieces face down, the flag only once the commander has fallen;
        # every view has the same pieces on the same cells.
        cells = sorted(p.at for p in views["referee"].pieces.values())
        for seat, view in enumerate(("first", "second")):
            theirs = ("red", "black")[1 - seat]
            shown = {p.kind for p in views[view].pieces.values() if p.side == theirs and not p.kind.startswith("deduced-")}
            fallen = move.flags[1 - seat] != "00"
            assert shown <= ({"hidden", "flag"} if fallen else {"hidden"}), (seed, view, shown)
            # What a player deduced from the outcomes is never wrong.
            for pid, piece in views[view].pieces.items():
                if piece.kind.startswith("deduced-"):
                    assert views["referee"].pieces[pid].kind == piece.kind.removeprefix("deduced-"), (seed, view, pid)
                    deduced[view] += 1
            assert "hidden" not in {p.kind for p in views[view].pieces.values() if p.side != theirs}
            assert sorted(p.at for p in views[view].pieces.values()) == cells
    # The mirror image replays to the mirrored end.
    _, other = replay_text(mirrored(text))
    assert [d for d in other.diagnostics if d.severity == "error"] == []
    assert (other.decision is None) == (done.decision is None)
    if done.decision is not None and other.decision is not None:
        assert (other.decision.rule, other.decision.winner) == (done.decision.rule, done.decision.winner)
        assert other.decision.cells == tuple(f"{c[0]}{4 - int(c[1])}" for c in done.decision.cells)
    return game.rule, sum(deduced.values())


def run(count: int, seed: int) -> collections.Counter[str]:
    ends: collections.Counter[str] = collections.Counter()
    for n in range(count):
        rule, deduced = check_game(seed + n)
        ends[rule] += 1
        ends["deduced (piece-plies)"] += deduced
    print(f"{count} random games: {dict(ends)}")
    return ends


def test_random_games_keep_the_invariants() -> None:
    ends = run(40, 1000)
    deduced = ends.pop("deduced (piece-plies)")
    assert sum(ends.values()) == 40 and ends["no-battle"] >= 4 and ends["flag"] >= 4  # ending in different ways
    assert deduced > 0  # players do deduce ranks (checked right above, every ply)


@pytest.mark.armychess_long
def test_random_games_keep_the_invariants_long() -> None:
    count = int(os.environ.get("AC2_LONG", "1000"))
    run(count, 50_000)

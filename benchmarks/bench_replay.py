"""How long each rules engine takes to replay one game (no site, no I/O).

    python benchmarks/bench_replay.py [--games N]

Plays N random legal games per game type through Qipu's own engines (the demo
players of ``demo_go.py`` for the Go family and Hex, ``demo_cc.py``,
``demo_msk.py`` and ``demo_dr.py`` for xiangqi, minishogi and draughts),
writes them as records, parses them once, then times ``replay()`` alone and
prints milliseconds per game and per move. The build benchmark (``bench_build.py``) measures the
whole flow; this one shows which engine a slow build should look at.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import demo_cc  # noqa: E402
import demo_dr  # noqa: E402
import demo_go  # noqa: E402
import demo_msk  # noqa: E402

from generator import games  # noqa: E402
from generator.model import Text  # noqa: E402


def records(event: demo_go.DemoEvent, n: int) -> list:
    """N demo games of one event's game type, parsed."""
    gtype = games.GAMES[event.code]
    out = []
    for i in range(n):
        rng = random.Random(f"bench-replay:{event.code}:{i}")
        first, second = rng.sample(event.teams, 2)
        game = demo_go.play_hex(event, first, second, rng) if event.code == "HEX" else demo_go.play_go(event, first, second, rng)
        game.time = "10:00"
        text = demo_go.record_text(event, game, demo_go.Writer())
        out.append(gtype.module("format").parse(Text("bench.txt", text, "utf-8"), gtype))
    return out


def piece_games(n: int) -> list[tuple[str, str, dict, list]]:
    """N demo games of xiangqi (CCGC coordinates), minishogi and draughts, parsed: (row name, code, options, records)."""

    def parsed(code: str, texts: list[str]) -> list:
        gtype = games.GAMES[code]
        return [gtype.module("format").parse(Text("bench.txt", text, "utf-8"), gtype) for text in texts]

    rows = []
    cc = []
    for i in range(n):
        game = demo_cc.Game("甲", "乙", 1)
        game.moves, game.notations, game.result, game.ending = demo_cc.play(random.Random(f"bench-replay:CC:{i}"), limit=200)
        cc.append(demo_cc.record_text(game, "ccgc"))
    rows.append(("CC", "CC", {}, parsed("CC", cc)))
    msk = [demo_msk.record_text(demo_msk.play(random.Random(f"bench-replay:MSK:{i}")), i % 3) for i in range(n)]
    rows.append(("MSK", "MSK", {}, parsed("MSK", msk)))
    for code, rules in (("DR10", "international"), ("DR8", "russian"), ("DR8", "brazilian")):
        texts = []
        for i in range(n):
            game = demo_dr.play(games.GAMES[code].columns, rules, random.Random(f"bench:{code}:{rules}:{i}"), 400, i % 2 == 0)
            game.first, game.second = "甲", "乙"
            texts.append(demo_dr.record_text(game, demo_dr.WRITERS[0], "2025.12.13"))
        name = code if code == "DR10" else f"DR8/{rules[:2]}"
        rows.append((name, code, {"rules": rules} if code == "DR8" else {}, parsed(code, texts)))
    return rows


def timed(code: str, options: dict, parsed: list) -> tuple[float, float]:
    """Milliseconds per game (best of three: the machine is shared) and moves per game."""
    gtype = games.GAMES[code]
    engine = gtype.module("rules")
    moves = statistics.mean(len(r.moves) for r in parsed)
    times = []
    for _ in range(3):
        start = time.perf_counter()
        for record in parsed:
            engine.replay(record, gtype, options)
        times.append(time.perf_counter() - start)
    return min(times) / len(parsed) * 1000, moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per game type (default 100)")
    args = parser.parse_args(argv)
    print(f"{'game':<7} {'games':>6} {'moves/game':>11} {'ms/game':>9} {'µs/move':>9}")
    rows = [(e.code, e.code, dict(games.GAMES[e.code].options), records(e, args.games)) for e in demo_go.EVENTS]
    for name, code, options, parsed in [*rows, *piece_games(args.games)]:
        per_game, moves = timed(code, options, parsed)
        print(f"{name:<7} {len(parsed):>6} {moves:>11.0f} {per_game:>9.2f} {per_game * 1000 / moves:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

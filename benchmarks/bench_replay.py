"""How long each rules engine takes to replay one game (no site, no I/O).

    python benchmarks/bench_replay.py [--games N]

Plays N random legal games per game type through Qipu's own engines (the demo
players of ``demo_go.py`` for the Go family and Hex), writes them as records,
parses them once, then times ``replay()`` alone and prints milliseconds per
game and per move. The build benchmark (``bench_build.py``) measures the
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

import demo_go  # noqa: E402

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per game type (default 100)")
    args = parser.parse_args(argv)
    print(f"{'game':<6} {'games':>6} {'moves/game':>11} {'ms/game':>9} {'µs/move':>9}")
    for event in demo_go.EVENTS:
        gtype = games.GAMES[event.code]
        engine = gtype.module("rules")
        parsed = records(event, args.games)
        moves = statistics.mean(len(r.moves) for r in parsed)
        times = []
        for _ in range(3):  # best of three: the machine is shared
            start = time.perf_counter()
            for record in parsed:
                engine.replay(record, gtype, gtype.options)
            times.append(time.perf_counter() - start)
        per_game = min(times) / len(parsed) * 1000
        print(f"{event.code:<6} {len(parsed):>6} {moves:>11.0f} {per_game:>9.2f} {per_game * 1000 / moves:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

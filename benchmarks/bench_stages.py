"""Where the time of one record goes, stage by stage, per game type (one process, no site written).

    python benchmarks/bench_stages.py CONTENT [--records N]

For the records of a content folder (at most N per game type), in one
process and best of three passes: decoding and parsing
(``formats.read_games``), the replay alone, the rest of reading a record
(``pipeline.process_games``: metadata, result checks), preparing the game
view (``pages.game_view``), pickling it and reading it back (what the view
cache costs), and rendering the game page. Prints milliseconds per record
for each. ``bench_build.py`` gives the total a user waits for; this shows
which stage to look at, for which game.
"""

from __future__ import annotations

import argparse
import gc
import pickle
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from generator import decode, formats, games, pipeline  # noqa: E402
from generator.build.records import options_for  # noqa: E402
from generator.build.site import site_info  # noqa: E402
from generator.config import load_config  # noqa: E402
from generator.render import pages  # noqa: E402
from generator.render.env import make_env  # noqa: E402
from generator.render.write import read_bytes  # noqa: E402
from generator.scan import scan  # noqa: E402

STAGES = ("parse", "replay", "read, rest", "view", "store", "page")


def best(step: Callable[[], Any]) -> float:
    """Seconds of the fastest of three runs of ``step`` (the machine is shared)."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return min(times)


def stages(content: Path, limit: int) -> dict[str, dict[str, float]]:
    """Per game code, milliseconds per record of each stage."""
    config, _ = load_config(content=content, output=content.parent / "unused-site")
    site = site_info(config, None, [])
    options = options_for(config, "")
    template = make_env(cache=None).get_template("game.html")
    by_code: dict[str, list[pipeline.Source]] = defaultdict(list)
    for rel, path, _ in scan(config.content_dir).records:
        code = rel.rpartition("/")[2].split("-", 1)[0]
        if len(by_code[code]) < limit:
            data = read_bytes(path)
            by_code[code].append(pipeline.Source(rel, data, pipeline.sha256(data)))
    figures: dict[str, dict[str, float]] = {}
    gc.disable()  # as in a build
    for code, sources in sorted(by_code.items()):
        if code in games.GAMES:
            figures[code] = one_type(code, sources, site, options, template)
            gc.collect()
    return figures


def one_type(code: str, sources: list[pipeline.Source], site: Any, options: Any, template: Any) -> dict[str, float]:
    """Milliseconds per record of each stage, for the records of one game type."""
    game = games.GAMES[code]
    texts = [decode.decode(source, None)[0] or "" for source in sources]
    parsed = [formats.read_games(text, code)[0] for text in texts]
    rules, chosen = game.module("rules"), options.get(code, game.options)
    played = [pipeline.process_games(s, encoding=None, options=options)[0] for s in sources]
    views = [pages.game_view(p, site) for p in played]
    raw = [pickle.dumps(v, pickle.HIGHEST_PROTOCOL) for v in views]
    jobs = [
        pages.GameJob(
            url=f"games/e/{p.source}.html", source=p.source, key="k", event_name="E", event_url="events/e/index.html",
            first=p.meta.first, second=p.meta.second, first_url="teams/a.html", second_url="teams/b.html",
            duplicates=(), diagnostics=tuple(p.diagnostics), group="",
        )
        for p in played
    ]  # fmt: skip
    seconds = {
        "parse": best(lambda: [formats.read_games(t, code) for t in texts]),
        "replay": best(lambda: [rules.replay(r, game, chosen) for r in parsed]),
        "read, whole": best(lambda: [pipeline.process_games(s, encoding=None, options=options) for s in sources]),
        "view": best(lambda: [pages.game_view(p, site) for p in played]),
        "store": best(lambda: [pickle.loads(pickle.dumps(v, pickle.HIGHEST_PROTOCOL)) for v in views]),
        "page": best(lambda: [pages.game_page(template, j, pickle.loads(b), site) for j, b in zip(jobs, raw)]),
    }
    seconds["read, rest"] = max(0.0, seconds["read, whole"] - seconds["parse"] - seconds["replay"])
    return {stage: seconds[stage] / len(sources) * 1000 for stage in STAGES} | {"records": len(sources)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("content", type=Path, help="a content folder of records")
    parser.add_argument("--records", type=int, default=200, help="records per game type at most (default 200)")
    args = parser.parse_args(argv)
    figures = stages(args.content.resolve(), args.records)
    print(f"{'game':<6} {'records':>7} " + " ".join(f"{s:>10}" for s in STAGES) + f" {'total':>8}   (ms per record)")
    for code, row in figures.items():
        total = sum(row[s] for s in STAGES)
        print(f"{code:<6} {int(row['records']):>7} " + " ".join(f"{row[s]:>10.2f}" for s in STAGES) + f" {total:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Time and peak memory of the per-record and per-archive steps on growing inputs.

    python benchmarks/bench_inputs.py                                  # this checkout
    python benchmarks/bench_inputs.py --before /tmp/qipu-before        # beside another tree
    python benchmarks/bench_inputs.py --cases alias-long-name --sizes 100 1000

Each case builds one input of the given size (a team name of N characters,
N spellings of one team, N copies of one game, N games, ...) and times the
step that reads it; a step whose cost grows in proportion to its input takes
ten times as long for ten times the size. Every measurement runs in a process
of its own, under a time limit and a memory limit, so that a step that grows
with the square of its input (what these cases were written to catch) shows
as "> 60 s" or "> 4096 MB" instead of taking the machine down.

``--before DIR`` runs the same cases on another copy of Qipu, for example the
code before a change: ``git archive REV | tar -x -C DIR``. The "out" column
summarises what the step returned (how many suggestions, pairs, rows ...), so
that a reader sees whether the two give the same answer.

Seconds are the best of three runs for a step under a second, of one run
otherwise. Peak memory is the process's resident memory at its highest
during the first run (Linux: the high-water mark is reset just before it)
less what it held just before: the input itself is not counted.
"""

from __future__ import annotations

import argparse
import atexit
import json
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

Step = Callable[[], Any]  # the work to measure, its input already built


# ---------------------------------------------------------------------------
# The cases: each builds its input for a size and returns the step and a
# summary of the step's result.


def _long_name(n: int) -> str:
    """A team name of n characters, Chinese and Latin (no other name of a case is a part of it)."""
    return "".join("星火队A"[i % 4] for i in range(n))


def alias_long_name(n: int) -> tuple[Step, Callable[[Any], str]]:
    """Alias suggestions for a team name of n characters and its variants (qipu check)."""
    from generator.archive.teams import suggest_aliases

    long = _long_name(n)
    names = [
        long, "北京科技大学-" + long, long.replace("A", "Ａ"), " ".join(long[:20]) + long[20:],
        long + "(北京科技大学)", "沼泽", "北京科技大学-沼泽",
    ]  # fmt: skip
    return (lambda: suggest_aliases(names)), lambda out: f"{len(out)} suggestions"


def alias_many_spellings(n: int) -> tuple[Step, Callable[[Any], str]]:
    """Alias suggestions for n spellings of one team that differ only in case."""
    from generator.archive.teams import suggest_aliases

    letters = "abcdefghijklmnopqrstuvwxyz"[: max(1, (n - 1).bit_length())]
    names = ["".join(c.upper() if i >> k & 1 else c for k, c in enumerate(letters)) for i in range(n)]
    return (lambda: suggest_aliases(names)), lambda out: f"{len(out)} suggestions"


def alias_many_teams(n: int) -> tuple[Step, Callable[[Any], str]]:
    """Alias suggestions for n teams, half of them also written with a school prefix."""
    from generator.archive.teams import suggest_aliases

    names = [f"队{i}" for i in range(n)] + [f"学院{i % 97}-队{i}" for i in range(0, n, 2)]
    return (lambda: suggest_aliases(names)), lambda out: f"{len(out)} suggestions"


def _padded(head: str, filler: str, tail: str, n: int) -> str:
    """head + filler repeated + tail, n characters long (or as near as the filler allows)."""
    return head + filler * max(0, (n - len(head) - len(tail)) // len(filler)) + tail


def filename_spaces(n: int) -> tuple[Step, Callable[[Any], str]]:
    """from_filename of a name of n characters, most of them one run of spaces."""
    from generator.metadata import from_filename

    name = _padded("C5-a", " ", "b vs c-先手胜-2025.08.02 10.00 合肥-赛事.txt", n)
    return (lambda: from_filename(name)), lambda meta: f"{meta.result} {meta.date} {len(meta.first or '')}"


def filename_segments(n: int) -> tuple[Step, Callable[[Any], str]]:
    """from_filename of a name of n characters cut by "-" into segments that may name a winner."""
    from generator.metadata import from_filename

    name = _padded("C5-a vs b-", "x胜利-", "先手胜.txt", n)
    return (lambda: from_filename(name)), lambda meta: f"{meta.result} {meta.first} {len(meta.second or '')}"


def header_field(n: int) -> tuple[Step, Callable[[Any], str]]:
    """Result words, time and place, and the merge of header fields of n characters."""
    from generator import games
    from generator.metadata import merge, parse_result, parse_when
    from generator.model import Metadata

    game = games.get("C5")
    words = "(" * n + "\n先手胜"  # brackets, then the words on a line of their own
    when = "2017.07.29" + " " * n + "合肥"
    team = _long_name(n)

    def step() -> Any:
        result = parse_result(words, game, team, "b")
        place = parse_when(when)[2]
        merged, found = merge("f.txt", Metadata(first=team, event=team), Metadata(first=team + "x", event="e"))
        return result, len(place or ""), len(found)

    return step, lambda out: f"{out[0][0]} {out[2]} warnings"


def slug(n: int) -> tuple[Step, Callable[[Any], str]]:
    """urls.slug of a name of n characters."""
    from generator.render import urls

    name = _long_name(n) + " Team"
    return (lambda: urls.slug(name)), lambda out: out


def moves_key(n: int) -> tuple[Step, Callable[[Any], str]]:
    """duplicates.game_keys of a record of n moves, each with an unclosed MARK[."""
    from generator.archive import duplicates

    moves = [f"B({chr(65 + i % 15)},{i % 15 + 1})MARK[x" for i in range(n)]
    return (lambda: duplicates.game_keys("C5", moves)), lambda out: out[0][:8]


def _entry(path: str, moves: str, first: str, second: str) -> Any:
    from generator.archive import duplicates

    return duplicates.Entry(path, "C5", moves, first, second, None, None, "first", 20, "opening", "")


def near_copies(n: int) -> tuple[Step, Callable[[Any], str]]:
    """Duplicate detection over n records of one team that share their opening moves, undated."""
    from generator.archive import duplicates

    entries = [_entry(f"e/{i:07d}.txt", f"moves{i}", "A", f"B{i}") for i in range(n)]

    def step() -> Any:
        groups, found = duplicates.group(entries)
        pairs, near = duplicates.near_copies(groups)
        return len(pairs), len(found) + len(near)

    return step, lambda out: f"{out[0]} pairs {out[1]} diagnostics"


def shared_names(n: int) -> tuple[Step, Callable[[Any], str]]:
    """One game in n copies, each naming its first team differently; the aliases they suggest."""
    from generator.archive import duplicates
    from generator.archive.teams import suggest_aliases

    entries = [_entry(f"e/{i:07d}.txt", "same", f"A{i}", "B") for i in range(n)]

    def step() -> Any:
        groups, found = duplicates.group(entries)
        shared = duplicates.shared_names(groups)
        return len(shared), len(suggest_aliases([], shared))

    return step, lambda out: f"{out[0]} pairs {out[1]} suggestions"


def standings(n: int) -> tuple[Step, Callable[[Any], str]]:
    """Standings of about n games in which √n pairs of teams are level on points (head-to-head first)."""
    from generator.archive import standings as st

    games = []
    for level in range(1, math.isqrt(n) + 1):
        for side in "AB":
            team = f"{side}{level}"
            games += [st.Played(f"g-{team}-{k}", team, f"bag-{team}-{k}", "first") for k in range(level)]
    teams = sorted({t for g in games for t in (g.first, g.second)})
    return (lambda: st.standings(teams, games, st.Points(), st.TIEBREAKS)), lambda rows: f"{len(rows)} rows"


def crosstable(n: int) -> tuple[Step, Callable[[Any], str]]:
    """The crosstable of n teams that each played one game."""
    from generator.archive import standings as st

    teams = [f"T{i}" for i in range(n)]
    games = [st.Played(f"g{i}", teams[i], teams[i + 1], "draw") for i in range(0, n - 1, 2)]

    def step() -> Any:
        cross = st.crosstable(teams, games)
        return sum(1 for row in cross.values() for cell in row.values() if cell)

    return step, lambda out: f"{out} cells with games"


def check_long_name(n: int) -> tuple[Step, Callable[[Any], str]]:
    """qipu check of four records whose team names are n characters long."""
    from generator.check import check_paths
    from generator.config import load_config

    root = Path(tempfile.mkdtemp(prefix="bench-inputs-"))
    atexit.register(shutil.rmtree, root, True)
    event = root / "content" / "e"
    event.mkdir(parents=True)
    long = _long_name(n)
    teams = [(long, "对手"), ("北京科技大学-" + long, "对手"), (long.replace("A", "Ａ"), "对手二"), ("对手", long)]
    moves = ";".join(f"{'BW'[k % 2]}({'HHIIJJKKL'[k]},{8 + k % 2})" for k in range(9))
    for k, (first, second) in enumerate(teams):
        text = f"{{[C5][{first} B][{second} W][先手胜][2025.08.02 1{k}:00 合肥][赛事];{moves}}}"
        (event / f"C5-r{k}.txt").write_text(text, encoding="utf-8")
    config, _ = load_config(root=root, content=root / "content", output=root / "site")
    return (lambda: check_paths(config, [root / "content"]).aliases), lambda out: f"{len(out)} alias lines"


@dataclass(frozen=True)
class Case:
    build: Callable[[int], tuple[Step, Callable[[Any], str]]]
    sizes: tuple[int, ...]


LENGTHS = (100, 1_000, 10_000, 100_000)
CASES: dict[str, Case] = {
    "alias-long-name": Case(alias_long_name, LENGTHS),
    "alias-many-spellings": Case(alias_many_spellings, (10, 100, 1_000, 10_000)),
    "alias-many-teams": Case(alias_many_teams, (100, 1_000, 10_000, 100_000)),
    "check-long-name": Case(check_long_name, LENGTHS),
    "filename-spaces": Case(filename_spaces, (100, 250, 1_000, 1_030, 10_000, 100_000)),
    "filename-segments": Case(filename_segments, (100, 250, 1_000, 1_030, 10_000, 100_000)),
    "header-field": Case(header_field, (1_000, 10_000, 100_000, 1_000_000)),
    "slug": Case(slug, (1_000, 10_000, 100_000, 1_000_000)),
    "moves-key": Case(moves_key, (1_000, 10_000, 100_000)),
    "near-copies": Case(near_copies, (100, 1_000, 10_000)),
    "shared-names": Case(shared_names, (100, 1_000, 10_000)),
    "standings": Case(standings, (1_000, 10_000, 100_000)),
    "crosstable": Case(crosstable, (100, 1_000, 10_000, 100_000)),
}


# ---------------------------------------------------------------------------
# One measurement, in a process of its own


def _status_kb(field: str) -> int:
    """A size in kB from /proc/self/status (VmRSS: now; VmHWM: the high-water mark)."""
    found = re.search(rf"{field}:\s+(\d+)", Path("/proc/self/status").read_text())
    return int(found.group(1)) if found else 0


def _reset_peak() -> bool:
    """Reset the resident high-water mark to the present size (Linux 4.0 and later)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def _timed(step: Step) -> tuple[float, Any]:
    start = time.perf_counter()
    out = step()
    return time.perf_counter() - start, out


def measure(name: str, size: int) -> dict[str, Any]:
    """Seconds and peak MB of one case's step, and a summary of what it returned."""
    step, summary = CASES[name].build(size)
    before = _status_kb("VmRSS")
    exact = _reset_peak()
    seconds, out = _timed(step)
    peak = _status_kb("VmHWM") if exact else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if seconds < 1:
        # A step of a few milliseconds moves with whatever else the machine
        # does: it runs twice more and the best time is kept.
        seconds = min(seconds, *(_timed(step)[0] for _ in range(2)))
    return {"seconds": seconds, "mb": max(0, peak - before) / 1024, "out": summary(out)}


def _limit_memory(megabytes: int) -> Callable[[], None]:
    def limit() -> None:
        size = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return limit


def run(code: Path, name: str, size: int, timeout: float, megabytes: int) -> dict[str, Any]:
    """Measure one case in a child process that imports Qipu from ``code``."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    command = [sys.executable, str(Path(__file__).resolve()), "--child", name, str(size)]
    try:
        done = subprocess.run(
            command, env=env, cwd=code, capture_output=True, text=True, timeout=timeout,
            preexec_fn=_limit_memory(megabytes),
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"failed": f"> {timeout:g} s"}
    if done.returncode != 0:
        memory = "MemoryError" in done.stderr or done.returncode < 0
        return {"failed": f"> {megabytes} MB" if memory else done.stderr.strip().splitlines()[-1][:60]}
    return json.loads(done.stdout)


# ---------------------------------------------------------------------------
# The table


def _cell(result: dict[str, Any] | None) -> str:
    if result is None:
        return f"{'':>10} {'':>9} {'':<26}"
    if "failed" in result:
        return f"{result['failed']:>20} {'':<26}"
    return f"{result['seconds']:>10.4f} {result['mb']:>9.1f} {result['out'][:26]:<26}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="+", choices=sorted(CASES), help="cases to run (default: all)")
    parser.add_argument("--sizes", nargs="+", type=int, help="input sizes (default: each case's own)")
    parser.add_argument("--before", type=Path, help="another copy of Qipu to measure beside this one")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds allowed a measurement (default 60)")
    parser.add_argument("--memory", type=int, default=4096, help="MB of address space allowed (default 4096)")
    parser.add_argument("--child", nargs=2, metavar=("CASE", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child[0], int(args.child[1]))))
        return 0

    trees = [("after", REPO)] + ([("before", args.before.resolve())] if args.before else [])
    header = f"{'case':<21} {'size':>9}"
    for label, _ in trees:
        header += f" {label + ' s':>10} {'MB':>9} {'out':<26}"
    print(header)
    for name in args.cases or list(CASES):
        given_up: set[str] = set()  # a tree that failed a size is not run on larger ones
        for size in args.sizes or CASES[name].sizes:
            line = f"{name:<21} {size:>9}"
            for label, code in trees:
                result = None if label in given_up else run(code, name, size, args.timeout, args.memory)
                if result is not None and "failed" in result:
                    given_up.add(label)
                line += " " + _cell(result)
            print(line.rstrip(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

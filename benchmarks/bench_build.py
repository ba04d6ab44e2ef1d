"""Time ``qipu build`` on a large generated archive.

    python benchmarks/bench_build.py [--records N] [--keep DIR] [--repeat K] [--json] [--cold-files]

Generates N records (default 10,000) with ``make_records.py`` into a
temporary folder (or reuses ``--keep DIR``, generating into it only when it
holds no records yet), then runs the build command exactly as a user would,
``python -m generator build --content C --out O``, in a fresh temporary
working folder so that the build cache (``.qipu-cache/``) starts empty.
Before each build the records are read once, so that they are in the OS file
cache as on most machines (see :func:`warm_file_cache`).
Measured, each the best of K runs:

- cold build: empty cache, empty output folder;
- no-change rebuild: the same command again;
- one-record edit: one MARK value in one record changed, then the command;
- peak memory of the build's whole process tree (main process and workers),
  sampled from ``/proc`` while it runs, and the largest single process as
  ``getrusage(RUSAGE_CHILDREN)`` reports it;
- pages (``.html`` files) in the output, and files each run rewrote.

Times are wall-clock for the whole command, Python start-up included: what an
organiser waits for. The figure the build prints itself is shown beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

import make_records  # noqa: E402

_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


@dataclass(slots=True)
class Run:
    """One build command."""

    seconds: float
    cpu: float  # user + system seconds of the build's process tree: steadier than wall time on a shared machine
    reported: float | None  # the build's own "in X s", if it printed one
    tree_peak_mb: float | None  # sum of RSS over the process tree, sampled
    written: int  # output files created or rewritten
    returncode: int
    tail: str  # the last lines of the build's output


@dataclass(slots=True)
class Figures:
    records: int
    generate_seconds: float | None
    cold_seconds: float
    cold_reported: float | None
    cold_cpu: float
    records_per_second: float
    nochange_seconds: float
    nochange_reported: float | None
    nochange_written: int
    edit_seconds: float | None  # None: not measured (--games pieces)
    edit_reported: float | None
    edit_written: int | None
    result_edit_seconds: float | None  # an edit that changes a game's result: the full path (index, event and team pages)
    result_edit_reported: float | None
    result_edit_written: int | None
    serve_edit_seconds: float | None  # the same edit rebuilt by a Builder kept in memory, as `qipu serve` does
    peak_tree_mb: float | None
    peak_process_mb: float
    loop_alone: float  # seconds of machine_speed() on one core, at the start
    loop_cold: float  # machine_speed() on every core at once, just before the best cold build
    loop_range: tuple[float, float]  # the least and most it took over the cold builds
    pages: int
    files: int
    repeat: int
    cpus: int
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------
# Memory: the whole process tree, from /proc


def _children_of() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue  # the process ended meanwhile
        # The command name is in parentheses and may hold spaces: split after it.
        fields = stat[stat.rfind(b")") + 2 :].split()
        tree.setdefault(int(fields[1]), []).append(int(entry))
    return tree


def _rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE_SIZE
    except (OSError, IndexError, ValueError):
        return 0


def tree_rss(root: int) -> int:
    """Resident memory of a process and all its descendants, in bytes."""
    tree = _children_of()
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += _rss_bytes(pid)
        todo.extend(tree.get(pid, ()))
    return total


class Sampler(threading.Thread):
    """Polls the process tree's memory until the process ends.

    Ten times a second: a build's memory peaks for seconds (while its workers
    hold the game views), and each sample reads every process's /proc entry,
    which at fifty a second took 3.5 % of a core from the build it measured.
    """

    def __init__(self, pid: int, interval: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval, self.peak = pid, interval, 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.peak = max(self.peak, tree_rss(self.pid))
            self.stop.wait(self.interval)


# ---------------------------------------------------------------------------
# Running the build


def snapshot(folder: Path) -> dict[str, int]:
    """Every file under folder with its modification time (ns)."""
    if not folder.is_dir():
        return {}
    return {str(p): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


def warm_file_cache(content: Path) -> None:
    """Read every record once, so that the build finds them in the OS file cache.

    As they are on most machines once copied in or generated. Some virtual
    machines hand idle file cache back to their host within minutes (the one
    the README's figures come from does); reading ten thousand records from
    its disk again adds about a second to a cold build, a second that depends
    on the host, not on Qipu. ``--cold-files`` measures without this.
    """
    for folder, _, names in os.walk(content):
        for name in names:
            with open(os.path.join(folder, name), "rb") as handle:
                handle.read()


LOOP_STEPS = 5_000_000


def machine_speed(processes: int) -> float:
    """Seconds a fixed pure-Python loop takes in each of ``processes`` processes at once (the slowest).

    This machine's cores are shared with other machines' work: the same
    loop on both cores at once takes 0.5 s in a quiet hour and up to 0.9 s
    in a busy one, when the second core adds little to the first. A cold
    build is all CPU on both cores, so its time moves with this figure:
    each one is measured just before the build it goes with.
    """
    code = f"import time\nt = time.perf_counter()\ns = 0\nfor i in range({LOOP_STEPS}): s += i\nprint(time.perf_counter() - t)"
    procs = [subprocess.Popen([sys.executable, "-S", "-c", code], stdout=subprocess.PIPE) for _ in range(processes)]
    return max(float(proc.communicate()[0]) for proc in procs)


def build(content: Path, out: Path, cwd: Path, jobs: int | None, warm: bool = True) -> Run:
    if warm:
        warm_file_cache(content)
    before = snapshot(out)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "generator", "build", "--content", str(content), "--out", str(out)]
    if jobs:
        command += ["--jobs", str(jobs)]
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    sampler = Sampler(proc.pid) if os.path.isdir("/proc") else None
    if sampler:
        sampler.start()
    output, _ = proc.communicate()
    seconds = time.perf_counter() - start
    if sampler:
        sampler.stop.set()
        sampler.join()
    text = output.decode("utf-8", errors="replace")
    after = snapshot(out)
    written = sum(1 for path, mtime in after.items() if before.get(path) != mtime)
    found = re.findall(r"\bin ([0-9]+(?:\.[0-9]+)?) ?s\b", text)
    after_usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after_usage.ru_utime - usage.ru_utime) + (after_usage.ru_stime - usage.ru_stime)
    return Run(
        seconds=seconds,
        cpu=cpu,
        reported=float(found[-1]) if found else None,
        tree_peak_mb=sampler.peak / 2**20 if sampler and sampler.peak else None,
        written=written,
        returncode=proc.returncode,
        tail="\n".join(text.strip().splitlines()[-3:]),
    )


def edit_one_record(content: Path, step: int) -> tuple[Path, bytes]:
    """Change one MARK value (or add one) in the first record; returns what to restore.

    The moves stay the same, so the game stays legal and keeps its result:
    only that record's page and the pages listing it may change.
    """
    record = min(content.rglob("*.txt"))
    original = record.read_bytes()
    values = [b"-2", b"-1", b"0", b"1", b"2"]
    m = re.search(rb"MARK\[(-?\d)\]", original)
    if m:
        new = values[(values.index(m.group(1)) + 1 + step % 4) % 5]  # always another value if m.group(1) in values else b"0"
        data = original[: m.start(1)] + new + original[m.end(1) :]
    else:
        # No MARK anywhere: annotate the first move (ASCII, so any ASCII-compatible encoding).
        m = re.search(rb"\)", original)
        assert m is not None, f"{record} has no move to annotate"
        data = original[: m.end()] + b"MARK[" + values[step % 5] + b"]" + original[m.end() :]
    record.write_bytes(data)
    return record, original


RESULT_WORDS = ("先手胜", "后手胜")


def edit_result(content: Path) -> tuple[Path, bytes]:
    """Swap the declared result in the header of the first record; returns what to restore.

    Unlike a MARK edit this changes what the index knows (a result, or a
    contradiction with the rules): the standings, the event, team and home
    pages and the problems page are made again.
    """
    record = min(content.rglob("*.txt"))
    original = record.read_bytes()
    for encoding in ("utf-8", "gbk"):
        for word, other in (RESULT_WORDS, RESULT_WORDS[::-1]):
            old = f"[{word}]".encode(encoding)
            if old in original:
                record.write_bytes(original.replace(old, f"[{other}]".encode(encoding), 1))
                return record, original
    raise SystemExit(f"{record} declares no result in its header")


def serve_edit(content: Path, out: Path, work: Path, repeat: int, jobs: int | None) -> list[float]:
    """One-record edits rebuilt by one Builder kept in memory, as `qipu serve` rebuilds.

    No interpreter start-up and no cache to load: what a save costs while
    the preview server runs.
    """
    sys.path.insert(0, str(REPO))
    from generator.build import Builder
    from generator.config import load_config

    config, _ = load_config(None, root=work, content=content, output=out)
    builder = Builder(config, jobs=jobs)
    builder.build()  # loads the cache; nothing changed
    seconds = []
    record, original = None, b""
    try:
        for k in range(repeat):
            record, saved = edit_one_record(content, repeat + k)
            if k == 0:
                original = saved
            start = time.perf_counter()
            report = builder.build(changed={record})  # what the watcher reports to the builder
            seconds.append(time.perf_counter() - start)
            time.sleep(1.0)  # an organiser saves again a moment later, not at once
            assert report.reparsed == 1, report
    finally:
        if record is not None:
            record.write_bytes(original)
    return seconds


def best(runs: list[Run]) -> Run:
    return min(runs, key=lambda r: r.seconds)


def check(run: Run, what: str) -> None:
    # 0: built; 1: built, some records have errors. Anything else is a failed build.
    if run.returncode not in (0, 1):
        raise SystemExit(f"{what} failed (exit {run.returncode}):\n{run.tail}")


def measure(
    content: Path, records: int, repeat: int, jobs: int | None, generated: float | None, warm: bool = True,
    with_edits: bool = True,
) -> Figures:
    """The figures; ``with_edits`` False leaves out the edits (they change a MARK of a connect record)."""
    cold: list[Run] = []
    loops: list[float] = []  # machine_speed() before each cold build
    cores = os.cpu_count() or 1
    alone = machine_speed(1)
    scratch = Path(tempfile.mkdtemp(prefix="qipu-bench-"))
    try:
        work = scratch
        for k in range(repeat):
            work = scratch / f"run{k}"
            work.mkdir()
            loops.append(machine_speed(cores))
            run = build(content, work / "site", work, jobs, warm)
            check(run, "cold build")
            cold.append(run)
        out = work / "site"  # later runs rebuild the last cold run's site, with its cache
        nochange = []
        for _ in range(repeat):
            run = build(content, out, work, jobs, warm)
            check(run, "no-change rebuild")
            nochange.append(run)
        edits: list[Run] = []
        result_edits: list[Run] = []
        serve_edits: list[float] = []
        if with_edits:
            record, original = None, b""
            try:
                for k in range(repeat):
                    record, saved = edit_one_record(content, k)
                    if k == 0:
                        original = saved
                    run = build(content, out, work, jobs, warm)
                    check(run, "one-record rebuild")
                    edits.append(run)
            finally:
                if record is not None:
                    record.write_bytes(original)  # leave a --keep folder as it was
            for _ in range(repeat):
                record, original = edit_result(content)
                try:
                    run = build(content, out, work, jobs, warm)
                finally:
                    record.write_bytes(original)
                check(run, "result edit")
                result_edits.append(run)
                build(content, out, work, jobs, warm)  # back to the site as it was, for the next run
            serve_edits += serve_edit(content, out, work, repeat, jobs)
        files = [p for p in out.rglob("*") if p.is_file()]
        pages = sum(1 for p in files if p.suffix == ".html")
        peak_process = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
        c, n = best(cold), best(nochange)
        e, r = (best(edits), best(result_edits)) if with_edits else (None, None)
        tree = [run.tree_peak_mb for run in cold + nochange + edits if run.tree_peak_mb]
        notes = []
        if any(run.returncode == 1 for run in cold):
            notes.append("the build reported record errors (exit 1)")
        return Figures(
            records=records,
            generate_seconds=generated,
            cold_seconds=c.seconds,
            cold_reported=c.reported,
            cold_cpu=c.cpu,
            records_per_second=records / c.seconds,
            nochange_seconds=n.seconds,
            nochange_reported=n.reported,
            nochange_written=n.written,
            edit_seconds=e.seconds if e else None,
            edit_reported=e.reported if e else None,
            edit_written=e.written if e else None,
            result_edit_seconds=r.seconds if r else None,
            result_edit_reported=r.reported if r else None,
            result_edit_written=r.written if r else None,
            serve_edit_seconds=min(serve_edits) if serve_edits else None,
            peak_tree_mb=max(tree) if tree else None,
            peak_process_mb=peak_process,
            loop_alone=alone,
            loop_cold=loops[cold.index(c)],
            loop_range=(min(loops), max(loops)),
            pages=pages,
            files=len(files),
            repeat=repeat,
            cpus=cores,
            notes=notes,
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# ---------------------------------------------------------------------------

TARGETS = {"cold_seconds": 10.0, "nochange_seconds": 1.0, "edit_seconds": 0.3}


def table(f: Figures) -> str:
    def secs(x: float | None) -> str:
        return "-" if x is None else f"{x:.2f} s"

    def verdict(key: str, value: float | None) -> str:
        target = TARGETS.get(key)
        if target is None or value is None or f.records != 10_000:
            return ""
        return f"target ≤ {target:g} s: {'ok' if value <= target else 'MISSED'}"

    low, high = f.loop_range
    loops = f"{low:.2f}–{high:.2f} s before the {f.repeat} cold builds; {f.loop_alone:.2f} s on one core alone"
    rows = [
        ("records", f"{f.records}", "", ""),
        ("cold build", secs(f.cold_seconds), secs(f.cold_reported), verdict("cold_seconds", f.cold_seconds)),
        ("  CPU time (user + system)", secs(f.cold_cpu), "", ""),
        ("  machine: loop on every core", secs(f.loop_cold), "", loops),
        ("records per second", f"{f.records_per_second:.0f}", "", ""),
        ("no-change rebuild", secs(f.nochange_seconds), secs(f.nochange_reported),
         verdict("nochange_seconds", f.nochange_seconds)),
        ("  files rewritten", f"{f.nochange_written}", "", ""),
        ("one-record edit", secs(f.edit_seconds), secs(f.edit_reported), verdict("edit_seconds", f.edit_seconds)),
        ("  files rewritten", f"{'-' if f.edit_written is None else f.edit_written}", "", ""),
        ("one-record edit, qipu serve", secs(f.serve_edit_seconds), "", verdict("edit_seconds", f.serve_edit_seconds)),
        ("result edit (full path)", secs(f.result_edit_seconds), secs(f.result_edit_reported), ""),
        ("  files rewritten", f"{'-' if f.result_edit_written is None else f.result_edit_written}", "", ""),
        ("peak memory, process tree", "-" if f.peak_tree_mb is None else f"{f.peak_tree_mb:.0f} MB", "", ""),
        ("peak memory, largest process", f"{f.peak_process_mb:.0f} MB", "", ""),
        ("pages (.html) written", f"{f.pages}", "", ""),
        ("files in the site", f"{f.files}", "", ""),
    ]  # fmt: skip
    head = ("figure", f"wall (best of {f.repeat})", "build says", "")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(4)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in [head, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths[:3]))
    extra = [f"({f.cpus} CPUs" + (f"; records generated in {f.generate_seconds:.1f} s" if f.generate_seconds else "") + ")"]
    return "\n".join(lines + extra + f.notes)


def compile_package() -> None:
    """Compile Qipu's modules to bytecode first, as ``pip install`` or any earlier run leaves them.

    Where PYTHONDONTWRITEBYTECODE is set (some CI and sandbox machines, this
    one among them) every build would otherwise compile the package anew:
    about a tenth of a second that an installed Qipu does not pay. The
    bytecode goes to ``__pycache__`` folders, which git ignores.
    """
    import compileall

    compileall.compile_dir(REPO / "generator", quiet=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time qipu build on a generated archive.")
    parser.add_argument("--records", type=int, default=10_000, help="records to generate (default 10000)")
    parser.add_argument("--keep", type=Path, help="generate into (or reuse) this folder instead of a temporary one")
    parser.add_argument("--repeat", type=int, default=1, help="take the best of K runs of each measurement")
    parser.add_argument("--seed", type=int, default=1, help="seed for the generated records")
    parser.add_argument("--jobs", type=int, help="pass --jobs to the build (default: the build's own)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--games", choices=("connect", "pieces"), default="connect",
        help="connect: C5/C6 records (default); pieces: CC, MSK, DR10 and DR8, cold and no-change builds only",
    )
    parser.add_argument(
        "--cold-files", action="store_true", help="do not read the records into the OS file cache before each build"
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    temp = None
    if args.keep is not None:
        content = args.keep
    else:
        temp = Path(tempfile.mkdtemp(prefix="qipu-records-"))
        content = temp / "content"
    try:
        generated = None
        existing = sum(1 for _ in content.rglob("*.txt")) if content.is_dir() else 0
        if existing:
            records = existing
        else:
            start = time.perf_counter()
            write = make_records.write_bench if args.games == "connect" else make_records.write_bench_pieces
            records = write(args.records, content, args.seed, jobs=os.cpu_count() or 1)
            generated = time.perf_counter() - start
        if not args.json:
            where = "reusing" if existing else "generated"
            print(f"{where} {records} records in {content}", file=sys.stderr)
        compile_package()
        figures = measure(
            content.resolve(), records, args.repeat, args.jobs, generated, warm=not args.cold_files,
            with_edits=args.games == "connect",
        )
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
    if args.json:
        print(json.dumps(asdict(figures), ensure_ascii=False, indent=2))
    else:
        print(table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())

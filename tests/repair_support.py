"""Helpers for tests/test_repair.py: run `qipu build` as a user does, damage
what it leaves behind, and compare the site with a clean build's.

Every build runs in its own process (``python -m generator build``), in its
own session, so that a test can kill it (and see whether its workers
outlive it), and so that a crash in the build (a traceback, a segfault)
is what the test sees rather than something that takes pytest down.
"""

from __future__ import annotations

import codecs
import functools
import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# A build that takes longer than this is hung (waiting on a lock, a worker, a pipe).
BUILD_TIMEOUT = 180.0
# How a record's time is set when the tests need it not to be "racy" (written in
# the same clock tick as a scan, which makes a build read it again): far in
# the past, so that which code paths a build takes does not depend on timing.
OLD_NS = 1_600_000_000 * 10**9

# What a build keeps in its cache folder, by kind: glob patterns under that folder.
CACHE_KINDS = {
    "state": "state-*.sqlite",
    "views": "views-*.sqlite",
    "templates": "templates/*.cache",
}
DAMAGES = ("half", "empty", "zeroed", "flip-middle", "flip-end", "garbage")


# ---------------------------------------------------------------------------
# Running qipu


@dataclass(slots=True)
class Site:
    """One user's folders: ``root`` is the working folder (the cache goes in
    ``root/.qipu-cache`` when there is no site.toml)."""

    root: Path
    content: Path
    out: Path

    @property
    def cache(self) -> Path:
        return self.root / ".qipu-cache"


@dataclass(slots=True)
class Run:
    args: list[str]
    returncode: int
    stdout: str
    stderr: str

    def shown(self) -> str:
        """For a failure message: the command's result and the end of its output."""
        return (
            f"`qipu {' '.join(self.args)}` -> exit {self.returncode}\n"
            f"--- stderr (end) ---\n{self.stderr[-3000:]}\n--- stdout (end) ---\n{self.stdout[-800:]}"
        )


@functools.cache
def build_options() -> str:
    """`qipu build --help`: which options this checkout has (--cache, --clean are being added)."""
    done = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--help"], cwd=REPO, env=_env(), capture_output=True, text=True, timeout=60
    )
    return done.stdout


def another_version(folder: Path) -> Path:
    """A copy of this Qipu that is another version to the cache (one comment more in its code)."""
    for name in ("generator", "templates", "static"):
        shutil.copytree(REPO / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    with open(folder / "generator" / "__init__.py", "a", encoding="utf-8") as handle:
        handle.write("# another version, for tests/test_repair.py\n")
    return folder


def has_option(name: str) -> bool:
    return re.search(rf"(^|\s){re.escape(name)}\b", build_options()) is not None


def _env(code: Path = REPO) -> dict[str, str]:
    env = dict(os.environ)
    # The checkout under test (or ``code``, another copy of Qipu), whatever is installed; a crash prints where it happened.
    env["PYTHONPATH"] = os.pathsep.join([str(code), *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONFAULTHANDLER"] = "1"
    return env


def build_args(site: Site, *extra: str, jobs: int = 2) -> list[str]:
    args = ["build", "--content", str(site.content), "--out", str(site.out), "--jobs", str(jobs)]
    if has_option("--cache"):
        args += ["--cache", str(site.cache)]  # else the cache goes to <cwd>/.qipu-cache, the same folder
    return [*args, *extra]


def start(site: Site, *extra: str, jobs: int = 2, quiet: bool = False, code: Path = REPO) -> subprocess.Popen[bytes]:
    """A build in its own session (its process group is its pid).

    ``quiet``: its output thrown away (a build the test kills: nobody reads
    its pipes meanwhile, and a full pipe would stop it).
    """
    where = subprocess.DEVNULL if quiet else subprocess.PIPE
    site.root.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        [sys.executable, "-m", "generator", *build_args(site, *extra, jobs=jobs)],
        cwd=site.root,
        env=_env(code),
        stdout=where,
        stderr=where,
        start_new_session=True,
    )


def qipu_build(site: Site, *extra: str, jobs: int = 2, timeout: float = BUILD_TIMEOUT, code: Path = REPO) -> Run:
    """Run `qipu build` to its end (or kill it and everything it started after ``timeout``).

    ``code``: the folder holding the Qipu to run (generator/, templates/, static/).
    """
    proc = start(site, *extra, jobs=jobs, code=code)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc.pid)
        out, err = proc.communicate()
        err += f"\n[test] the build did not end within {timeout:.0f} s and was killed".encode()
    return Run(build_args(site, *extra, jobs=jobs), proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"))


def problem_with(run: Run) -> str | None:
    """Why this run is not a good build (None if it is): a signal, a traceback, a non-zero exit."""
    if run.returncode < 0:
        return f"the build died of signal {-run.returncode} ({signal.Signals(-run.returncode).name})"
    if "Traceback" in run.stderr or "Fatal Python error" in run.stderr:
        return "the build printed a Python traceback"
    if run.returncode != 0:
        return "the build failed"
    return None


def assert_ok(run: Run, what: str = "") -> None:
    problem = problem_with(run)
    assert problem is None, f"{what}: {problem}\n{run.shown()}"


def assert_clean_refusal(run: Run) -> None:
    """A build that cannot be done says why: exit non-zero, a `qipu:` line on stderr, no traceback."""
    assert run.returncode > 0, f"expected a refusal\n{run.shown()}"
    assert "Traceback" not in run.stderr, f"a refusal must not be a traceback\n{run.shown()}"
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert any(line.startswith("qipu:") for line in lines), f"no one-line `qipu:` message\n{run.shown()}"


# ---------------------------------------------------------------------------
# Processes of one build


def group_members(pgid: int) -> list[tuple[int, str, int]]:
    """Live processes (zombies excluded: they have ended) in the process group or session ``pgid``.

    The group is the reliable name: a worker whose parent died is adopted by
    another process (its ppid changes), but keeps its group.
    """
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                stat = handle.read().decode(errors="replace")
        except OSError:
            continue  # ended meanwhile
        fields = stat[stat.rfind(")") + 2 :].split()  # after the command name, which may hold spaces
        state, ppid, pgrp, session = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
        if (pgrp == pgid or session == pgid) and state not in ("Z", "X"):
            found.append((int(entry.name), state, ppid))
    return found


def kill_group(pgid: int) -> None:
    """Kill what is left of a build this test started (its own session: nothing else is in it)."""
    if group_members(pgid):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def survivors(pgid: int, tries: int = 50, pause: float = 0.1) -> list[tuple[int, str, int]]:
    """The build's processes still alive after ``tries`` looks ``pause`` apart (a bounded wait)."""
    left = group_members(pgid)
    for _ in range(tries):
        if not left:
            break
        time.sleep(pause)
        left = group_members(pgid)
    return left


# ---------------------------------------------------------------------------
# Trees


@dataclass(slots=True)
class Tree:
    """What a user sees in a folder: regular files by relative path (their sha256), and anything odd."""

    files: dict[str, str] = field(default_factory=dict)
    odd: dict[str, str] = field(default_factory=dict)  # symlinks, fifos ...: what they are


def tree(root: Path) -> Tree:
    found = Tree()

    def walk(folder: str, prefix: str) -> None:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
        for entry in entries:
            rel = prefix + entry.name
            if entry.is_symlink():
                found.odd[rel] = f"symlink -> {os.readlink(entry.path)}"
            elif entry.is_dir(follow_symlinks=False):
                walk(entry.path, rel + "/")
            elif entry.is_file(follow_symlinks=False):
                with open(entry.path, "rb") as handle:
                    found.files[rel] = hashlib.file_digest(handle, "sha256").hexdigest()
            else:
                found.odd[rel] = "not a regular file"

    if root.is_dir() and not root.is_symlink():
        walk(str(root), "")
    else:
        found.odd["."] = "the output folder is missing or not a folder"
    return found


def differences(got: Tree, want: Tree, limit: int = 8) -> str:
    """How ``got`` differs from ``want``, shortly ("" when it does not)."""
    lines = []

    def some(title: str, names: list[str]) -> None:
        if names:
            lines.append(f"{title} ({len(names)}): " + ", ".join(names[:limit]) + (" ..." if len(names) > limit else ""))

    some("missing", sorted(want.files.keys() - got.files.keys()))
    some("not in a clean build", sorted(got.files.keys() - want.files.keys()))
    some("other bytes", sorted(k for k in got.files.keys() & want.files.keys() if got.files[k] != want.files[k]))
    some("symlinks or other non-files", [f"{k} ({v})" for k, v in sorted(got.odd.items())])
    return "\n".join(lines)


def assert_same_tree(got: Tree, want: Tree, context: str = "") -> None:
    diff = differences(got, want)
    assert not diff, f"{context}\nthe site differs from a clean build's:\n{diff}"


def clean_tree(content: Path, scratch: Path, jobs: int = 2) -> Tree:
    """The site a fresh build of ``content`` makes into an empty folder with an empty cache."""
    scratch.mkdir(parents=True, exist_ok=True)
    root = Path(os.path.realpath(scratch)) / f"clean-{os.getpid()}-{time.monotonic_ns()}"
    site = Site(root, content, root / "site")
    try:
        assert_ok(qipu_build(site, jobs=jobs), "the clean build itself")
        return tree(site.out)  # hashed now: its downloads are links to records a test may edit later
    finally:
        shutil.rmtree(root, ignore_errors=True)


def content_digest(content: Path) -> str:
    """Every file's path and bytes: two contents with one digest build one site."""
    h = hashlib.sha256()
    for path in sorted(p for p in content.rglob("*") if p.is_file()):
        h.update(path.relative_to(content).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


# ---------------------------------------------------------------------------
# Records


def make_records(n: int, out: Path, seed: int) -> list[Path]:
    """``n`` legal C5/C6 records (benchmarks/make_records.py), sorted by path."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import make_records as maker
    finally:
        sys.path.pop(0)
    maker.write_bench(n, out, seed=seed, jobs=1)
    return records_in(out)


def records_in(content: Path) -> list[Path]:
    return sorted(p for p in content.rglob("*.txt") if p.is_file())


def age(paths: list[Path]) -> None:
    """Times far in the past, one second apart: no record is "racy" for the next build."""
    for n, path in enumerate(paths):
        os.utime(path, ns=(OLD_NS + n * 10**9, OLD_NS + n * 10**9))


_bumps = iter(range(1, 10**9))


def bump(path: Path) -> None:
    """A new time, never used before by any record here and still in the past (see age)."""
    ns = OLD_NS + (10**6 + next(_bumps)) * 10**9
    os.utime(path, ns=(ns, ns))


def _codec(data: bytes) -> str:
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if b"\0" in data:
        return "utf-16-le"
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        return "gb18030"


_MOVE = re.compile(r"[A-Za-z] ?\([A-Z],\d+\)(?:MARK\[(-?\d+)\])?")


def _rewrite(path: Path, change, in_place: bool = True) -> bool:  # type: ignore[no-untyped-def]
    """Apply ``change`` (text -> text or None) to a record in its own encoding; False if it cannot."""
    data = path.read_bytes()
    codec = _codec(data)
    try:
        text = data.decode(codec)
        if text.encode(codec) != data:
            return False  # would not write back the same bytes around the edit
    except UnicodeError:
        return False
    new = change(text)
    if new is None or new == text:
        return False
    write(path, new.encode(codec), in_place)
    return True


def write(path: Path, data: bytes, in_place: bool) -> None:
    """Write as a program does: into the same file, or (editors, git) a new file renamed over it."""
    if in_place:
        with open(path, "r+b") as handle:
            handle.write(data)
            handle.truncate()
    else:
        tmp = path.with_name(path.name + ".tmp-test")
        tmp.write_bytes(data)
        os.replace(tmp, path)


def add_mark(path: Path, in_place: bool = True) -> bool:
    """Change the MARK of the first move (or give it one): the game is the same, its page is not."""

    def change(text: str) -> str | None:
        m = _MOVE.search(text)
        if m is None:
            return None
        mark = int(m.group(1)) + 1 if m.group(1) is not None else 7
        move = text[m.start() : m.end()].split("MARK[")[0]
        return f"{text[: m.start()]}{move}MARK[{mark}]{text[m.end():]}"

    return _rewrite(path, change, in_place)


def drop_last_move(path: Path, in_place: bool = True) -> bool:
    """Remove the last move: another game (no longer won on the board), so event and team pages change."""

    def change(text: str) -> str | None:
        moves = list(_MOVE.finditer(text))
        if len(moves) < 2:
            return None
        last = moves[-1]
        cut = max(text.rfind(";", 0, last.start()), text.rfind("；", 0, last.start()))
        return None if cut < moves[-2].end() else text[:cut] + text[last.end() :]

    return _rewrite(path, change, in_place)


# ---------------------------------------------------------------------------
# Damage


def cache_files(cache: Path, kind: str) -> list[Path]:
    return sorted(cache.glob(CACHE_KINDS[kind]))


def damage(path: Path, how: str, rng: random.Random) -> None:
    """Damage a file in place, as a crash, a full disk or a bad sector would."""
    data = bytearray(path.read_bytes())
    n = len(data)
    if how == "half":
        data = data[: n // 2]
    elif how == "empty":
        data = bytearray()
    elif how == "zeroed":
        data = bytearray(n)
    elif how == "flip-middle" and n:
        data[n // 2] ^= 0xFF
    elif how == "flip-end" and n:
        data[max(0, n - 10)] ^= 0xFF  # near the end, not the last byte (a pickle's STOP)
    elif how == "garbage":
        data = bytearray(rng.randbytes(n))
    with open(path, "r+b") as handle:
        handle.write(data)
        handle.truncate()


# ---------------------------------------------------------------------------
# Snapshots: one site built once, put back before each test


def copy_tree(source: Path, target: Path) -> None:
    """A copy keeping file and folder times (and symlinks as symlinks)."""
    shutil.copytree(source, target, symlinks=True)
    _copy_folder_times(source, target)


def _copy_folder_times(source: Path, target: Path) -> None:
    for folder, _dirs, _ in os.walk(source):
        st = os.stat(folder)
        os.utime(target / Path(folder).relative_to(source), ns=(st.st_atime_ns, st.st_mtime_ns))


def restore(keep: Path, site: Site) -> None:
    """Put back a site saved with copy_tree, at the same paths (the build state is named by them).

    The content and the output are hard links to the saved files: the same
    inodes, so to the build they are exactly the files it wrote (it may
    stamp each by size, time and inode), and a record's download is still
    the record itself. The build never writes into an existing file of
    either (it writes a new one and renames it): the saved files stay as
    they are. Whoever edits one of them in place must put it back (see
    test_repair.Archive.edit_in_place). The cache is copied: SQLite writes
    into its files.
    """
    shutil.rmtree(site.root, ignore_errors=True)
    site.root.mkdir(parents=True)
    for entry in sorted(keep.iterdir()):
        target = site.root / entry.name
        if entry.name == site.cache.name:
            shutil.copytree(entry, target, symlinks=True)
        elif entry.is_dir() and not entry.is_symlink():
            shutil.copytree(entry, target, symlinks=True, copy_function=os.link)
        else:
            shutil.copy2(entry, target, follow_symlinks=False)
    _copy_folder_times(keep, site.root)

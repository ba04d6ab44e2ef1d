"""A site that always equals a clean build.

Whatever happened before (a build killed at any moment, with or without its
workers; the cache damaged or deleted; an output file edited, deleted or
added by hand), the next `qipu build` makes exactly what a fresh build into
an empty folder makes, or says why it cannot (exit non-zero, one line on
stderr starting with `qipu:`, never a traceback). Workers exit when their
parent dies.

Every build here is a `python -m generator build` process, as a user runs
it (see tests/repair_support.py). The cheap cases use a small archive built
once and put back before each test; the kills use an archive large enough
for the build to start its worker processes.

The long versions are marked ``repair_long`` and skipped unless selected:

    python -m pytest -m repair_long tests/test_repair.py -rs

``QIPU_REPAIR_SEED`` picks other random kills (the seed is printed on failure).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from repair_support import (
    CACHE_KINDS,
    DAMAGES,
    REPO,
    Site,
    Tree,
    add_mark,
    age,
    another_version,
    assert_clean_refusal,
    assert_ok,
    assert_same_tree,
    bump,
    cache_files,
    clean_tree,
    content_digest,
    copy_tree,
    damage,
    differences,
    drop_last_move,
    group_members,
    has_option,
    kill_group,
    make_records,
    problem_with,
    qipu_build,
    records_in,
    restore,
    start,
    survivors,
    tree,
    write,
)


def _pool_threshold() -> int:
    # Read, not imported: this file must load while generator/ is mid-edit (its
    # builds run in their own processes anyway).
    found = re.search(r"^POOL_THRESHOLD = (\d+)", (REPO / "generator" / "build" / "pool.py").read_text(encoding="utf-8"), re.M)
    return int(found.group(1)) if found else 200


POOL_THRESHOLD = _pool_threshold()
SEED = int(os.environ.get("QIPU_REPAIR_SEED", "20261121"))
SMALL = 20  # records: a build in one process, well under a second
LARGE = POOL_THRESHOLD + 100  # records: the build forks its workers (--jobs 2)
KILL_ROUNDS, KILL_BUDGET = 6, 45.0  # default run: rounds, and seconds after which no new round starts
LONG_KILL_ROUNDS, LONG_KILL_BUDGET = 40, 900.0

long_only = pytest.mark.repair_long


@pytest.fixture(autouse=True)
def _long_runs_only_when_asked(request: pytest.FixtureRequest) -> None:
    # A plain `python -m pytest` must stay quick: the long versions run under -m repair_long.
    if request.node.get_closest_marker("repair_long") and "repair_long" not in (request.config.option.markexpr or ""):
        pytest.skip("long version: run with -m repair_long")


# ---------------------------------------------------------------------------
# The small archive: built once, put back before each test


@dataclass
class Archive:
    site: Site
    keep: Path  # the site's working folder as the setup left it (content, site, cache)
    pool: Path  # more records, to add
    scratch: Path  # for clean builds
    references: dict[str, Tree] = field(default_factory=dict)
    undo: list[tuple[Path, bytes, int, int]] = field(default_factory=list)  # saved files edited in place

    def restore(self) -> Site:
        while self.undo:  # the saved files a test edited in place (see edit_in_place), as they were
            saved, data, atime, mtime = self.undo.pop()
            write(saved, data, in_place=True)
            os.utime(saved, ns=(atime, mtime))
        restore(self.keep, self.site)
        return self.site

    def edit_in_place(self, path: Path, data: bytes) -> None:
        """Write into a file itself (the same inode), as a hand edit does.

        Content and output files are hard links to the saved ones (see
        repair_support.restore): the saved file is put back at the next restore.
        """
        saved = self.keep / path.relative_to(self.site.root)
        if saved.exists() and os.path.samefile(saved, path):
            st = saved.stat()
            self.undo.append((saved, saved.read_bytes(), st.st_atime_ns, st.st_mtime_ns))
        write(path, data, in_place=True)

    def reference(self) -> Tree:
        """A clean build of the content as it is now (kept per content: a clean build costs a second)."""
        key = content_digest(self.site.content)
        if key not in self.references:
            self.references[key] = clean_tree(self.site.content, self.scratch)
        return self.references[key]

    def check(self, context: str = "", *extra: str) -> None:
        """Run `qipu build`: it must succeed and leave exactly a clean build's site."""
        run = qipu_build(self.site, *extra)
        assert_ok(run, context)
        assert_same_tree(tree(self.site.out), self.reference(), f"{context}\n{run.shown()}")


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    """20 records built, then one MARK edited and built again (so the state was saved in part too)."""
    base = tmp_path_factory.mktemp("small")
    work = base / "work"
    site = Site(work, work / "content", work / "site")
    records = make_records(SMALL, site.content, seed=SEED % 1000)
    age(records)  # no record "racy": which paths a build takes does not depend on the clock
    pool = base / "pool"
    age(make_records(10, pool, seed=SEED % 1000 + 1))
    assert_ok(qipu_build(site), "the first build")
    assert add_mark(records[0])
    bump(records[0])
    assert_ok(qipu_build(site), "the build after an edit")
    # Moved, not copied: the files keep the inodes the build saw (see repair_support.restore).
    work.rename(base / "keep")
    return Archive(site, base / "keep", pool, base / "scratch")


def game_page(site: Site, record: Path) -> Path:
    """The game page the site made of a record (from data/games.jsonl)."""
    rel = record.relative_to(site.content).as_posix()
    for line in (site.out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines():
        game = json.loads(line)
        if game["source"] == rel:
            return site.out / game["url"]
    raise AssertionError(f"no game page for {rel}")


def download(site: Site, record: Path) -> Path:
    return site.out / "files" / record.relative_to(site.content)


def add_from_pool(site: Site, pool: Path, count: int) -> list[Path]:
    """Copy records from the pool into the content (times kept: not racy); returns them."""
    added = []
    for source in records_in(pool):
        target = site.content / source.relative_to(pool)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
            added.append(target)
        if len(added) == count:
            break
    return added


# What happens after the damage, before the next build.
CHANGES = {
    "none": "nothing edited",
    "mark": "one MARK value edited (the quick path, which reads the record's old view from the cache)",
    "moves": "a record's last move removed (the full path: its game, event and team pages are rendered)",
    "page-gone": "a game page deleted by hand (rendered again from the view in the cache)",
}


def apply_change(site: Site, change: str) -> None:
    records = records_in(site.content)
    # Saved as an editor saves (a new file renamed over the old): the saved copy stays as it was.
    if change == "mark":
        assert add_mark(records[1], in_place=False)
        bump(records[1])
    elif change == "moves":
        assert drop_last_move(records[2], in_place=False)
        bump(records[2])
    elif change == "page-gone":
        game_page(site, records[3]).unlink()


def _damage_cases() -> list:
    """Every kind of cache file, damaged every way, then nothing edited or one MARK edited; the
    other changes (which render pages from the damaged views and templates) in the long run."""
    cases = []
    for change in CHANGES:
        for kind in CACHE_KINDS:
            for how in DAMAGES:
                marks = [long_only] if change in ("moves", "page-gone") and how not in ("flip-middle", "garbage") else []
                cases.append(pytest.param(kind, how, change, id=f"{kind}-{how}-{change}", marks=marks))
    return cases


@pytest.mark.parametrize(("kind", "how", "change"), _damage_cases())
def test_a_damaged_cache_file_is_thrown_away_and_the_site_equals_a_clean_build(
    small: Archive, kind: str, how: str, change: str
) -> None:
    site = small.restore()
    files = cache_files(site.cache, kind)
    if not files:
        pytest.skip(f"the cache holds no {kind} file ({CACHE_KINDS[kind]}) after a build and an edit")
    for n, path in enumerate(files):
        damage(path, how, random.Random(f"{SEED}/{kind}/{how}/{n}"))
    apply_change(site, change)
    small.check(f"{kind} files {[p.name for p in files]} damaged ({how}), then {CHANGES[change]}")


LOSSES = {
    "cache folder": lambda cache: shutil.rmtree(cache),
    "state (views kept)": lambda cache: [p.unlink() for p in cache.glob("state-*")],
    "views (state kept)": lambda cache: [p.unlink() for p in cache.glob("views-*")],
    "compiled templates": lambda cache: shutil.rmtree(cache / "templates"),
}


@pytest.mark.parametrize(
    "change", [pytest.param(change, marks=[long_only] if change == "moves" else []) for change in CHANGES]
)
@pytest.mark.parametrize("loss", LOSSES)
def test_a_lost_part_of_the_cache_costs_work_not_correctness(small: Archive, loss: str, change: str) -> None:
    site = small.restore()
    LOSSES[loss](site.cache)
    apply_change(site, change)
    small.check(f"{loss} deleted, then {CHANGES[change]}")


def _hot_journals(pattern: str) -> Callable[[Path], None]:
    def leave(cache: Path) -> None:
        # What SQLite finds beside a file whose commit was cut short, here as garbage.
        for n, db in enumerate(sorted(cache.glob(pattern))):
            db.with_name(db.name + "-journal").write_bytes(random.Random(f"{SEED}/journal/{n}").randbytes(4096))

    return leave


def _half_a_state_saved(cache: Path) -> None:
    # A save killed midway: the SQLite journal of its transaction, with the first half of the state's pages.
    for state in cache.glob("state-*.sqlite"):
        state.with_name(state.name + "-journal").write_bytes(state.read_bytes()[: state.stat().st_size // 2])


LEFTOVERS = {
    "a garbage SQLite journal beside each views file": _hot_journals("views-*.sqlite"),
    "a garbage SQLite journal beside the state file": _hot_journals("state-*.sqlite"),
    "half a state beside the state file, as a journal": _half_a_state_saved,
}


@pytest.mark.parametrize("change", ["none", "mark", "page-gone"])
@pytest.mark.parametrize("leftover", LEFTOVERS)
def test_what_a_killed_save_leaves_in_the_cache_is_harmless(small: Archive, leftover: str, change: str) -> None:
    site = small.restore()
    LEFTOVERS[leftover](site.cache)
    apply_change(site, change)
    small.check(f"{leftover}, then {CHANGES[change]}")


@pytest.fixture(scope="module")
def other_qipu(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return another_version(tmp_path_factory.mktemp("other-qipu"))


@pytest.mark.parametrize("how", ["download replaced by another file", "static file edited", "game page edited"])
def test_a_file_touched_by_hand_is_put_right_by_another_version_of_qipu(small: Archive, other_qipu: Path, how: str) -> None:
    """An upgrade: the cache was written by another Qipu, and cannot vouch for the files on disk."""
    site = small.restore()
    _tamper(small, how)
    run = qipu_build(site, code=other_qipu)
    assert_ok(run, f"output: {how}, then a build by another version")
    assert_same_tree(tree(site.out), small.reference(), f"output: {how}, then a build by another version\n{run.shown()}")


# ---------------------------------------------------------------------------
# The output folder touched by hand


def _first(folder: Path) -> Path:
    return sorted(p for p in folder.rglob("*") if p.is_file())[0]


def _symlink_to_copy(site: Site, path: Path) -> None:
    """Replace a file or folder of the site by a symlink to a copy of it elsewhere (the same bytes)."""
    elsewhere = site.root / "elsewhere" / path.name
    elsewhere.parent.mkdir(parents=True, exist_ok=True)
    if path.is_dir():
        shutil.copytree(path, elsewhere)
        shutil.rmtree(path)
    else:
        shutil.copy2(path, elsewhere)
        path.unlink()
    path.symlink_to(elsewhere)


def _tamper(small: Archive, how: str) -> None:
    site = small.site
    records = records_in(site.content)
    page, record = game_page(site, records[4]), records[4]
    static = _first(site.out / "static")
    if how == "game page edited":
        small.edit_in_place(page, page.read_bytes().replace(b"</body>", b"<p>edited by hand</p></body>"))
    elif how == "game page, one byte changed (same size)":
        data = bytearray(page.read_bytes())
        data[len(data) // 2] ^= 0x01
        small.edit_in_place(page, bytes(data))
    elif how == "index.html edited":
        index = site.out / "index.html"
        small.edit_in_place(index, index.read_bytes() + b"<!-- by hand -->\n")
    elif how == "download edited in place (the record changes too: it is a hard link)":
        small.edit_in_place(download(site, record), record.read_bytes() + b"\n")
    elif how == "download replaced by another file":
        write(download(site, record), b"not the record", in_place=False)
    elif how == "static file edited":
        small.edit_in_place(static, static.read_bytes() + b"\n/* by hand */\n")
    elif how == "game page deleted":
        page.unlink()
    elif how == "download deleted":
        download(site, record).unlink()
    elif how == "index.html deleted":
        (site.out / "index.html").unlink()
    elif how == "static file deleted":
        static.unlink()
    elif how == "an event's game pages deleted":
        shutil.rmtree(page.parent)
    elif how == "foreign file in games/":
        (page.parent / "notes.html").write_text("<p>not from qipu</p>", encoding="utf-8")
    elif how == "foreign file in files/":
        (download(site, record).parent / "README.txt").write_text("not a record", encoding="utf-8")
    elif how == "a killed write's temporary files in games/":
        # Both names Qipu has given its temporary files (before and after 0.2 of generator/render/write.py).
        (page.parent / f".{page.name}.12345.qipu-tmp").write_bytes(page.read_bytes()[:100])
        (page.parent / ".qipu-tmp-12345-0").write_bytes(page.read_bytes()[:100])
    elif how == "game page replaced by a symlink":
        _symlink_to_copy(site, page)
    elif how == "download replaced by a symlink to its record":
        target = download(site, record)
        target.unlink()
        target.symlink_to(record)
    elif how == "static folder replaced by a symlink":
        _symlink_to_copy(site, site.out / "static")
    else:
        raise AssertionError(how)


TAMPERING = [
    "game page edited",
    "game page, one byte changed (same size)",
    "index.html edited",
    "download edited in place (the record changes too: it is a hard link)",
    "download replaced by another file",
    "static file edited",
    "game page deleted",
    "download deleted",
    "index.html deleted",
    "static file deleted",
    "an event's game pages deleted",
    "foreign file in games/",
    "foreign file in files/",
    "a killed write's temporary files in games/",
    "game page replaced by a symlink",
    "download replaced by a symlink to its record",
    "static folder replaced by a symlink",
]


@pytest.mark.parametrize("how", TAMPERING)
def test_an_output_file_touched_by_hand_is_put_right_by_the_next_build(small: Archive, how: str) -> None:
    small.restore()
    _tamper(small, how)
    small.check(f"output: {how}")


# ---------------------------------------------------------------------------
# Orphans: pages of records that are gone


def test_pages_a_killed_build_wrote_are_removed_once_their_records_are_gone(small: Archive, tmp_path: Path) -> None:
    """A build wrote the pages of new records and died before saving its state; the records are then deleted.

    The kill is simulated exactly: the cache is put back as it was before that build.
    """
    site = small.restore()
    before = tmp_path / "cache-before"
    copy_tree(site.cache, before)
    added = add_from_pool(site, small.pool, 3)
    assert_ok(qipu_build(site), "the build of the new records")
    assert all(download(site, record).exists() for record in added)
    shutil.rmtree(site.cache)
    copy_tree(before, site.cache)  # the state that build would have saved is lost
    for record in added:
        record.unlink()
    small.check("3 records added, built, the build's state lost (killed), the records deleted again")


def test_pages_of_records_added_during_a_killed_build_are_removed_once_the_records_are_gone(small: Archive) -> None:
    """The same with a real kill: as soon as the first new record's download appears."""
    site = small.restore()
    added = add_from_pool(site, small.pool, 6)
    proc = start(site, quiet=True)
    try:
        for _ in range(5000):  # a bounded wait: the build ends within a few seconds anyway
            if proc.poll() is not None or any(download(site, record).exists() for record in added):
                break
            time.sleep(0.001)
        kill_group(proc.pid)
        proc.communicate()
    finally:
        kill_group(proc.pid)
    for record in added:
        record.unlink()
    small.check(f"6 records added, build killed (exit {proc.returncode}), the records deleted again")


# ---------------------------------------------------------------------------
# --clean, and builds that cannot be done


def test_build_clean_after_every_kind_of_damage_equals_a_clean_build(small: Archive) -> None:
    if not has_option("--clean"):
        pytest.skip("`qipu build --help` lists no --clean yet")
    site = small.restore()
    rng = random.Random(SEED)
    for kind in CACHE_KINDS:
        for path in cache_files(site.cache, kind):
            damage(path, "flip-middle", rng)
    for how in ("game page edited", "foreign file in files/", "static folder replaced by a symlink"):
        _tamper(small, how)
    apply_change(site, "moves")
    small.check("cache damaged, output touched, a record edited; then --clean", "--clean")
    # And once more on the site --clean left: nothing to change.
    small.check("a second --clean", "--clean")


def test_a_cache_folder_that_is_a_file_is_either_replaced_or_refused_with_one_line(small: Archive) -> None:
    site = small.restore()
    shutil.rmtree(site.cache)
    site.cache.write_bytes(b"not a folder")
    run = qipu_build(site)
    if run.returncode == 0 and problem_with(run) is None:
        assert_same_tree(tree(site.out), small.reference(), run.shown())
    else:
        assert_clean_refusal(run)


def test_an_output_path_that_is_a_file_is_refused_with_one_line(small: Archive) -> None:
    site = small.restore()
    shutil.rmtree(site.out)
    site.out.write_bytes(b"a file where the site should go")
    run = qipu_build(site)
    assert_clean_refusal(run)
    assert site.out.read_bytes() == b"a file where the site should go"  # a user's file: left alone


# ---------------------------------------------------------------------------
# Workers, and builds killed at random moments (the large archive)


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A content folder of LARGE records, and a pool of more to add (both only read: tests copy them)."""
    base = tmp_path_factory.mktemp("large")
    make_records(LARGE, base / "content", seed=SEED % 1000 + 2)
    make_records(60, base / "pool", seed=SEED % 1000 + 3)
    return base / "content", base / "pool"


def test_workers_exit_when_their_parent_is_killed(large: tuple[Path, Path], tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(large[0], content)
    site = Site(tmp_path / "work", content, tmp_path / "work" / "site")
    seen_workers = False
    for _attempt in range(3):  # the build may end before the test sees its workers: try again, afresh
        shutil.rmtree(site.root, ignore_errors=True)
        # Quiet: workers that outlive their parent keep its pipes open, and reading them would never end.
        proc = start(site, quiet=True)
        try:
            for _ in range(3000):  # a bounded look for the forked workers (the build lasts seconds)
                if proc.poll() is not None or len(group_members(proc.pid)) >= 3:
                    break
                time.sleep(0.002)
            if proc.poll() is not None:
                proc.communicate()
                continue
            seen_workers = True
            workers = [pid for pid, _, _ in group_members(proc.pid) if pid != proc.pid]
            os.kill(proc.pid, signal.SIGKILL)  # the parent only, as a crash or the OOM killer would
            proc.communicate()
            left = survivors(proc.pid)
            assert not left, (
                f"workers {workers} of build {proc.pid}: still alive 5 s after their parent was killed "
                f"(pid, state, ppid): {left}"
            )
            break
        finally:
            kill_group(proc.pid)
    if not seen_workers:
        pytest.skip("three builds ended before their workers could be seen")
    run = qipu_build(site)
    assert_ok(run, "the build after the killed one")
    assert_same_tree(tree(site.out), clean_tree(content, tmp_path / "scratch"), run.shown())


def _change_content(site: Site, pool: Path, rng: random.Random) -> tuple[str, float]:
    """One random change, as people make them between builds: what it was, and about what share
    of a cold build's work the next build has to do (to draw a kill time within that build)."""
    content = site.content
    records = records_in(content)
    what = rng.choice(("edit", "edit", "edit many", "delete", "add", "touch", "cache deleted", "site deleted"))
    if what == "cache deleted":
        shutil.rmtree(site.cache, ignore_errors=True)
        return what, 1.0
    if what == "site deleted":
        shutil.rmtree(site.out, ignore_errors=True)
        return what, 0.6
    count = POOL_THRESHOLD + 20 if what == "edit many" else rng.choice((1, 3, 20, 80))
    if what == "add":
        fresh = [p for p in records_in(pool) if not (content / p.relative_to(pool)).exists()]
        if fresh:
            chosen = rng.sample(fresh, min(count, len(fresh)))
            for source in chosen:
                target = content / source.relative_to(pool)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
            return f"added {len(chosen)} records", len(chosen) / len(records)
        what = "edit"
    chosen = rng.sample(records, min(count, len(records) - 20))
    if what == "delete":
        for path in chosen:
            path.unlink()
        return f"deleted {len(chosen)} records", 0.2
    if what == "touch":
        for path in chosen:
            os.utime(path)
        return f"touched {len(chosen)} records", 0.1
    done = 0
    for path in chosen:
        edit = rng.choice((add_mark, drop_last_move))
        done += edit(path, in_place=rng.random() < 0.5)
    return f"edited {done} records", done / len(records)


def _random_kills(large: tuple[Path, Path], tmp_path: Path, rounds: int, budget: float) -> None:
    content, pool = tmp_path / "content", large[1]
    shutil.copytree(large[0], content)
    site = Site(tmp_path / "work", content, tmp_path / "work" / "site")
    rng = random.Random(SEED)
    started = time.monotonic()
    assert_ok(qipu_build(site), "the cold build")
    cold = time.monotonic() - started
    started = time.monotonic()
    assert_ok(qipu_build(site), "a build with nothing to do")
    warm = time.monotonic() - started
    log = [f"QIPU_REPAIR_SEED={SEED}; {LARGE} records: cold build {cold:.2f} s, with nothing to do {warm:.2f} s"]
    failures: list[str] = []
    deadline = time.monotonic() + budget
    for n in range(rounds):
        if time.monotonic() > deadline:
            log.append(f"time budget of {budget:.0f} s spent after {n} rounds")
            break
        for k in range(2 if rng.random() < 0.3 else 1):  # sometimes two killed builds in a row
            what, share = _change_content(site, pool, rng)
            # Within the build this change asks for (a kill after its end tests nothing).
            delay = rng.uniform(0.0, (warm + (cold - warm) * share) * 1.2)
            whom = rng.choice(("parent", "group"))
            proc = start(site, quiet=True)
            try:
                time.sleep(delay)
                ended = proc.poll() is not None
                if not ended:
                    if whom == "parent":
                        os.kill(proc.pid, signal.SIGKILL)
                    else:
                        os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
                left = survivors(proc.pid)
            finally:
                kill_group(proc.pid)
            log.append(
                f"round {n}.{k}: {what}; "
                + ("the build ended first" if ended else f"killed the {whom} after {delay:.3f} s")
                + (f"; {len(left)} processes left alive" if left else "")
            )
            if left:
                failures.append(f"round {n}.{k}: processes alive 5 s after the kill (pid, state, ppid): {left}")
        run = qipu_build(site)
        problem = problem_with(run)
        if problem is not None:
            failures.append(f"round {n}: the next build: {problem}\n{run.shown()}")
            continue
        diff = differences(tree(site.out), clean_tree(content, tmp_path / "scratch"))
        if diff:
            failures.append(f"round {n}: the next build's site differs from a clean build's:\n{diff}")
    print("\n".join(log))  # shown with -rP: what was done, to replay it
    assert not failures, "\n".join(log) + "\n\nFAILURES\n" + "\n\n".join(failures)


def test_builds_killed_at_random_moments_leave_a_site_the_next_build_makes_clean(
    large: tuple[Path, Path], tmp_path: Path
) -> None:
    _random_kills(large, tmp_path, KILL_ROUNDS, KILL_BUDGET)


@long_only
def test_builds_killed_at_random_moments_long(large: tuple[Path, Path], tmp_path: Path) -> None:
    _random_kills(large, tmp_path, LONG_KILL_ROUNDS, LONG_KILL_BUDGET)


@long_only
@pytest.mark.parametrize("how", DAMAGES)
@pytest.mark.parametrize("kind", ["state", "views", "templates"])
def test_a_damaged_cache_of_a_large_build_is_thrown_away(large: tuple[Path, Path], tmp_path: Path, kind: str, how: str) -> None:
    """As test_a_damaged_cache_file_is_thrown_away..., with the workers reading the views (two shards)."""
    content = tmp_path / "content"
    shutil.copytree(large[0], content)
    age(records_in(content))
    site = Site(tmp_path / "work", content, tmp_path / "work" / "site")
    assert_ok(qipu_build(site), "the first build")
    files = cache_files(site.cache, kind)
    for n, path in enumerate(files):
        damage(path, how, random.Random(f"{SEED}/{kind}/{how}/{n}"))
    records = records_in(content)
    for record in records[:POOL_THRESHOLD + 10]:  # more pages than a build renders in one process
        game_page(site, record).unlink()
    run = qipu_build(site)
    assert_ok(run, f"{kind} files {[p.name for p in files]} damaged ({how}), game pages deleted")
    assert_same_tree(tree(site.out), clean_tree(content, tmp_path / "scratch"), run.shown())

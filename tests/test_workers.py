"""The worker processes of a build: each keeps its own object between tasks, results
come back in order, failures are reported; a large build renders every game page
from the view cache, and every path gives the same site."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO, pool_records

from generator import cache, workers
from generator.build import POOL_THRESHOLD, Builder
from generator.config import load_config
from generator.render import pages


class Keeper:
    """A worker's own object: what it keeps between tasks."""

    def __init__(self) -> None:
        self.number: int | None = None
        self.kept: dict[str, object] = {}


def where(local: Keeper, task: int) -> tuple[int, int | None, int]:
    return task, local.number, os.getpid()


def remember(local: Keeper, task: str) -> int | None:
    local.kept[task] = f"made by {local.number}"
    return local.number


def recall(local: Keeper, task: str) -> object:
    return local.kept.get(task)


def fail(local: Keeper, task: int) -> int:
    if task == 3:
        raise ValueError("task three is broken")
    return task


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_results_come_back_in_order_from_both_workers(method: str) -> None:
    with workers.Workers(2, Keeper(), method) as team:
        done = team.map(where, iter(range(40)), chunk=3)
    assert [task for task, _, _ in done] == list(range(40))
    assert {worker for _, worker, _ in done} == {0, 1}
    assert {pid for _, _, pid in done} - {os.getpid()} == {pid for _, _, pid in done}  # never in the parent
    assert len({pid for _, _, pid in done}) == 2


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_what_a_worker_keeps_stays_there_between_two_maps(method: str) -> None:
    names = [f"view{i}" for i in range(30)]
    mine = Keeper()
    with workers.Workers(1, mine, method) as team:
        homes = team.map(remember, names, chunk=4)
        found = team.map(recall, names, chunk=4)
    assert homes == [0] * 30 and found == ["made by 0"] * 30
    assert mine.kept == {}  # the parent's own object kept nothing


def test_a_failing_task_raises_in_the_parent_with_the_workers_traceback() -> None:
    with workers.Workers(2, Keeper()) as team, pytest.raises(workers.WorkerError, match="task three is broken"):
        team.map(fail, list(range(8)), chunk=1)


def echo_large(local: Keeper, task: bytes) -> bytes:
    return task * 2


def test_large_batches_both_ways_do_not_block_each_other() -> None:
    # Two batches of a megabyte wait for each worker while it sends back two
    # megabytes: far more than a pipe holds, in both directions at once.
    tasks = [bytes([i]) * 1_000_000 for i in range(8)]
    with workers.Workers(2, Keeper()) as team:
        assert team.map(echo_large, tasks, chunk=1) == [t * 2 for t in tasks]


def touch(local: Keeper, path: str) -> str:
    Path(path).write_text("done", encoding="utf-8")
    return path


def test_workers_start_on_the_first_tasks_while_later_ones_are_being_made(tmp_path: Path) -> None:
    # The build keys one event's pages while the workers render the last's.
    first = [str(tmp_path / f"first{i}") for i in range(4)]

    def tasks() -> Iterator[str]:
        yield from first
        deadline = time.monotonic() + 20
        while not Path(first[0]).exists():  # never, if map() waited for every task first
            assert time.monotonic() < deadline, "no task ran before the last was made"
            time.sleep(0.01)
        yield str(tmp_path / "later")

    with workers.Workers(2, Keeper()) as team:
        assert team.map(touch, tasks(), chunk=1) == [*first, str(tmp_path / "later")]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Enough generated records for the build to use its workers."""
    return pool_records(tmp_path_factory, seed=3)


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _builder(root: Path, content: Path, jobs: int) -> Builder:
    config, problems = load_config(None, root=root, content=content, output=root / "site")
    assert problems == []
    return Builder(config, jobs=jobs, cache_dir=root / "cache")


def _count_cache_reads(monkeypatch: pytest.MonkeyPatch, log: Path) -> None:
    """Each view read back from the cache is noted in ``log``, from whichever process reads it."""
    read = cache.ViewStore.get

    def noted(self: object, key: str) -> bytes:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(key + "\n")
        return read(self, key)  # type: ignore[arg-type]

    monkeypatch.setattr(cache.ViewStore, "get", noted)  # inherited by the forked workers


def _cache_reads(log: Path) -> int:
    return len(log.read_text(encoding="utf-8").splitlines()) if log.exists() else 0


def test_a_large_build_renders_every_game_from_the_view_its_record_stored(
    records: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "reads.txt"
    _count_cache_reads(monkeypatch, log)
    builder = _builder(tmp_path, records, jobs=2)
    report = builder.build()
    builder.wait()
    assert report.games == POOL_THRESHOLD + 40 and report.errors == 0
    # Each view made once, stored by the worker that made it, read once by the one that renders its page.
    assert _cache_reads(log) == report.games
    one = tmp_path / "one"
    builder = _builder(one, records, jobs=1)
    builder.build()
    builder.wait()
    assert _tree(tmp_path / "site") == _tree(one / "site")


def test_a_new_site_title_renders_every_game_from_the_cache_in_fresh_workers(records: Path, tmp_path: Path) -> None:
    builder = _builder(tmp_path, records, jobs=2)
    builder.build()
    builder.wait()
    # Each worker stored the views it made in its own file.
    assert sorted(p.name for p in (tmp_path / "cache").glob("views-*.sqlite")) == ["views-0.sqlite", "views-1.sqlite"]
    (tmp_path / "site.toml").write_text('title = "新的标题"\n', encoding="utf-8")
    report = _builder(tmp_path, records, jobs=2).build()  # every page shows the title: nothing re-read
    assert report.reparsed == 0 and report.written >= report.games
    pages = list((tmp_path / "site" / "games").rglob("*.html"))
    assert len(pages) == report.games and all("新的标题" in p.read_text(encoding="utf-8") for p in pages)


def test_the_board_drawings_the_workers_made_are_kept_for_the_next_process(records: Path, tmp_path: Path) -> None:
    builder = _builder(tmp_path, records, jobs=2)
    builder.build()
    builder.wait()
    # A new process, as `qipu build` after one edit: it draws no board, so it
    # never imports svgwrite (it renders the one page with the compiled template).
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from generator.build import Builder\n"
        "from generator.config import load_config\n"
        f"root, content = Path({str(tmp_path)!r}), Path({str(records)!r})\n"
        "config, _ = load_config(None, root=root, content=content, output=root / 'site')\n"
        "builder = Builder(config, jobs=2, cache_dir=root / 'cache')\n"
        "report = builder.build()\n"
        "builder.wait()\n"
        "print(report.written, report.quick, 'svgwrite' in sys.modules, 'jinja2' in sys.modules)\n"
    )
    # A record with three MARKs or more: an edit of its second leaves the last move's as it was.
    record = next(p for p in sorted(records.rglob("*.txt")) if len(re.findall(rb"MARK\[", p.read_bytes())) > 2)
    original = record.read_bytes()
    second = list(re.finditer(rb"MARK\[(-?\d)\]", original))[1]
    changed = b"-2" if second[1] != b"-2" else b"2"
    try:
        record.write_bytes(original[: second.start(1)] + changed + original[second.end(1) :])
        done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True)
        fresh = tmp_path / "fresh"
        _builder(fresh, records, jobs=1).build()  # the edited archive built from nothing
    finally:
        record.write_bytes(original)
    written, quick, svgwrite, _ = done.stdout.split()
    assert int(written) >= 1 and quick == "True" and svgwrite == "False"
    assert _tree(tmp_path / "site") == _tree(fresh / "site")


def test_a_page_failing_in_a_worker_is_the_error_the_build_raises(
    tmp_path: Path, records: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Forked after this, the workers fail on one game page while other batches,
    # rendered well, wait in the pipes: ending the workers must not read those
    # answers as its own and hide the error behind another.
    real = pages.game_page
    victim = sorted(records.rglob("*.txt"))[len(list(records.rglob("*.txt"))) // 2].relative_to(records).as_posix()

    def broken(template: object, job: pages.GameJob, view: object, site: object) -> bytes:
        if job.source == victim:
            raise RuntimeError(f"the game template broke on {job.source}")
        return real(template, job, view, site)  # type: ignore[arg-type]

    monkeypatch.setattr(pages, "game_page", broken)
    builder = _builder(tmp_path, records, jobs=2)
    with pytest.raises(workers.WorkerError, match="the game template broke"):
        builder.build()

"""Workers started with spawn, as on Windows and macOS: the build still uses
every worker it is given and writes the same bytes as a forked or a serial build."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pool_records

from generator import workers
from generator.build import POOL_THRESHOLD, Builder
from generator.config import load_config


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Enough generated records for the build to start its workers."""
    return pool_records(tmp_path_factory, seed=5)


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _build(root: Path, content: Path, jobs: int, method: str | None = None) -> Builder:
    config, problems = load_config(None, root=root, content=content, output=root / "site")
    assert problems == []
    builder = Builder(config, jobs=jobs, cache_dir=root / "cache", start_method=method)
    report = builder.build()
    builder.wait()
    assert report.errors == 0 and report.games == POOL_THRESHOLD + 40
    return builder


def test_a_spawned_build_uses_its_workers_and_writes_the_same_site(records: Path, tmp_path: Path) -> None:
    _build(tmp_path / "spawn", records, jobs=2, method="spawn")
    # Each worker stored the views it made in its own file of the cache: both worked.
    shards = sorted(p.name for p in (tmp_path / "spawn" / "cache").glob("views-*.sqlite"))
    assert shards == ["views-0.sqlite", "views-1.sqlite"]
    _build(tmp_path / "fork", records, jobs=2, method="fork")
    _build(tmp_path / "serial", records, jobs=1)
    spawned = _tree(tmp_path / "spawn" / "site")
    assert spawned == _tree(tmp_path / "fork" / "site") == _tree(tmp_path / "serial" / "site")
    assert sum(name.startswith("games/") for name in spawned) == POOL_THRESHOLD + 40


def test_a_spawned_rebuild_renders_every_page_from_the_cache(records: Path, tmp_path: Path) -> None:
    """A new title: every page again, the views from the cache, in spawned workers."""
    _build(tmp_path, records, jobs=2, method="spawn")
    (tmp_path / "site.toml").write_text('title = "新的标题"\n', encoding="utf-8")
    config, _ = load_config(None, root=tmp_path, content=records, output=tmp_path / "site")
    report = Builder(config, jobs=2, cache_dir=tmp_path / "cache", start_method="spawn").build()
    assert report.reparsed == 0 and report.written >= report.games
    pages = list((tmp_path / "site" / "games").rglob("*.html"))
    assert len(pages) == report.games and all("新的标题" in p.read_text(encoding="utf-8") for p in pages)


def test_the_start_method_can_be_chosen_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QIPU_START_METHOD", "spawn")
    assert workers.start_method() == "spawn"
    monkeypatch.setenv("QIPU_START_METHOD", "no such method")
    assert workers.start_method() in ("fork", "spawn", "forkserver")

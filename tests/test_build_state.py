"""The build state on disk: after a small edit only what changed is appended to
a journal beside it, and a new process reads back exactly the state the last
build left, or (when the journal is damaged) an older one that only costs work."""

# ruff: noqa: F401, F811 - the tests take the `site` fixture imported from test_quick_rebuild

from __future__ import annotations

from pathlib import Path

import pytest
from test_quick_rebuild import EDITED, _full, build, edit, site, tree

from generator import build as build_module
from generator.build import Builder, _CacheState
from generator.config import load_config


def builder(root: Path, content: Path, out: Path) -> Builder:
    config, problems = load_config(None, root=root, content=content, output=out)
    assert problems == []
    return Builder(config, jobs=1, cache_dir=root / ".qipu-cache")


def state_files(root: Path) -> tuple[Path, Path]:
    (state,) = (root / ".qipu-cache").glob("state-*.pickle")
    return state, state.with_suffix(".journal")


def same_state(a: _CacheState, b: _CacheState) -> None:
    for name in _CacheState.__slots__:
        left, right = getattr(a, name), getattr(b, name)
        if name == "summaries":
            left, right = left.raw, right.raw
        assert left == right, name


def test_an_edit_appends_to_the_journal_and_a_new_process_reads_the_same_state(site: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = site
    state_file, journal = state_files(tmp_path)
    saved = state_file.read_bytes()
    edit(content / "cup" / EDITED, "B(J,8)", "B(J,8)MARK[2]")
    first = builder(tmp_path, content, out)
    assert first.build().quick
    first.wait()
    assert state_file.read_bytes() == saved and journal.stat().st_size > 0
    same_state(builder(tmp_path, content, out)._load_state(), first._state)
    edit(content / "open" / EDITED, "B(J,8)", "B(J,8)MARK[-2]")
    second = builder(tmp_path, content, out)
    assert second.build().quick
    second.wait()
    same_state(builder(tmp_path, content, out)._load_state(), second._state)
    again = build(tmp_path, content, out)
    assert (again.reparsed, again.written) == (0, 0)


def test_a_journal_cut_short_costs_work_not_correctness(site: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = site
    _, journal = state_files(tmp_path)
    edit(content / "cup" / EDITED, "B(J,8)", "B(J,8)MARK[2]")
    assert build(tmp_path, content, out).quick
    journal.write_bytes(journal.read_bytes()[:-5])  # the build stopped while appending
    report = build(tmp_path, content, out)
    assert report.reparsed == 1  # the state is the one before the edit: the record is read again
    assert tree(out) == tree(_full(tmp_path))
    # That build could not append after the damaged entry: it wrote the whole state anew.
    assert not journal.exists()
    again = build(tmp_path, content, out)
    assert (again.reparsed, again.written) == (0, 0)


def test_a_long_journal_is_folded_into_the_state(site: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    content, out = site
    state_file, journal = state_files(tmp_path)
    saved = state_file.read_bytes()
    monkeypatch.setattr(build_module, "JOURNAL_LIMIT", 0)
    edit(content / "cup" / EDITED, "B(J,8)", "B(J,8)MARK[2]")
    assert build(tmp_path, content, out).quick
    assert state_file.read_bytes() != saved and not journal.exists()
    again = build(tmp_path, content, out)
    assert (again.reparsed, again.written) == (0, 0)


def test_a_journal_left_from_an_older_state_is_not_applied(site: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    content, out = site
    _, journal = state_files(tmp_path)
    edit(content / "cup" / EDITED, "B(J,8)", "B(J,8)MARK[2]")
    assert build(tmp_path, content, out).quick
    old_entries = journal.read_bytes()
    monkeypatch.setattr(build_module, "JOURNAL_LIMIT", 0)
    edit(content / "cup" / EDITED, "MARK[2]", "MARK[-1]")
    latest = builder(tmp_path, content, out)
    assert latest.build().quick
    latest.wait()
    journal.write_bytes(old_entries)  # say, a copy of the cache folder mixed from two times
    same_state(builder(tmp_path, content, out)._load_state(), latest._state)


def test_the_view_cache_is_pruned_once_edits_leave_enough_unused_views(site: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = site
    kept = builder(tmp_path, content, out)  # as `qipu serve` keeps one
    kept.build()
    record = content / "cup" / EDITED
    live = len(kept._state.records)
    rows = []
    for n in range(live // 2 + 60):  # each edit stores a new view and leaves the last one unused
        edit(record, f"MARK[{n - 1}]" if n else "B(J,8)", f"MARK[{n}]" if n else "B(J,8)MARK[0]")
        kept.build(changed={record})
        kept.wait()
        rows.append(sum(db.execute("SELECT count(*) FROM views").fetchone()[0] for db in kept._views._all()))
        kept._views.close()
    assert max(rows) <= live * 1.5 + 52  # never more dead views than the pruning allows
    assert rows[-1] < max(rows)  # pruned on the way
    assert kept._state.unpruned < live // 2 + 51
    same_state(builder(tmp_path, content, out)._load_state(), kept._state)  # the count is saved too

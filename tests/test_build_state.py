"""The build state on disk: named parts in one SQLite file, each sealed. After a
small edit only the parts it touched are written again, and a new process reads
back exactly the state the last build left; a damaged part, or a state another
process saved meanwhile, costs work, never correctness."""

# ruff: noqa: F401, F811 - the tests take the `site` fixture imported from test_quick_rebuild

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from test_quick_rebuild import EDITED, _full, build, edit, site, tree

from generator.build import Builder, BuildState
from generator.config import load_config


def builder(root: Path, content: Path, out: Path) -> Builder:
    config, problems = load_config(None, root=root, content=content, output=out)
    assert problems == []
    return Builder(config, jobs=1, cache_dir=root / ".qipu-cache")


def state_file(root: Path) -> Path:
    (state,) = (root / ".qipu-cache").glob("state-*.sqlite")
    return state


def parts(root: Path) -> dict[str, bytes]:
    with sqlite3.connect(state_file(root)) as db:
        return dict(db.execute("SELECT name, blob FROM parts"))


def same_state(a: BuildState, b: BuildState) -> None:
    for name in BuildState.__slots__:
        left, right = getattr(a, name), getattr(b, name)
        if name == "summaries":
            left, right = left.keys, right.keys
            assert all(a.summaries[rel] == b.summaries[rel] for rel in left)
        if name == "jobs":
            left, right = sorted(left), sorted(right)
        assert left == right, name


def test_an_edit_rewrites_only_the_parts_it_touched_and_a_new_process_reads_the_same_state(
    site: tuple[Path, Path], tmp_path: Path
) -> None:
    content, out = site
    before = parts(tmp_path)
    edit(content / "cup" / EDITED, "B(J,8)", "B(J,8)MARK[2]")
    first = builder(tmp_path, content, out)
    assert first.build().quick
    first.wait()
    after = parts(tmp_path)
    changed = {name for name in after if after[name] != before.get(name)}
    # The edited record's folder in each table, its summary, its event's page jobs, and a few fields.
    assert {"records/cup", "summary/cup/" + EDITED, "outputs/games/cup"} <= changed
    assert not any(name.startswith("records/") and name != "records/cup" for name in changed)
    assert {name for name in before if name.startswith("summary/")} - changed  # the other summaries stay
    assert first._state is not None
    same_state(builder(tmp_path, content, out)._load_state(), first._state)
    edit(content / "open" / EDITED, "B(J,8)", "B(J,8)MARK[-2]")
    second = builder(tmp_path, content, out)
    assert second.build().quick
    second.wait()
    assert second._state is not None
    same_state(builder(tmp_path, content, out)._load_state(), second._state)
    again = build(tmp_path, content, out)
    assert (again.reparsed, again.written) == (0, 0)


@pytest.mark.parametrize("part", ["records/cup", "outputs/games/cup", "field/inputs", "summary/cup/" + EDITED])
def test_a_damaged_part_costs_work_not_correctness(site: tuple[Path, Path], tmp_path: Path, part: str) -> None:
    content, out = site
    edit(content / "cup" / EDITED, "B(J,8)", "B(J,8)MARK[2]")
    assert build(tmp_path, content, out).quick
    with sqlite3.connect(state_file(tmp_path)) as db:
        (blob,) = db.execute("SELECT blob FROM parts WHERE name = ?", (part,)).fetchone()
        flipped = bytearray(blob)
        flipped[len(blob) // 2] ^= 0x10
        db.execute("UPDATE parts SET blob = ? WHERE name = ?", (bytes(flipped), part))
    edit(content / "cup" / EDITED, "MARK[2]", "MARK[-1]")
    report = build(tmp_path, content, out)
    assert report.reparsed == report.records  # nothing of the damaged state was believed
    assert tree(out) == tree(_full(tmp_path))
    again = build(tmp_path, content, out)
    assert (again.reparsed, again.written) == (0, 0)


def test_a_state_another_process_saved_meanwhile_is_written_again_whole(site: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = site
    kept = builder(tmp_path, content, out)  # as `qipu serve` keeps one
    kept.build()
    kept.wait()
    edit(content / "cup" / EDITED, "B(J,8)", "B(J,8)MARK[2]")
    assert build(tmp_path, content, out).quick  # a `qipu build` beside it saves its own state
    edit(content / "open" / EDITED, "B(J,8)", "B(J,8)MARK[-2]")
    assert kept.build(changed={content / "cup" / EDITED, content / "open" / EDITED}).reparsed == 2
    kept.wait()
    assert kept._state is not None
    same_state(builder(tmp_path, content, out)._load_state(), kept._state)
    again = build(tmp_path, content, out)
    assert (again.reparsed, again.written) == (0, 0)
    assert tree(out) == tree(_full(tmp_path))


def test_the_view_cache_is_pruned_once_edits_leave_enough_unused_views(site: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = site
    kept = builder(tmp_path, content, out)  # as `qipu serve` keeps one
    kept.build()
    assert kept._state is not None
    record = content / "cup" / EDITED
    live = len(kept._state.records)
    rows = []
    views = kept.cache.views
    for n in range(live // 2 + 60):  # each edit stores a new view and leaves the last one unused
        edit(record, f"MARK[{n - 1}]" if n else "B(J,8)", f"MARK[{n}]" if n else "B(J,8)MARK[0]")
        kept.build(changed={record})
        kept.wait()
        rows.append(sum(db.execute("SELECT count(*) FROM views").fetchone()[0] for db in views._all()))
        views.close()
    assert max(rows) <= live * 1.5 + 52  # never more dead views than the pruning allows
    assert rows[-1] < max(rows)  # pruned on the way
    assert kept._state.unpruned < live // 2 + 51
    same_state(builder(tmp_path, content, out)._load_state(), kept._state)  # the count is saved too

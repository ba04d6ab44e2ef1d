"""The view cache: one SQLite file per writing process, read as one store."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cache import ViewStore


def test_views_written_by_two_workers_are_read_from_either_file(tmp_path: Path) -> None:
    ViewStore(tmp_path).put_many([("a", b"view a"), ("b", b"view b")], shard=0)
    ViewStore(tmp_path).put_many([("c", b"view c")], shard=1)
    assert sorted(p.name for p in tmp_path.glob("views-*.sqlite")) == ["views-0.sqlite", "views-1.sqlite"]
    store = ViewStore(tmp_path)
    assert [store.get(key) for key in "abc"] == [b"view a", b"view b", b"view c"]
    assert store.has("c") and not store.has("d")
    with pytest.raises(KeyError):
        store.get("d")


def test_a_store_sees_a_file_another_process_added_once_closed(tmp_path: Path) -> None:
    reader = ViewStore(tmp_path)
    reader.put_many([("a", b"1")], shard=0)
    assert not reader.has("b")
    ViewStore(tmp_path).put_many([("b", b"2")], shard=1)  # a worker's file, new since the reader looked
    reader.close()
    assert reader.get("b") == b"2"


def test_prune_drops_unused_views_from_every_file_once_they_are_many(tmp_path: Path) -> None:
    store = ViewStore(tmp_path)
    store.put_many([(f"old{i}", b"x") for i in range(60)], shard=0)
    store.put_many([(f"new{i}", b"y") for i in range(5)], shard=1)
    store.put_many([(f"old{i}", b"x") for i in range(60, 100)], shard=1)
    live = {f"new{i}" for i in range(5)}
    assert store.prune(live) == 100
    assert _keys(store) == live
    assert store.prune(live) == 0  # nothing left to drop


def test_a_damaged_file_is_replaced_not_trusted(tmp_path: Path) -> None:
    (tmp_path / "views-0.sqlite").write_bytes(b"this is not a database" * 100)
    store = ViewStore(tmp_path)
    assert not store.has("a")
    store.put_many([("a", b"1")], shard=0)
    assert ViewStore(tmp_path).get("a") == b"1"


def test_when_every_record_is_read_again_the_old_views_are_dropped_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new version of Qipu keys every view anew: the old ones are deleted with their files, not row by row."""
    from test_quick_rebuild import build, make_content

    from generator.build import state as build_state

    content = make_content(tmp_path)
    out = tmp_path / "site"
    games = build(tmp_path, content, out).games
    store = ViewStore(tmp_path / ".qipu-cache")
    assert len(_keys(store)) == games
    store.close()
    monkeypatch.setattr(build_state, "CACHE_FORMAT", build_state.CACHE_FORMAT + "-next")
    build_state.code_digest.cache_clear()
    try:
        report = build(tmp_path, content, out)
    finally:
        build_state.code_digest.cache_clear()
    assert report.reparsed == report.records
    assert len(_keys(ViewStore(tmp_path / ".qipu-cache"))) == games  # only this version's views


def test_clearing_also_deletes_the_single_file_of_earlier_versions(tmp_path: Path) -> None:
    (tmp_path / "views.sqlite").write_bytes(b"an old cache")
    store = ViewStore(tmp_path)
    store.put_many([("a", b"1")], shard=1)
    store.clear()
    assert not list(tmp_path.glob("views*"))


def _keys(store: ViewStore) -> set[str]:
    """Every key the store holds, in whichever file."""
    return {key for db in store._all() for (key,) in db.execute("SELECT key FROM views")}

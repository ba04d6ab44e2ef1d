"""Writing output files: new, unchanged, changed, and left half-written by a dead build."""

from __future__ import annotations

import os

from generator.render.write import copy_if_changed, write_if_changed


def test_new_file_is_written_with_its_folders(tmp_path):
    target = tmp_path / "games" / "e" / "g.html"
    assert write_if_changed(target, b"<p>hi</p>") is True
    assert target.read_bytes() == b"<p>hi</p>"
    assert sorted(p.name for p in target.parent.iterdir()) == ["g.html"]


def test_same_bytes_are_not_rewritten(tmp_path):
    target = tmp_path / "a.html"
    write_if_changed(target, b"same")
    os.utime(target, ns=(1_000_000_000, 1_000_000_000))
    assert write_if_changed(target, b"same") is False
    assert target.stat().st_mtime_ns == 1_000_000_000


def test_changed_file_is_replaced_and_no_temporary_file_stays(tmp_path):
    target = tmp_path / "a.html"
    write_if_changed(target, b"old")
    inode = target.stat().st_ino
    assert write_if_changed(target, b"new, longer") is True
    assert target.read_bytes() == b"new, longer"
    # Replaced by a rename (a reader holding the old file keeps the old bytes).
    assert target.stat().st_ino != inode
    assert [p.name for p in tmp_path.iterdir()] == ["a.html"]


def test_bytes_the_caller_just_read_are_not_read_again(tmp_path):
    target = tmp_path / "a.html"
    write_if_changed(target, b"old page")
    os.utime(target, ns=(1_000_000_000, 1_000_000_000))
    assert write_if_changed(target, b"old page", current=b"old page") is False
    assert target.stat().st_mtime_ns == 1_000_000_000
    inode = target.stat().st_ino
    assert write_if_changed(target, b"new page", current=b"old page") is True
    assert target.read_bytes() == b"new page" and target.stat().st_ino != inode  # replaced atomically
    assert [p.name for p in tmp_path.iterdir()] == ["a.html"]


def test_half_written_file_from_a_dead_build_is_repaired(tmp_path):
    target = tmp_path / "a.html"
    page = b"<html>" + b"x" * 5000 + b"</html>"
    target.write_bytes(page[:1000])  # what a killed build may leave
    assert write_if_changed(target, page) is True
    assert target.read_bytes() == page


def test_record_copy_has_the_record_bytes_and_is_kept_when_unchanged(tmp_path):
    record = tmp_path / "content" / "r.txt"
    record.parent.mkdir()
    record.write_bytes(b"{[C5][a][b]}")
    target = tmp_path / "site" / "files" / "r.txt"
    assert copy_if_changed(record, target) is True
    assert target.read_bytes() == b"{[C5][a][b]}"
    assert copy_if_changed(record, target) is False
    # The record saved anew (a new file, as editors and git do): the copy follows.
    record.unlink()
    record.write_bytes(b"{[C5][a][c]}")
    assert target.read_bytes() == b"{[C5][a][b]}"
    assert copy_if_changed(record, target) is True
    assert target.read_bytes() == b"{[C5][a][c]}"
    assert sorted(p.name for p in target.parent.iterdir()) == ["r.txt"]


def test_record_copy_falls_back_to_bytes_where_links_fail(tmp_path, monkeypatch):
    record = tmp_path / "r.txt"
    record.write_bytes(b"data")

    def no_links(*args, **kwargs):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", no_links)
    target = tmp_path / "site" / "r.txt"
    assert copy_if_changed(record, target) is True
    assert target.read_bytes() == b"data"
    record.write_bytes(b"data, edited")
    assert copy_if_changed(record, target) is True
    assert target.read_bytes() == b"data, edited"


def test_private_record_is_published_readable(tmp_path):
    record = tmp_path / "r.txt"
    record.write_bytes(b"data")
    record.chmod(0o600)
    target = tmp_path / "site" / "r.txt"
    assert copy_if_changed(record, target) is True
    assert target.stat().st_mode & 0o044 == 0o044
    assert record.stat().st_mode & 0o777 == 0o600

"""A record edited so that no fact of the index changes (a MARK value, a comment)
is rebuilt quickly: only its game page and its download are written again. The
result must be exactly what a full build makes, and anything else must take the
full path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import C5_BLACK_FIVE, c5_record

from generator.build import Builder, BuildReport
from generator.config import load_config

GAMES = {  # four different games: White answers on row 9, 10, 11 or 12
    f"C5-甲{i} vs 乙{i}-先手胜-2025.08.02 1{i}.00.txt": c5_record(
        f"甲{i}", f"乙{i}", "先手胜", C5_BLACK_FIVE.replace(",9)", f",{9 + i})"), f"2025.08.02 1{i}:00 合肥"
    )
    for i in range(4)
}
EDITED = "C5-甲1 vs 乙1-先手胜-2025.08.02 11.00.txt"


def make_content(root: Path) -> Path:
    for event in ("cup", "open"):
        folder = root / "content" / event
        folder.mkdir(parents=True)
        for name, text in GAMES.items():
            (folder / name).write_text(text, encoding="utf-8")
    return root / "content"


def build(root: Path, content: Path, out: Path, cache: str = ".qipu-cache") -> BuildReport:
    """A build as `qipu build` runs one: a new Builder that knows only its cache on disk."""
    config, problems = load_config(None, root=root, content=content, output=out)
    assert problems == []
    builder = Builder(config, jobs=1, cache_dir=root / cache)
    report = builder.build()
    builder.wait()
    return report


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    # A new mtime the build cannot mistake for the last one, whatever the clock's tick.
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 3_000_000_000))


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def mtimes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


@pytest.fixture()
def site(tmp_path: Path) -> tuple[Path, Path]:
    content = make_content(tmp_path)
    out = tmp_path / "site"
    assert build(tmp_path, content, out).games == 8
    return content, out


def test_a_mark_edit_rewrites_one_page_and_one_download_as_a_full_build_would(site: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = site
    before = mtimes(out)
    edit(content / "cup" / EDITED, "B(J,8)", "B(J,8)MARK[2]")
    report = build(tmp_path, content, out)
    assert report.quick and report.reparsed == 1 and report.games == 8
    changed = sorted(path for path, ns in mtimes(out).items() if ns != before[path])
    assert len(changed) == 2, changed
    page = next(path for path in changed if path.startswith("games/cup/"))
    assert "大好" in (out / page).read_text(encoding="utf-8")  # the badge of MARK[2]
    assert (out / "files" / "cup" / EDITED).read_text(encoding="utf-8").count("MARK[2]") == 1
    # Byte for byte what a build from scratch of the edited records makes.
    fresh = tmp_path / "fresh"
    full = build(tmp_path, content, fresh, cache="other-cache")
    assert not full.quick
    assert tree(out) == tree(fresh)


def test_the_next_build_after_a_quick_one_changes_nothing(site: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = site
    edit(content / "open" / EDITED, "B(J,8)", "B(J,8)MARK[-1]")
    assert build(tmp_path, content, out).quick
    # The state the quick build left says exactly what a full build would have said.
    again = build(tmp_path, content, out)
    assert (again.reparsed, again.written) == (0, 0)
    edit(content / "open" / EDITED, "MARK[-1]", "MARK[-2]")
    third = build(tmp_path, content, out)
    # The page; the download too unless it is a hard link to the record, edited in place.
    assert third.quick and third.written in (1, 2)


def test_a_changed_result_takes_the_full_path_and_reaches_the_event_page(site: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = site
    event_page = out / "events" / "cup" / "index.html"
    before = event_page.read_bytes()
    edit(content / "cup" / EDITED, "[先手胜]", "[后手胜]")  # the rules still find a black five: a contradiction
    report = build(tmp_path, content, out)
    assert not report.quick and report.reparsed == 1
    assert event_page.read_bytes() != before
    assert any(d.path == f"cup/{EDITED}" for d in report.diagnostics)


def test_a_deleted_page_is_written_again_even_when_the_edit_is_small(site: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = site
    (out / "teams" / "index.html").unlink()
    edit(content / "cup" / EDITED, "B(J,8)", "B(J,8)MARK[1]")
    report = build(tmp_path, content, out)
    assert not report.quick
    assert (out / "teams" / "index.html").is_file()


def test_a_saved_copy_of_a_game_updates_its_download_only(tmp_path: Path) -> None:
    """The same game saved by both programs is one page naming both files; a MARK in the copy changes its download."""
    folder = tmp_path / "content" / "cup"
    folder.mkdir(parents=True)
    text = c5_record("甲", "乙", "先手胜", C5_BLACK_FIVE)
    (folder / "C5-甲 vs 乙-先手胜-a.txt").write_text(text, encoding="utf-8")
    (folder / "C5-甲 vs 乙-先手胜-b.txt").write_text(text, encoding="utf-8")
    out = tmp_path / "site"
    assert build(tmp_path, tmp_path / "content", out).games == 1
    before = mtimes(out)
    (page,) = (out / "games" / "cup").glob("*.html")  # named after the file shown: the other one is the copy
    copy = folder / ("C5-甲 vs 乙-先手胜-b.txt" if "-a-" in page.name else "C5-甲 vs 乙-先手胜-a.txt")
    edit(copy, "W(H,9)", "W(H,9)MARK[2]")
    report = build(tmp_path, tmp_path / "content", out)
    assert report.quick and report.games == 1
    changed = [path for path, ns in mtimes(out).items() if ns != before[path]]
    assert changed == [f"files/cup/{copy.name}"]
    assert tree(out) == tree(_full(tmp_path))


def _full(root: Path) -> Path:
    fresh = root / "fresh"
    build(root, root / "content", fresh, cache="other-cache")
    return fresh


def test_strict_build_with_errors_never_takes_the_quick_path(site: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = site
    edit(content / "cup" / EDITED, "B(L,8)", "B(L,8);W(L,8)")  # a move onto a stone: an error
    assert build(tmp_path, content, out).errors == 1
    edit(content / "open" / EDITED, "B(J,8)", "B(J,8)MARK[2]")
    config, _ = load_config(None, root=tmp_path, content=content, output=out)
    builder = Builder(config, jobs=1, strict=True, cache_dir=tmp_path / ".qipu-cache")
    report = builder.build()
    builder.wait()
    assert not report.published and not report.quick


def settle(out: Path, seconds: int = 3600) -> None:
    """Every output folder as if last written an hour ago, long enough for its time to be trusted."""
    for folder in [out, *(p for p in out.rglob("*") if p.is_dir())]:
        st = folder.stat()
        os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns - seconds * 1_000_000_000))


def test_settled_folders_are_not_listed_and_a_file_deleted_from_one_is_still_seen(
    site: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    content, out = site
    settle(out)
    edit(content / "cup" / EDITED, "B(J,8)", "B(J,8)MARK[1]")
    assert build(tmp_path, content, out).quick  # its state holds the folders' times
    listed: list[str] = []
    real_listdir = os.listdir
    monkeypatch.setattr(os, "listdir", lambda path=".": listed.append(os.path.normpath(path)) or real_listdir(path))
    again = build(tmp_path, content, out)
    assert (again.reparsed, again.written) == (0, 0)
    # Only the folders the quick build wrote into are too recent to trust.
    assert {os.path.relpath(path, out) for path in listed} <= {"games/cup", "files/cup"}
    (out / "teams" / "index.html").unlink()  # the folder's time changes with it
    listed.clear()
    report = build(tmp_path, content, out)
    assert report.written >= 1 and (out / "teams" / "index.html").is_file()
    assert tree(out) == tree(_full(tmp_path))

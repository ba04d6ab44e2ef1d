"""Publishing is safe: nothing from outside the content folder, downloads that
cannot run, odd paths and odd folders handled, clean failures.

Each test builds as an organiser would, with ``python -m generator``, and
checks what lands in the output folder and what the terminal shows.
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import C5_BLACK_FIVE, c5_record
from test_site import local_links

SECRET = "QIPU_TEST_SECRET=hunter2"
# Another game than C5_BLACK_FIVE: records with the same moves are taken for copies of one game.
OTHER_FIVE = "B(A,1);W(A,2);B(B,1);W(B,2);B(C,1);W(C,2);B(D,1);W(D,2);B(E,1)"


def qipu(*args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd, capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def record(folder: Path, name: str, first: str = "甲", second: str = "乙", moves: str = C5_BLACK_FIVE) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(c5_record(first, second, "先手胜", moves), encoding="utf-8")
    return path


def site_files(out: Path) -> dict[str, bytes]:
    found = {}
    for folder, _dirs, files in os.walk(out):
        for name in files:
            path = Path(folder) / name
            found[path.relative_to(out).as_posix()] = path.read_bytes()
    return found


def links_in(out: Path) -> list[str]:
    return [
        str(Path(folder) / name)
        for folder, dirs, files in os.walk(out)
        for name in dirs + files
        if (Path(folder) / name).is_symlink()
    ]


@pytest.fixture
def archive(tmp_path: Path) -> tuple[Path, Path]:
    """A content folder with one good record, a secret beside (outside) it, and an output folder."""
    content = tmp_path / "content"
    record(content / "cup", "C5-甲 vs 乙-先手胜-2025.08.02 10.00.txt")
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    return content, tmp_path / "site"


def test_links_out_of_the_content_folder_are_never_read_or_published(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = archive
    secret = tmp_path / "secret.txt"
    (content / "cup" / "logo.png").symlink_to(secret)
    (content / "notes.md").symlink_to(secret)
    (content / "cup" / "C5-丙 vs 丁-先手胜-2025.08.02 11.00.txt").symlink_to(secret)
    (content / "outside").symlink_to(tmp_path, target_is_directory=True)
    done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert all(SECRET.encode() not in data for data in site_files(out).values())
    assert links_in(out) == []
    assert done.stderr.count("FILE-E001") == 4
    problems = (out / "problems" / "index.html").read_text(encoding="utf-8")
    assert "cup/logo.png" in problems and "notes.md" in problems
    strict = qipu("build", "--strict", "--content", str(content), "--out", str(tmp_path / "strict"), cwd=tmp_path)
    assert strict.returncode == 1 and not (tmp_path / "strict" / "index.html").exists()


def test_a_link_to_the_environment_of_the_build_publishes_nothing(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = archive
    (content / "cup" / "logo.png").symlink_to("/proc/self/environ")
    done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path, env={"QIPU_TEST_SECRET": "hunter2"})
    assert done.returncode == 0, done.stderr
    assert all(b"hunter2" not in data for data in site_files(out).values())


def test_links_inside_the_content_folder_are_read_and_published_as_files(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = archive
    original = content / "cup" / "C5-甲 vs 乙-先手胜-2025.08.02 10.00.txt"
    (content / "cup" / "C5-甲 vs 乙-先手胜-2025.08.03 10.00.txt").symlink_to(original.name)
    (content / "copy").symlink_to(content / "cup", target_is_directory=True)
    done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "FILE-E" not in done.stderr
    download = out / "files" / "cup" / "C5-甲 vs 乙-先手胜-2025.08.03 10.00.txt"
    assert download.is_file() and not download.is_symlink()
    assert download.read_bytes() == original.read_bytes()
    assert (out / "files" / "copy" / original.name).is_file()
    assert links_in(out) == []


def test_loops_dangling_links_fifos_and_devices_are_refused_and_the_build_goes_on(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = archive
    cup = content / "cup"
    (cup / "a.txt").symlink_to(cup / "b.txt")
    (cup / "b.txt").symlink_to(cup / "a.txt")
    (cup / "gone.txt").symlink_to(cup / "nowhere.txt")
    (cup / "loop").symlink_to(content, target_is_directory=True)
    os.mkfifo(cup / "pipe.txt")
    with contextlib.suppress(PermissionError):  # a device node needs privileges
        os.mknod(cup / "zero.txt", stat.S_IFCHR | 0o600, os.makedev(1, 5))
    for command in (("build", "--content", str(content), "--out", str(out)), ("check", "--content", str(content))):
        done = qipu(*command, cwd=tmp_path, timeout=60)
        assert "Traceback" not in done.stderr, done.stderr
        shown = done.stdout + done.stderr
        assert "cup/a.txt" in shown and "cup/gone.txt" in shown and "cup/pipe.txt" in shown and "cup/loop" in shown
        assert "FILE-E002" in shown and "FILE-E003" in shown
    assert (out / "index.html").is_file()
    assert links_in(out) == []


def test_check_names_a_fifo_or_a_device_without_waiting_or_reading_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        done = qipu("check", str(path), cwd=tmp_path, timeout=30)
        assert done.returncode == 1 and "FILE-E002" in done.stdout, done.stdout + done.stderr


def test_build_check_and_serve_agree_on_what_is_a_record(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, _ = archive
    (content / "cup" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (content / "cup" / "notes.txt~").write_text("editor backup", encoding="utf-8")
    (content / "cup" / ".hidden.txt").write_text("hidden", encoding="utf-8")
    done = qipu("check", "--content", str(content), cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert "FMT-E001" not in done.stdout


def test_a_record_named_like_a_web_page_is_published_as_text(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = archive
    page = '<html><script>document.title="pwned"</script></html>'
    for name in ("x.html", "x.svg", "x.xhtml", "noext"):
        (content / "cup" / name).write_text(page, encoding="utf-8")
    done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    published = [rel for rel, data in site_files(out).items() if b"pwned" in data]
    # x.svg is an image, not a record: inside an event folder it is not published at all.
    assert sorted(published) == [f"files/_/cup/{name}.txt" for name in ("noext", "x.html", "x.xhtml")]
    problems = out / "problems" / "index.html"
    targets = {unquote(urlsplit(link).path) for link in local_links(problems)}
    assert "../files/_/cup/x.html.txt" in targets


def test_a_hash_or_question_mark_in_a_record_name_keeps_its_download_link_working(tmp_path: Path) -> None:
    content, out = tmp_path / "content", tmp_path / "site"
    record(content / "cup", "C5-甲 vs 乙-先手胜-2025.08.02 10.00#1?.txt")
    assert qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path).returncode == 0
    (game,) = (out / "games").rglob("*.html")
    downloads = [link for link in local_links(game) if "files/" in link]
    assert downloads and all("#" not in link and "?" not in link for link in downloads)
    assert all((game.parent / unquote(link)).resolve().is_file() for link in downloads)


def test_svg_images_are_published_only_from_the_top_of_the_content_folder(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = archive
    svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    (content / "logo.svg").write_text(svg, encoding="utf-8")
    (content / "cup" / "team.svg").write_text(svg, encoding="utf-8")
    done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0 and "FILE-W001" in done.stderr, done.stderr
    assert (out / "files" / "logo.svg").is_file()
    assert not (out / "files" / "cup" / "team.svg").exists()


def test_a_long_name_replaced_by_an_editor_is_built_again_and_again(tmp_path: Path) -> None:
    content, out = tmp_path / "content", tmp_path / "site"
    name = "C5-甲 vs 乙-先手胜-2025.08.02 10.00 " + "长" * 70 + ".txt"
    assert len(name.encode()) >= 238
    path = record(content / "cup", name)
    for _ in range(3):
        replacement = path.with_name("replacement.tmp")
        replacement.write_bytes(path.read_bytes().replace(b"}", b"\n}"))
        os.replace(replacement, path)  # what an editor or git checkout does: a new file under the old name
        done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert (out / "files" / "cup" / name).read_bytes() == path.read_bytes()


def test_a_gbk_name_beside_its_utf8_twin_keeps_both_records(tmp_path: Path) -> None:
    if sys.platform == "win32":
        pytest.skip("names that are not UTF-8 exist only on POSIX file systems")
    content, out = tmp_path / "content", tmp_path / "site"
    name = "C5-甲 vs 乙-先手胜-2025.08.02 10.00.txt"
    record(content / "cup", name, "甲", "乙")
    folder = os.fsencode(content / "cup")
    twin = os.path.join(folder, name.encode("gbk"))
    with open(twin, "wb") as handle:
        handle.write(c5_record("丙", "丁", "先手胜", C5_BLACK_FIVE).encode("gbk"))
    done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "FILE-W002" in done.stderr
    # Both are read and published; with the same moves, pairing and time they are one game's two copies.
    downloads = out / "files" / "cup"
    assert (downloads / name).read_bytes() == (content / "cup" / name).read_bytes()
    assert (downloads / name.replace(".txt", " (2).txt")).read_bytes() == Path(os.fsdecode(twin)).read_bytes()
    assert "ARC-W102" in done.stderr


def test_an_ascii_locale_builds_an_archive_of_chinese_names(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = archive
    done = qipu(
        "build", "--content", str(content), "--out", str(out), cwd=tmp_path,
        env={"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""},
    )
    assert done.returncode == 0, done.stderr
    assert (out / "files" / "cup" / "C5-甲 vs 乙-先手胜-2025.08.02 10.00.txt").is_file()


def test_an_output_folder_qipu_did_not_make_is_refused_unless_forced(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, _ = archive
    home = tmp_path / "home"
    home.mkdir()
    (home / "thesis.tex").write_text("mine", encoding="utf-8")
    refused = qipu("build", "--content", str(content), "--out", str(home), cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr.startswith("qipu: ") and len(refused.stderr.splitlines()) == 1
    assert sorted(p.name for p in home.iterdir()) == ["thesis.tex"]
    forced = qipu("build", "--force", "--content", str(content), "--out", str(home), cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert (home / "index.html").is_file() and (home / "thesis.tex").read_text(encoding="utf-8") == "mine"
    again = qipu("build", "--content", str(content), "--out", str(home), cwd=tmp_path)  # the marker now says it is Qipu's
    assert again.returncode == 0 and (home / "thesis.tex").is_file()
    (home / "thesis.tex").unlink()  # a site of its own: builds without --force from now on
    assert qipu("build", "--content", str(content), "--out", str(tmp_path / "site"), cwd=tmp_path).returncode == 0
    assert (tmp_path / "site" / ".qipu-site").is_file()


@contextlib.contextmanager
def read_only(folder: Path):  # -> Iterator[None]
    """``folder`` read-only, as a read-only mount: root ignores file permissions."""
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")] if p.is_dir()}
        for p in modes:
            p.chmod(0o555)
        try:
            yield
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
        return
    mounted = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot make a read-only folder here (no mount, and root ignores permissions)")
    try:
        if subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], capture_output=True).returncode != 0:
            pytest.skip("cannot remount a folder read-only here")
        yield
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def test_a_read_only_output_or_cache_folder_is_one_clear_line_and_the_site_stays(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = archive
    assert qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path).returncode == 0
    before = site_files(out)
    record(content / "cup", "C5-丙 vs 丁-先手胜-2025.08.04 10.00.txt", "丙", "丁", OTHER_FIVE)
    with read_only(out):
        done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert [line for line in done.stderr.splitlines() if line.startswith("qipu:")] == done.stderr.splitlines()[-1:]
    assert "output folder" in done.stderr and site_files(out) == before
    cache = tmp_path / ".qipu-cache"
    with read_only(cache):
        done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert done.returncode != 0 and "Traceback" not in done.stderr and "--cache" in done.stderr
    assert site_files(out) == before
    moved = qipu("build", "--cache", str(tmp_path / "elsewhere"), "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert moved.returncode == 0, moved.stderr
    assert (tmp_path / "elsewhere").is_dir() and len(list((out / "games").rglob("*.html"))) == 2


def test_escape_sequences_in_records_never_reach_the_terminal_raw(tmp_path: Path) -> None:
    content, out = tmp_path / "content", tmp_path / "site"
    path = content / "cup" / "C5-x vs y-先手胜-2025.08.02 10.00.txt"
    path.parent.mkdir(parents=True)
    evil = "\x1b]0;pwned\x07\x1b[2J\u202e"
    path.write_text(c5_record(f"甲{evil}", "乙", "先手胜", "B(H,8);W(H,8)" + evil), encoding="utf-8")
    for command in (("build", "--content", str(content), "--out", str(out)), ("check", "--content", str(content))):
        done = qipu(*command, cwd=tmp_path)
        shown = done.stdout + done.stderr
        assert "Traceback" not in shown and "error[FMT-E102]" in shown
        assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
        assert "\\x1b" in shown


def test_files_above_the_size_limit_are_refused_unread(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = archive
    big = content / "cup" / "C5-丙 vs 丁-先手胜-2025.08.02 11.00.txt"
    big.write_bytes(b"{[C5][" + b"x" * 3000 + b"]}")
    (tmp_path / "site.toml").write_text("[limits]\nfile_bytes = 2000\n", encoding="utf-8")
    done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0 and "FILE-E004" in done.stderr, done.stderr
    assert not (out / "files" / "cup" / big.name).exists()
    assert big.name in (out / "problems" / "index.html").read_text(encoding="utf-8")


def test_a_record_above_the_ply_limit_is_not_replayed(archive: tuple[Path, Path], tmp_path: Path) -> None:
    content, out = archive
    (tmp_path / "site.toml").write_text("[limits]\nplies = 5\n", encoding="utf-8")
    done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0 and "REC-E002" in done.stderr, done.stderr
    # The record's sixth move, where the limit is passed, is named.
    assert ":1:" in next(line for line in done.stderr.splitlines() if "REC-E002" in line)
    assert not list((out / "games").rglob("*.html"))
    assert (out / "files" / "cup" / "C5-甲 vs 乙-先手胜-2025.08.02 10.00.txt").is_file()


def test_line_separators_in_a_team_name_keep_one_game_per_line_of_games_jsonl(tmp_path: Path) -> None:
    import json

    content, out = tmp_path / "content", tmp_path / "site"
    name = "C5-甲 vs 乙-先手胜-2025.08.02 10.00 合肥\u2028\x85\u2029.txt"  # the source path is written as it is
    record(content / "cup", name)
    assert qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path).returncode == 0
    lines = (out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["source"] == f"cup/{name}"


def test_a_first_build_killed_midway_leaves_a_folder_the_next_build_takes_for_its_own(tmp_path: Path) -> None:
    import signal
    import time

    content = tmp_path / "content"
    columns = "ABCDEFGHIJKLMNO"
    for n in range(300):  # enough for the worker processes; each its own game (other rows, other times)
        row = 1 + n % 14
        moves = ";".join(f"B({c},{row});W({c},{row + 1})" for c in columns[n % 10 : n % 10 + 4]) + f";B({columns[n % 10 + 4]},{row})"
        when = f"2025.08.{1 + n // 100:02d} {8 + n % 100 // 10:02d}.{n % 10:02d}"
        record(content / "cup", f"C5-甲{n} vs 乙{n}-先手胜-{when}.txt", f"甲{n}", f"乙{n}", moves)
    out = tmp_path / "site"
    build = subprocess.Popen(
        [sys.executable, "-m", "generator", "build", "--content", str(content), "--out", str(out)],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while not (out / "games").is_dir() and build.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.killpg(build.pid, signal.SIGKILL)  # as soon as the first pages are there
    build.wait()
    done = qipu("build", "--content", str(content), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    clean = tmp_path / "clean"
    clean.mkdir()
    assert qipu("build", "--content", str(content), "--out", str(clean / "site"), cwd=clean).returncode == 0
    assert site_files(out) == site_files(clean / "site")

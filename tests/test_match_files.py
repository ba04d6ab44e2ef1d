"""A file of several games (a match) is built as several games: a page each, one download.

Proved on the invented HOP game of tests/invented_games.py (a file may hold
several games, each beginning with ``#GAME``), through the real Builder,
cache and all, and through ``qipu check``: what an organiser who drops an
Amazons or EinStein match file into ``content/`` would look for.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.build import Builder, BuildReport
from generator.check import check_paths
from generator.config import load_config
from tests import invented_games as inv

MATCH = inv.MATCH
NAME = "HOP-Wen vs Kai.txt"
SINGLE = "#GAME HOP\n#PLAYERS Wen | Lou\n#RESULT second\nW a1-c3/c1\nK d4-d1/b1\n"


@pytest.fixture(autouse=True)
def invented() -> Iterator[None]:
    with inv.in_use():
        yield


def build(root: Path, out: Path, cache: str = ".qipu-cache") -> BuildReport:
    """A build as `qipu build` runs one: a new Builder that knows only its cache on disk."""
    config, problems = load_config(None, root=root, content=root / "content", output=out)
    assert problems == []
    builder = Builder(config, jobs=1, cache_dir=root / cache)
    report = builder.build()
    builder.wait()
    return report


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def rewrite(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    st = path.stat()  # a new mtime the build cannot mistake for the last one, whatever the clock's tick
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 3_000_000_000))


def clean_build_equals(root: Path, out: Path) -> None:
    """The site after this build is the site a clean build of the same content makes."""
    clean = root / "clean-site"
    build(root, clean, cache=".clean-cache")
    assert tree(out) == tree(clean)


@pytest.fixture()
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "content" / "cup"
    folder.mkdir(parents=True)
    (folder / NAME).write_text(MATCH, encoding="utf-8")
    (folder / "HOP-Wen vs Lou.txt").write_text(SINGLE, encoding="utf-8")
    return tmp_path


def lines(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]


def test_every_game_of_a_match_file_gets_its_page_and_the_file_one_download(site: Path) -> None:
    out = site / "site"
    report = build(site, out)
    assert report.games == 4
    listed = lines(out)
    mine = [game for game in listed if game["source"] == f"cup/{NAME}"]
    assert len(mine) == 3 and len({game["url"] for game in mine}) == 3
    assert [game["result"] for game in mine] == ["first", "second", "first"]
    pages = {game["result"]: (out / game["url"]).read_text(encoding="utf-8") for game in mine[1:2]}
    second = pages["second"]
    assert f"cup/{NAME} 中的第 2 局" in second  # a site in Chinese, the default
    # It links to the pages of games 1 and 3 of its file.
    for other in (mine[0], mine[2]):
        assert os.path.basename(other["url"]) in second
    downloads = [p for p in tree(out) if p.startswith("files/")]
    assert sorted(downloads) == ["files/cup/HOP-Wen vs Kai.txt", "files/cup/HOP-Wen vs Lou.txt"]
    assert (out / "files" / "cup" / NAME).read_text(encoding="utf-8") == MATCH
    event = (out / "events" / "cup" / "index.html").read_text(encoding="utf-8")
    assert all(os.path.basename(game["url"]) in event for game in listed)


def test_a_rebuild_of_a_match_file_reads_the_cache_and_writes_nothing(site: Path) -> None:
    out = site / "site"
    build(site, out)
    before = tree(out)
    report = build(site, out)  # a new Builder: the state and views come from the cache on disk
    assert report.reparsed == 0 and report.written == 0 and report.games == 4
    assert tree(out) == before


def test_a_game_of_a_match_edited_changes_its_page_and_the_site_equals_a_clean_build(site: Path) -> None:
    out = site / "site"
    build(site, out)
    match = site / "content" / "cup" / NAME
    rewrite(match, MATCH.replace("K d4-d3/c3", "K d4-d3/d2"))  # game 2's burnt cell only: no fact of the index
    report = build(site, out)
    assert report.reparsed == 1 and report.games == 4
    page = next(game["url"] for game in lines(out) if game["source"] == f"cup/{NAME}" and game["result"] == "second")
    assert "d2" in (out / page).read_text(encoding="utf-8")
    clean_build_equals(site, out)
    # A game more in the file: a page more, and still what a clean build makes.
    rewrite(match, MATCH + "#GAME HOP\n#PLAYERS Wen | Kai\n#RESULT second\nW a1-b2/c2\n")
    report = build(site, out)
    assert report.games == 5 and not report.quick
    assert len([game for game in lines(out) if game["source"] == f"cup/{NAME}"]) == 4
    clean_build_equals(site, out)
    # Back to a file of one game: the pages of the others are gone.
    rewrite(match, "#GAME HOP\n#PLAYERS Wen | Kai\n#RESULT first\nW a1-a4/b4\n")
    report = build(site, out)
    assert report.games == 2
    clean_build_equals(site, out)


def test_one_bad_game_of_a_match_is_said_at_its_line_and_the_others_are_shown(site: Path) -> None:
    match = site / "content" / "cup" / NAME
    bad = MATCH.replace("K d4-d3/c3", "K d4-b1/c3")  # game 2, line 10: b1 is where W stands
    rewrite(match, bad)
    out = site / "site"
    report = build(site, out)
    assert report.games == 4  # the bad game too has its page, its moves up to the error
    said = [d for d in report.diagnostics if d.code == inv.CELL_TAKEN]
    assert [(d.path, d.line) for d in said] == [(f"cup/{NAME}", 10)]
    config, _ = load_config(None, root=site, content=site / "content", output=out)
    checked = check_paths(config, [match])
    assert [(d.path, d.line, d.code) for d in checked.diagnostics if d.code == inv.CELL_TAKEN] == [(f"cup/{NAME}", 10, inv.CELL_TAKEN)]


def test_an_edit_of_a_match_file_that_changes_no_fact_of_the_index_takes_the_quick_path(site: Path) -> None:
    out = site / "site"
    build(site, out)
    match = site / "content" / "cup" / NAME
    rewrite(match, MATCH.replace("K d4-d3/c3", "    K d4-d3/c3"))  # indented: the same games
    report = build(site, out)
    assert report.quick and report.reparsed == 1 and report.games == 4
    assert "    K d4-d3/c3" in (out / "files" / "cup" / NAME).read_text(encoding="utf-8")
    clean_build_equals(site, out)


def test_games_of_a_match_that_alternate_who_moves_first_agree_with_the_file_name() -> None:
    from generator.pipeline import Source, process_games, sha256

    # Game 2 has Kai moving first: the name "Wen vs Kai" names the match's teams, not each game's order.
    swapped = MATCH.replace("#PLAYERS Wen | Kai\n#RESULT second", "#PLAYERS Kai | Wen\n#RESULT first", 1)
    data = swapped.encode("utf-8")
    name = "cup/HOP-Wen vs Kai-先手胜-2025.12.20 10.00 北京-Cup.txt"
    played = process_games(Source(name, data, sha256(data)), encoding=None, options={})
    assert [(p.meta.first, p.meta.second) for p in played] == [("Wen", "Kai"), ("Kai", "Wen"), ("Wen", "Kai")]
    said = [d.code for p in played for d in p.diagnostics if d.severity != "note"]
    assert "META-W002" not in said and "META-W003" not in said, said
    # The name's time is the match's: no game is said to start at 10:00; its date stays.
    assert {p.meta.time for p in played} == {None} and {p.meta.date for p in played} == {"2025-12-20"}

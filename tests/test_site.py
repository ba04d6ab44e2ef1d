"""End to end: build sites and check what a visitor and an organiser would check."""

from __future__ import annotations

import html.parser
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import C5_BLACK_FIVE, DEMO_CONTENT, REPO, c5_record

from generator.model import seats_of
from generator.render import urls


def qipu(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8"
    )


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)


def local_links(page: Path) -> list[str]:
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return [link for link in parser.links if not urlsplit(link).scheme]


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo archive of the repository, built as a new user would build it."""
    work = tmp_path_factory.mktemp("demo")
    out = work / "site"
    result = qipu("build", "--config", str(REPO / "site.toml"), "--out", str(out), cwd=work)
    assert result.returncode == 0, result.stderr
    return out


def test_demo_site_has_every_page_kind(demo_site: Path) -> None:
    assert (demo_site / "index.html").is_file()
    assert (demo_site / ".nojekyll").is_file()
    assert (demo_site / "problems" / "index.html").is_file()
    assert (demo_site / "teams" / "index.html").is_file()
    assert list((demo_site / "events").glob("*/index.html"))
    assert len(list((demo_site / "games").glob("*/*.html"))) >= 60
    assert len(list((demo_site / "teams").glob("*.html"))) >= 12
    assert (demo_site / "about.html").is_file() and (demo_site / "rules.html").is_file()
    assert (demo_site / "static" / "viewer.js").is_file()
    page = next((demo_site / "games").glob("*/*.html")).read_text(encoding="utf-8")
    assert 'class="q-grid' in page and "q-board--" not in page  # the board is drawn in full


def test_every_local_link_and_asset_resolves(demo_site: Path) -> None:
    pages = list(demo_site.rglob("*.html"))
    broken = []
    for page in pages:
        for link in local_links(page):
            target = unquote(urlsplit(link).path)
            if not target:  # in-page anchor such as #ply=3
                continue
            assert not target.startswith("/"), f"{page}: absolute link {link} breaks file:// and subpaths"
            assert not target.endswith("/"), f"{page}: link {link} must name index.html"
            if not (page.parent / target).resolve().is_file():
                broken.append(f"{page.relative_to(demo_site)} -> {link}")
    assert not broken, broken[:20]


def test_games_jsonl_has_one_line_per_game(demo_site: Path) -> None:
    lines = (demo_site / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()
    games = [json.loads(line) for line in lines]
    pages = list((demo_site / "games").glob("*/*.html"))
    assert len(games) == len(pages)
    required = {"id", "code", "event", "first", "second", "declared", "computed", "plies", "source", "duplicates", "url", "errors", "warnings"}
    for game in games:
        assert required <= set(game), required - set(game)
        # Results name seats: "first" ... "fourth", and those that won together ("second+third").
        for said in (game["declared"], game["computed"]):
            assert said in ("draw", "unknown", None) or seats_of(said), said
        assert (demo_site / game["url"]).is_file()
        assert (DEMO_CONTENT / game["source"]).is_file()
        # Published under its own name, or under files/_/ with .txt added where its suffix is not plain text.
        download = demo_site / urls.record_file(game["source"])
        assert download.read_bytes() == (DEMO_CONTENT / game["source"]).read_bytes()
    assert {g["code"] for g in games} >= {"C5", "C6"}
    assert any(g["duplicates"] for g in games), "the demo's duplicate record is folded into one game"


def test_problems_page_lists_the_broken_demo_record(demo_site: Path) -> None:
    text = (demo_site / "problems" / "index.html").read_text(encoding="utf-8")
    assert "error" in text and "RULE-E" in text


def _build(content: Path, out: Path, cwd: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return qipu("build", "--content", str(content), "--out", str(out), *extra, cwd=cwd)


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_two_builds_give_identical_bytes(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    assert _build(DEMO_CONTENT, one / "site", one).returncode == 0
    assert _build(DEMO_CONTENT, two / "site", two).returncode == 0
    a, b = _tree(one / "site"), _tree(two / "site")
    assert a.keys() == b.keys()
    assert [k for k in a if a[k] != b[k]] == []


def test_rebuild_without_changes_writes_nothing_and_one_edit_rewrites_little(tmp_path: Path) -> None:
    content = tmp_path / "content" / "cup"
    content.mkdir(parents=True)
    for i in range(4):
        (content / f"C5-甲{i} vs 乙{i}-先手胜.txt").write_text(c5_record(f"甲{i}", f"乙{i}", "先手胜", C5_BLACK_FIVE), encoding="utf-8")
    out = tmp_path / "site"
    assert _build(tmp_path / "content", out, tmp_path).returncode == 0
    game_pages = sorted((out / "games").rglob("*.html"))
    before = {p: p.stat().st_mtime_ns for p in game_pages}
    again = _build(tmp_path / "content", out, tmp_path)
    assert again.returncode == 0
    assert re.search(r"wrote 0 of \d+ files", again.stdout), again.stdout
    assert "re-read 0 records" in again.stdout
    assert {p: p.stat().st_mtime_ns for p in game_pages} == before
    # Edit one record: only that record is re-read.
    edited = content / "C5-甲0 vs 乙0-先手胜.txt"
    edited.write_text(c5_record("甲0", "乙0", "先手胜", C5_BLACK_FIVE.replace("W(H,9)", "W(H,9)MARK[2]")), encoding="utf-8")
    third = _build(tmp_path / "content", out, tmp_path)
    assert "re-read 1 records" in third.stdout, third.stdout
    changed = [p for p in game_pages if p.stat().st_mtime_ns != before[p]]
    assert len(changed) == 1
    # Breaking a record adds a problem: the other games' pages stay as they are.
    before = {p: p.stat().st_mtime_ns for p in game_pages}
    (content / "C5-甲1 vs 乙1-先手胜.txt").write_text(c5_record("甲1", "乙1", "先手胜", "B(H,8);W(H,8)"), encoding="utf-8")
    fourth = _build(tmp_path / "content", out, tmp_path)
    assert "re-read 1 records" in fourth.stdout and "1 errors" in fourth.stdout, fourth.stdout
    changed = [p for p in game_pages if p.stat().st_mtime_ns != before[p]]
    assert len(changed) == 1
    assert "C5-甲1 vs 乙1" in (out / "problems" / "index.html").read_text(encoding="utf-8")


EVIL = "</script><script>alert(1)</script>"


def test_user_strings_are_escaped_everywhere(tmp_path: Path) -> None:
    content = tmp_path / "content" / "evil"
    content.mkdir(parents=True)
    (content / "game.txt").write_text(c5_record(EVIL, '"><img src=x onerror=alert(2)>', "先手胜", C5_BLACK_FIVE, event=EVIL), encoding="utf-8")
    (tmp_path / "content" / "page.md").write_text(f"# Page\n\n{EVIL}\n", encoding="utf-8")
    out = tmp_path / "site"
    assert _build(tmp_path / "content", out, tmp_path).returncode == 0
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<script>alert(1)" not in text, page
        assert "<img src=x" not in text, page
    game = next((out / "games").rglob("*.html")).read_text(encoding="utf-8")
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in game  # shown as text
    data = re.search(r'<script type="application/json"[^>]*>(.*?)</script>', game, re.S)
    assert data is not None
    json.loads(data.group(1))  # the inline JSON is intact
    for line in (out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines():
        assert json.loads(line)["first"] == EVIL


def test_strict_build_refuses_to_publish_records_with_errors(tmp_path: Path) -> None:
    content = tmp_path / "content" / "cup"
    content.mkdir(parents=True)
    (content / "bad.txt").write_text(c5_record("甲", "乙", "先手胜", "B(H,8);W(H,8)"), encoding="utf-8")
    out = tmp_path / "site"
    strict = _build(tmp_path / "content", out, tmp_path, "--strict")
    assert strict.returncode == 1
    assert not (out / "index.html").exists()
    plain = _build(tmp_path / "content", out, tmp_path)
    assert plain.returncode == 0
    assert "bad.txt" in (out / "problems" / "index.html").read_text(encoding="utf-8")


def test_broken_input_never_stops_the_build(tmp_path: Path) -> None:
    content = tmp_path / "content" / "cup"
    content.mkdir(parents=True)
    (content / "ok.txt").write_text(c5_record("甲", "乙", "先手胜", C5_BLACK_FIVE), encoding="utf-8")
    (content / "binary.txt").write_bytes(b"\xff\xfe\x00\x81\x30\x00\xfe\xff\x00" * 3 + b"\x80\x80\x80\x80")
    (content / "garbage.txt").write_text("hello, this is not a record", encoding="utf-8")
    (content / "C5-half.txt").write_text("{[C5][甲 B][乙 W][先手胜][2025.08.02 10:00 合肥][测试];B(H,8);W(Z,99);B(", encoding="utf-8")
    out = tmp_path / "site"
    result = _build(tmp_path / "content", out, tmp_path)
    assert result.returncode == 0, result.stderr
    problems = (out / "problems" / "index.html").read_text(encoding="utf-8")
    for name in ("binary.txt", "garbage.txt", "C5-half.txt"):
        assert name in problems
    assert len(list((out / "games").rglob("*.html"))) == 2  # ok.txt and the half record up to its bad move


def _gbk_name(folder: Path, name: str) -> Path:
    """The path of ``name`` in ``folder`` with the name in GBK bytes, as a Windows zip
    unpacked on Linux leaves it (Python shows such bytes as surrogate escapes)."""
    return Path(os.fsdecode(os.fsencode(folder) + b"/" + name.encode("gbk")))


def test_a_record_whose_name_is_not_utf8_is_read_with_a_warning(tmp_path: Path) -> None:
    name = "C5-甲队 B vs 乙队 W-先手胜-2025.08.02 10.00 合肥-测试.txt"
    folder = tmp_path / "content"
    folder.mkdir()
    event = _gbk_name(folder, "杯赛")
    try:
        event.mkdir()
    except OSError:
        pytest.skip("this file system refuses names that are not UTF-8")
    record = _gbk_name(event, name)
    record.write_text(c5_record("甲队", "乙队", "先手胜", C5_BLACK_FIVE), encoding="utf-8")
    notes = _gbk_name(event, "说明.txt")  # no record: published for download, listed as a problem
    notes.write_text("not a record", encoding="utf-8")
    out = tmp_path / "site"
    result = _build(folder, out, tmp_path)
    assert result.returncode == 0, result.stderr
    shown = f"杯赛/{name}"  # the names read as GB18030
    games = [json.loads(line) for line in (out / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [g["source"] for g in games] == [shown] and games[0]["computed"] == "first"
    page = out / games[0]["url"]
    assert "甲队" in page.read_text(encoding="utf-8") and (out / "files" / shown).read_bytes() == record.read_bytes()
    assert "ENC-W002" in (out / "problems" / "index.html").read_text(encoding="utf-8")
    assert unquote(next(link for link in local_links(page) if "/files/" in link).split("files/", 1)[1]) == shown
    checked = qipu("check", "--content", str(folder), "--format", "json", cwd=tmp_path)
    assert checked.returncode == 1, checked.stderr  # the notes are no record: an error
    found = [json.loads(line) for line in checked.stdout.splitlines()]
    assert {d["path"] for d in found if d["code"] == "ENC-W002"} == {shown, "杯赛/说明.txt"}
    # Saved again under `qipu serve`: the watcher reports the name on disk.
    from generator.build import Builder
    from generator.config import load_config

    config, _ = load_config(content=folder, output=out)
    builder = Builder(config, cache_dir=tmp_path / "cache")
    builder.build()
    record.write_text(c5_record("甲队", "丙队", "先手胜", C5_BLACK_FIVE), encoding="utf-8")
    builder.build(changed={record})
    builder.wait()
    assert "丙队" in page.read_text(encoding="utf-8")
    # A new process after an edit that changes no game: the quick path publishes the file again.
    notes.write_text("still not a record", encoding="utf-8")
    again = Builder(config, cache_dir=tmp_path / "cache").build()
    assert again.quick and (out / "files" / "杯赛" / "说明.txt").read_text(encoding="utf-8") == "still not a record"


def test_check_prints_json_lines_and_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text(c5_record("甲", "乙", "先手胜", C5_BLACK_FIVE), encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text(c5_record("甲", "乙", "先手胜", "B(H,8);B(H,9)"), encoding="utf-8")
    ok = qipu("check", str(good), cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    res = qipu("check", "--format", "json", str(bad), cwd=tmp_path)
    assert res.returncode == 1
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert rows and all(set(r) == {"path", "line", "column", "severity", "code", "message"} for r in rows)
    assert any(r["severity"] == "error" and r["path"] == "bad.txt" and r["line"] == 1 for r in rows)
    assert qipu("check", str(tmp_path / "missing.txt"), cwd=tmp_path).returncode == 2
    assert qipu("check", "--format", "xml", cwd=tmp_path).returncode == 2


def test_check_piped_into_a_reader_that_stops_early_exits_quietly(tmp_path: Path) -> None:
    """`qipu check --format json | head -1`: no traceback when the reader goes away."""
    for n in range(400):  # enough lines to overflow the pipe's buffer
        (tmp_path / f"bad{n}.txt").write_text(c5_record("甲", "乙", "先手胜", "B(H,8);B(H,9)"), encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "check", "--format", "json", str(tmp_path)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    json.loads(proc.stdout.readline())
    proc.stdout.close()
    stderr = proc.stderr.read().decode("utf-8")
    assert proc.wait(timeout=120) == 1  # not "clean": the check did not finish
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr


def test_diagnostics_table_in_the_docs_matches_the_code() -> None:
    from generator.diagnostics import catalog_markdown

    docs = (REPO / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert catalog_markdown() in docs, "run `qipu codes` and paste the table into docs/diagnostics.md"


def test_rule_options_of_site_toml_reach_the_replay(tmp_path: Path) -> None:
    """An overline wins in free-style gomoku but not under exact five (site.toml, per event)."""
    overline = "B(A,1);W(A,3);B(B,1);W(B,3);B(C,1);W(C,3);B(E,1);W(E,3);B(F,1);W(F,5);B(D,1)"
    for event in ("free", "exact"):
        folder = tmp_path / "content" / event
        folder.mkdir(parents=True)
        (folder / "C5-甲 vs 乙-先手胜.txt").write_text(c5_record("甲", "乙", "先手胜", overline), encoding="utf-8")
    (tmp_path / "site.toml").write_text(
        '[events.exact.games.C5]\noptions = { exact_five = true }\n', encoding="utf-8"
    )
    result = qipu("build", "--config", str(tmp_path / "site.toml"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    games = {
        g["event"]: g
        for g in map(json.loads, (tmp_path / "site" / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines())
    }
    assert games["free"]["computed"] == "first"  # six in a row wins free-style
    assert games["exact"]["computed"] is None  # not under exact five: the declared result stands
    assert games["exact"]["declared"] == "first"


def test_markdown_pages_link_to_each_other_whatever_their_names(tmp_path: Path) -> None:
    content = tmp_path / "content"
    (content / "cup").mkdir(parents=True)
    (content / "cup" / "game.txt").write_text(c5_record("甲", "乙", "先手胜", C5_BLACK_FIVE), encoding="utf-8")
    (content / "关于.md").write_text("# 关于\n\n见 [规则](cup/规则.md)。\n", encoding="utf-8")
    (content / "cup" / "规则.md").write_text("# 规则\n\n回到 [关于](../关于.md#top)。\n", encoding="utf-8")
    out = tmp_path / "site"
    assert _build(content, out, tmp_path).returncode == 0
    pages = {p.read_text(encoding="utf-8").split("<h1>")[1].split("</h1>")[0]: p for p in out.glob("*.html") if "<article" in p.read_text(encoding="utf-8")}
    assert set(pages) == {"关于", "规则"}
    for page in pages.values():
        for link in local_links(page):
            if link.startswith("#"):  # within the page (the skip link to #main)
                continue
            target = unquote(urlsplit(link).path)
            assert target and (page.parent / target).is_file(), (page.name, link)


def test_builder_told_of_a_removed_folder_drops_its_games(tmp_path: Path) -> None:
    """qipu serve passes the paths it saw change; a folder moved away takes its games with it."""
    from generator.build import Builder
    from generator.config import load_config

    content = tmp_path / "content"
    for event in ("one", "two"):
        (content / event).mkdir(parents=True)
        (content / event / "g.txt").write_text(c5_record("甲", "乙", "先手胜", C5_BLACK_FIVE), encoding="utf-8")
    config, _ = load_config(None, root=tmp_path, content=content, output=tmp_path / "site")
    builder = Builder(config, jobs=1)
    assert builder.build().games == 2
    (content / "two").rename(tmp_path / "elsewhere")  # the watcher reports the folder alone
    report = builder.build(changed={content / "two"})
    builder.wait()
    assert report.games == 1
    assert not (tmp_path / "site" / "files" / "two" / "g.txt").exists()


def test_events_appear_in_the_order_site_toml_lists_them(tmp_path: Path) -> None:
    """The organiser's order on the home page and in the navigation; unlisted folders last, by name."""
    for folder in ("a-spring", "b-autumn", "0-extra"):
        (tmp_path / "content" / folder).mkdir(parents=True)
        (tmp_path / "content" / folder / "r.txt").write_text(c5_record("甲", "乙", "先手胜", C5_BLACK_FIVE), encoding="utf-8")
    (tmp_path / "site.toml").write_text(
        '[events.b-autumn]\nname = "秋季赛"\n[events.a-spring]\nname = "春季赛"\n', encoding="utf-8"
    )
    assert qipu("build", cwd=tmp_path).returncode == 0
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    nav = home[home.index("<nav") : home.index("</nav>")]
    assert nav.index("秋季赛") < nav.index("春季赛") < nav.index("0-extra")
    main = home[home.index("<main") :]
    assert main.index("秋季赛") < main.index("春季赛") < main.index("0-extra")


def test_reordering_events_in_site_toml_rebuilds_the_navigation(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / "content" / folder).mkdir(parents=True)
        (tmp_path / "content" / folder / "r.txt").write_text(c5_record("甲", "乙", "先手胜", C5_BLACK_FIVE), encoding="utf-8")
    toml = tmp_path / "site.toml"
    toml.write_text('[events.a]\nname = "甲赛"\n[events.b]\nname = "乙赛"\n', encoding="utf-8")
    assert qipu("build", cwd=tmp_path).returncode == 0
    toml.write_text('[events.b]\nname = "乙赛"\n[events.a]\nname = "甲赛"\n', encoding="utf-8")
    assert qipu("build", cwd=tmp_path).returncode == 0
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert home.index("乙赛") < home.index("甲赛")


def test_pages_of_renamed_records_are_removed_after_a_qipu_upgrade(tmp_path: Path) -> None:
    """A build cache written by another Qipu version is not trusted, but the files it
    says it wrote are still known: the page of a record renamed since is deleted,
    and files Qipu never wrote (a CNAME for GitHub Pages) stay."""
    import pickle

    content = tmp_path / "content" / "cup"
    content.mkdir(parents=True)
    old = content / "C5-甲 vs 乙-先手胜-2025.01.02 10.00.txt"
    old.write_text(c5_record("甲", "乙", "先手胜", C5_BLACK_FIVE), encoding="utf-8")
    assert _build(tmp_path / "content", tmp_path / "site", tmp_path).returncode == 0
    (tmp_path / "site" / "CNAME").write_text("archive.example.org\n", encoding="utf-8")
    before = {p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site" / "games").rglob("*.html")}
    (state_file,) = (tmp_path / ".qipu-cache").glob("state-*.sqlite")
    from generator.cache import StateStore

    store = StateStore(state_file)
    store.write({"field/version": pickle.dumps("an older Qipu")})  # as another version leaves it
    store.close()
    old.rename(content / "C5-甲 vs 乙-先手胜-2025.01.02 11.00.txt")
    assert _build(tmp_path / "content", tmp_path / "site", tmp_path).returncode == 0
    after = {p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site" / "games").rglob("*.html")}
    assert len(before) == len(after) == 1 and before != after
    assert (tmp_path / "site" / "CNAME").read_text(encoding="utf-8") == "archive.example.org\n"
    assert not (tmp_path / "site" / "files" / "cup" / old.name).exists()

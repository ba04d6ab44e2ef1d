"""The demo archive in content/: what a new user sees after ``qipu build``.

Every record goes through Qipu's own per-record pipeline (``pipeline.process``,
what the build runs in its workers), and the archive is checked the way an organiser would check a tournament: every pair
played twice with each side first once, the results the rules decide agree
with the declared ones, and the only records with problems are the ones put
there on purpose to show the problems page.
"""

from __future__ import annotations

import hashlib
import itertools
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator import config as site_config
from generator import decode as decoding
from generator import formats, games, pipeline
from generator.archive.duplicates import moves_key
from generator.archive.teams import Teams
from generator.diagnostics import Diagnostic
from generator.model import Metadata, Record, Replay, Source, Text
from generator.render.markdown import render_markdown

REPO = Path(__file__).resolve().parents[1]
CONTENT = REPO / "content"
EVENTS = ("2025-c5", "2025-c6")
# Events with tests of their own: test_su_archive.py, test_go_demo.py.
OTHER_EVENTS = (
    "2025-su", "2025-go9", "2025-ng", "2025-pg", "2025-hex", "2025-cc", "2025-msk", "2025-dr10", "2025-dr8",
    "2025-am", "2025-wtn", "2025-db", "2025-ac2", "2025-p2t1", "2025-thp", "2025-br",
)

# The records that are wrong on purpose, and what is wrong with them.
ILLEGAL = {
    # White plays twice in a row in the middle of a gomoku game.
    "2025-c5/C5-合工大·斛兵 B vs 重邮·鸿雁 W-先手胜-2025.08.03 09.04 合肥-2025 全国大学生计算机博弈大赛.txt": "RULE-E001",
    # A connect6 stone on a point that is already taken.
    "2025-c6/C6-合工大·斛兵 B vs 安大·黄山 W-先手胜-2025.11.15 15.34 南京-第二届长三角高校六子棋邀请赛.txt": "RULE-E104",
}
# Declares 先手胜, but White made five.
CONTRADICTED = "2025-c5/C5-合工大·斛兵 B vs 浙大·求是 W-先手胜-2025.08.01 10.30 合肥-2025 全国大学生计算机博弈大赛.txt"


@dataclass
class Read:
    path: str
    data: bytes
    text: Text
    record: Record
    replay: Replay
    diagnostics: list[Diagnostic]


def _read_all() -> list[Read]:
    cfg, _ = site_config.load_config(REPO / "site.toml")
    out = []
    # The C5 and C6 events; the Surakarta event has tests of its own (test_su_archive.py).
    for file in sorted(f for event in EVENTS for f in (CONTENT / event).rglob("*.txt")):
        rel = file.relative_to(CONTENT).as_posix()
        data = file.read_bytes()
        source = Source(rel, data, hashlib.sha256(data).hexdigest())
        event = rel.split("/")[0]
        # As the build calls it: the event's rule options and the event's name from site.toml.
        done = pipeline.process(
            source,
            encoding=cfg.encoding_for(rel),
            options={code: cfg.rules_for(event, code).options for code in games.codes()},
            folder=Metadata(event=cfg.events[event].name),
        )
        assert done.record is not None and done.replay is not None, f"{rel}: {done.diagnostics}"
        assert games.get(done.code) is not None, f"{rel}: no game code in the header"
        text, _ = decoding.decode(source, cfg.encoding_for(rel))  # how the file is written, for the last test
        assert text is not None
        out.append(Read(rel, data, text, done.record, done.replay, done.diagnostics))
    return out


@pytest.fixture(scope="module")
def records() -> list[Read]:
    if not CONTENT.is_dir():
        pytest.skip("no content/ folder")
    return _read_all()


@pytest.fixture(scope="module")
def teams() -> Teams:
    cfg, _ = site_config.load_config(REPO / "site.toml")
    return Teams(cfg.aliases)


def _errors(r: Read) -> list[Diagnostic]:
    return [d for d in r.diagnostics if d.severity == "error"]


def test_site_toml_is_clean_and_names_the_demo_events():
    cfg, found = site_config.load_config(REPO / "site.toml")
    assert found == []
    assert set(cfg.events) == set(EVENTS) | set(OTHER_EVENTS)
    assert cfg.language == "zh-CN"
    assert cfg.content_dir.resolve() == CONTENT.resolve()
    for key in cfg.events:
        event = cfg.events[key]
        assert event.name and event.dates and event.place
        (rules,) = event.games.values()
        assert (rules.points.win, rules.points.draw, rules.points.loss) == (2, 1, 0)
        assert len(rules.tiebreaks) >= 2


def test_every_record_decodes_and_parses_without_errors(records):
    assert len(records) >= 70
    for r in records:
        parse_errors = [d for d in r.diagnostics if d.severity == "error" and not d.code.startswith(("RULE-", "RES-"))]
        assert parse_errors == [], r.path
        assert r.record.moves, r.path


def test_only_the_deliberately_broken_records_have_illegal_moves(records):
    for r in records:
        if r.path in ILLEGAL:
            assert [d.code for d in _errors(r)] == [ILLEGAL[r.path]], r.path
            assert r.replay.not_replayed, "the moves after the illegal one are shown as not replayed"
            assert r.replay.decision is None
        elif r.path == CONTRADICTED:
            # The header and the file name both say 先手胜: each is contradicted.
            assert [d.code for d in _errors(r)] == ["RES-E001", "RES-E001"], r.path
        else:
            assert _errors(r) == [], r.path
            assert r.replay.not_replayed == []
    assert set(ILLEGAL) <= {r.path for r in records}


def test_computed_winners_agree_with_declared_results(records):
    contradicted = []
    for r in records:
        computed, declared = r.replay.computed, r.record.header.result
        if computed is not None and computed != declared:
            contradicted.append(r.path)
    assert contradicted == [CONTRADICTED]


def test_most_games_end_with_a_line_and_the_others_declare_a_result(records):
    decided = [r for r in records if r.replay.decision is not None]
    assert all(r.replay.decision.rule == "line" for r in decided)
    assert len(decided) >= 0.75 * len(records)
    for r in records:
        if r.replay.decision is None:
            # Resignations, agreed draws and the broken records: the declared result stands.
            assert r.record.header.result in ("first", "second", "draw"), r.path
    declared_draws = [r for r in records if r.record.header.result == "draw"]
    assert 1 <= len(declared_draws) <= 3
    resigned = [r for r in records if r.replay.decision is None and r.record.header.result != "draw"]
    assert len(resigned) >= 3 + len(ILLEGAL)


def test_games_have_realistic_lengths_and_marks(records):
    for r in records:
        if r.path not in ILLEGAL:
            assert 20 <= len(r.record.moves) <= 120, r.path
    marks = [m.mark for r in records for m in r.record.moves if m.mark is not None]
    moves = sum(len(r.record.moves) for r in records)
    assert set(marks) == {-2, -1, 0, 1, 2}
    assert len(marks) > moves // 3


def test_each_event_is_a_double_round_robin(records, teams):
    by_event: dict[str, dict[str, Read]] = defaultdict(dict)
    for r in records:
        # Copies of one game count once, as on the site.
        key = moves_key(r.record.code or "", [m.text for m in r.record.moves])
        by_event[r.path.split("/")[0]].setdefault(key, r)
    assert set(by_event) == set(EVENTS)
    for event, games_of in by_event.items():
        pairs = Counter(
            (teams.canonical(r.record.header.first or ""), teams.canonical(r.record.header.second or ""))
            for r in games_of.values()
        )
        names = {name for pair in pairs for name in pair}
        assert len(names) >= 6, event
        assert set(pairs) == set(itertools.permutations(names, 2)), event
        assert set(pairs.values()) == {1}, event


def test_one_game_is_saved_twice(records):
    keys = Counter(moves_key(r.record.code or "", [m.text for m in r.record.moves]) for r in records)
    copies = [k for k, n in keys.items() if n > 1]
    assert len(copies) == 1 and keys[copies[0]] == 2


def test_aliases_in_site_toml_are_needed(records, teams):
    written = {n for r in records for n in (r.record.header.first, r.record.header.second) if n}
    cfg, _ = site_config.load_config(REPO / "site.toml")
    for file in (CONTENT / "2025-su").rglob("*.txt"):
        data = file.read_bytes()
        text, _ = decoding.decode(Source(file.name, data, ""), None)
        header = formats.read(text, None).header
        written |= {header.first, header.second}
    for spelling, canonical in cfg.aliases.items():
        if spelling != canonical:
            assert spelling in written, f"alias {spelling!r} is not used by any record"
    # One spelling differs by more than width or spaces: only the alias joins it.
    assert "哈尔滨工程大学·破浪" in written
    assert Teams({}).canonical("哈尔滨工程大学·破浪") != "哈工程·破浪"
    assert teams.canonical("哈尔滨工程大学·破浪") == "哈工程·破浪"


def test_files_vary_like_real_writers(records):
    encodings = Counter(r.text.encoding for r in records)
    assert encodings["gb18030"] > len(records) // 2, "most real records are GBK"
    assert encodings["utf-8-sig"] >= 2
    assert encodings["utf-8"] >= 1
    assert encodings["utf-16-le"] == 1, "one record needs its [encodings] entry"
    assert any(r.data.endswith(b"}") for r in records), "one line, no final newline"
    assert any(r.data.count(b"\r\n") > 10 for r in records), "one move per line, CRLF"
    assert any("［" in r.text.text or "：" in r.text.text for r in records), "full-width header punctuation"
    assert any(" (" in r.text.text for r in records), "B (H,8) with a space"


def test_markdown_pages_render_with_a_title_a_table_and_links_between_pages():
    for name in ("about.md", "rules.md"):
        text = (CONTENT / name).read_text(encoding="utf-8")
        title, html = render_markdown(text, fallback_title=name, link=lambda target: f"{target}/index.html")
        assert title != name and "<h1>" in html, name
        assert "<table>" in html, name
    _, about = render_markdown(
        (CONTENT / "about.md").read_text(encoding="utf-8"), fallback_title="", link=lambda t: f"{t}/index.html"
    )
    assert 'href="rules/index.html"' in about, "about.md links to the rules page as the site names it"


def test_the_demo_can_be_remade_byte_for_byte(tmp_path):
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import make_records
    finally:
        sys.path.pop(0)
    made = make_records.write_demo(tmp_path)
    for f in made:
        assert (CONTENT / f.path).read_bytes() == f.data, f.path
    # Every file: army chess records have no suffix, bridge's are .pbn, hold'em dealer logs .log.
    on_disk = {
        p.relative_to(CONTENT).as_posix() for e in (*EVENTS, *OTHER_EVENTS) for p in (CONTENT / e).rglob("*") if p.is_file()
    }
    assert on_disk == {f.path for f in made}

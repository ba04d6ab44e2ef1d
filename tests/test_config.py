"""site.toml: defaults, a full file, errors that name the key, merging, fingerprints."""

from __future__ import annotations

import pickle
import textwrap
from pathlib import Path

import pytest

from generator import games
from generator.archive.standings import TIEBREAKS, Points
from generator.config import Config, load_config
from generator.diagnostics import CATALOG, Diagnostic

FULL = """\
title = "2025 中国大学生计算机博弈大赛 棋谱"
language = "en"
base_url = "https://org.github.io/archive"
content = "records"
output = "public"
timestamp = true

[events.c5-2025]
name = "2025 五子棋"
dates = "2025-08-01 – 2025-08-03"
place = "合肥"
  [events.c5-2025.games.C5]
  points = { win = 3, draw = 1, loss = 0 }
  tiebreaks = ["wins", "head-to-head"]
  options = { exact_five = true }

[events.c6-2025]
name = "2025 六子棋"

[aliases]
"北京理工大学" = ["北理工", "BIT"]
"清华大学" = "清华"

[encodings]
"old-2018/" = "gb18030"
"old-2018/deep/" = "big5"
"bridge/club.pbn" = "cp1250"
"""


def write(folder: Path, text: str, name: str = "site.toml") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def load(folder: Path, text: str) -> tuple[Config, list[Diagnostic]]:
    write(folder, text)
    return load_config(root=folder)


def only(diagnostics: list[Diagnostic]) -> Diagnostic:
    assert len(diagnostics) == 1, [d.format() for d in diagnostics]
    return diagnostics[0]


def line_of(text: str, fragment: str) -> int:
    """1-based line of the first line containing ``fragment``."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


# --- defaults and a full file ---------------------------------------------------


def test_defaults_without_a_file(tmp_path: Path) -> None:
    config, diagnostics = load_config(root=tmp_path)
    assert diagnostics == []
    assert config.path is None
    assert config.root == tmp_path
    assert config.title == "Qipu 棋谱"
    assert config.language == "zh-CN"
    assert config.base_url is None
    assert config.content_dir == tmp_path / "content"
    assert config.output_dir == tmp_path / "site"
    assert config.timestamp is False
    assert dict(config.events) == {} and dict(config.aliases) == {} and dict(config.encodings) == {}
    rules = config.rules_for("any-event", "C5")
    assert rules.points == Points(2.0, 1.0, 0.0)
    assert rules.tiebreaks == tuple(TIEBREAKS)
    assert dict(rules.options) == dict(games.GAMES["C5"].options)
    assert config.event("c5-2025").name == "c5-2025"


def test_default_root_is_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, 'title = "Here"\n')
    monkeypatch.chdir(tmp_path)
    config, diagnostics = load_config()
    assert diagnostics == []
    assert config.title == "Here"
    assert config.path == tmp_path / "site.toml"


def test_a_full_valid_file(tmp_path: Path) -> None:
    config, diagnostics = load(tmp_path, FULL)
    assert diagnostics == []
    assert config.path == tmp_path / "site.toml"
    assert config.title == "2025 中国大学生计算机博弈大赛 棋谱"
    assert config.language == "en"
    assert config.base_url == "https://org.github.io/archive/"  # a final "/" is added
    assert config.content_dir == tmp_path / "records"
    assert config.output_dir == tmp_path / "public"
    assert config.timestamp is True

    event = config.event("c5-2025")
    assert (event.name, event.dates, event.place) == ("2025 五子棋", "2025-08-01 – 2025-08-03", "合肥")
    c5 = event.games["C5"]
    assert c5.points == Points(3.0, 1.0, 0.0)
    assert c5.tiebreaks == ("wins", "head-to-head")
    assert dict(c5.options) == {"exact_five": True, "renju": False}
    assert config.event("c6-2025").name == "2025 六子棋"
    assert config.event("c6-2025").dates is None

    assert config.encoding_for("bridge/club.pbn") == "cp1250"
    assert config.encoding_for("old-2018/a.txt") == "gb18030"


def test_config_is_immutable_and_picklable(tmp_path: Path) -> None:
    # The build hands the configuration to worker processes.
    config, _ = load(tmp_path, FULL)
    assert pickle.loads(pickle.dumps(config)) == config
    with pytest.raises(TypeError):
        config.events["new"] = config.event("x")  # type: ignore[index]


def test_unquoted_toml_date_is_taken_as_text(tmp_path: Path) -> None:
    config, diagnostics = load(tmp_path, "[events.e]\ndates = 2025-08-01\n")
    assert diagnostics == []
    assert config.event("e").dates == "2025-08-01"


def test_language_spelling_is_tolerated(tmp_path: Path) -> None:
    config, diagnostics = load(tmp_path, 'language = "zh_cn"\n')
    assert diagnostics == []
    assert config.language == "zh-CN"


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "site.toml").write_bytes('\ufefftitle = "带BOM"\n'.encode("utf-8"))
    config, diagnostics = load_config(root=tmp_path)
    assert diagnostics == []
    assert config.title == "带BOM"


# --- errors name the key and its line --------------------------------------------


def test_syntax_error_gives_tomllib_line_and_column_and_defaults(tmp_path: Path) -> None:
    text = 'title = "ok"\nlanguage = en\n'
    config, diagnostics = load(tmp_path, text)
    d = only(diagnostics)
    assert (d.path, d.code, d.severity, d.line) == ("site.toml", "CFG-E001", "error", 2)
    assert d.column > 0
    assert config.title == "Qipu 棋谱"  # nothing of a broken file is used


def test_file_not_in_utf8(tmp_path: Path) -> None:
    (tmp_path / "site.toml").write_bytes('title = "棋谱"\n'.encode("gb18030"))
    config, diagnostics = load_config(root=tmp_path)
    d = only(diagnostics)
    assert d.code == "CFG-E010" and d.line == 1
    assert "UTF-8" in d.message
    assert config.title == "Qipu 棋谱"


def test_explicit_missing_file_is_an_error_but_implicit_is_not(tmp_path: Path) -> None:
    config, diagnostics = load_config(Path("other.toml"), root=tmp_path)
    d = only(diagnostics)
    assert (d.code, d.path) == ("CFG-E010", "other.toml")
    assert config.path is None


def test_explicit_path_relative_to_root_and_its_folder_is_the_base(tmp_path: Path) -> None:
    (tmp_path / "cfg").mkdir()
    write(tmp_path / "cfg", 'content = "recs"\nbogus = 1\n', name="2025.toml")
    config, diagnostics = load_config(Path("cfg/2025.toml"), root=tmp_path)
    assert config.content_dir == tmp_path / "cfg" / "recs"
    assert only(diagnostics).path == "cfg/2025.toml"


WRONG_TYPE = """\
title = "T"

[events.c5-2025.games.C5]
points = { win = "two", draw = 1 }
"""


def test_wrong_type_in_an_inline_table_names_the_full_key(tmp_path: Path) -> None:
    config, diagnostics = load(tmp_path, WRONG_TYPE)
    d = only(diagnostics)
    assert d.code == "CFG-E003"
    assert d.message == 'events.c5-2025.games.C5.points.win: expected a number, got a string "two"'
    assert d.line == 4
    assert d.column == WRONG_TYPE.splitlines()[3].index("win") + 1
    # The bad value falls back to its default; the good one is kept.
    assert config.rules_for("c5-2025", "C5").points == Points(2.0, 1.0, 0.0)


@pytest.mark.parametrize(
    ("text", "fragment", "code", "key"),
    [
        ('title = "T"\ncolour = "red"\n', "colour", "CFG-E002", "colour"),
        ('[events.e]\nname = "E"\nvenue = "合肥"\n', "venue", "CFG-E002", "events.e.venue"),
        ('[events.e.games.C5]\npoint = { win = 2 }\n', "point", "CFG-E002", "events.e.games.C5.point"),
        ('[events.e.games.C5.points]\nwin = 2\ntie = 1\n', "tie", "CFG-E002", "events.e.games.C5.points.tie"),
        ('title = 2025\n', "title", "CFG-E003", "title"),
        ('timestamp = "yes"\n', "timestamp", "CFG-E003", "timestamp"),
        ('[events.e]\nname = ["a"]\n', "name", "CFG-E003", "events.e.name"),
        ('[events.e.games.C5]\ntiebreaks = "wins"\n', "tiebreaks", "CFG-E003", "events.e.games.C5.tiebreaks"),
        ('[events.e.games.XQ]\npoints = { win = 2 }\n', "XQ", "CFG-E004", "events.e.games.XQ"),
        (
            '[events.e.games.C5]\noptions = { renju = true, swap = true }\n', "options", "CFG-E005",
            "events.e.games.C5.options.swap",
        ),
        ('[events.e.games.C6]\noptions = { exact_five = true }\n', "options", "CFG-E005", "events.e.games.C6.options.exact_five"),
        ('[events.e.games.C5.options]\nrenju = "yes"\n', "renju", "CFG-E003", "events.e.games.C5.options.renju"),
        ('[events.e.games.C5]\ntiebreaks = ["wins", "buchholz"]\n', "tiebreaks", "CFG-E006", "events.e.games.C5.tiebreaks"),
        ('language = "fr"\n', "language", "CFG-E007", "language"),
        ('[encodings]\n"old/" = "klingon"\n', "old/", "CFG-E008", 'encodings."old/"'),
        ('[encodings]\n"old/" = "base64"\n', "old/", "CFG-E008", 'encodings."old/"'),
        ('base_url = "org.github.io/archive"\n', "base_url", "CFG-E011", "base_url"),
        ('[events."a/b"]\nname = "x"\n', "a/b", "CFG-E013", 'events."a/b"'),
        ('[encodings]\n"../elsewhere/" = "gbk"\n', "elsewhere", "CFG-E013", 'encodings."../elsewhere/"'),
    ],
)
def test_each_error_names_the_key_and_its_line(
    tmp_path: Path, text: str, fragment: str, code: str, key: str
) -> None:
    _, diagnostics = load(tmp_path, "# site settings\n" + text)
    d = only(diagnostics)
    assert d.code == code
    assert d.severity == "error"
    assert d.path == "site.toml"
    assert d.message.startswith(key + ":"), d.message
    assert d.line == line_of("# site settings\n" + text, fragment)
    assert code in CATALOG and CATALOG[code].help


def test_unknown_key_suggests_the_near_spelling(tmp_path: Path) -> None:
    _, diagnostics = load(tmp_path, 'titel = "x"\n')
    assert "did you mean 'title'?" in only(diagnostics).message


def test_tiebreak_error_points_at_the_line_of_the_bad_name(tmp_path: Path) -> None:
    text = '[events.e.games.C5]\ntiebreaks = [\n  "wins",\n  "sonneborn-bergr",\n]\n'
    config, diagnostics = load(tmp_path, text)
    d = only(diagnostics)
    assert d.code == "CFG-E006" and d.line == 4
    assert "sonneborn-berger" in d.message  # the suggestion
    assert config.rules_for("e", "C5").tiebreaks == ("wins",)  # the good names are kept


def test_repeated_tiebreak_is_reported(tmp_path: Path) -> None:
    config, diagnostics = load(tmp_path, '[events.e.games.C5]\ntiebreaks = ["wins", "wins"]\n')
    assert only(diagnostics).code == "CFG-E006"
    assert config.rules_for("e", "C5").tiebreaks == ("wins",)


def test_game_code_is_case_insensitive_but_not_repeatable(tmp_path: Path) -> None:
    text = "[events.e.games.c5]\npoints = { win = 3 }\n[events.e.games.C5]\npoints = { win = 4 }\n"
    config, diagnostics = load(tmp_path, text)
    d = only(diagnostics)
    assert d.code == "CFG-E004" and d.line == 3
    assert config.rules_for("e", "C5").points.win == 3.0


def test_several_errors_each_fall_back_and_the_rest_is_kept(tmp_path: Path) -> None:
    text = 'title = "Kept"\nlanguage = "fr"\ntimestamp = 1\nbase_url = "ftp://x/"\n'
    config, diagnostics = load(tmp_path, text)
    assert [d.line for d in diagnostics] == [2, 3, 4]
    assert (config.title, config.language, config.timestamp, config.base_url) == ("Kept", "zh-CN", False, None)


def test_output_that_is_or_contains_the_content_is_refused(tmp_path: Path) -> None:
    config, diagnostics = load(tmp_path, 'output = "content"\n')
    d = only(diagnostics)
    assert (d.code, d.line) == ("CFG-E012", 1)
    assert d.message.startswith("output:")
    assert config.output_dir == tmp_path / "site"  # back to the default
    _, diagnostics = load(tmp_path, 'content = "public/records"\noutput = "public"\n')
    assert (only(diagnostics).code, only(diagnostics).line) == ("CFG-E012", 2)


def test_output_inside_the_content_folder_is_allowed(tmp_path: Path) -> None:
    # Records next to site.toml (content = ".") is a normal layout.
    config, diagnostics = load(tmp_path, 'content = "."\n')
    assert diagnostics == []
    assert config.output_dir == tmp_path / "site"


def test_missing_event_folder_and_encoding_path_warn(tmp_path: Path) -> None:
    (tmp_path / "content" / "c5-2025").mkdir(parents=True)
    (tmp_path / "content" / "old").mkdir()
    text = '[events.c5-2025]\nname = "ok"\n[events.C5-2O25]\nname = "typo"\n[encodings]\n"old/" = "gbk"\n"olde/" = "gbk"\n'
    _, diagnostics = load(tmp_path, text)
    assert [(d.code, d.severity, d.line) for d in diagnostics] == [("CFG-W001", "warning", 3), ("CFG-W001", "warning", 7)]


# --- aliases --------------------------------------------------------------------


def test_aliases_map_spellings_and_canonical_names(tmp_path: Path) -> None:
    config, diagnostics = load(tmp_path, FULL)
    assert diagnostics == []
    assert config.aliases["北理工"] == "北京理工大学"
    assert config.aliases["BIT"] == "北京理工大学"
    assert config.aliases["北京理工大学"] == "北京理工大学"
    assert config.aliases["清华"] == "清华大学"  # a single spelling without brackets
    assert "bit" not in config.aliases


def test_a_spelling_under_two_names_is_an_error_and_the_first_is_kept(tmp_path: Path) -> None:
    text = '[aliases]\n"北京理工大学" = ["北理工", "BIT"]\n"北京交通大学" = [\n  "北交",\n  "BIT",\n]\n'
    config, diagnostics = load(tmp_path, text)
    d = only(diagnostics)
    assert d.code == "CFG-E009"
    assert d.message.startswith('aliases."北京交通大学":')
    assert "BIT" in d.message and d.line == 5
    assert config.aliases["BIT"] == "北京理工大学"
    assert config.aliases["北交"] == "北京交通大学"


def test_a_canonical_name_listed_as_a_spelling_is_an_error(tmp_path: Path) -> None:
    _, diagnostics = load(tmp_path, '[aliases]\n"A" = ["B"]\n"B" = ["C"]\n')
    assert only(diagnostics).code == "CFG-E009"


# --- overrides, merging, encodings ----------------------------------------------


def test_content_and_output_arguments_override_the_file(tmp_path: Path) -> None:
    write(tmp_path, 'content = "records"\noutput = "public"\n')
    config, diagnostics = load_config(root=tmp_path, content=tmp_path / "elsewhere", output=tmp_path / "out")
    assert diagnostics == []
    assert config.content_dir == tmp_path / "elsewhere"
    assert config.output_dir == tmp_path / "out"


def test_relative_overrides_are_taken_from_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "project").mkdir()
    monkeypatch.chdir(tmp_path)
    config, _ = load_config(root=tmp_path / "project", content=Path("recs"))
    assert config.content_dir == tmp_path / "recs"
    assert config.output_dir == tmp_path / "project" / "site"


def test_rules_for_merges_event_settings_over_defaults(tmp_path: Path) -> None:
    text = "[events.e.games.C5]\npoints = { win = 3 }\noptions = { renju = true }\n"
    config, diagnostics = load(tmp_path, text)
    assert diagnostics == []
    rules = config.rules_for("e", "c5")  # codes as written in records, any case
    assert rules.points == Points(3.0, 1.0, 0.0)
    assert rules.tiebreaks == tuple(TIEBREAKS)
    assert dict(rules.options) == {"exact_five": False, "renju": True}
    # Another game of the same event, and the same game elsewhere, keep the defaults.
    assert dict(config.rules_for("e", "C6").options) == dict(games.GAMES["C6"].options)
    assert dict(config.rules_for("other", "C5").options) == {"exact_five": False, "renju": False}
    assert config.rules_for("other", "C5").points == Points()


def test_encoding_for_precedence(tmp_path: Path) -> None:
    text = """\
    [encodings]
    "./" = "latin-1"
    "old-2018/" = "gb18030"
    "old-2018/deep/" = "big5"
    "old-2018/deep/one.txt" = "utf-16"
    "bridge" = "cp1250"
    """
    config, diagnostics = load(tmp_path, text)
    assert diagnostics == []
    assert config.encoding_for("old-2018/deep/one.txt") == "utf-16"  # the file wins
    assert config.encoding_for("old-2018/deep/two.txt") == "big5"  # the longest folder
    assert config.encoding_for("old-2018/a.txt") == "gb18030"
    assert config.encoding_for("old-2018\\b.txt") == "gb18030"  # Windows separators
    assert config.encoding_for("bridge/club.pbn") == "cp1250"  # a folder written without "/"
    assert config.encoding_for("bridgework/x.pbn") == "iso8859-1"  # not a prefix match on names
    assert config.encoding_for("top.txt") == "iso8859-1"  # "./" is the whole content folder


def test_no_encoding_override_by_default(tmp_path: Path) -> None:
    config, _ = load_config(root=tmp_path)
    assert config.encoding_for("old-2018/a.txt") is None


# --- fingerprints ----------------------------------------------------------------

BASE = """\
title = "T"
[events.a.games.C5]
options = { renju = false }
[events.b.games.C5]
options = { renju = false }
[encodings]
"a/old/" = "gb18030"
"""


def fingerprints(folder: Path, text: str) -> tuple[str, str, str, str]:
    config, diagnostics = load(folder, text)
    assert diagnostics == []
    return (
        config.site_fingerprint(),
        config.record_settings("a/x.txt", "a", "C5"),
        config.record_settings("b/x.txt", "b", "C5"),
        config.record_settings("a/old/y.txt", "a", None),
    )


def test_fingerprints_are_stable(tmp_path: Path) -> None:
    assert fingerprints(tmp_path, BASE) == fingerprints(tmp_path, BASE)
    # Writing a default out, or reordering, changes nothing.
    same = BASE.replace("options = { renju = false }\n[events.b", "options = { renju = false, exact_five = false }\n[events.b")
    assert fingerprints(tmp_path, same) == fingerprints(tmp_path, BASE)


def test_changing_one_events_options_changes_only_its_records(tmp_path: Path) -> None:
    site, a, b, a_old = fingerprints(tmp_path, BASE)
    changed = BASE.replace("[events.a.games.C5]\noptions = { renju = false }", "[events.a.games.C5]\noptions = { renju = true }")
    site2, a2, b2, a_old2 = fingerprints(tmp_path, changed)
    assert a2 != a and a_old2 != a_old  # also when the code is not known yet
    assert b2 == b
    assert site2 != site  # the event page may show its rules


def test_encoding_changes_only_the_records_it_covers(tmp_path: Path) -> None:
    site, a, b, a_old = fingerprints(tmp_path, BASE)
    site2, a2, b2, a_old2 = fingerprints(tmp_path, BASE.replace('"gb18030"', '"big5"'))
    assert a_old2 != a_old
    assert (site2, a2, b2) == (site, a, b)


@pytest.mark.parametrize(
    "change",
    [
        'title = "T2"',
        'title = "T"\nlanguage = "en"',
        'title = "T"\nbase_url = "https://x.org/"',
        'title = "T"\ntimestamp = true',
        'title = "T"\n[aliases]\n"A" = ["a"]',
        'title = "T"\n[events.c]\nname = "C"',
        'title = "T"\n[events.c]\nplace = "合肥"',
    ],
)
def test_page_settings_change_the_site_fingerprint_but_not_the_records(tmp_path: Path, change: str) -> None:
    site, a, b, a_old = fingerprints(tmp_path, BASE)
    site2, a2, b2, a_old2 = fingerprints(tmp_path, BASE.replace('title = "T"', change, 1))
    assert site2 != site
    assert (a2, b2, a_old2) == (a, b, a_old)


def test_points_and_tiebreaks_change_the_site_but_not_the_replay(tmp_path: Path) -> None:
    site, a, b, a_old = fingerprints(tmp_path, BASE)
    for extra in ("points = { win = 3 }", 'tiebreaks = ["wins"]'):
        changed = BASE.replace("[events.b.games.C5]\n", f"[events.b.games.C5]\n{extra}\n")
        site2, a2, b2, a_old2 = fingerprints(tmp_path, changed)
        assert site2 != site
        assert (a2, b2, a_old2) == (a, b, a_old)


def test_folders_do_not_change_the_site_fingerprint(tmp_path: Path) -> None:
    site = fingerprints(tmp_path, BASE)[0]
    assert fingerprints(tmp_path, 'output = "public"\ncontent = "records"\n' + BASE)[0] == site


# --- the reference documentation agrees with the code ---------------------------

DOCS = Path(__file__).resolve().parents[1] / "docs" / "site-toml.md"


def test_the_documented_example_is_valid(tmp_path: Path) -> None:
    text = DOCS.read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    config, diagnostics = load(tmp_path, example)
    assert diagnostics == []
    assert config.event("c5-2025").name == "2025 五子棋"


def test_every_code_and_option_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for code in CATALOG:
        if code.startswith("CFG-"):
            assert f"`{code}`" in text, code
    for game in games.GAMES.values():
        for option in game.options:
            assert f"`{option}`" in text, (game.code, option)
    for name in TIEBREAKS:
        assert f"`{name}`" in text, name

"""Messages in the page's language: the catalogs, and what a Chinese organiser reads."""

from __future__ import annotations

import json
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from generator import diagnostics, i18n
from generator.diagnostics import CATALOG, catalog_markdown, make

ROOT = Path(__file__).resolve().parent.parent


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _places(template: str) -> set[str] | None:
    """The named places of a template; None for text never formatted (it holds a lone brace)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:
        return None


def test_every_template_in_the_code_has_a_chinese_translation_with_the_same_places() -> None:
    """The catalogs hold exactly the templates written in the code, each translated.

    When this fails after a change: run ``python -m generator.i18n`` and
    write the new translations in the catalog it names.
    """
    extracted = i18n.extract()
    for domain, templates in extracted.items():
        path = i18n.catalog_path("zh-CN", domain)
        catalog = {m.id: m.string for m in read_po(path.open("rb")) if m.id}
        assert set(catalog) == set(templates), f"{path} is out of date: run python -m generator.i18n"
        for template, translation in catalog.items():
            assert translation, f"{path}: no translation of {template!r}"
            words = re.sub(r"\{[^{}]*\}", "", translation)  # the places' names are not words
            assert _chinese(translation) or not any(ch.isalpha() for ch in words), (template, translation)
            assert _places(translation) == _places(template), f"{path}: {template!r} and {translation!r} fill other places"


def test_qipu_reads_the_catalogs_as_babel_does() -> None:
    for domain in i18n.DOMAINS:
        path = i18n.catalog_path("zh-CN", domain)
        expected = {m.id: m.string for m in read_po(path.open("rb")) if m.id and m.string and not m.fuzzy}
        assert i18n.read_catalog(path.read_text(encoding="utf-8")) == expected, path
    crafted = """#: a.py
msgid "one"
msgstr "一"

#, fuzzy
msgid "unsure"
msgstr "不确定"

msgid ""
"a long template that Babel wraps "
"over \\"two\\" lines\\n"
msgstr ""
"很长的模板，"
"分两行\\t写"

msgid "not yet"
msgstr ""
"""
    assert i18n.read_catalog(crafted) == {
        "one": "一", 'a long template that Babel wraps over "two" lines\n': "很长的模板，分两行\t写"
    }
    from io import BytesIO

    babel = {m.id: m.string for m in read_po(BytesIO(crafted.encode())) if m.id and m.string and not m.fuzzy}
    assert i18n.read_catalog(crafted) == babel


def test_every_diagnostic_code_has_a_chinese_title() -> None:
    catalog_markdown()  # imports every module that defines codes
    for code in CATALOG:
        assert _chinese(diagnostics.title(code, "zh-CN")), code
        assert diagnostics.title(code, "en") == CATALOG[code].title
    assert diagnostics.title("RULE-E304", "zh-CN").startswith("自杀着")


def test_a_message_is_said_in_the_language_asked_and_its_words_too() -> None:
    import generator.pipeline  # noqa: F401  defines RES-E001

    d = make(
        "a.txt", 1, 1, "RES-E001",
        "the {where} declares '{declared}' but the rules decide '{computed}' at move {ply}",
        where=i18n.T("header"), declared=i18n.T("first player wins"), computed=i18n.T("second player wins"), ply=28,
    )
    assert d.message == "the header declares 'first player wins' but the rules decide 'second player wins' at move 28"
    assert d.say("zh-CN") == "棋谱头声明“先手胜”，但按规则第 28 手时判定为“后手胜”"
    assert d.format("zh-CN") == "a.txt:1:1: error[RES-E001]: " + d.say("zh-CN")
    assert json.loads(json.dumps(d.to_json("zh-CN")))["message"] == d.say("zh-CN")


def test_a_message_without_arguments_is_never_formatted() -> None:
    import generator.pipeline  # noqa: F401

    # Record text may hold braces; a message made from it must show them as written.
    d = make("a.txt", 2, 3, "REC-E900", "unexpected {B(J,10)} in {the} record")
    assert d.message == d.say("zh-CN") == "unexpected {B(J,10)} in {the} record"


def test_a_translation_that_does_not_fit_falls_back_to_english() -> None:
    assert i18n.say("{a} and {b}", {"a": 1, "b": 2}, "xx") == "1 and 2"


def _content_with_a_wrong_result(tmp_path: Path, language: str) -> Path:
    content = tmp_path / "content" / "cup"
    content.mkdir(parents=True)
    # Black makes five in a row at move 9; the header says white won.
    moves = ";".join(
        f"{side}({col},{row})"
        for side, col, row in [
            ("B", "H", 8), ("W", "H", 9), ("B", "I", 8), ("W", "I", 9), ("B", "J", 8),
            ("W", "J", 9), ("B", "K", 8), ("W", "K", 9), ("B", "L", 8),
        ]
    )
    record = f"{{[C5][甲队 B][乙队 W][后手胜][2025.08.01 09:00 合肥][2025 测试赛];{moves}}}"
    (content / "C5-甲队 B vs 乙队 W-后手胜-2025.08.01 09.00 合肥-2025 测试赛.txt").write_text(record, encoding="utf-8")
    (tmp_path / "site.toml").write_text(
        f'title = "测试"\nlanguage = "{language}"\ncontent = "content"\noutput = "site"\n', encoding="utf-8"
    )
    return tmp_path


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh-CN", "文件名声明“后手胜”，但按规则第 9 手时判定为“先手胜”"),
        ("en", "the file name declares 'second player wins' but the rules decide 'first player wins' at move 9"),
    ],
)
def test_the_game_page_and_the_problems_page_say_the_message_in_the_site_language(
    tmp_path: Path, language: str, expected: str
) -> None:
    root = _content_with_a_wrong_result(tmp_path, language)
    done = subprocess.run(
        [sys.executable, "-m", "generator", "build", "-q"], cwd=root, capture_output=True, text=True, encoding="utf-8"
    )
    assert done.returncode in (0, 1), done.stderr
    game_pages = list((root / "site" / "games").rglob("*.html"))
    assert len(game_pages) == 1
    for page in (game_pages[0], root / "site" / "problems" / "index.html"):
        html = page.read_text(encoding="utf-8")
        assert expected.replace("'", "&#39;").replace("“", "“") in html or expected in html, page
    if language == "zh-CN":
        assert "rules decide" not in game_pages[0].read_text(encoding="utf-8")


def test_qipu_check_lang_prints_chinese(tmp_path: Path) -> None:
    root = _content_with_a_wrong_result(tmp_path, "en")
    expected = (
        ("zh-CN", "但按规则第 9 手时判定为“先手胜”", "2 个错误，0 个警告"),
        ("en", "but the rules decide 'first player wins' at move 9", "2 errors, 0 warnings"),  # the header and the file name
    )
    for lang, words, counted in expected:
        done = subprocess.run(
            [sys.executable, "-m", "generator", "check", "--lang", lang],
            cwd=root, capture_output=True, text=True, encoding="utf-8",
        )
        assert done.returncode == 1, done.stderr
        assert "error[RES-E001]" in done.stdout and words in done.stdout, done.stdout
        assert done.stderr.strip().splitlines()[-1] == counted
    done = subprocess.run(
        [sys.executable, "-m", "generator", "check", "--lang", "zh-cn", "--format", "json"],
        cwd=root, capture_output=True, text=True, encoding="utf-8",
    )
    messages = [json.loads(line)["message"] for line in done.stdout.splitlines()]
    assert any("判定为“先手胜”" in m for m in messages), messages

"""Diagnostics of the formats, metadata, decoding, site.toml and duplicates: said in Chinese too."""

from __future__ import annotations

from pathlib import Path

from generator import config, decode, formats, metadata
from generator.archive import duplicates
from generator.model import Metadata, Source, Text
from generator.pipeline import sha256


def _read(text: str, name: str = "C6-a.txt"):
    return formats.read(Text(name, text, "utf-8", decode.line_starts(text)), None).diagnostics


def test_a_short_header_names_the_missing_fields_in_the_page_language() -> None:
    (d,) = [d for d in _read("{[C6][甲 B][乙 W];B(J,10);W(I,11)}") if d.code == "FMT-W105"]
    assert d.message.endswith("missing: result, time place, event")
    assert d.say("zh-CN").startswith("棋谱头只有 3 个字段")
    assert d.say("zh-CN").endswith("缺少：结果、时间地点、赛事")


def test_record_text_in_a_message_is_shown_as_written_braces_and_all() -> None:
    (d,) = [d for d in _read("{[C6][甲 B][乙 W][先手胜][2017.07.29 14:00 重庆][E];B(J,10)} {a} {0}") if d.code == "FMT-W104"]
    assert d.message == 'text after the closing } ignored: "{a} {0}"'
    assert d.say("zh-CN") == "结尾 } 之后的文字已忽略：“{a} {0}”"


def test_a_side_the_game_does_not_have_is_named_with_the_game_s_letters() -> None:
    (d,) = [d for d in _read("{[C6][甲 B][乙 W][先手胜][2017.07.29 14:00 重庆][E];B(J,10);X(I,11)}") if d.code == "FMT-E103"]
    assert d.message == 'move "X(I,11)": "X" is not a side of Connect6 (B or W)'
    assert d.say("zh-CN") == "着法“X(I,11)”：“X”不是六子棋的一方（应为 B 或 W）"


def test_a_disagreement_between_file_name_and_header_is_said_in_chinese() -> None:
    header = Metadata(code="C6", first="甲", result="first", result_text="先手胜")
    named = Metadata(code="C6", first="丙", result="second", result_text="后手胜")
    said = {d.code: d.say("zh-CN") for d in metadata.merge("a.txt", header, named)[1]}
    assert said["META-W002"] == "文件名中的先手队是“丙”，棋谱头中是“甲”；采用棋谱头的"
    assert said["META-W003"] == "文件名中的结果是“后手胜”，棋谱头中是“先手胜”；采用棋谱头的"


def test_utf16_without_a_mark_gets_its_hint_in_chinese() -> None:
    data = "B(J,10);W(I,11)".encode("utf-16-le")
    _, (d,) = decode.decode(Source("a.txt", data, sha256(data)))
    assert d.message.endswith('name the encoding "utf-16-le" for it in site.toml')
    assert d.say("zh-CN") == (
        "文本中含有 NUL 字符（第一个在第 1 行）；看来是没有字节顺序标记的 UTF-16：请在 site.toml 中为它指定编码“utf-16-le”"
    )


def test_site_toml_mistakes_are_said_in_chinese(tmp_path: Path) -> None:
    (tmp_path / "site.toml").write_text('titel = "x"\ntimestamp = "yes"\n[limits]\nplies = 0\n', encoding="utf-8")
    _, found = config.load_config(tmp_path / "site.toml")
    assert [d.message for d in found] == [
        "titel: unknown key; did you mean 'title'?",
        'timestamp: expected true or false, got a string "yes"',
        "limits.plies: expected a whole number of at least 1, got an integer 0",
    ]
    assert [d.say("zh-CN") for d in found] == [
        "titel：未知的键；是不是 'title'？",
        'timestamp：应为布尔值（true 或 false），实际是字符串 "yes"',
        "limits.plies：应为不小于 1 的整数，实际是整数 0",
    ]


def test_copies_that_disagree_name_the_results_in_chinese() -> None:
    entries = [
        duplicates.Entry(f"{i}.txt", "C6", "k", "甲", "乙", "2025-01-01", "10:00", declared, 10)
        for i, declared in enumerate(("first", "second"))
    ]
    _, found = duplicates.group(entries)
    said = sorted(d.say("zh-CN") for d in found if d.code == "ARC-W101")
    assert said == [
        "本文件声明“先手胜”，但此对局的其他副本不同：1.txt（“后手胜”）",
        "本文件声明“后手胜”，但此对局的其他副本不同：0.txt（“先手胜”）",
    ]

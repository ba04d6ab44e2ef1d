"""Record metadata: result words, times and places, file names, merging sources."""

from __future__ import annotations

import pytest
from conftest import red_blue

from generator import games
from generator.metadata import (
    from_filename,
    loose,
    merge,
    parse_result,
    parse_when,
    strip_colour,
)
from generator.model import Metadata

C6 = games.get("C6")
HEXLIKE = red_blue("ZZHEX")


# -- parse_when ------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2025.12.27 14:55 北京", ("2025-12-27", "14:55", "北京")),
        ("2017.07.29 14:00 重庆", ("2017-07-29", "14:00", "重庆")),
        ("2025.12.27 14.55 北京", ("2025-12-27", "14:55", "北京")),
        ("2025.09.20 23_22 本地", ("2025-09-20", "23:22", "本地")),
        ("2018-08-03-10:40|安徽大学", ("2018-08-03", "10:40", "安徽大学")),
        ("201808031020|合肥", ("2018-08-03", "10:20", "合肥")),
        ("20180803932", ("2018-08-03", "09:32", None)),
        ("20180803095429", ("2018-08-03", "09:54", None)),
        ("2018-08-04|安徽大学", ("2018-08-04", None, "安徽大学")),
        ("2018/8/3 10:00:00 合肥", ("2018-08-03", "10:00", "合肥")),
        ("2018-8-3-10：40", ("2018-08-03", "10:40", None)),
        ("2018-8-3-9：43 合肥", ("2018-08-03", "09:43", "合肥")),
        ("201808030942安徽大学", ("2018-08-03", "09:42", "安徽大学")),
        ("2018_8_3_11_01_安徽大学", ("2018-08-03", "11:01", "安徽大学")),
        ("20180803", ("2018-08-03", None, None)),
        ("YYYYMMDDhhmm", (None, None, None)),
        ("YYYYMMDDhhmm 北京", (None, None, "北京")),
        ("北京", (None, None, "北京")),
        ("", (None, None, None)),
        ("  2017.07.29 14:00 重庆 ", ("2017-07-29", "14:00", "重庆")),
    ],
)
def test_parse_when(text, expected):
    assert parse_when(text) == expected


def test_parse_when_rejects_impossible_dates_and_times():
    assert parse_when("2025.13.45 北京")[0] is None
    assert parse_when("2025.12.27 25:61 北京")[:2] == ("2025-12-27", None)


def test_parse_when_keeps_the_place_as_written():
    assert parse_when("2017.07.29 14:00 “重庆”赛场")[2] == "“重庆”赛场"


# -- parse_result ----------------------------------------------------------


@pytest.mark.parametrize(
    "words, expected",
    [
        ("先手胜", "first"),
        ("后手胜", "second"),
        ("平局", "draw"),
        ("未决胜", "unknown"),
        ("黑方胜", "first"),
        ("白方胜", "second"),
        ("先手方胜", "first"),
        ("先手方获胜", "first"),
        ("先手获胜", "first"),
        ("# 先手方获胜", "first"),
        ("后手方获胜", "second"),
        ("输赢未定", "unknown"),
        ("和棋", "draw"),
        ("平", "draw"),
        ("1-0", "first"),
        ("0-1", "second"),
        ("1/2-1/2", "draw"),
        ("*", "unknown"),
        (" 先手胜 ", "first"),
        ("先手胜（超时）", "first"),
    ],
)
def test_parse_result_words(words, expected):
    assert parse_result(words, C6, None, None) == (expected, True)


def test_colour_words_follow_the_game_entry():
    assert parse_result("红方胜", HEXLIKE, None, None) == ("first", True)
    assert parse_result("蓝方胜", HEXLIKE, None, None) == ("second", True)
    # Red is no side of connect6.
    assert parse_result("红方胜", C6, None, None) == (None, False)


def test_colour_words_without_a_game_are_recognised_but_not_decided():
    assert parse_result("黑方胜", None, None, None) == (None, True)


@pytest.mark.parametrize(
    "words, first, second, expected",
    [
        ("A1胜出", "A1", "A2", "first"),
        ("A2胜出", "A1", "A2", "second"),
        ("a1 胜出", "A1", "A2", "first"),
        ("Ａ２胜", "A1", "A2", "second"),
        ("沼泽胜", "沼泽", "北理珠", "first"),
        ("北理珠获胜", "沼泽", "北理珠", "second"),
    ],
)
def test_team_name_wins(words, first, second, expected):
    assert parse_result(words, C6, first, second) == (expected, True)


def test_team_name_that_is_neither_team_is_not_recognised():
    assert parse_result("A3胜出", C6, "A1", "A2") == (None, False)


def test_ambiguous_words_are_recognised_without_a_result():
    assert parse_result("先后手胜", C6, None, None) == (None, True)
    assert parse_result("先(后)手胜", C6, None, None) == (None, True)


@pytest.mark.parametrize("words", ["", "赢了", "hello", "2-3"])
def test_unrecognised_words(words):
    assert parse_result(words, C6, "A1", "A2") == (None, False)


# -- names -----------------------------------------------------------------


def test_loose_ignores_width_case_and_spaces():
    assert loose("Ａ２ Team") == loose("a2team") == "a2team"
    assert loose("队 1") == loose("队1")
    assert loose("A1") != loose("A2")


@pytest.mark.parametrize(
    "name, letter, expected",
    [
        ("A2 B", "B", "A2"),
        ("B3 W", "W", "B3"),
        ("先手参赛队 B", "B", "先手参赛队"),
        ("先手参赛队B", "B", "先手参赛队"),  # the standard's file-name example
        ("TeamB", "B", "TeamB"),  # a Latin name keeps its letter
        ("A2 B", "W", "A2 B"),  # not this side's letter
        ("B", "B", ""),  # the letter alone: no name
        ("A2 B", None, "A2 B"),
    ],
)
def test_strip_colour(name, letter, expected):
    assert strip_colour(name, letter) == expected


# -- from_filename ---------------------------------------------------------


def meta(**fields) -> Metadata:
    return Metadata(**fields)


@pytest.mark.parametrize(
    "name, expected",
    [
        (
            "C6-A2 B vs B3 W-后手胜-2025.12.27 14.55 北京-首届北京市大学生“人工智能+”创新大赛.txt",
            meta(code="C6", first="A2", second="B3", result="second", result_text="后手胜",
                 date="2025-12-27", time="14:55", place="北京", event="首届北京市大学生“人工智能+”创新大赛"),
        ),
        (
            "PG-队1 vs 队2-后手胜-2025.09.20 23_22 本地-测试赛.txt",
            meta(code="PG", first="队1", second="队2", result="second", result_text="后手胜",
                 date="2025-09-20", time="23:22", place="本地", event="测试赛"),
        ),
        (
            "SU-A1vsSU2-A2-A1胜出-201808031040.txt",
            meta(code="SU", first="A1", second="SU2-A2", result="first", result_text="A1胜出",
                 date="2018-08-03", time="10:40"),
        ),
        (
            "SU-沼泽vs苏苏苏苏啦-平局--YYYYMMDDhhmm.txt",
            meta(code="SU", first="沼泽", second="苏苏苏苏啦", result="draw", result_text="平局"),
        ),
        (
            "C5-先手参赛队B vs 后手参赛队W-先手胜-2017.07.29 14:00 重庆-2017 CCGC.txt",
            meta(code="C5", first="先手参赛队", second="后手参赛队", result="first", result_text="先手胜",
                 date="2017-07-29", time="14:00", place="重庆", event="2017 CCGC"),
        ),
        (
            "SU-苏拉卡尔塔VS贝壳苏拉-后手胜-201808030932.txt",
            meta(code="SU", first="苏拉卡尔塔", second="贝壳苏拉", result="second", result_text="后手胜",
                 date="2018-08-03", time="09:32"),
        ),
        (
            "SU-北京科技大学-沼泽vs哈理工苏拉卡尔塔-先手胜-201808031404.txt",
            meta(code="SU", first="北京科技大学-沼泽", second="哈理工苏拉卡尔塔", result="first",
                 result_text="先手胜", date="2018-08-03", time="14:04"),
        ),
        (
            "SU-BaGe vs 贝壳苏拉-后手胜-2018_8_3_11_01_安徽大学-苏拉卡尔塔棋.txt",
            meta(code="SU", first="BaGe", second="贝壳苏拉", result="second", result_text="后手胜",
                 date="2018-08-03", time="11:01", place="安徽大学", event="苏拉卡尔塔棋"),
        ),
        (
            "SU-muc_苏vs你这步不队-先手胜-20180803095429.txt",
            meta(code="SU", first="muc_苏", second="你这步不队", result="first", result_text="先手胜",
                 date="2018-08-03", time="09:54"),
        ),
        (  # no result; a word where the result belongs is not a team name
            "SU- 沼泽vs 北理珠-苏拉卡尔塔棋-201808031057  .txt",
            meta(code="SU", first="沼泽", second="北理珠", date="2018-08-03", time="10:57"),
        ),
        (  # the standard's own "result time" form, without a dash
            "SU-SU1vsSU2-先手胜 201802270908.txt",
            meta(code="SU", first="SU1", second="SU2", result="first", result_text="先手胜",
                 date="2018-02-27", time="09:08"),
        ),
        (  # no code prefix
            "A1 vs A2-先手胜-2018.08.03 10:00 合肥.txt",
            meta(first="A1", second="A2", result="first", result_text="先手胜",
                 date="2018-08-03", time="10:00", place="合肥"),
        ),
        ("C6-A vs B.txt", meta(code="C6", first="A", second="B")),
        ("峰回路转.txt", meta()),
        ("", meta()),
        ("---", meta()),
        (".txt", meta()),
    ],
)
def test_from_filename(name, expected):
    assert from_filename(name) == expected


def test_from_filename_ignores_folders():
    assert from_filename("2025/第一轮/C6-A vs B-先手胜.txt") == meta(
        code="C6", first="A", second="B", result="first", result_text="先手胜"
    )


def test_colour_letters_are_stripped_only_for_the_games_own_letters():
    # C6's entry has B for the first side and W for the second.
    named = from_filename("C6-A2 B vs B3 W-先手胜.txt")
    assert (named.first, named.second) == ("A2", "B3")
    swapped = from_filename("C6-A2 W vs B3 B-先手胜.txt")
    assert (swapped.first, swapped.second) == ("A2 W", "B3 B")


def test_result_glued_to_the_second_team_name():
    named = from_filename("SU-北京科技大学-沼泽vs北京工业大学-知行执守黑方胜-201808030942安徽大学-天源迪科杯.txt")
    assert named.first == "北京科技大学-沼泽"
    assert named.second == "北京工业大学-知行执守"
    assert named.result_text == "黑方胜"
    assert (named.date, named.time, named.place, named.event) == ("2018-08-03", "09:42", "安徽大学", "天源迪科杯")


@pytest.mark.parametrize(
    "name",
    ["C6", "C6-", "-vs-", "vs", "C6-vs-先手胜", "WTN-human-alphazero-Thu-Aug-2-20:27:55-2018", "a" * 500, "C6-A vs B-胜-胜-胜"],
)
def test_from_filename_never_raises(name):
    assert isinstance(from_filename(name), Metadata)


# -- merge -----------------------------------------------------------------


HEADER = Metadata(code="C6", first="A2", second="B4", result="second", result_text="后手胜",
                  date="2025-12-27", time="14:55", place="北京", event="首届大赛")


def test_merge_prefers_the_header_and_names_both_values():
    named = Metadata(code="C6", first="A2", second="B3", result="second", result_text="后手胜",
                     date="2025-12-27", time="14:55", place="北京", event="首届大赛")
    merged, diagnostics = merge("C6/x.txt", HEADER, named)
    assert merged.second == "B4"
    assert [d.code for d in diagnostics] == ["META-W002"]
    d = diagnostics[0]
    assert d.message == 'file name says second team "B3", header says "B4"; using the header'
    assert (d.path, d.line, d.column, d.severity) == ("C6/x.txt", 1, 1, "warning")


def test_merge_compares_names_loosely():
    named = Metadata(first="ａ２", second="b 4", place=" 北京", event="首届大赛")
    merged, diagnostics = merge("x.txt", HEADER, named)
    assert diagnostics == []
    assert (merged.first, merged.second) == ("A2", "B4")


def test_result_disagreement_has_its_own_code():
    named = Metadata(result="first", result_text="先手胜")
    merged, diagnostics = merge("x.txt", HEADER, named)
    assert [d.code for d in diagnostics] == ["META-W003"]
    assert "先手胜" in diagnostics[0].message and "后手胜" in diagnostics[0].message
    assert (merged.result, merged.result_text) == ("second", "后手胜")


def test_a_header_that_leaves_the_result_undecided_gives_way_to_the_file_name():
    # A GUI writes 输赢未定 in the header before the game ends; the file is named after the result.
    header = Metadata(code="AM", first="A", second="B", result="unknown", result_text="输赢未定")
    merged, diagnostics = merge("x.txt", header, Metadata(result="first", result_text="先手胜"))
    assert (merged.result, merged.result_text) == ("first", "先手胜")
    assert [(d.code, d.severity) for d in diagnostics] == [("META-N001", "note")]
    assert "输赢未定" in diagnostics[0].message and "先手胜" in diagnostics[0].message
    # Both undecided, or no result in the name: nothing to say, the header stands.
    for named in (Metadata(result="unknown", result_text="未决胜"), Metadata()):
        merged, diagnostics = merge("x.txt", header, named)
        assert merged.result == "unknown" and diagnostics == []


def test_same_result_in_other_words_is_no_disagreement():
    _, diagnostics = merge("x.txt", HEADER, Metadata(result="second", result_text="白方胜"))
    assert diagnostics == []


def test_date_and_time_are_compared_as_values():
    _, same = merge("x.txt", HEADER, Metadata(date="2025-12-27", time="14:55"))
    assert same == []
    merged, later = merge("x.txt", HEADER, Metadata(date="2025-12-27", time="15:15"))
    assert [d.code for d in later] == ["META-W004"]
    assert "15:15" in later[0].message and "14:55" in later[0].message
    assert merged.time == "14:55"


def test_a_time_is_not_borrowed_from_another_day():
    header = Metadata(date="2018-08-03")
    merged, diagnostics = merge("x.txt", header, Metadata(date="2018-08-04", time="10:00"))
    assert (merged.date, merged.time) == ("2018-08-03", None)
    assert [d.code for d in diagnostics] == ["META-W004"]
    merged, _ = merge("x.txt", header, Metadata(date="2018-08-03", time="10:00"))
    assert merged.time == "10:00"


def test_file_name_and_folder_fill_what_the_header_lacks():
    header = Metadata(code="C6", first="A2")
    named = Metadata(second="B3", result="first", result_text="先手胜", date="2025-12-27")
    folder = Metadata(event="首届大赛", place="北京", second="ignored")
    merged, diagnostics = merge("x.txt", header, named, folder)
    assert merged == Metadata(code="C6", first="A2", second="B3", result="first", result_text="先手胜",
                              date="2025-12-27", place="北京", event="首届大赛")
    assert diagnostics == []


def test_unrecognised_header_result_gives_way_to_the_file_name():
    header = Metadata(result=None, result_text="胜负难料")
    merged, diagnostics = merge("x.txt", header, Metadata(result="first", result_text="先手胜"))
    assert (merged.result, merged.result_text) == ("first", "先手胜")
    assert diagnostics == []


def test_other_disagreements_each_have_a_code():
    named = Metadata(code="C5", first="A9", place="上海", event="另一赛事", date="2025-12-28")
    _, diagnostics = merge("x.txt", HEADER, named)
    assert sorted(d.code for d in diagnostics) == ["META-W001", "META-W002", "META-W004", "META-W005", "META-W006"]


def test_dates_in_other_scripts_digits_are_not_read_as_dates() -> None:
    # Full-width digits are what Chinese input methods type: read. Arabic-Indic ones no record tool writes.
    assert from_filename("C5-甲 vs 乙-先手胜-２０２５.０８.０２ １４.００ 合肥-赛事.txt").date == "2025-08-02"
    odd = from_filename("C5-甲 vs 乙-先手胜-٢٠٢٥.٠٨.٠٢ ١٤.٠٠ 合肥-赛事.txt")
    assert odd.date is None and odd.time is None

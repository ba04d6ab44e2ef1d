"""Reading Surakarta records: the standard's lines and every real-world variant.

Own records cover each variant named in the issue; the corpus tests (skipped
without ../shared) read the 16 real files end to end through the pipeline.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import formats
from generator.model import Source, Text
from generator.pipeline import process, sha256

BOARD = "!BBBBBB\n!BBBBBB\n!000000\n!000000\n!RRRRRR\n!RRRRRR\n"


def read(text: str, name: str = "SU-甲队vs乙队-先手胜-201808031040.txt"):
    return formats.read(Text(name, text, "utf-8"), "SU" if name.startswith("SU-") else None)


def run(data: bytes | str, name: str = "g/SU-甲队vs乙队-先手胜-201808031040.txt"):
    raw = data.encode("gbk") if isinstance(data, str) else data
    return process(Source(name, raw, sha256(raw)), encoding=None, options={})


def codes(found) -> list[str]:
    return sorted(d.code for d in found)


def test_the_standards_example_reads_and_replays():
    text = (
        "#2017-11-30-20:55 中国棋院\n#先手方: 苏拉卡尔塔 1 队 | 后手方: 苏拉卡尔塔 2 队 | 未决胜\n" + BOARD
        + "B2E-3E\nR5E-4D\nB2C-3C\nR5B-4B\n# 未分出胜负\n"
    )
    record = read(text)
    h = record.header
    assert (record.code, h.first, h.second, h.result) == ("SU", "苏拉卡尔塔 1 队", "苏拉卡尔塔 2 队", "unknown")
    assert (h.date, h.time, h.place) == ("2017-11-30", "20:55", "中国棋院")
    assert [m.text for m in record.moves] == ["B2E-3E", "R5E-4D", "B2C-3C", "R5B-4B"]
    assert record.moves[0].point == ("E", 2) and record.moves[0].to == ("E", 3)
    assert record.setup == ["BBBBBB"] * 2 + ["000000"] * 2 + ["RRRRRR"] * 2
    assert record.moves[-1].comment == "未分出胜负"
    assert not [d for d in record.diagnostics if d.severity != "note"]


@pytest.mark.parametrize(
    "line, date, time, place",
    [
        ("#2018-08-03-10:40|安徽大学 ", "2018-08-03", "10:40", "安徽大学"),
        ("#201808030942|安徽大学", "2018-08-03", "09:42", "安徽大学"),
        ("#20180803932|安徽大学", "2018-08-03", "09:32", "安徽大学"),
        ("#2018-8-3-9：43|安徽大学", "2018-08-03", "09:43", "安徽大学"),
        ("#2018-08-04|安徽大学", "2018-08-04", None, "安徽大学"),
        ("#2018-08-03-10:15 |北京信息科技大学", "2018-08-03", "10:15", "北京信息科技大学"),
        ("#20180803095429|CCGC", "2018-08-03", "09:54", "CCGC"),
    ],
)
def test_time_and_place_variants(line, date, time, place):
    h = read(f"{line}\n#先手方:甲|后手方:乙|先手胜\n{BOARD}B2E-3E\n").header
    assert (h.date, h.time, h.place) == (date, time, place)


@pytest.mark.parametrize(
    "teams_line, first, second, result",
    [
        ("#先手方:A1|后手方:A2|A1胜出", "A1", "A2", "first"),
        ("#先手方:八哥 | 后手方:苏拉卓尔 | 先手胜", "八哥", "苏拉卓尔", "first"),
        ("#先手方峰回路转|后手方:苏拉卡尔塔博弈|未决胜", "峰回路转", "苏拉卡尔塔博弈", "unknown"),
        ("#先手方：苏拉卡尔塔|后手方：贝壳苏拉|后手胜", "苏拉卡尔塔", "贝壳苏拉", "second"),
        ("#先手方:沼泽|后手方:知行|黑方胜", "沼泽", "知行", "first"),
        ("#先手方:沼泽|后手方:知行|先后手胜", "沼泽", "知行", None),
    ],
)
def test_teams_line_variants(teams_line, first, second, result):
    h = read(f"#2018-08-03-10:40|合肥\n{teams_line}\n{BOARD}B2E-3E\n").header
    assert (h.first, h.second, h.result) == (first, second, result)


def test_colour_words_follow_the_first_mover():
    """黑方胜 names the second player when red moved first."""
    text = "#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙|黑方胜\n" + BOARD + "R5C-4D\nB2B-3B\n"
    assert read(text).header.result == "second"


def test_result_only_in_the_closing_comment():
    text = "#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙\n" + BOARD + "B2E-3E\nR5E-4D\n# 先手方获胜"
    record = read(text)
    assert record.header.result == "first"


def test_closing_comment_contradicting_the_header_is_a_warning():
    text = "#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙|后手胜\n" + BOARD + "B2E-3E\n#先手胜\n"
    record = read(text)
    assert record.header.result == "second"
    assert "FMT-W205" in codes(record.diagnostics)


@pytest.mark.parametrize("written", ["B4AX6C", "B4Ax6C", "B4A×6C", "B 4A x 6C", "B4A X 6C", "Ｂ４Ａ×６Ｃ"])
def test_capture_signs_and_spaces(written):
    record = read(f"#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙|先手胜\n{written}\n")
    move = record.moves[0]
    assert (move.point, move.to, move.capture, move.text) == (("A", 4), ("C", 6), True, "B4AX6C")


def test_plain_dash_is_kept_as_written():
    move = read("#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙|先手胜\nB2B - 6B\n").moves[0]
    assert (move.capture, move.text) == (False, "B2B-6B")


def test_rows_counted_from_zero_are_shifted_with_a_warning():
    record = read("#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙|先手胜\nB1B - 2A\nR4F - 3E\nB0B x 4A\n")
    assert [m.text for m in record.moves] == ["B2B-3A", "R5F-4E", "B1BX5A"]
    assert "FMT-W203" in codes(record.diagnostics)


def test_unreadable_move_does_not_lose_the_rest():
    record = read("#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙|先手胜\n" + BOARD + "B2E-3E\nR5E4\nB2C-3C\n")
    assert [m.point is not None for m in record.moves] == [True, False, True]
    bad = [d for d in record.diagnostics if d.code == "FMT-E201"]
    assert bad and (bad[0].line, bad[0].column) == (10, 1)


# Unicode digits: NFKC read "¹" and "①" as 1, and \d with int() read "٣" as
# 3. Full-width digits (and letters) are read as ASCII, with a note.
@pytest.mark.parametrize("written", ["R5E-٤D", "R5E-¹D", "R⁵E-4D", "R5E-①D", "R5E-𝟒D", "R۵E-4D"])
def test_a_row_in_non_ascii_digits_cannot_be_read(written: str):
    record = read("#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙|先手胜\n" + BOARD + f"B2E-3E\n  {written}\nB2C-3C\n")
    assert [m.point is not None for m in record.moves] == [True, False, True]
    [bad] = [d for d in record.diagnostics if d.severity == "error"]
    assert (bad.code, bad.line, bad.column) == ("FMT-E201", 10, 3)


def test_full_width_digits_are_read_as_ascii_with_a_note():
    record = read("#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙|先手胜\n" + BOARD + "B2E-3E\nR５E－４D\n")
    assert [m.text for m in record.moves] == ["B2E-3E", "R5E-4D"]
    assert [(d.code, d.line, d.column) for d in record.diagnostics] == [("FMT-N201", 10, 1)]


def test_the_replay_stops_at_an_arabic_indic_row_with_a_note_at_the_same_place():
    text = "#2018-08-03-10:40|合肥\n#先手方:甲队|后手方:乙队|先手胜\n" + BOARD + "B2E-3E\nR5E-٤D\nB2C-3C\n"
    p = run(text.encode("utf-8"))  # GBK has no Arabic-Indic digits
    assert [(d.code, d.line, d.column) for d in p.diagnostics if d.code.startswith(("FMT", "RULE", "REC"))] == [
        ("FMT-E201", 10, 1),
        ("RULE-N001", 10, 1),
    ]
    assert p.plies == 1


def test_a_board_row_of_superscript_zeros_is_not_an_empty_row():
    board = BOARD.replace("!000000\n!000000", "!⁰⁰⁰⁰⁰⁰\n!000000")
    record = read("#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙|先手胜\n" + board + "B2E-3E\n")
    assert [(d.code, d.line) for d in record.diagnostics] == [("FMT-W202", 5)]


def test_missing_board_block_and_truncated_file():
    record = read("#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙|后手胜\nB2E-3E\nR5E-4D")
    assert record.setup is None and len(record.moves) == 2


def test_files_without_prefix_or_result_in_the_name_are_recognised():
    text = "#2018-08-04|安徽大学\n#先手方:沼泽|后手方:峰回路转|先手胜\n" + BOARD + "R5B-4C\nB2F-3F\n"
    record = formats.read(Text("决赛/8.4/A1-B1/峰回路转.txt", text, "utf-8"), None)
    assert record.code == "SU" and record.header.first == "沼泽"


def test_result_only_in_the_file_name_and_contradicting_it():
    only_name = run("#2018-08-03-10:40|合肥\n#先手方:甲队|后手方:乙队\n" + BOARD + "B2E-3E\n")
    assert only_name.declared == "first"
    contradicting = run("#2018-08-03-10:40|合肥\n#先手方:甲队|后手方:乙队|后手胜\n" + BOARD + "B2E-3E\n")
    assert contradicting.declared == "second"
    assert "META-W003" in codes(contradicting.diagnostics)


def test_gbk_crlf_and_utf8_bom_files():
    text = "#2018-08-03-10:40|合肥\r\n#先手方:甲队|后手方:乙队|先手胜\r\n" + BOARD.replace("\n", "\r\n") + "B2E-3E\r\n"
    for data in (text.encode("gbk"), "\ufeff".encode() + text.encode("utf-8")):
        p = run(data)
        assert (p.meta.first, p.plies) == ("甲队", 1)


# -- the real corpus ----------------------------------------------------------------


def corpus_runs(corpus: Path):
    for path in sorted((corpus / "SU").glob("*.txt")):
        data = path.read_bytes()
        yield path.name, process(Source(f"SU/{path.name}", data, sha256(data)), encoding=None, options={})


def test_every_corpus_record_is_read_as_surakarta(corpus):
    runs = dict(corpus_runs(corpus))
    assert len(runs) == 16
    for name, p in runs.items():
        assert p.code == "SU", name
        assert p.meta.first and p.meta.second, name
        assert p.record is not None and p.record.moves, name
        assert not [d for d in p.diagnostics if d.code.startswith(("FMT-E", "REC-"))], (name, p.diagnostics)


def test_corpus_teams_results_and_times(corpus):
    runs = dict(corpus_runs(corpus))
    p = runs["SU_03_A1vsA2_trailing_spaces.txt"]
    assert (p.meta.first, p.meta.second, p.declared) == ("A1", "A2", "first")
    assert p.replay.first_letter == "R"  # red moves first in this file
    p = runs["SU_05_ts12_heifangsheng.txt"]
    assert (p.declared, p.meta.date, p.meta.time) == ("first", "2018-08-03", "09:42")
    p = runs["SU_13_bom_11digit_time_fw_colon.txt"]
    assert (p.meta.first, p.meta.time) == ("苏拉卡尔塔", "09:32")
    p = runs["SU_15_date_only_red_first.txt"]
    assert (p.meta.date, p.meta.time, p.replay.first_letter) == ("2018-08-04", None, "R")
    p = runs["SU_16_truncated_6_moves.txt"]
    assert (p.plies, p.declared, p.computed) == (6, "second", None)


def test_corpus_captures_written_with_a_dash_replay(corpus):
    p = dict(corpus_runs(corpus))["SU_05_ts12_heifangsheng.txt"]
    assert p.replay.not_replayed == []
    assert "RULE-N202" in codes(p.diagnostics)

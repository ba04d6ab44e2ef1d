"""The {[C5]…} family reader and the format dispatcher."""

from __future__ import annotations

import codecs
import hashlib
import json
from pathlib import Path

import pytest
from conftest import red_blue

from generator import formats, games
from generator.decode import decode, line_starts
from generator.formats import brace
from generator.games import GameType
from generator.metadata import from_filename, merge
from generator.model import Move, Source, Text

C5 = games.get("C5")
C6 = games.get("C6")
HEXLIKE = red_blue("HEX")

SPEC_C5 = (
    "{[C5][先手参赛队 B][后手参赛队 W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];"
    "B (J,10)MARK[1];W(L,10);B(J,11);W(I,12);B(H,10);W(H,8);B(K,8)}"
)
SPEC_C6 = (
    "{[C6][先手参赛队 B][后手参赛队 W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];"
    "B (J,10)MARK[1];W(I,11);W(I,9);B(K,9);B(K,11);W(K,10);W(I,10);B(J,11);B(J,9)}"
)
SPEC_HEX = (
    "{[HEX][先手参赛队 R][后手参赛队 B][先手胜][2017.07.29 14:00 重庆][2017 CCGC];"
    " R(E,7)MARK[1];B(E,6);R(F,7);B(G,7);R(D,6);B(F,6);R(C,6);B(G,6)}"
)


def text_of(raw: str, path: str = "game.txt") -> Text:
    return Text(path, raw, "utf-8", line_starts(raw))


def parse(raw: str, game: GameType | None = C6):
    return brace.parse(text_of(raw), game)


def codes(record) -> list[str]:
    return [d.code for d in record.diagnostics]


def errors(record) -> list:
    return [d for d in record.diagnostics if d.severity == "error"]


def head(moves: str, header: str = "[C6][A2 B][B3 W][后手胜][2025.12.27 14:55 北京][测试赛]") -> str:
    return "{" + header + ";" + moves + "}"


# -- the standard's examples -----------------------------------------------


def test_spec_example_c5():
    record = parse(SPEC_C5, C5)
    assert record.code == "C5"
    h = record.header
    assert (h.code, h.first, h.second) == ("C5", "先手参赛队", "后手参赛队")
    assert (h.result, h.result_text) == ("first", "先手胜")
    assert (h.date, h.time, h.place, h.event) == ("2017-07-29", "14:00", "重庆", "2017 CCGC")
    assert [m.text for m in record.moves] == ["B(J,10)", "W(L,10)", "B(J,11)", "W(I,12)", "B(H,10)", "W(H,8)", "B(K,8)"]
    assert record.moves[0] == Move("B", "B(J,10)", ("J", 10), 1, SPEC_C5.index("B (J") + 1, mark=1)
    assert [m.mark for m in record.moves[1:]] == [None] * 6
    assert record.diagnostics == []


def test_spec_example_c6():
    record = parse(SPEC_C6, C6)
    assert len(record.moves) == 9
    assert [m.side for m in record.moves] == list("BWWBBWWBB")
    assert record.moves[-1].point == ("J", 9)
    assert record.diagnostics == []


def test_spec_example_hex_uses_the_games_own_letters():
    record = parse(SPEC_HEX, HEXLIKE)
    assert (record.header.first, record.header.second) == ("先手参赛队", "后手参赛队")
    assert [m.side for m in record.moves] == list("RBRBRBRB")
    assert record.moves[0].point == ("E", 7)
    assert record.diagnostics == []


def test_a_side_the_game_does_not_have_is_an_error():
    record = parse(SPEC_HEX.replace("B(F,6)", "W(F,6)"), HEXLIKE)
    assert codes(record) == ["FMT-E103"]
    bad = record.moves[5]
    assert (bad.side, bad.text, bad.point) == ("W", "W(F,6)", None)
    assert "Hex" in record.diagnostics[0].message and "R or B" in record.diagnostics[0].message


# -- real-world variants ---------------------------------------------------


def test_one_line_gbk_record_without_final_newline():
    raw = (
        "{[C6][A2 B][B3 W][后手胜][2025.12.27 14:55 北京][首届北京市大学生“人工智能+”创新大赛];"
        "B(J,10)MARK[1];W(H,10)MARK[-1];W(H,9)MARK[-2];B(I,11)}"
    )
    data = raw.encode("gbk")
    text, decoding = decode(Source("C6/a.txt", data, hashlib.sha256(data).hexdigest()))
    assert decoding == [] and text.encoding == "gb18030"
    record = formats.read(text, None)
    assert record.code == "C6"
    assert (record.header.first, record.header.second, record.header.result) == ("A2", "B3", "second")
    assert record.header.event == "首届北京市大学生“人工智能+”创新大赛"
    assert [m.mark for m in record.moves] == [1, -1, -2, None]
    assert record.moves[1].column == raw.index("W(H,10)") + 1
    assert record.diagnostics == []


def test_one_move_per_line_with_positions():
    raw = "{[C6][A B][C W][先手胜][2025.12.27 14:55 北京][赛]\r\n;B(J,10);\r\n  W(K,10) MARK[2];\r\nw(k,11);\r\n}\r\n"
    record = parse(raw)
    assert [(m.line, m.column) for m in record.moves] == [(2, 2), (3, 3), (4, 1)]
    assert [m.text for m in record.moves] == ["B(J,10)", "W(K,10)", "W(K,11)"]
    assert record.moves[1].mark == 2
    assert record.diagnostics == []


def test_lowercase_letters_and_spaces_inside_moves():
    record = parse(head("b ( j , 10 ) mark[ -1 ];W(k,9)"))
    assert [(m.side, m.text, m.point, m.mark) for m in record.moves] == [
        ("B", "B(J,10)", ("J", 10), -1),
        ("W", "W(K,9)", ("K", 9), None),
    ]
    assert record.diagnostics == []


def test_trailing_semicolon_and_empty_entries_are_fine():
    record = parse(head("B(J,10);;W(K,10);"))
    assert len(record.moves) == 2
    assert record.diagnostics == []


def test_full_width_punctuation_gives_one_note_at_the_first_place():
    raw = "｛［C6］［A B］［C W］［先手胜］［2017.07.29 14：00 重庆］［“赛”］；B（J，10）；W(K,10)；B(J,11)｝"
    record = parse(raw)
    assert [m.text for m in record.moves] == ["B(J,10)", "W(K,10)", "B(J,11)"]
    assert record.moves[0].column == raw.index("B（") + 1
    assert codes(record) == ["FMT-N101"]
    note = record.diagnostics[0]
    assert note.severity == "note"
    assert (note.line, note.column) == (1, 1)
    assert "（" in note.message and "；" in note.message
    # The colon inside the time is text of a field, read by parse_when, not syntax.
    assert "：" not in note.message
    assert record.header.time == "14:00"
    assert record.header.event == "“赛”"  # full-width quotes are just text


def test_ideographic_space_counts_as_full_width():
    record = parse(head("B(J,10);\u3000W(K,10)"))
    assert len(record.moves) == 2
    assert codes(record) == ["FMT-N101"]
    assert "ideographic space" in record.diagnostics[0].message


def test_text_after_the_closing_brace_is_a_warning():
    raw = head("B(J,10)") + "\n广告：欢迎访问"
    record = parse(raw)
    assert len(record.moves) == 1
    assert codes(record) == ["FMT-W104"]
    assert record.diagnostics[0].line == 2


def test_missing_closing_brace_warns_that_the_record_may_be_truncated():
    record = parse(head("B(J,10);W(K,10);B(L,")[:-1])
    assert codes(record) == ["FMT-E102", "FMT-W103"]
    assert "truncated" in record.diagnostics[1].message
    assert [m.point for m in record.moves] == [("J", 10), ("K", 10), None]


def test_missing_header_fields_are_warned_and_what_is_there_is_read():
    record = parse("{[C6][A B][C W][先手胜];B(J,10)}")
    assert codes(record) == ["FMT-W105"]
    assert "time place" in record.diagnostics[0].message and "event" in record.diagnostics[0].message
    assert (record.header.first, record.header.second, record.header.result) == ("A", "C", "first")
    assert record.header.date is None
    assert len(record.moves) == 1


def test_extra_header_fields_are_warned_and_ignored():
    record = parse("{[C6][A B][C W][先手胜][2017.07.29 14:00 重庆][赛][第3轮];B(J,10)}")
    assert codes(record) == ["FMT-W105"]
    assert "[第3轮]" in record.diagnostics[0].message
    assert record.header.event == "赛"


def test_empty_team_names_are_no_names():
    record = parse("{[C6][][ W][先手胜][2017.07.29 14:00 重庆][赛];B(J,10)}")
    assert (record.header.first, record.header.second) == (None, None)
    assert record.diagnostics == []


def test_header_without_a_game_code():
    record = formats.read(text_of("{[A B][C W][后手胜][2017.07.29 14:00 重庆][赛];B(J,10)}"), "C6")
    assert record.code == "C6"
    assert codes(record) == ["FMT-W111"]
    assert (record.header.first, record.header.second, record.header.result) == ("A", "C", "second")
    assert record.header.event == "赛"


def test_unrecognised_result_words_are_kept_and_warned():
    record = parse(head("B(J,10)", "[C6][A B][C W][胜负难料][2017.07.29 14:00 重庆][赛]"))
    assert codes(record) == ["META-W007"]
    assert (record.header.result, record.header.result_text) == (None, "胜负难料")
    assert record.diagnostics[0].column == len("{[C6][A B][C W][") + 1


def test_colour_words_as_result():
    record = parse(head("B(J,10)", "[C6][A B][C W][白方胜][2017.07.29 14:00 重庆][赛]"))
    assert record.header.result == "second"


# -- moves that cannot be read ---------------------------------------------


@pytest.mark.parametrize(
    "bad, hint",
    [
        ("B(J,)", "(column letter,row number)"),
        ("X(J,10)", "not a side"),
        ("B(10,J)", "column letter comes first"),
        ("B(JJ,10)", "(column letter,row number)"),
        ("(J,10)", "no side letter"),
        ("garbage", "cannot read"),
        ("B(J,10", "cannot read"),
    ],
)
def test_a_bad_move_in_the_middle_is_kept_and_reading_goes_on(bad, hint):
    raw = head(f"B(J,10);W(K,10);\n  {bad};W(K,11);B(L,12)")
    record = parse(raw)
    assert [m.point for m in record.moves] == [("J", 10), ("K", 10), None, ("K", 11), ("L", 12)]
    odd = record.moves[2]
    assert odd.text == bad
    assert (odd.line, odd.column) == (2, 3)
    [error] = errors(record)
    assert error.code in ("FMT-E102", "FMT-E103")
    assert (error.line, error.column) == (2, 3)
    assert hint in error.message
    assert error.path == "game.txt"


# Unicode digits: \d and int() read "٣" and "𝟑" as 3, so B(J,٣) used to be
# the stone J3; coordinates are ASCII digits only.
@pytest.mark.parametrize("row", ["¹", "٣", "３", "１０", "𝟑", "①", "1٣", "1234", pytest.param("9" * 5000, id="5000-digits")])
def test_a_row_in_anything_but_one_to_three_ascii_digits_cannot_be_read(row: str):
    raw = head(f"B(J,10);\n  W(K,{row});B(L,12)")
    record = parse(raw)
    [error] = errors(record)
    assert (error.code, error.line, error.column) == ("FMT-E102", 2, 3)
    assert [m.point for m in record.moves] == [("J", 10), None, ("L", 12)]


def test_a_unicode_digit_row_stops_the_replay_there_with_a_note_at_the_same_place():
    from generator.pipeline import process, sha256

    data = head("B(J,10);\nW(K,٣);B(L,12)", "[C6][A2 B][B3 W][后手胜][2025.12.27 14:55 北京][测试赛]").encode("utf-8")
    p = process(Source("C6-A2 vs B3-后手胜.txt", data, sha256(data)), encoding=None, options={})
    assert [(d.code, d.line, d.column) for d in p.diagnostics if d.code.startswith(("FMT", "RULE", "REC"))] == [
        ("FMT-E102", 2, 1),
        ("RULE-N001", 2, 1),
    ]
    assert p.plies == 1 and [m.text for m in p.replay.not_replayed] == ["W(K,٣)", "B(L,12)"]


@pytest.mark.parametrize("mark", ["٣", "３", "¹", "1_0", pytest.param(" 9" + "9" * 5000, id="5000-digits")])
def test_a_mark_in_anything_but_ascii_digits_is_a_warning_and_left_out(mark: str):
    before = "{[C6][A2 B][B3 W][后手胜][2025.12.27 14:55 北京][测试赛];B(J,10)"
    record = parse(f"{before}MARK[{mark}];W(K,10)MARK[-2]}}")
    assert codes(record) == ["FMT-W107"]
    assert record.diagnostics[0].column == len(before) + 1
    assert [m.mark for m in record.moves] == [None, -2]


def test_a_side_letter_must_be_ascii():
    record = parse(head("B(J,10);Ｗ(K,10);B(L,12)"))
    [error] = errors(record)
    header = "{[C6][A2 B][B3 W][后手胜][2025.12.27 14:55 北京][测试赛];"
    assert (error.code, error.column) == ("FMT-E103", len(header + "B(J,10);") + 1)
    assert [m.point for m in record.moves] == [("J", 10), None, ("L", 12)]


def test_every_bad_move_is_reported():
    record = parse(head("B(J,);W(K,10);B(,);W(K,11)"))
    assert [d.code for d in errors(record)] == ["FMT-E102", "FMT-E102"]
    assert [m.point is None for m in record.moves] == [True, False, True, False]


def test_unknown_annotation_is_kept_as_a_comment():
    record = parse(head("B(J,10)C[好棋];W(K,10)MARK[1]C[妙];B(L,10)"))
    assert [m.comment for m in record.moves] == ["C[好棋]", "C[妙]", None]
    assert record.moves[1].mark == 1
    assert codes(record) == ["FMT-W108"]  # one warning per annotation name
    assert "2 times" in record.diagnostics[0].message


def test_mark_that_is_not_a_number():
    record = parse(head("B(J,10)MARK[好];W(K,10)MARK[1.5];B(L,10)MARK[2]"))
    assert [m.mark for m in record.moves] == [None, None, 2]
    assert [m.point for m in record.moves] == [("J", 10), ("K", 10), ("L", 10)]
    assert codes(record) == ["FMT-W107", "FMT-W107"]


def test_moves_without_semicolons_are_read_with_one_warning():
    record = parse(head("B(J,10)\nW(K,10)\nW(K,11)"))
    assert [m.text for m in record.moves] == ["B(J,10)", "W(K,10)", "W(K,11)"]
    assert codes(record) == ["FMT-W110"]


def test_board_bounds_are_not_the_readers_business():
    record = parse(head("B(Z,99);W(A,0)"))
    assert [m.point for m in record.moves] == [("Z", 99), ("A", 0)]
    assert record.diagnostics == []


def test_no_moves_is_a_warning():
    record = parse(head(""))
    assert record.moves == []
    assert codes(record) == ["FMT-W112"]


def test_a_file_that_is_no_record():
    record = parse("这不是棋谱")
    assert record.moves == []
    assert codes(record) == ["FMT-E101"]


@pytest.mark.parametrize("cut", range(0, len(SPEC_C6) + 1, 3))
def test_every_prefix_of_a_record_parses_without_raising(cut):
    record = parse(SPEC_C6[:cut])
    assert record.path == "game.txt"
    assert all(isinstance(m, Move) for m in record.moves)


@pytest.mark.parametrize(
    "raw",
    [
        "", "{", "}", "{}", "{[", "{[]", "{[C6]", "{;;;}", "{[C6];(((;)))}", "{[C6];B(J,10)MARK[}", "{[C6];B(J,10)C[;}",
        "\n\n\n", "{[C6]\x00;B(J,10)}",
    ],
)
def test_odd_inputs_never_raise(raw):
    record = parse(raw)
    assert record.path == "game.txt"


# -- the dispatcher --------------------------------------------------------


def test_sniff_reads_the_code_as_written():
    assert brace.sniff(SPEC_C5) == "C5"
    assert brace.sniff("\n  ｛［c6］") == "c6"
    assert brace.sniff("([GO9][A][B])") is None
    assert formats.sniff(SPEC_C6) == "C6"


def test_read_uses_the_header_code_before_the_file_name():
    record = formats.read(text_of(SPEC_C5), "C6")
    assert record.code == "C5"


def test_a_file_named_after_another_familys_game_is_read_by_its_header():
    # The file name's family looks first (GO: the SGF reader), finds no header of its own, and the others are asked.
    assert formats.sniff(SPEC_C5, "GO") == "C5"
    assert formats.read(text_of(SPEC_C5), "GO").code == "C5"
    assert formats.sniff(SPEC_C5, "XX") == "C5"  # a code no game has: every family, in order


def test_read_falls_back_to_the_file_names_code():
    record = formats.read(text_of("{[A B][C W];B(J,10)}"), "c6")
    assert record.code == "C6"
    assert record.moves[0].point == ("J", 10)


def test_unknown_game_is_one_error():
    record = formats.read(text_of("just some text"), None)
    assert (record.code, record.moves) == (None, [])
    [d] = record.diagnostics
    assert (d.code, d.severity, d.line, d.column) == ("FMT-E001", "error", 1, 1)
    assert d.message.startswith("not a record of a known game")


@pytest.mark.parametrize("raw, name_code", [("{[ZZ9][A][B];B(J,10)}", None), ("no header", "ZZ9")])
def test_unsupported_game_code_is_one_error(raw, name_code):
    record = formats.read(text_of(raw), name_code)
    assert (record.code, record.moves) == ("ZZ9", [])
    [d] = record.diagnostics
    assert d.code == "FMT-E002"
    assert d.message == "game code ZZ9 is not supported"


# -- the real corpus -------------------------------------------------------

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
# saved name -> (first, second, result, date, time), as both header and original file name say
C6_EXPECTED = {
    "C6_01_A2_vs_B3_houshousheng.txt": ("A2", "B3", "second", "2025-12-27", "14:55"),
    "C6_02_B3_vs_A2_first_move_not_center.txt": ("B3", "A2", "first", "2025-12-27", "15:15"),
    "C6_03_B3_vs_B1_short.txt": ("B3", "B1", "first", "2025-12-27", "11:29"),
    "C6_04_C3_vs_B3.txt": ("C3", "B3", "second", "2025-12-27", "15:44"),
    "C6_05_B1_vs_B3.txt": ("B1", "B3", "second", "2025-12-27", "11:34"),
    "C6_06_B3_vs_C3.txt": ("B3", "C3", "first", "2025-12-27", "15:50"),
}
EVENT = "首届北京市大学生“人工智能+”创新大赛"


def original_names() -> dict[str, str]:
    """Saved name -> the file's original name, from the corpus manifest."""
    names = {}
    manifest = CORPUS / "manifest.jsonl"
    if not manifest.exists():
        return names
    for line in manifest.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        path = entry["path"]
        if path.startswith('"'):  # git's quoted form, with octal escapes of UTF-8 bytes
            path = codecs.escape_decode(path[1:-1].encode("ascii"))[0].decode("utf-8")
        names[entry["saved"]] = path.rsplit("/", 1)[-1]
    return names


def test_corpus_c6_records_read_cleanly():
    folder = CORPUS / "C6"
    if not folder.is_dir():
        pytest.skip("shared corpus not present")
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == sorted(C6_EXPECTED)
    originals = original_names()
    for file in files:
        data = file.read_bytes()
        text, decoding = decode(Source(f"C6/{file.name}", data, hashlib.sha256(data).hexdigest()))
        assert decoding == [], file.name
        named = from_filename(originals.get(file.name, file.name))
        record = formats.read(text, named.code)
        assert errors(record) == [], file.name
        assert record.code == "C6"
        assert record.moves and all(m.point is not None for m in record.moves)
        first, second, result, date, time = C6_EXPECTED[file.name]
        h = record.header
        assert (h.first, h.second, h.result, h.date, h.time, h.place, h.event) == (
            first, second, result, date, time, "北京", EVENT,
        ), file.name
        if file.name in originals:
            assert (named.code, named.first, named.second, named.result, named.date) == (
                "C6", first, second, result, date,
            ), originals[file.name]
            merged, disagreements = merge(record.path, h, named)
            assert disagreements == [], file.name
            assert merged.first == first and merged.result == result

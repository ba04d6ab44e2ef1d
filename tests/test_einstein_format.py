"""Reading WTN (EinStein würfelt nicht) records: the standard's example and the real writers' variants."""

from __future__ import annotations

from generator import formats, games
from generator.formats import einstein
from generator.metadata import from_filename
from generator.model import Source, Text
from generator.pipeline import process_games, sha256

WTN = games.GAMES["WTN"]

# The standard's example (specs/000_…txt, 爱恩斯坦棋棋谱格式说明文档).
EXAMPLE = """#[WTN][先手参赛队 R][后手参赛队 B][后手胜][2017.07.29 14:00 重庆][2017 CCGC];
R:A5-1;B5-2;C5-3;A4-4;B4-5;A3-6
B:E3-1;D2-2;E2-3;C1-4;D1-5;E1-6
1:5;(R5,C3)
2:1;(B1,D4)MARK[3]
3:4;(R4,A3)
4:4;(B4,B2)
"""


def read(text: str, name: str = "x.txt") -> list:
    return formats.read_games(Text(name, text, "utf-8"), "WTN")


def codes(record) -> list[str]:
    return [d.code for d in record.diagnostics]


def test_the_standards_example_is_read_whole() -> None:
    assert einstein.sniff(EXAMPLE) == "WTN" and formats.sniff(EXAMPLE) == "WTN"
    (record,) = read(EXAMPLE)
    meta = record.header
    assert (meta.first, meta.second, meta.result, meta.result_text) == ("先手参赛队", "后手参赛队", "second", "后手胜")
    assert (meta.date, meta.time, meta.place, meta.event) == ("2017-07-29", "14:00", "重庆", "2017 CCGC")
    assert record.setup == ["R:A5-1;B5-2;C5-3;A4-4;B4-5;A3-6", "B:E3-1;D2-2;E2-3;C1-4;D1-5;E1-6"]
    assert record.setup_line == 2 and record.game == 0 and record.line == 1
    moves = record.moves
    assert [m.text for m in moves] == ["5;(R5,C3)", "1;(B1,D4)", "4;(R4,A3)", "4;(B4,B2)"]
    assert [(m.side, m.to, m.parts, m.point) for m in moves[:2]] == [("R", ("C", 3), (5, 5), None), ("B", ("D", 4), (1, 1), None)]
    assert [(m.line, m.column) for m in moves] == [(4, 1), (5, 1), (6, 1), (7, 1)]
    # MARK[3] is 一般 (1 大劣 … 5 大好): the pages' common scale, where 0 is 一般.
    assert [m.mark for m in moves] == [None, 0, None, None]
    assert record.diagnostics == []
    marked = EXAMPLE.replace("3:4;(R4,A3)", "3:4;(R4,A3)MARK[1]").replace("4:4;(B4,B2)", "4:4;(B4,B2) MARK[5];")
    assert [m.mark for m in read(marked)[0].moves] == [None, 0, -2, 2]


def test_the_general_zero_writers_files_are_read_as_they_are() -> None:
    # corpus/WTN_01: no header but the file's own path, "R: …;" with a space and a trailing ";",
    # moves from square to square, the teams and the winner only in that path.
    text = (
        "./chess_log/WTN-human-alphazero-alphazero-Thu-Aug-2-20:27:55-2018-2018CCGC\n"
        "R: A5-1;B5-2;C5-3;A4-4;B4-5;A3-6;\n"
        "B: E3-1;D2-2;E2-3;C1-4;D1-5;E1-6;\n"
        "1:1;(A5,B4)\n2:2;(D2,C2)\n"
    )
    assert formats.sniff(text) == "WTN"
    (record,) = read(text)
    meta = record.header
    assert (meta.first, meta.second, meta.result, meta.date, meta.time, meta.event) == (
        "human", "alphazero", "second", "2018-08-02", "20:27", "2018CCGC",
    )
    assert [(m.side, m.point, m.to, m.parts) for m in record.moves] == [
        ("R", ("A", 5), ("B", 4), (1, None)),
        ("B", ("D", 2), ("C", 2), (2, None)),
    ]
    assert record.diagnostics == []


def test_set_ups_in_another_order_with_shuffled_numbers_and_blue_first() -> None:
    text = """#[WTN][蓝队 B][ 红队 R][先手胜][2025.08.02 10:00 合肥][测试赛];
B:E1-3;E2-5;E3-6;D1-1;D2-4;C1-2;
R:A3-4;A4-5;A5-1;B4-3;B5-6;C5-2
1:6;(B6,D4)
2:2;(R2,D4)
"""
    (record,) = read(text)
    meta = record.header
    # A leading space in the team name is no part of it; the first field is the first mover's team.
    assert (meta.first, meta.second, meta.result) == ("蓝队", "红队", "first")
    assert record.setup == ["R:A3-4;A4-5;A5-1;B4-3;B5-6;C5-2", "B:E1-3;E2-5;E3-6;D1-1;D2-4;C1-2"]
    assert [m.side for m in record.moves] == ["B", "R"]
    assert record.diagnostics == []


def test_colour_named_fields_and_a_colour_word_result() -> None:
    # A C++ writer: [红方:team][蓝方:team][蓝方先手][红方胜], the code first; no ";".
    text = """#[WTN][红方:钝角][蓝方:锐角][蓝方先手][红方胜][2022-08-20 10:00:49 成都][2022 CCGC]
R: A5-1;B5-2;C5-3;A4-4;B4-5;A3-6;
B: E3-1;D2-2;E2-3;C1-4;D1-5;E1-6;
1:3;(E2,D3)
"""
    (record,) = read(text)
    meta = record.header
    assert (meta.first, meta.second, meta.result, meta.time, meta.place) == ("锐角", "钝角", "second", "10:00", "成都")
    assert record.moves[0].side == "B" and codes(record) == []


def test_a_match_file_holds_one_record_per_game_in_its_order() -> None:
    second = EXAMPLE.replace("[先手参赛队 R][后手参赛队 B][后手胜]", "[后手参赛队 B][先手参赛队 R][先手胜]").replace(
        "1:5;(R5,C3)\n2:1;(B1,D4)MARK[3]\n3:4;(R4,A3)\n4:4;(B4,B2)\n", "1:6;(B6,D2)\n"
    )
    records = read(EXAMPLE + "\n" + second)
    assert [(r.game, r.line) for r in records] == [(1, 1), (2, 9)]
    assert [len(r.moves) for r in records] == [4, 1]
    assert [r.header.first for r in records] == ["先手参赛队", "后手参赛队"]
    assert records[1].moves[0].line == 12 and records[1].setup_line == 10
    # Games with no header at all: a set-up line after moves starts the next one.
    bare = "R:A5-1;B5-2;C5-3;A4-4;B4-5;A3-6\nB:E3-1;D2-2;E2-3;C1-4;D1-5;E1-6\n1:5;(R5,C3)\n"
    records = read(bare + bare + bare)
    assert [(r.game, r.line, len(r.moves)) for r in records] == [(1, 1, 1), (2, 4, 1), (3, 7, 1)]


def test_results_none_and_a_file_name_with_the_time_glued_to_the_result() -> None:
    text = EXAMPLE.replace("[后手胜]", "[None]")
    name = "WTN-先手参赛队vs后手参赛队-后手胜201707291400.txt"
    meta = from_filename(name)
    assert (meta.first, meta.second, meta.result, meta.date, meta.time) == ("先手参赛队", "后手参赛队", "second", "2017-07-29", "14:00")
    (record,) = read(text, name)
    assert record.header.result is None and codes(record) == ["FMT-N603"]
    data = text.encode("utf-8")
    (done,) = process_games(Source(f"cup/{name}", data, sha256(data)), encoding=None, options={})
    # The file name's result is the game's: declared, and the record stops before the rules decide.
    assert done.meta.result == "second" and done.replay is not None and done.replay.decision is None
    assert not [d for d in done.diagnostics if d.severity == "error"]


def test_every_oddity_is_said_at_its_line_and_column_and_reading_goes_on() -> None:
    text = """＃［WTN］［甲 R］［乙 B］［先手胜］［2025.08.02 10:00 合肥］［赛］；
R:A5-1;B5-2;C5-3;A4-4;B4-5;A3-6
B:E3-1;D2-2;E2-3;C1-4;D1-5;C3-6
1:5;(R5,C3)MARK[9]
3:(B1,D4)
这是注释
4:4;(R4,A3
5:4;(B4,B2)
"""
    (record,) = read(text)
    found = [(d.code, d.line, d.column) for d in record.diagnostics]
    assert ("FMT-W602", 3, 28) in found  # blue's piece 6 set up on C3, outside its corner: used as written
    assert ("FMT-W606", 4, 17) in found  # MARK[9]: EinStein marks run 1-5
    assert ("FMT-W605", 5, 1) in found and ("FMT-W604", 5, 1) in found  # number 3 after 1; no die
    assert ("FMT-N601", 6, 1) in found  # a comment line
    assert ("FMT-E601", 7, 1) in found  # the unclosed move: the rest of the game is not read
    assert ("FMT-N602", 1, 1) in found  # full-width syntax
    assert [m.text for m in record.moves] == ["5;(R5,C3)", "(B1,D4)", "4:4;(R4,A3"]
    assert record.moves[-1].to is None  # unreadable: the replay stops there
    assert record.header.first == "甲" and record.setup[1] == "B:E3-1;D2-2;E2-3;C1-4;D1-5;C3-6"


def test_unusable_or_missing_set_ups_fall_back_to_the_standard_with_an_error() -> None:
    text = "#[WTN][甲 R][乙 B][先手胜][2025.08.02 10:00 合肥][赛];\nR:A5-1;B5-1;C5-3;A4-4;B4-5;A3-6\n1:5;(R5,C3)\n"
    (record,) = read(text)
    found = {d.code: d for d in record.diagnostics}
    assert found["FMT-E602"].line == 2 and "1,1,3,4,5,6" in found["FMT-E602"].message
    assert found["FMT-W601"].line == 1 and "blue" in found["FMT-W601"].message
    assert record.setup == ["R:A5-1;B5-2;C5-3;A4-4;B4-5;A3-6", "B:E3-1;D2-2;E2-3;C1-4;D1-5;E1-6"]


def test_a_header_colour_the_first_move_contradicts_is_a_warning_and_the_moves_win() -> None:
    text = EXAMPLE.replace("1:5;(R5,C3)\n2:1;(B1,D4)MARK[3]\n3:4;(R4,A3)\n4:4;(B4,B2)\n", "1:1;(B1,D4)\n2:5;(R5,C3)\n")
    (record,) = read(text)
    assert codes(record) == ["FMT-W607"] and [m.side for m in record.moves] == ["B", "R"]
    # The first field stays the team that moved first, as the standard defines it.
    assert record.header.first == "先手参赛队"


def test_an_empty_file_and_text_that_is_no_record_do_not_crash() -> None:
    assert [codes(r) for r in read("")] == [["FMT-W601", "FMT-W601", "FMT-W603"]]
    (record,) = read("hello\n(((\n")
    assert "FMT-N601" in codes(record) and record.moves == []
    assert einstein.sniff("#[AM][a][b][先手胜][2019/10/2 c][c];") is None
    assert WTN.params["marks"] == (1, 5)


def test_a_number_of_a_thousand_digits_is_an_unreadable_move_not_a_crash() -> None:
    text = EXAMPLE.replace("3:4;(R4,A3)", "3:" + "4" * 1000 + ";(R4,A3)")
    (record,) = read(text)
    assert [(d.code, d.line, d.column) for d in record.diagnostics] == [("FMT-E601", 6, 1)]
    assert len(record.moves) == 3 and record.moves[-1].to is None  # move 4 comes after the unreadable one
    big = EXAMPLE.replace("R:A5-1;", "R:A5-" + "1" * 1000 + ";")
    assert "FMT-E602" in codes(read(big)[0])

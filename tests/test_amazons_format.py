"""Reading Amazons records (formats/amazons.py): the standard's example, several games a file, real writers' habits."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import formats, games
from generator.formats import amazons as fmt
from generator.model import Source, Text
from generator.pipeline import process_games, sha256

SPEC = Path(__file__).resolve().parents[2] / "shared" / "specs" / "000_f163cbeefea10c02.txt"

# The standard's example, as its scan prints it (the first 40 turns of a real game, 后手胜 declared).
EXAMPLE = """#[AM][北理工马爷 666][知于行][后手胜][2017/7/28 19:28:23 重庆][国赛];
1 d1d8(b6) g10g3(i5)
2 j4f4(c7) a7a5(g5)
3 g1h2(h7) a5c3(a5)
4 a4c4(h9) g3h3(c8)
5 f4f8(f3) d10d9(g9)
6 f8e8(i4) j7j8(j2)
7 d8f6(h8) h3e6(e7)
8 f6h6(j6) c3b2(g7)
9 h6h3(h6) b2c2(g2)
10 h2e5(b2) e6d5(b5)
11 h3g4(j7) c2d3(e4)
12 e5c3(e5) d5f7(h5)
13 g4h3(f5) f7e6(c6)
14 c3e1(e3) j8h10(b10)
15 e8d8(d6) d9c9(c10)
16 d8d9(g6) h10g10(e8)
17 d9f9(d9) e6d5(f7)
18 f9e9(f9) d3c2(c1)
19 e1d2(d1) c2d3(b1)
20 c4b3(c4) d3f1(j1)
21 d2f2(g1) f1e2(e1)
22 b3c3(d4) d5c5(a3)
23 c3b3(b4) e2c2(e2)
24 e9d8(f10) g10i10(j9)
25 h3j3(j5) c2c3(c2)
26 f2g3(i1) c5d5(c5)
27 g3f2(f1) d5e6(f6)
28 f2h4(h2) i10j10(g10)
29 h4g3(f4) j10i9(j8)
30 g3h4(i3) c3d3(c3)
31 b3a2(a1) i9i10(j10)
32 a2b3(a2) i10i9(i6)
33 h4g3(g4) d3d2(d3)
34 g3h4(f2) i9i10(i7)
35 h4h3(g3) i10i9(i8)
36 h3h4(h3) i9i10(i9)
37 b3a4(b3) i10h10(i10)
38 j3i2(h1) e6d7(e6)
39 i2j3(i2) c9b8(d10)
40 j3j4(j3) b8a7(c9)
"""

AM = games.GAMES["AM"]


def read(text: str, name: str = "AM-a vs b.txt") -> list:
    return fmt.parse_games(Text(name, text, "utf-8"), AM)


def codes(record) -> list[str]:
    return [d.code for d in record.diagnostics]


def test_the_example_matches_the_standard_as_scanned() -> None:
    if not SPEC.is_file():
        pytest.skip("../shared/specs is not present")
    spec = SPEC.read_text(encoding="utf-8")
    for line in EXAMPLE.splitlines():
        assert line in spec, line


def test_the_standards_example_is_read_whole() -> None:
    (record,) = read(EXAMPLE)
    assert record.diagnostics == []
    assert (record.game, record.line) == (0, 1)
    meta = record.header
    assert (meta.first, meta.second, meta.result, meta.result_text) == ("北理工马爷 666", "知于行", "second", "后手胜")
    assert (meta.date, meta.time, meta.place, meta.event) == ("2017-07-28", "19:28", "重庆", "国赛")
    assert len(record.moves) == 80
    first, second = record.moves[:2]
    assert (first.side, first.text, first.point, first.to, first.parts) == ("W", "d1d8(b6)", ("d", 1), ("d", 8), (("b", 6),))
    assert (second.side, second.text, second.line, second.column) == ("B", "g10g3(i5)", 2, 12)
    assert [m.side for m in record.moves[:4]] == ["W", "B", "W", "B"]


def test_the_family_names_its_game_from_the_header() -> None:
    assert fmt.sniff(EXAMPLE) == "AM"
    assert fmt.sniff("\r\n\ufeff#[am][a][b][先手胜][2025.1.1 北京][杯];\n") == "AM"
    assert fmt.sniff("{[C5][a][b][先手胜][x][y];B(A,1)}") is None
    # The whole chain finds the family without a file name: SU's reader must not claim "#[AM]…先手…后手".
    text = "#[AM][先手未定][后手未定]后手胜[时间 地点][比赛名称];"
    assert formats.read(Text("棋谱.txt", text, "utf-8"), None).code == "AM"


def test_several_games_in_one_file_each_a_record_at_its_line() -> None:
    text = (
        "\n#[AM][甲][乙][先手胜][2018/8/3 10:00:00 合肥][国赛];\n1 d1d8(b6) g10g3(i5)\n"
        "#[AM][乙][甲][后手胜][2018/8/3 11:00:00 合肥][国赛];\n1 j4i4(h4) d10d4(g4)\n2 g1g2(g3)\n"
    )
    first, second = read(text)
    assert (first.game, first.line, second.game, second.line) == (1, 2, 2, 4)
    assert (first.header.first, first.header.result, second.header.first, second.header.result) == ("甲", "first", "乙", "second")
    assert [m.text for m in first.moves] == ["d1d8(b6)", "g10g3(i5)"]
    assert [(m.text, m.line) for m in second.moves] == [("j4i4(h4)", 5), ("d10d4(g4)", 5), ("g1g2(g3)", 6)]
    assert first.diagnostics == second.diagnostics == []


def test_upper_case_double_spaces_and_free_text_after_the_header() -> None:
    text = "\n#[AM][先手队][后手队][先后手胜][2018/8/3 10:00:00 合肥][国赛]; 知于行执黑后手\n1  J4I4(H4)  D10D4(G4)\n2  \n"
    (record,) = read(text)
    assert [m.text for m in record.moves] == ["j4i4(h4)", "d10d4(g4)"]
    assert record.moves[1].column == 14
    meta = record.header
    # The placeholders are no team; the free text names the team that held black.
    assert (meta.first, meta.second, meta.result, meta.result_text) == (None, "知于行", None, "先后手胜")
    assert codes(record) == ["FMT-N402", "FMT-N402", "FMT-N402", "FMT-N401"]  # two teams, 先后手胜; the remark
    remark = record.diagnostics[-1]
    assert (remark.line, remark.column) == (2, 50) and "知于行执黑后手" in remark.message


def test_a_result_outside_the_brackets_and_a_header_without_moves() -> None:
    (record,) = read("#[AM][先手未定][后手未定]后手胜[时间 地点][比赛名称];")
    assert record.header.result == "second" and record.moves == []
    outside = [d for d in record.diagnostics if d.code == "FMT-W403"]
    assert [(d.line, d.column) for d in outside] == [(1, 18)]
    assert "FMT-W401" in codes(record)
    assert record.header.place is None and record.header.event is None


def test_an_unreadable_move_ends_its_game_only() -> None:
    text = (
        "#[AM][甲][乙][先手胜][2025.3.1 北京][杯];\n1 d1d8(b6) g10g3i5\n2 j4f4(c7) a7a5(g5)\n"
        "#[AM][乙][甲][后手胜][2025.3.1 北京][杯];\n1 d1d8(b6) g10g3(i5)\n"
    )
    first, second = read(text)
    bad = [d for d in first.diagnostics if d.code == "FMT-E401"]
    assert [(d.line, d.column) for d in bad] == [(2, 12)] and "g10g3i5" in bad[0].message
    assert [m.text for m in first.moves] == ["d1d8(b6)", "g10g3i5"] and first.moves[1].point is None
    assert len(second.moves) == 2 and second.diagnostics == []


def test_turn_numbers_out_of_order_and_remarks_are_diagnostics_not_losses() -> None:
    text = "#[AM][甲][乙][先手胜][2025.3.1 北京][杯];\n1 d1d8(b6) g10g3(i5)\n3 j4f4(c7) a7a5(g5)\n超时判负\n先手胜\n"
    (record,) = read(text)
    assert len(record.moves) == 4
    assert [(d.code, d.line, d.column) for d in record.diagnostics] == [("FMT-W405", 3, 1), ("FMT-N403", 4, 1)]
    assert record.moves[-1].comment == "超时判负"


def test_a_trailing_result_serves_where_the_header_has_none() -> None:
    (record,) = read("#[AM][甲][乙][][2025.3.1 北京][杯];\n1 d1d8(b6) g10g3(i5)\n白方胜\n")
    assert record.header.result == "first"  # white is the first player
    (record,) = read("#[AM][甲][乙][后手胜][2025.3.1 北京][杯];\n1 d1d8(b6) g10g3(i5)\n先手胜\n")
    assert record.header.result == "second" and codes(record) == ["FMT-W406"]


def test_full_width_brackets_and_moves_on_the_headers_line() -> None:
    (record,) = read("＃［AM］［甲］［乙］［先手胜］［2025.3.1 北京］［杯］；1 d1d8（b6） g10g3(i5)\n")
    assert record.header.first == "甲" and [m.text for m in record.moves] == ["d1d8(b6)", "g10g3(i5)"]
    assert record.moves[0].column == 36
    assert codes(record) == ["FMT-N404"]


def test_moves_without_a_header_take_the_file_names_teams() -> None:
    data = b"1 d1d8(b6) g10g3(i5)\n"
    (done,) = process_games(Source("cup/AM-甲 vs 乙-先手胜.txt", data, sha256(data)), encoding=None, options={})
    assert done.code == "AM" and (done.meta.first, done.meta.second, done.meta.result) == ("甲", "乙", "first")
    assert "FMT-W404" in [d.code for d in done.diagnostics]
    assert done.replay is not None and len(done.replay.plies) == 2


def test_every_game_of_a_file_is_its_own_processed_game_with_the_file_names_teams() -> None:
    text = (
        "#[AM][甲][乙][先手胜][2025.3.1 北京][杯];\n1 d1d8(b6) g10g3(i5)\n"
        "#[AM][乙][甲][后手胜][2025.3.1 北京][杯];\n1 d1d8(b6) g10g3(i5)\n2 d8d1(d2)\n"
    )
    data = text.encode("gb18030")
    done = process_games(Source("cup/AM-甲 vs 乙.txt", data, sha256(data)), encoding=None, options={})
    assert [d.game for d in done] == [1, 2]
    assert [(d.meta.first, d.meta.second, d.declared) for d in done] == [("甲", "乙", "first"), ("乙", "甲", "second")]
    assert [len(d.replay.plies) for d in done if d.replay] == [2, 3]


def test_separators_words_before_the_moves_and_huge_numbers() -> None:
    head = "#[AM][甲][乙][先手胜][2025.3.1 北京][杯];\n"
    (record,) = read(head + "1. d1d8(b6), g10g3(i5);\n第2回合 j4f4(c7) a7a5(g5)\n")
    assert [m.text for m in record.moves] == ["d1d8(b6)", "g10g3(i5)", "j4f4(c7)", "a7a5(g5)"]
    assert [(d.code, d.line, d.column) for d in record.diagnostics] == [("FMT-N403", 3, 1)]
    # A "turn number" of 6,000 digits is no turn number: words before the move, and the move is read.
    (record,) = read(head + "9" * 6000 + " d1d8(b6)\n")
    assert [d.code for d in record.diagnostics] == ["FMT-N403"] and [m.text for m in record.moves] == ["d1d8(b6)"]


def test_a_dash_between_the_squares_and_spaces_inside_a_move() -> None:
    (record,) = read("#[AM][甲][乙][先手胜][2025.3.1 北京][杯];\n1 d1-d8(b6) g10 g3 ( i5 )\n")
    assert [(m.text, m.column) for m in record.moves] == [("d1d8(b6)", 3), ("g10g3(i5)", 13)]
    assert record.diagnostics == []

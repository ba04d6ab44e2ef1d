"""Reading draughts records (DR10, DR8): the standard's examples and what real writers vary."""

from __future__ import annotations

import pytest

from generator import formats, games
from generator.formats import draughts as fmt
from generator.model import Source, Text
from generator.pipeline import process, sha256

# The standard's DR10 example (specs/002_…txt), as printed.
DR10_EXAMPLE = """
时间：2018.03.10
先手：1
先手方：重庆理工大学 1 队
后手方：重庆理工大学 2 队
结果：*

1. 20-24 33-29
2. 24x33 38x29
3. 18-22 34-30
4. 19-23 29x18x27
5. 17-22 27x18
6. 13x22 30-24
7. 14-20 24-19
8. 10-14 19x10
9. 05x14 35-30
10. 20-25 39-34
11. 15-20 30-24
12. 20x29 34x23
*
"""

DR8_EXAMPLE = """
时间：2018.03.10
先手：1
先手方：重庆理工大学 1 队
后手方：重庆理工大学 2 队
结果：*

1. 12-16 23-19
2. 16x23 26x19
3. 11-16 19x12
4. 08-11 24-19
5. 11-16 31-26
6. 16x23 26x19
7. 10-14 22-18
8. 14x23x16 12x19
*
"""


def read(text: str, code: str = "DR10", name: str = "DR10-甲 vs 乙-平局-2018.03.10 重庆-测试.txt"):
    return formats.read(Text(name, text, "utf-8"), code)


def run(text: str, name: str = "g/DR10-上方队 vs 下方队-平局-2018.03.10 重庆-测试.txt", options: dict | None = None):
    data = text.encode("utf-8")
    return process(Source(name, data, sha256(data)), encoding=None, options=options or {})


def codes(found) -> list[str]:
    return sorted(d.code for d in found)


def test_the_standards_dr10_example_reads():
    record = read(DR10_EXAMPLE)
    h = record.header
    assert (record.code, h.first, h.second, h.result, h.date) == (
        "DR10", "重庆理工大学 1 队", "重庆理工大学 2 队", "draw", "2018-03-10"
    )
    assert len(record.moves) == 24
    assert [m.side for m in record.moves[:4]] == ["B", "W", "B", "W"]
    capture = record.moves[7]
    assert capture.text == "29x18x27" and capture.capture
    assert capture.point == ("", 29) and capture.to == ("", 18) and capture.parts == (("", 27),)
    assert record.moves[16].text == "05x14"
    assert not [d for d in record.diagnostics if d.severity != "note"]


def test_the_standards_dr8_example_reads():
    record = read(DR8_EXAMPLE, "DR8", "DR8-a vs b-平局-2018.03.10.txt")
    assert [m.text for m in record.moves[-2:]] == ["14x23x16", "12x19"]
    assert record.header.result == "draw"


def test_the_upper_side_is_named_by_the_first_team_line_whatever_moves_first():
    # 先手：2: the lower side moves first; 先手方 still names the upper side's team,
    # and 1-0 is a win of the upper side, which here moves second.
    text = DR10_EXAMPLE.replace("先手：1", "先手：2").replace("结果：*", "结果：1-0")
    text = text.split("1. 20-24")[0] + "1. 32-28 19-23\n2. 28x19 14x23\n1-0\n"
    record = read(text)
    h = record.header
    assert [m.side for m in record.moves] == ["W", "B", "W", "B"]
    assert (h.first, h.second, h.result) == ("重庆理工大学 2 队", "重庆理工大学 1 队", "second")


def test_a_missing_first_line_is_told_by_the_first_move():
    text = DR10_EXAMPLE.replace("先手：1\n", "")
    record = read(text)
    assert "FMT-W802" in codes(record.diagnostics)
    assert record.moves[0].side == "B"
    lower_first = read(text.split("1. 20-24")[0] + "1. 32-28 19-23\n")
    assert lower_first.moves[0].side == "W"


def test_a_first_line_the_first_move_contradicts_follows_the_moves():
    text = DR10_EXAMPLE.split("1. 20-24")[0] + "1. 32-28 19-23\n2. 28x19 14x23\n"
    record = read(text)  # says 先手：1, but 32-28 is a lower man's move
    warning = next(d for d in record.diagnostics if d.code == "FMT-W803")
    assert warning.line == 3 and "32-28" in warning.message and "lower" in warning.message
    assert record.moves[0].side == "W"
    done = run(text)
    assert not [d for d in done.diagnostics if d.severity == "error"]
    assert len(done.replay.plies) == 4


def test_what_real_writers_vary_is_read():
    text = (
        "时间:2025.11.22 14:30\n先手:1\n先手方:甲\n后手方:乙\n结果：*\n\n"
        "1.20-24 33-29 2. 24 X 33 38×29\n"  # no space after the round, several rounds on a line, X and ×
        "3. 18-22 {a comment} 34-30\n"
        "4. 19-23 29 x 18 x 27\n"  # the spaced form the standard's own text uses
        "5. 17-22 27x18 6. 13x22 30-24\n"
        "*\n======\n谢谢使用本软件\n"  # advert text after the result
    )
    record = read(text)
    assert [m.text for m in record.moves[:8]] == ["20-24", "33-29", "24x33", "38x29", "18-22", "34-30", "19-23", "29x18x27"]
    assert record.moves[4].comment == "a comment"
    assert (record.header.time, record.header.result) == ("14:30", "draw")
    assert codes(record.diagnostics) == ["FMT-N801"]  # × is full width... and read
    done = run(text)
    assert not [d for d in done.diagnostics if d.severity == "error"], done.diagnostics


def test_words_among_the_moves_are_kept_as_a_comment():
    text = DR10_EXAMPLE.replace("6. 13x22 30-24", "6. 13x22 30-24 (对方超时)").rstrip().removesuffix("*") + "谢谢使用\n"
    record = read(text)
    assert len(record.moves) == 24 and "对方超时" in (record.moves[11].comment or "")
    assert record.moves[-1].comment == "谢谢使用"
    notes = [d for d in record.diagnostics if d.code == "FMT-N802"]
    assert [(d.line, d.severity) for d in notes] == [(13, "note"), (20, "note")]


def test_unpadded_squares_read_as_padded():
    record = read(DR10_EXAMPLE.replace("05x14", "5x14"))
    assert record.moves[16].text == "05x14" and record.moves[16].point == ("", 5)


def test_a_closing_result_that_differs_from_the_header_is_a_warning():
    record = read(DR10_EXAMPLE.rstrip().removesuffix("*") + "1-0\n")
    found = next(d for d in record.diagnostics if d.code == "FMT-W804")
    assert found.line == 20
    assert record.header.result == "draw"


def test_only_a_closing_result_is_used():
    record = read(DR10_EXAMPLE.replace("结果：*\n", "").rstrip().removesuffix("*") + "0-1\n")
    assert record.header.result == "second"


def test_result_words_are_read_in_the_order_of_play():
    assert read(DR10_EXAMPLE.replace("结果：*", "结果：先手胜")).header.result == "first"
    assert read(DR10_EXAMPLE.replace("结果：*", "结果：白方胜")).header.result == "second"
    odd = read(DR10_EXAMPLE.replace("结果：*", "结果：好像赢了"))
    assert "META-W007" in codes(odd.diagnostics) or any("not recognised" in d.message for d in odd.diagnostics)


def test_an_unreadable_move_stops_the_moves_but_not_the_file():
    text = DR10_EXAMPLE.replace("4. 19-23 29x18x27", "4. 19-23 29?18x27")
    record = read(text)
    bad = next(d for d in record.diagnostics if d.code == "FMT-E801")
    assert bad.line == 11 and bad.column == 10
    done = run(text)
    assert len(done.replay.plies) == 7
    assert any(d.code == "RULE-N001" and d.line == 11 for d in done.diagnostics)
    assert done.record.header.first == "重庆理工大学 1 队"


def test_sniff_tells_the_board_from_the_squares():
    assert fmt.sniff(DR10_EXAMPLE) == "DR10"
    assert fmt.sniff(DR8_EXAMPLE) == "DR8"
    assert fmt.sniff("#2018-08-03-10:40|合肥\n#先手方:甲|后手方:乙|先手胜\nB2E-3E\n") is None
    assert fmt.sniff("[Game \"Chinese Chess\"]\n1. H2E2 h9g7\n") is None
    # Read without a code in the file name: the squares tell.
    data = DR8_EXAMPLE.encode()
    done = process(Source("g/game.txt", data, sha256(data)), encoding=None, options={})
    assert done.code == "DR8" and len(done.replay.plies) == 16


def test_both_codes_are_registered_with_their_rules():
    assert games.GAMES["DR10"].params["rules"] == "international"
    dr8 = games.GAMES["DR8"]
    assert dr8.options["rules"] == "russian" and dr8.choices["rules"] == ("russian", "brazilian")


def test_no_moves_is_a_warning():
    record = read(DR10_EXAMPLE.split("1. 20-24")[0])
    assert "FMT-W801" in codes(record.diagnostics)


@pytest.mark.parametrize("name", ["DR10-a vs b-平局-2018.03.10.txt", "DR8-a vs b-平局-2018.03.10.txt"])
def test_the_file_name_code_decides_when_the_squares_cannot(name):
    # No moves: nothing to tell the board by.
    text = DR10_EXAMPLE.split("1. 20-24")[0]
    data = text.encode()
    done = process(Source("g/" + name, data, sha256(data)), encoding=None, options={})
    assert done.code == name.split("-")[0]


def test_damaged_records_never_crash_and_every_problem_has_a_place():
    import random

    rng = random.Random(18)
    alphabet = "0123456789-xX×:： .*\n{}先手方结果时间12"
    for n in range(300):
        base = DR10_EXAMPLE if n % 2 else DR8_EXAMPLE
        chars = list(base)
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(chars))
            kind = rng.random()
            if kind < 0.4:
                del chars[at]
            elif kind < 0.7:
                chars.insert(at, rng.choice(alphabet))
            else:
                chars[at] = rng.choice(alphabet)
        text = "".join(chars)
        data = text.encode("utf-8")
        code = "DR10" if n % 2 else "DR8"
        done = process(Source(f"g/{code}-a vs b-平局-2018.03.10.txt", data, sha256(data)), encoding=None, options={})
        assert done.replay is not None and done.code in ("DR10", "DR8"), (text, done.diagnostics)
        assert not [d for d in done.diagnostics if d.code == "REC-E900"], (text, done.diagnostics)
        for d in done.diagnostics:
            assert d.line >= 1 and d.column >= 1, (text, d)

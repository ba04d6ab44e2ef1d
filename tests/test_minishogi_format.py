"""The MSK reader (CSA-based, V2.1-55): headers, moves, drops, special moves, commas, faults."""

from __future__ import annotations

from generator import formats, games
from generator.formats import csa
from generator.model import Text
from generator.rules import shogi

MSK = games.GAMES["MSK"]

# The standard's own sample (specs/001_…txt), as printed: +2514HI moves the bishop on 25.
SAMPLE = """'ここからサンプル
'バージョン情報
V2.1-55
'対局情報
N+SUGATA
N-NAKASHIZU
$SITE:SHOGI_DOJO
'初期配置
PI
+
'棋譜
+3534GI
T5
-3122GI
T6
+2514HI
T3
-4114KA
T10
+1514HI
T5
%CHUDAN

'ここまでサンプル
"""


def read(text: str, path: str = "MSK-a vs b.txt"):
    return csa.parse(Text(path, text, "utf-8"), MSK)


def codes(diagnostics) -> list[str]:
    return [d.code for d in diagnostics]


def test_the_standards_sample_is_read_and_its_wrong_piece_reported_where_it_is_written():
    record = read(SAMPLE)
    assert [m.text for m in record.moves] == ["+3534GI", "-3122GI", "+2514HI", "-4114KA", "+1514HI"]
    assert (record.header.first, record.header.second, record.header.place) == ("SUGATA", "NAKASHIZU", "SHOGI_DOJO")
    assert record.header.result is None and record.header.result_text == "%CHUDAN"  # interrupted: not decided
    assert record.diagnostics == []
    replay = shogi.replay(record, MSK)
    wrong = [d for d in replay.diagnostics if d.code == "RULE-E704"]
    assert len(wrong) == 1 and (wrong[0].line, wrong[0].column) == (16, 1)
    assert wrong[0].severity == "error"
    assert "25" in wrong[0].message and "KA" in wrong[0].message and "HI" in wrong[0].message
    # Read on: the bishop's move is what the squares say, and every move is replayed.
    assert len(replay.plies) == 5 and not replay.not_replayed
    assert [p.label for p in replay.plies] == ["▲３四銀", "△２二銀", "▲１四角", "△同角", "▲同飛"]


def test_sniff_names_the_game_from_the_version_line_only():
    assert csa.sniff(SAMPLE) == "MSK"
    assert formats.sniff(SAMPLE) == "MSK"
    assert csa.sniff("'comment\n\nV2.2\n+\n") == "MSK"
    assert csa.sniff("+3534GI\n") is None
    assert csa.sniff("{[C5][先手 B]}") is None


def test_commas_separate_statements_and_a_trailing_comma_continues_the_line():
    text = "V2.1-55\nN+甲队,\nN-乙队\n+3534GI,T5,-3122GI,\nT6,\n+3443GI\n%TORYO\n"
    record = read(text)
    assert [(m.text, m.line, m.column) for m in record.moves] == [
        ("+3534GI", 4, 1),
        ("-3122GI", 4, 12),
        ("+3443GI", 6, 1),
    ]
    assert (record.header.first, record.header.second) == ("甲队", "乙队")
    # %TORYO after sente's move: gote, to move, resigned.
    assert record.header.result == "first"


def test_special_moves_declare_the_result_of_the_side_to_move():
    two = "V2.1-55\n+3534GI\n-3122GI\n"
    assert read(two + "%TORYO\n").header.result == "second"  # sente to move resigns
    assert read(two + "%TIME_UP\n").header.result == "second"
    assert read(two + "%KACHI\n").header.result == "first"  # sente to move declares a win
    assert read(two + "%JISHOGI\n").header.result == "draw"
    assert read(two + "%SENNICHITE\n").header.result is None  # the standard does not say
    assert read(two + "%+ILLEGAL_ACTION\n").header.result == "second"
    record = read(two + "%RESIGN\n")
    assert codes(record.diagnostics) == ["FMT-W706"] and record.diagnostics[0].line == 4


def test_a_move_that_cannot_be_read_is_reported_and_the_rest_still_read():
    record = read("V2.1-55\n+3534GI\n-31X2GI\n+3544GI\n%TORYO\n")
    assert [d.code for d in record.diagnostics] == ["FMT-E701"]
    assert (record.diagnostics[0].line, record.diagnostics[0].column) == (3, 1)
    assert len(record.moves) == 3 and record.moves[1].to is None
    replay = shogi.replay(record, MSK)
    assert len(replay.plies) == 1 and codes(replay.diagnostics) == ["RULE-N001"]


def test_drops_come_from_00_and_loose_writing_is_read_with_a_note():
    record = read("V2.1-55\nP+00FU\nP-00AL\n-\n- 1 2 1 3 fu\n+0053KI\n")
    assert record.moves[0].text == "-1213FU" and record.moves[1].point is None
    assert codes(record.diagnostics) == ["FMT-N701"]
    # P+00FU and P-00AL alone: an empty board, every piece but the kings in the hands.
    assert record.setup is not None and record.setup[5] == "+FU" and record.setup[7] == "-"


def test_missing_version_and_lines_out_of_place_are_warned_and_read():
    record = read("N+甲\n+3534GI\nPI\nwhat is this\n-3122GI\n")
    assert codes(record.diagnostics) == ["FMT-W707", "FMT-W703", "FMT-W701"]
    assert len(record.moves) == 2


def test_rows_and_single_pieces_build_the_start_position():
    text = "V2.1-55\nP1 *  *  *  * -OU\nP2 *  *  *  *  * \nP3 *  * +FU *  * \nP4 *  *  *  *  * \nP5+OU *  *  *  * \nP+00KI\n+\n+0012KI\n"
    record = read(text)
    assert record.setup is not None
    assert record.setup[0] == " *  *  *  * -OU" and record.setup[2] == " *  * +FU *  * " and record.setup[5] == "+KI"
    assert record.setup_line == 2
    replay = shogi.replay(record, MSK)
    assert len(replay.plies) == 1 and replay.decision is None


def test_pi_takes_pieces_off_the_standard_start():
    record = read("V2.1-55\nPI15HI14KA\n+\n+2514KA\n")
    assert record.setup is not None and record.setup[4] == "+OU+KI+GI+KA * "
    assert codes(record.diagnostics) == ["FMT-W704"]  # there is no bishop on 14 to take off
    assert record.diagnostics[0].line == 2


def test_damaged_records_never_crash_and_every_diagnostic_has_a_place():
    import random

    rng = random.Random(18)
    alphabet = "+-0123456789PIHKAFUGOTNRYM%,'\n $:V"
    for _ in range(400):
        chars = list(SAMPLE)
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(chars))
            action = rng.random()
            if action < 0.4:
                del chars[i]
            elif action < 0.8:
                chars.insert(i, rng.choice(alphabet))
            else:
                chars[i] = rng.choice(alphabet)
        record = read("".join(chars))
        replay = shogi.replay(record, MSK)
        for d in record.diagnostics + replay.diagnostics:
            assert d.line >= 1 and d.column >= 1, d
            assert d.message


def test_plain_move_lines_read_at_once_as_statement_by_statement(monkeypatch):
    import re

    text = (
        "V2.1-55\nPI\n+\n+3534GI\nT5\n-3122GI,T6\n+0055FU\n-2514HI,T3.5\n+4114KA,\nT7\n"
        "-1500FU\n+ 1514HI\n'a comment\n-1514hi\n%TORYO\n+1514HI\n"
    )
    quick = read(text)
    monkeypatch.setattr(csa, "_PLAIN_MOVE", re.compile(r"(?!)"))  # every line statement by statement
    slow = read(text)
    assert quick.moves == slow.moves and len(quick.moves) == 9
    assert [(d.code, d.line, d.column) for d in quick.diagnostics] == [(d.code, d.line, d.column) for d in slow.diagnostics]
    assert codes(quick.diagnostics) == ["FMT-W705", "FMT-N701"]
    assert quick.moves[5].to == ("0", 0)  # read; the rules say it is off the board

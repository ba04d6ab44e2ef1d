"""Reading the ([GO9]…) family: GO, GO13, GO9, NG and PG records.

The standards' own examples (with their bracket slips), passes, MARK, and the
real-world variants the other games' files show: GBK, BOM, one line, no final
newline, full-width punctuation. The corpus test reads the one real Phantom
Go record (skipped without ../shared).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import formats
from generator.decode import decode
from generator.model import Source, Text
from generator.pipeline import sha256

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
HEADER = "[先手参赛队 B][后手参赛队 W][先手胜][2017.07.29 14:00 重庆][2017 CCGC]"


def read(text: str, code: str | None = None):
    return formats.read(Text("r.txt", text, "utf-8"), code)


def read_bytes(data: bytes, name: str = "r.txt"):
    text, found = decode(Source(name, data, sha256(data)))
    assert text is not None, found
    return formats.read(text, None), found


def codes(record) -> list[str]:
    return sorted(d.code for d in record.diagnostics)


def points(record) -> list[tuple]:
    return [(m.side, m.point, m.passed) for m in record.moves]


def test_the_19_line_example_reads_rows_as_letters():
    record = read(f"(;[GO]{HEADER};B[LI];W[HK];B[GI];W[LL];B[HM];W[EM];B[DH];W[LE])")
    assert record.code == "GO" and codes(record) == []
    assert (record.header.first, record.header.second, record.header.result) == ("先手参赛队", "后手参赛队", "first")
    # L = column 12, I = row 9; S would be row 19.
    assert [m.point for m in record.moves][:3] == [("L", 9), ("H", 11), ("G", 9)]
    assert [m.text for m in record.moves][:2] == ["B[LI]", "W[HK]"]


def test_the_13_line_example_spans_two_lines():
    record = read(f"([GO13]{HEADER};\nB[C4];W[D4];B[D5];W[C5];B[E4];W[D3];B[E3];W[D2])")
    assert record.code == "GO13" and codes(record) == []
    assert len(record.moves) == 8
    first = record.moves[0]
    assert (first.point, first.line, first.column) == (("C", 4), 2, 1)


def test_the_9_line_examples_bracket_slip_is_a_warning():
    text = f"[(GO9){HEADER}; B[D5];W[E5];B[E4];W[D4];B[E6];W[F5];B[F6];W[F4];B[G5])"
    assert formats.sniff(text) == "GO9"
    record = read(text)
    assert record.code == "GO9" and codes(record) == ["FMT-W301"]
    assert record.diagnostics[0].column == 1
    assert record.header.event == "2017 CCGC"
    assert len(record.moves) == 9 and record.moves[-1].point == ("G", 5)


@pytest.mark.parametrize("code", ["NG", "PG"])
def test_nogo_and_phantom_examples_with_mark(code: str):
    record = read(f"([{code}]{HEADER};B[D5]MARK[1];W[E5];B[E4];W[D4]MARK[-2];B[E6];W[F5];B[F6];W[D5];W[F4];B[G5])")
    assert record.code == code and codes(record) == []
    assert [m.mark for m in record.moves][:4] == [1, None, None, -2]
    # Phantom Go records may repeat a colour: the reader keeps them as written.
    assert [m.side for m in record.moves][-3:] == ["W", "W", "B"]


def test_passes_written_either_way():
    record = read(f"([GO9]{HEADER};B[E5];W[];B[tt];W[TT]MARK[0])")
    assert codes(record) == []
    assert points(record) == [("B", ("E", 5), False), ("W", None, True), ("B", None, True), ("W", None, True)]
    assert [m.text for m in record.moves][1:] == ["W[]", "B[tt]", "W[tt]"]
    assert record.moves[-1].mark == 0


def test_an_unreadable_move_is_an_error_and_the_rest_is_read():
    record = read(f"([GO9]{HEADER};B[E5];W[5E];B[C3];X[D4];W[D 4])")
    assert codes(record) == ["FMT-E103", "FMT-E302"]
    bad = next(d for d in record.diagnostics if d.code == "FMT-E302")
    assert (bad.line, bad.column) == (1, len(f"([GO9]{HEADER};B[E5];") + 1)
    assert "W[5E]" in bad.message
    assert points(record) == [
        ("B", ("E", 5), False),
        ("W", None, False),  # where the replay will stop
        ("B", ("C", 3), False),
        ("X", None, False),
        ("W", ("D", 4), False),  # spaces inside the brackets are read
    ]


# Unicode digits: str.isdigit() takes the superscript for a digit (and int()
# then raised: FMT-E003, "a bug in Qipu"); int() and \d read "٣" as 3.
@pytest.mark.parametrize("digit", ["¹", "٣", "３", "𝟑", "①"])
def test_a_row_in_non_ascii_digits_is_an_unreadable_move_at_its_place(digit: str):
    before = f"([GO9]{HEADER};\nB[E5];\n  "
    record = read(f"{before}W[D{digit}];\nB[C3])")
    assert codes(record) == ["FMT-E302"]
    bad = record.diagnostics[0]
    assert (bad.line, bad.column) == (3, 3)
    assert f"W[D{digit}]" in bad.message
    # Not read as D3 (nor as anything else); the move after it is still read.
    assert points(record) == [("B", ("E", 5), False), ("W", None, False), ("B", ("C", 3), False)]


def test_the_replay_stops_at_a_superscript_row_with_a_note_at_the_same_place():
    from generator.pipeline import process

    data = f"([GO9]{HEADER};B[E5];W[D¹];B[C3])".encode()
    p = process(Source("GO9-a vs b-先手胜.txt", data, sha256(data)), encoding=None, options={})
    column = len(f"([GO9]{HEADER};B[E5];") + 1
    assert [(d.code, d.line, d.column) for d in p.diagnostics if d.code.startswith(("FMT", "RULE", "REC"))] == [
        ("FMT-E302", 1, column),
        ("RULE-N001", 1, column),
    ]
    assert p.plies == 1 and [m.text for m in p.replay.not_replayed] == ["W[D¹]", "B[C3]"]


@pytest.mark.parametrize("inner", ["ß", "Ｄ５", "DＥ", "Dᴱ", "D1234", pytest.param("D" + "9" * 5000, id="D-and-5000-digits")])
def test_a_19_line_point_must_be_ascii_letters_or_a_short_number(inner: str):
    record = read(f"(;[GO]{HEADER};B[LI];W[{inner}];B[GI])")
    assert codes(record) == ["FMT-E302"]
    assert record.diagnostics[0].column == len(f"(;[GO]{HEADER};B[LI];") + 1
    assert points(record) == [("B", ("L", 9), False), ("W", None, False), ("B", ("G", 9), False)]


@pytest.mark.parametrize("mark", ["٣", "３", "¹", "1_0", pytest.param("9" * 5000, id="5000-digits")])
def test_a_mark_in_anything_but_ascii_digits_is_a_warning_and_left_out(mark: str):
    before = f"([GO9]{HEADER};B[E5];W[D4]"
    record = read(f"{before}MARK[{mark}];B[C3])")
    assert codes(record) == ["FMT-W107"]
    assert record.diagnostics[0].column == len(before) + 1
    assert [m.mark for m in record.moves] == [None, None, None] and len(record.moves) == 3


def test_a_long_run_of_spaces_before_an_odd_move_is_read_past():
    # The fast path used to retry its pattern at each of the 40,000 offsets
    # (20 s); benchmarks/bench_inputs.py measures how the time grows.
    record = read(f"([GO9]{HEADER};B[E5];W[D4];" + " " * 40_000 + "x;B[C3])")
    assert codes(record) == ["FMT-E302"] and len(record.moves) == 4


def test_an_opening_slip_with_spaces_keeps_its_code():
    record = read(f"[ ( GO9 ){HEADER}; B[D5];W[E5])")
    assert record.code == "GO9" and codes(record) == ["FMT-W301"]
    assert record.header.first == "先手参赛队" and len(record.moves) == 2


def test_lower_case_spaces_and_newlines_are_read():
    record = read(f"( [go9]{HEADER} ;\n b[e5] ;\r\n w[d4]  mark[ -1 ] ;\n)\n")
    assert record.code == "GO9" and codes(record) == []
    assert points(record) == [("B", ("E", 5), False), ("W", ("D", 4), False)]
    assert record.moves[1].mark == -1 and record.moves[1].line == 3


def test_a_19_line_record_with_number_rows_is_read_with_a_note():
    record = read(f"(;[GO]{HEADER};B[Q16];W[D4];B[PD])")
    assert codes(record) == ["FMT-N301"]
    assert [m.point for m in record.moves] == [("Q", 16), ("D", 4), ("P", 4)]


def test_truncated_record_and_text_after_it():
    truncated = read(f"([GO9]{HEADER};B[E5];W[D4]")
    assert codes(truncated) == ["FMT-W302"] and len(truncated.moves) == 2
    trailing = read(f"([GO9]{HEADER};B[E5];W[D4])\n对局结束")
    assert codes(trailing) == ["FMT-W303"] and len(trailing.moves) == 2


def test_not_a_record():
    record = read("hello (world)", "GO9")
    assert codes(record) == ["FMT-E301"] and record.moves == []


def test_gbk_bom_one_line_no_final_newline_and_full_width():
    text = f"([GO9]{HEADER};B[E5];W[D4];B[C3])"
    gbk, _ = read_bytes(text.encode("gbk"))
    bom, _ = read_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert points(gbk) == points(bom) == [("B", ("E", 5), False), ("W", ("D", 4), False), ("B", ("C", 3), False)]
    assert gbk.header.first == bom.header.first == "先手参赛队"
    wide, _ = read_bytes(text.replace("(", "（").replace(";", "；").replace(")", "）").encode("utf-8"))
    assert points(wide) == points(gbk)
    assert codes(wide) == ["FMT-N101"]


def test_team_names_with_parentheses_do_not_end_the_record():
    record = read("([GO9][清华(A) B][北大(B) W][后手胜][2025.11.21 10:00 北京][测试赛];B[E5];W[D4])")
    assert codes(record) == []
    assert (record.header.first, record.header.second, record.header.result) == ("清华(A)", "北大(B)", "second")
    assert len(record.moves) == 2


@pytest.mark.skipif(not (CORPUS / "PG").is_dir(), reason="../shared/corpus is not present (a user's clone)")
def test_the_real_phantom_go_record_reads_without_errors():
    path = next((CORPUS / "PG").glob("*.txt"))
    record, found = read_bytes(path.read_bytes(), "PG-队1 vs 队2-后手胜-2025.09.20 23_22 本地-测试赛.txt")
    assert found == [] and record.code == "PG"
    assert not [d for d in record.diagnostics if d.severity == "error"]
    assert (record.header.first, record.header.second, record.header.result) == ("队1", "队2", "second")
    assert len(record.moves) == 141
    # It ends with two White moves: a failed attempt and the retry.
    assert [m.text for m in record.moves[-2:]] == ["W[I5]", "W[A3]"]


def test_damaged_records_never_crash_the_reader_or_the_rules():
    """Seeded random damage (characters dropped, inserted, repeated) to Go-family and Hex
    records: every one still becomes a record with diagnostics, never an internal error."""
    import random

    from generator.pipeline import E_CRASH, process

    samples = [
        f"([GO9]{HEADER};B[E5]MARK[1];W[D4];B[C3];W[tt];B[E4];W[D5];B[];W[])",
        f"(;[GO]{HEADER};B[LI];W[HK];B[GI];W[LL];B[HM];W[EM])",
        f"([PG]{HEADER};B[E5];W[E5];W[D4];B[D4];B[C3];W[C4])",
        f"([NG]{HEADER};B[E5];W[D5];B[C5];W[E4];B[D6])",
        "{[HEX][红 R][蓝 B][先手胜][2017.07.29 16:00 重庆][赛];R(E,7)MARK[1];B(E,6);R(F,7);B(G,7)}",
    ]
    alphabet = "()[]{};,BWRt0123456789ADEGIKLS：；（）MARK-\n "
    rng = random.Random(20251121)
    for n in range(600):
        text = list(samples[n % len(samples)])
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(text) + 1)
            roll = rng.random()
            if roll < 0.4 and text:
                del text[min(i, len(text) - 1)]
            elif roll < 0.8:
                text.insert(i, rng.choice(alphabet))
            else:
                j = rng.randrange(len(text) + 1)
                text[i:i] = text[j : j + rng.randint(1, 12)]
        data = "".join(text).encode("utf-8")
        p = process(Source("fuzz.txt", data, sha256(data)), encoding=None, options={})
        crashed = [d for d in p.diagnostics if d.code in (E_CRASH, formats.READER_FAILED)]
        assert crashed == [], (data.decode("utf-8"), crashed)
        # Whatever was read is either a game or says why not.
        assert p.replay is not None or any(d.severity == "error" for d in p.diagnostics), data

"""Reading army chess records (formats/armychess.py): the standard's example and what real writers do."""

from __future__ import annotations

from generator import games
from generator.formats import armychess as fmt
from generator.model import Source, Text
from generator.pipeline import process, sha256
from generator.rules import armychess as ac
from generator.scene import position_after

AC2 = games.GAMES["AC2"]
AA = "abccddeeffggghhhiiijjkklj"
AB = "jlkkjjiiihhhgggffeeddccba"  # the standard's example: already reversed (the same layout as AA)
OTHER = "ibccidde" + "effgggh" + "hhaikjljkj"  # another layout, as its player sent it (front row first)
# The standard's example (000_…txt), its "....." left out.
EXAMPLE = f"""(
;INFO[1.0]PA[先手玩家]PB[后手玩家]TL[1800]SL[31]
;AA[{AA}]
;AB[{AB}]
;MA[G0F0]RA[1]FB[00]
;MB[F4G4]RB[1]FA[00]
;MA[F0E0]RA[1]FB[00]
;MARK[先手仅移动]
;MB[G4H4]RB[1]FA[00]
;EA[0]EB[1]
)
"""


def read(text: str, name: str = "AC2-先手玩家 vs 后手玩家.txt"):
    return fmt.parse(Text(name, text, "utf-8"), AC2)


def found(record) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in record.diagnostics]


def test_the_standards_example() -> None:
    record = read(EXAMPLE)
    assert found(record) == []
    meta = record.header
    assert (meta.first, meta.second, meta.result, meta.result_text) == ("先手玩家", "后手玩家", "second", "EA[0]EB[1]")
    assert [(m.side, m.text, m.line, m.column) for m in record.moves] == [
        ("A", "G0F0", 5, 2), ("B", "F4G4", 6, 2), ("A", "F0E0", 7, 2), ("B", "G4H4", 9, 2),
    ]
    assert record.moves[0].parts == (1, "B00") and record.moves[2].comment == "先手仅移动"
    # The first player below as written; the second above, its layout already reversed.
    rows = record.setup[:12]
    assert rows[6] == "ABCCD" and rows[11] == "JKKLJ" and rows[0] == "jlkkj" and rows[5] == "dccba"
    assert record.setup[12] == "31"
    done = ac.replay(record, AC2)
    assert done.diagnostics == [] and len(done.plies) == 4 and done.decision is None
    assert [p.label for p in done.plies] == ["G0F0×", "F4G4×", "F0E0×", "G4H4×"]


def test_the_layouts_read_another_way_say_so() -> None:
    # A real tool's file: the second layout as the player sent it (not reversed).
    standard = read(EXAMPLE.replace(AB, OTHER[::-1]))
    assert standard.diagnostics == [] and standard.setup[5] == "iccbi"
    record = read(EXAMPLE.replace(AB, OTHER))
    assert [d.code for d in record.diagnostics] == ["FMT-N1001"]
    assert "AB reversed" in record.diagnostics[0].message
    assert record.setup[:12] == standard.setup[:12]  # the same board as the standard's
    # The corpus's tool: every cell as the second player sees the board (the first player above).
    turned = read(EXAMPLE.replace(AB, AA).replace(f"AA[{AA}]", f"AA[{AB}]"))
    assert "FMT-N1001" in [d.code for d in turned.diagnostics]


def test_where_another_reading_fits_as_well_the_standards_is_taken_with_a_note() -> None:
    # Without moves, the whole board turned half round (the first player above, both layouts read the
    # other way) follows the layout rules as well: nothing tells the readings apart, the standard's wins.
    text = "".join(line for line in EXAMPLE.splitlines(keepends=True) if ";M" not in line)
    record = read(text.replace(AB, OTHER[::-1]))
    assert [d.code for d in record.diagnostics] == ["FMT-N1005"]
    assert record.setup[:12] == read(EXAMPLE.replace(AB, OTHER[::-1])).setup[:12]


def test_what_real_writers_do_is_read_with_notes() -> None:
    text = EXAMPLE.replace("RA[1]FB[00]", "RA[1]FA[00]").replace("\n)\n", "\n )")  # the corpus's flag letter and closer
    record = read(text)
    assert found(record) == [("FMT-N1004", 5, 15)] and len(record.moves) == 4
    wide = read(EXAMPLE.replace(";MB[F4G4]", "；MB［F4G4］"))
    assert [d.code for d in wide.diagnostics] == ["FMT-N1003"] and wide.moves[1].text == "F4G4"
    odd = read(EXAMPLE.replace(";EA[0]", ";XX[hello];EA[0]"))
    assert [d.code for d in odd.diagnostics] == ["FMT-N1002"]


def test_broken_records_give_their_diagnostics_and_are_read_on() -> None:
    bad_move = read(EXAMPLE.replace("MA[F0E0]", "MA[F0X0]"))
    assert found(bad_move) == [("FMT-E1001", 7, 2)]
    assert len(bad_move.moves) == 3 and bad_move.moves[-1].point is None  # the replay stops there
    done = ac.replay(bad_move, AC2)
    assert len(done.plies) == 2 and [m.text for m in done.not_replayed] == ["F0X0"]
    bad_value = read(EXAMPLE.replace("RB[1]FA[00]\n;MA[F0E0]", "RB[7]FA[00]\n;MA[F0E0]"))
    assert [d.code for d in bad_value.diagnostics] == ["FMT-W1001"] and bad_value.moves[1].parts[0] is None
    no_layout = read(EXAMPLE.replace(f";AB[{AB}]\n", ""))
    assert [d.code for d in no_layout.diagnostics] == ["FMT-W1002"] and no_layout.setup is None
    done = ac.replay(no_layout, AC2)  # nothing to judge the moves by: the declared result stands
    assert done.decision is None and done.plies == [] and len(done.not_replayed) == 4
    clash = read(EXAMPLE.replace("EA[0]EB[1]", "EA[1]EB[1]"))
    assert [d.code for d in clash.diagnostics] == ["FMT-W1003"] and clash.header.result is None
    abnormal = read(EXAMPLE.replace("EA[0]EB[1]", "EA[2]EB[2]"))
    assert abnormal.diagnostics == [] and abnormal.header.result == "unknown"
    bad_layout = read(EXAMPLE.replace(AA, AA[:-1] + "z"))
    assert found(bad_layout) == [("FMT-E1002", 3, 2)]


def test_a_copied_layout_is_found_and_its_side_shown_face_down() -> None:
    # Both layouts one string: the second's is the real one (the first player's attack fits only it).
    text = EXAMPLE.replace(f"AB[{AB}]", f"AB[{AA}]")
    record = read(text)
    assert "FMT-W1004" in [d.code for d in record.diagnostics]
    done = ac.replay(record, AC2)
    notes = [d for d in done.diagnostics if d.code == "RULE-N1010"]
    assert len(notes) == 1 and "errors" in notes[0].message
    start = position_after(done.setup, [])
    sides = {p.side for p in start.pieces.values() if p.kind == "hidden"}
    assert len(sides) == 1  # one side's pieces unknown, in every view


def test_the_sniffer_and_the_pipeline() -> None:
    assert fmt.sniff(EXAMPLE) == "AC2" and fmt.sniff("(;GM[1]") is None
    data = EXAMPLE.encode("gb18030")
    done = process(Source("AC2-先手玩家 vs 后手玩家-后手胜.txt", data, sha256(data)), encoding=None, options={})
    assert done.code == "AC2" and done.declared == "second" and len(done.replay.plies) == 4
    assert [d.code for d in done.diagnostics if d.severity == "error"] == []

"""Reading Dou Dizhu (P2T1) records: the standard's properties, sessions of several deals, real-world slips."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_doudizhu_rules import EXAMPLE, LETTERS, bottom_line, deal, record

from generator import formats, games
from generator.formats import doudizhu as fmt
from generator.model import Source, Text
from generator.pipeline import Processed, process_games, sha256

P2T1 = games.GAMES["P2T1"]
NAME = "P2T1-甲队 vs 乙队 vs 丙队-2025.12.20 09:00 北京-测试.txt"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "P2T1"


def read(text: str, path: str = NAME) -> list:
    return fmt.parse_games(Text(path, text, "utf-8"), P2T1)


def run(data: bytes, name: str = NAME) -> list[Processed]:
    return process_games(Source(name, data, sha256(data)), encoding=None, options={})


def codes(record) -> list[str]:
    return [d.code for d in record.diagnostics]


def session(count: int, brackets: bool = True) -> str:
    """A session of ``count`` played-out-or-not deals, each with its own RI."""
    parts = []
    for n in range(1, count + 1):
        hands, bottom = deal(landlord=LETTERS[n % 3], seed=n)
        lord = LETTERS[n % 3]
        bids = [f"B{letter}[0]" for letter in LETTERS[: LETTERS.index(lord)]] + [f"B{lord}[3]"]
        text = record(hands, [*bids, bottom_line(lord, bottom)]).replace("RI[1]", f"RI[{n}]")
        if n > 1:  # later deals repeat only the round fields
            text = text.replace(";VER[1.0]PA[甲队]PB[乙队]PC[丙队]\n", "")
        parts.append(text if brackets else text.replace("(\n", "").replace(")\n", ""))
    return "".join(parts)


def test_sniff_knows_the_standards_properties() -> None:
    assert fmt.sniff(EXAMPLE) == "P2T1"
    assert fmt.sniff("(;PA[x]PB[y]PC[z];DA[1,2,3])") == "P2T1"
    assert fmt.sniff("([GO9][a][b]") is None
    assert formats.sniff(EXAMPLE) == "P2T1"  # no other family claims it


def test_the_example_is_read_property_by_property() -> None:
    [rec] = read(EXAMPLE)
    assert rec.diagnostics == [] and rec.game == 0 and rec.line == 1
    assert rec.header.players == ("选手 1 名称", "选手 2 名称", "选手 3 名称")
    assert rec.tags == {"VER": "1.0", "TI": "1", "TC": "4", "RI": "1", "RC": "9", "UC": "9", "MS": "3150"}
    kinds = [(m.side, m.point, m.passed, len(m.parts)) for m in rec.moves]
    assert kinds[:3] == [("A", ("D", 0), False, 17), ("B", ("D", 0), False, 17), ("C", ("D", 0), False, 17)]
    assert kinds[3:7] == [("A", ("B", 1), False, 0), ("B", ("B", 2), False, 0), ("C", ("B", 3), False, 0), ("C", ("L", 0), False, 3)]
    assert kinds[7:9] == [("C", None, False, 8), ("A", None, True, 0)]
    assert (rec.moves[7].line, rec.moves[7].column) == (11, 2)
    # OVER[B]: B is a farmer (C took the bottom cards), so the farmers A and B win.
    assert rec.header.result == "first+second" and rec.header.result_text == "OVER[B]"


def test_a_session_file_gives_one_game_per_deal_each_with_its_header() -> None:
    text = session(4)
    records = read(text)
    assert [r.game for r in records] == [1, 2, 3, 4]
    assert [r.tags["RI"] for r in records] == ["1", "2", "3", "4"]
    assert all(r.header.players == ("甲队", "乙队", "丙队") for r in records)  # carried from the first deal
    assert records[1].line == text.splitlines().index("(", 1) + 1
    done = run(text.encode("gb18030"))
    assert [p.id for p in done] == [f"{NAME}#{n}" for n in (1, 2, 3, 4)]
    assert all(not [d for d in p.diagnostics if d.severity == "error"] for p in done), [p.diagnostics for p in done]
    assert [p.plies for p in done] == [3 + 1 + n % 3 + 1 for n in (1, 2, 3, 4)]


def test_deals_written_without_brackets_are_still_told_apart() -> None:
    records = read(session(3, brackets=False))
    assert len(records) == 3 and [len(r.moves) for r in records] == [6, 7, 5]


def test_full_width_punctuation_is_read_with_a_note() -> None:
    text = EXAMPLE.replace("BA[1]", "BA［1］").replace(";BB", "；BB")
    [rec] = read(text)
    assert codes(rec) == ["FMT-N1107"] and rec.diagnostics[0].line == 7
    assert [m.text for m in rec.moves][3:5] == ["BA[1]", "BB[2]"]


def test_a_card_number_out_of_range_stops_the_replay_there_and_keeps_the_rest() -> None:
    text = EXAMPLE.replace("C[20,21,23,49,50]", "C[20,21,23,49,54]")
    [done] = run(text.encode("utf-8"))
    [bad] = [d for d in done.diagnostics if d.code == "FMT-E1101"]
    assert (bad.line, bad.column) == (14, 16) and "'54' is not a card number 0-53" in bad.message
    assert done.replay is not None and done.plies == 10 and len(done.replay.not_replayed) == 1
    assert "RULE-N001" in [d.code for d in done.diagnostics]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (("MS[3150]", "MS[lots]"), "FMT-W1103"),
        (("OVER[B]", "OVER[D]"), "FMT-W1106"),
        ((";BA[1]", ";BA[1]XX[7]"), "FMT-W1102"),
        ((";BA[1]", ";BA[1] stray words"), "FMT-W1105"),
        (("BA[1]", "BA[one]"), "FMT-E1101"),
    ],
)
def test_each_slip_is_a_diagnostic_and_the_rest_is_read(change: tuple[str, str], code: str) -> None:
    [rec] = read(EXAMPLE.replace(*change))
    assert code in codes(rec)
    assert len(rec.moves) == 11


def test_a_file_without_a_deal_says_so() -> None:
    [rec] = read("(\n;VER[1.0]PA[a]PB[b]PC[c]\n)\n")
    assert codes(rec) == ["FMT-W1104"] and rec.moves == [] and rec.header.players == ("a", "b", "c")
    [rec] = read("nothing here\n")
    assert codes(rec) == ["FMT-W1105", "FMT-W1104"]
    assert rec.diagnostics[0].message == "text 'nothing here' outside the properties was left out"


def test_crlf_and_a_byte_order_mark_are_read_silently() -> None:
    data = ("\ufeff" + EXAMPLE.replace("\n", "\r\n")).encode("utf-8")
    [done] = run(data, "P2T1-example.txt")
    assert [d for d in done.diagnostics if d.severity != "note"] == [] and done.plies == 11


def test_the_file_name_names_the_three_teams() -> None:
    text = EXAMPLE.replace(";VER[1.0]PA[选手 1 名称]PB[选手 2 名称]PC[选手 3 名称]\n", ";VER[1.0]\n")
    [done] = run(text.encode("utf-8"))
    assert done.players == ("甲队", "乙队", "丙队")
    assert (done.meta.date, done.meta.time, done.meta.place, done.meta.event) == ("2025-12-20", "09:00", "北京", "测试")
    assert not [d for d in done.diagnostics if d.code.startswith("META")]


def test_the_real_files_of_the_corpus_read() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"no P2T1 files in the corpus ({CORPUS}): none were found in public repositories")
    for path in sorted(CORPUS.iterdir()):
        data = path.read_bytes()
        for done in run(data, path.name):
            assert done.code == "P2T1" and done.replay is not None
            assert all(d.line >= 1 for d in done.diagnostics if d.code != "REC-E900")

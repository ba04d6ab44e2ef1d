"""The dots and boxes JSON record (DB): the standard's example, the real writers' habits, broken files."""

from __future__ import annotations

import json

from generator import formats, games
from generator.formats import dots
from generator.model import Text

# The standard's own example (specs/000_…txt, 点格棋), its scanning damage at
# the start undone ("TR" for '{"R"'): movers written "n", and cut off inside
# the last piece, as printed.
STANDARD_EXAMPLE = """{"R": "RedPlayer",
"B": "BluePlayer",
"Winner": "R",
"RScore": 19,
"BScore": 6,
"Date": "2018-04-23",
"Event": "大学生计算机博弈大赛",
"game": [
{"piece": "n(a6,h)", "annotation": "注释内容"}, {"piece": "b(d3,v)"}, {"piece": "n(a3,v)"}, {"piece": "b(b2,v)"},
{"piece": "b(b4,h)"}, {"piece": "r(c4,h)"}, {"piece": "b(b3,v)"}, {"piece": "r(b5,h)"}, {"piece": "b(c4,v)"},
{"piece": "n(d3,h)"}, {"piece": "r(d2,h)"}, {"piece": "r(e4,v)"}, {"piece": "r(e4,h)"}, {"piece": "n(e4,h)"}, {"piece": "
"""

# As the gotack library writes it (../shared/corpus/DB): lower-case "winner",
# numbers for scores, a date without leading zeros, an aborted game of three moves.
GOTACK = """{
    "R": "甲队",
    "B": "乙队",
    "winner": "B",
    "RScore": 0,
    "BScore": 0,
    "Date": "2023-11-3",
    "Event": "tack",
    "game": [
        {
            "piece": "b(e2,v)"
        },
        {
            "piece": "r(d3,h)"
        },
        {
            "piece": "b(d3,v)"
        }
    ]
}"""


def read(text: str, name: str = "2025-db/record.txt"):
    return formats.read(Text(name, text, "utf-8"), None)


def codes(record) -> list[str]:
    return [d.code for d in record.diagnostics]


def test_the_family_claims_json_records_and_nothing_else():
    assert formats.sniff(GOTACK) == "DB"
    assert formats.sniff("\ufeff  " + STANDARD_EXAMPLE) == "DB"
    assert formats.sniff('{"RScore": "4", "BScore": "9"}') == "DB"
    assert dots.sniff('{"name": "a JSON file of something else"}') is None
    assert dots.sniff("{[C5][甲][乙][先手胜][2017.07.29 14:00 重庆][2017 CCGC];B(J,10);W(L,10)}") is None


def test_the_real_writers_record_reads_with_blue_moving_first():
    record = read(GOTACK)
    assert record.code == "DB" and codes(record) == []
    meta = record.header
    # Blue wrote the first piece: blue's team is the first player, and "winner": "B" is a first-player win.
    assert (meta.first, meta.second, meta.result, meta.result_text) == ("乙队", "甲队", "first", "B")
    assert meta.score == {"first": 0.0, "second": 0.0}
    assert (meta.date, meta.event) == ("2023-11-03", "tack")
    assert [(m.side, m.text, m.point, m.to) for m in record.moves] == [
        ("B", "b(e2,v)", ("E", 2), ("E", 3)),
        ("R", "r(d3,h)", ("D", 3), ("E", 3)),
        ("B", "b(d3,v)", ("D", 3), ("D", 4)),
    ]
    # Each piece where its text starts: the opening quote of the value.
    assert [(m.line, m.column) for m in record.moves] == [(11, 22), (14, 22), (17, 22)]


def test_the_standards_example_is_read_as_far_as_it_goes():
    record = read(STANDARD_EXAMPLE)
    (broken,) = [d for d in record.diagnostics if d.code == "FMT-E901"]
    assert (broken.line, broken.column) == (11, 122)
    assert "the file ends before the record is closed (it may be cut off)" in broken.message
    # Every piece before the break, and the header.
    assert len(record.moves) == 14 and record.moves[0].comment == "注释内容"
    meta = record.header
    assert (meta.first, meta.second, meta.result, meta.score) == ("RedPlayer", "BluePlayer", "first", {"first": 19.0, "second": 6.0})
    # Movers written "n": one warning for all of them, at the first; the engine takes the turn order.
    (unknown,) = [d for d in record.diagnostics if d.code == "FMT-W901"]
    assert (unknown.line, unknown.column, unknown.severity) == (9, 11, "warning")
    assert "names the mover 'n', neither r (red) nor b (blue), and so do 3 more pieces" in unknown.message
    assert [m.side for m in record.moves[:3]] == ["", "B", ""]


def test_keys_in_any_case_and_scores_as_strings():
    text = json.dumps({"r": "红", "b": "蓝", "WINNER": "r", "rscore": "14", "BSCORE": " 11 ", "date": "2025-7-30 9:05 重庆",
                       "EVENT": "联赛", "Game": [{"Piece": "R(A1,H)", "Annotation": "开局"}]}, ensure_ascii=False)
    record = read(text)
    assert codes(record) == []
    meta = record.header
    assert (meta.first, meta.second, meta.result, meta.score) == ("红", "蓝", "first", {"first": 14.0, "second": 11.0})
    assert (meta.date, meta.time, meta.place, meta.event) == ("2025-07-30", "09:05", "重庆", "联赛")
    assert (record.moves[0].text, record.moves[0].comment) == ("r(a1,h)", "开局")


def test_the_winner_as_a_colour_word_a_team_or_result_words():
    def winner(value: str, first: str = "r"):
        text = json.dumps({"R": "红队", "B": "蓝队", "winner": value, "game": [{"piece": f"{first}(a1,h)"}]}, ensure_ascii=False)
        record = read(text)
        return record.header.result, codes(record)

    assert winner("红方") == ("first", [])
    assert winner("blue") == ("second", [])
    assert winner("蓝队") == ("second", [])
    assert winner("蓝队", first="b") == ("first", [])
    assert winner("后手胜") == ("second", [])
    assert winner("平局") == ("draw", [])
    assert winner("X") == (None, ["META-W007"])


def test_a_score_that_is_no_number_of_boxes_is_a_warning():
    record = read('{"R": "a", "B": "b",\n"RScore": "four", "BScore": 9, "game": [{"piece": "r(a1,h)"}]}')
    (bad,) = record.diagnostics
    assert (bad.code, bad.line, bad.message) == ("FMT-W903", 2, "RScore 'four' is not a number of boxes; ignored")
    assert record.header.score is None


def test_an_unreadable_piece_is_an_error_and_the_rest_is_still_read():
    text = '{"R": "a", "B": "b", "game": [\n{"piece": "r(a1,h)"},\n{"piece": "b(a1,x)"},\n{"piece": "r(b1,h)"}]}'
    record = read(text)
    (bad,) = record.diagnostics
    assert (bad.code, bad.line, bad.column) == ("FMT-E902", 3, 11)
    assert bad.message == "move 2: piece 'b(a1,x)' cannot be read"
    assert [m.point for m in record.moves] == [("A", 1), None, ("B", 1)]


def test_full_width_brackets_are_read_with_a_note():
    record = read('{"R": "a", "B": "b", "game": [{"piece": "r（b4，v）"}]}')
    assert codes(record) == ["FMT-N902"] and record.moves[0].text == "r(b4,v)"


def test_a_key_the_standard_does_not_name_is_a_note():
    record = read('{"R": "a", "B": "b",\n "Place": "重庆", "game": [{"piece": "r(b4,v)"}]}')
    (other,) = record.diagnostics
    assert (other.code, other.severity, other.line) == ("FMT-N901", "note", 2)
    assert "'Place'" in other.message and "'重庆'" in other.message


def test_malformed_json_names_the_line_and_column():
    text = '{"R": "a", "B": "b"\n "winner": "R", "game": [{"piece": "r(b4,v)"}, {"piece": "b(a1,h)"}]}'
    record = read(text)
    (broken,) = record.diagnostics
    assert (broken.code, broken.line, broken.column) == ("FMT-E901", 2, 2)
    assert broken.message == "the JSON breaks here: a comma is missing; what could be found was read"
    # Nothing lost: the teams, the result and both pieces, where they are written.
    assert (record.header.first, record.header.second, record.header.result) == ("a", "b", "first")
    assert [(m.text, m.line, m.column) for m in record.moves] == [("r(b4,v)", 2, 36), ("b(a1,h)", 2, 58)]


def test_a_record_without_moves_is_a_warning():
    record = read('{"R": "a", "B": "b", "winner": "R"}')
    assert codes(record) == ["FMT-W902"] and record.header.result == "first"


def test_a_list_of_records_is_several_games():
    one = {"R": "甲", "B": "乙", "winner": "R", "game": [{"piece": "r(a1,h)"}]}
    two = {"R": "乙", "B": "甲", "winner": "B", "game": [{"piece": "b(a1,v)"}, {"piece": "r(f1,v)"}]}
    text = "[\n" + json.dumps(one, ensure_ascii=False) + ",\n" + json.dumps(two, ensure_ascii=False) + "\n]\n"
    first, second = formats.read_games(Text("m.txt", text, "utf-8"), None)
    assert (first.game, first.line, second.game, second.line) == (1, 2, 2, 3)
    assert (first.header.first, first.header.result) == ("甲", "first")
    # The second game: blue moved first, so blue's team 甲 is its first player, and its win a first-player win.
    assert (second.header.first, second.header.second, second.header.result) == ("甲", "乙", "first")
    assert [(m.text, m.line) for m in second.moves] == [("b(a1,v)", 3), ("r(f1,v)", 3)]


def test_the_registry_entry():
    game = games.GAMES["DB"]
    assert (game.columns, game.rows, game.first.letter, game.second.letter) == (6, 6, "R", "B")
    assert game.scored and game.first_from_record and game.format == "dots"


def test_brackets_nested_thousands_deep_are_a_diagnostic_not_a_crash():
    record = read('{"R": "a", "game": [{"piece": "r(a1,h)"}], "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert codes(record) == ["FMT-E901"] and "nested too deeply" in record.diagnostics[0].message
    assert [m.text for m in record.moves] == ["r(a1,h)"]


def test_a_piece_without_a_mover_is_read_with_a_warning():
    record = read('{"R": "a", "B": "b", "game": [{"piece": "(a1,h)"}, {"piece": "b(a2,h)"}]}')
    (warning,) = record.diagnostics
    assert warning.code == "FMT-W901"
    assert warning.message == (
        "move 1: piece '(a1,h)' names no mover (r for red, b for blue); the mover is the player whose turn it was"
    )
    assert [(m.side, m.text) for m in record.moves] == [("", "(a1,h)"), ("B", "b(a2,h)")]


def test_the_contest_guis_file_name_with_full_width_colons():
    from generator import metadata

    # As DotsAndBoxes names its records ("DB：<red> vs <blue>：先手胜.txt"), and the standard's "DB: A vs B: 后手胜".
    named = metadata.from_filename("DB：北航·格物 vs 合工大·巢湖：先手胜 202512201000.txt")
    assert (named.code, named.first, named.second, named.result) == ("DB", "北航·格物", "合工大·巢湖", "first")
    assert (named.date, named.time) == ("2025-12-20", "10:00")
    named = metadata.from_filename("DB: 甲队 vs 乙队: 后手胜.txt")
    assert (named.code, named.first, named.second, named.result) == ("DB", "甲队", "乙队", "second")

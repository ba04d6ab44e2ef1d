"""Xiangqi (CC): reading the PGN family, the rules engine, Chinese notation and the board.

The records here are written as a user would find them: the standard's
CCGC coordinates, ICCS and the 1st CCGC archive's Chinese notation. Positions
for single rules are set up with a FEN tag, as the standard allows.
"""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from generator import formats, games
from generator.boards import xiangqi as xq_board
from generator.model import Source, Text
from generator.pipeline import process, sha256
from generator.rules import xiangqi
from generator.scene import position_after

CC = games.GAMES["CC"]
SVG = "{http://www.w3.org/2000/svg}"


def pgn(moves: str, fen: str | None = None, result: str = "*", **tags: str) -> str:
    head = {"Game": "Chinese Chess", "Event": "测试赛", "Date": "2025.12.13", "Red": "红队", "Black": "黑队", "Result": result}
    head |= tags
    if fen:
        head["FEN"] = fen
    return "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + "\n" + moves + "\n"


def read(text: str, name: str = "game.pgn"):
    return formats.read(Text(name, text, "utf-8"), None)


def replay(text: str):
    record = read(text)
    return record, xiangqi.replay(record, CC)


def run(text: str, name: str = "e/CC-红队 vs 黑队-先手胜-202512131000.pgn", encoding: str = "gb18030"):
    data = text.encode(encoding)
    return process(Source(name, data, sha256(data)), encoding=None, options={})


def codes(found) -> list[str]:
    return [d.code for d in found]


def board(result, count: int | None = None) -> dict[str, str]:
    """Cell -> "red chariot" after ``count`` plies."""
    return {p.at: f"{p.side} {p.kind}" for p in position_after(result.setup, result.plies, count).pieces.values()}


# -- reading --------------------------------------------------------------------


def test_the_standards_example_reads_and_replays():
    text = (
        '[Game "Chinese Chess"]\n[Event "?"]\n[Site "?"]\n[Date "2006.01.03"]\n[Round "?"]\n [Red "unknown"]\n'
        ' [RedElo ""]\n [Black "Neuchess"]\n [BlackElo ""]\n [Result "0:1"]\n [ECCO "?"]\n [Opening "?"]\n'
        ' [Variation "?"]\n [FEN "?"]\n\n1. H2E2 H9G7\n2. H0G2 J9H9\n'
    )
    record, result = replay(text)
    assert record.code == "CC"
    assert (record.header.first, record.header.second, record.header.result) == ("unknown", "Neuchess", "second")
    assert record.header.date == "2006-01-03"
    assert [m.side for m in record.moves] == ["R", "B", "R", "B"]
    # The standard's own translation of its example.
    assert [p.label for p in result.plies] == ["炮二平五", "马８进７", "马二进三", "车９平８"]
    assert not result.diagnostics and result.decision is None


def test_iccs_in_either_case_and_ccgc_coordinates_read_alike():
    upper = read(pgn("1. H2E2 H9G7 2. H0G2 J9H9"))
    lower = read(pgn("1. h2e2  h9g7 2. h0g2  i9h9"))
    assert [(m.point, m.to) for m in upper.moves] == [(m.point, m.to) for m in lower.moves]
    assert upper.moves[3].point == ("J", 9)  # ICCS column i is the CCGC's J


def test_chinese_notation_with_full_width_digits_and_indented_numbers():
    text = pgn("  1. 炮二平五 马８进７\n  2. 马二进三 车９平８\n 1-0\n====\n欢迎访问《象棋百科全书》网站\n", result="1-0")
    record, result = replay(text)
    assert [m.text for m in record.moves] == ["炮二平五", "马８进７", "马二进三", "车９平８"]
    assert record.moves[0].parts == ("C2=5",)
    assert [p.label for p in result.plies] == ["炮二平五", "马８进７", "马二进三", "车９平８"]
    assert board(result)["E2"] == "red cannon" and board(result)["H9"] == "black chariot"
    assert not [d for d in record.diagnostics if d.severity != "note"]  # the advert is no move


def test_full_width_move_numbers_and_an_advert_without_a_result():
    record, result = replay(pgn("１．炮二平五 马８进７\n２．马二进三\n============================\n欢迎访问"))
    assert [m.text for m in record.moves] == ["炮二平五", "马８进７", "马二进三"]
    assert not [d for d in record.diagnostics if d.severity == "error"] and len(result.plies) == 3


def test_each_move_keeps_its_line_and_column():
    # Numbers glued to a move, annotations, comments and black's "3..." as written.
    record = read(pgn("1. H2E2  h9g7!?\n 2.H0-G2 {c} 马８进７\n3...   炮八平五"))
    assert [(m.text, m.line, m.column) for m in record.moves] == [
        ("H2E2", 8, 4), ("H9G7", 8, 10), ("H0G2", 9, 4), ("马８进７", 9, 14), ("炮八平五", 10, 8)
    ]
    assert record.moves[2].comment == "c" and not record.diagnostics


def test_black_first_after_four_spaces_with_a_fen():
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b"
    record, result = replay(pgn("1.     H9G7\n2. H0G2 J9H9", fen=fen))
    assert [m.side for m in record.moves] == ["B", "R", "B"]
    assert [p.side for p in result.plies] == ["second", "first", "second"]
    assert not result.diagnostics


def test_black_first_read_from_the_four_spaces_when_the_fen_has_no_side():
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
    record = read(pgn("1.     H9G7\n2. H0G2 J9H9", fen=fen))
    assert [m.side for m in record.moves] == ["B", "R", "B"]


def test_fen_aliases_e_and_h():
    fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w"
    _, result = replay(pgn("1. C0E2 H9G7", fen=fen))
    assert [p.label for p in result.plies] == ["相七进五", "马８进７"]
    assert not result.diagnostics


def test_red_team_tags_comments_variations_and_the_result_after_the_moves():
    text = (
        '[Game "Chinese Chess"]\n[RedTeam "北理工"]\n[Red ""]\n[BlackTeam "东北大学"]\n[Black "棋天"]\n'
        '[TitleA "\n四两拨千斤"]\n\n'
        "1. h2e2 {中炮} h9g7 (1. ... b9c7 {屏风马} 2. h0g2) 2. h0g2\n{一个\n跨行的注释} i9h9 0-1\n广告"
    )
    record, result = replay(text)
    assert (record.header.first, record.header.second) == ("北理工", "棋天")
    assert record.header.result == "second"
    assert len(record.moves) == 4 and record.moves[0].comment == "中炮"
    assert "FMT-N501" in codes(record.diagnostics)  # the variation is skipped, not replayed
    assert len(result.plies) == 4


def test_an_unreadable_move_is_an_error_at_its_place_and_the_replay_stops_there():
    record, result = replay(pgn("1. H2E2 H9G7\n2. H0X2 J9H9"))
    error = next(d for d in record.diagnostics if d.code == "FMT-E501")
    assert (error.line, error.column) == (9, 4) and "H0X2" in error.message
    assert len(result.plies) == 2 and codes(result.diagnostics) == ["RULE-N001"]


def test_the_result_after_the_moves_that_contradicts_the_tag_is_a_warning():
    record = read(pgn("1. H2E2 H9G7 1-0", result="0-1"))
    assert record.header.result == "second" and "FMT-W503" in codes(record.diagnostics)


def test_sniff_names_cc_for_pgn_with_a_game_tag_or_xiangqi_moves():
    assert formats.sniff(pgn("1. H2E2")) == "CC"
    assert formats.sniff('[Red "甲"]\n[Black "乙"]\n1. 炮二平五 马８进７\n') == "CC"
    # A bridge PBN file has tags too, but names no xiangqi: it is bridge.
    assert formats.sniff('[Event "club"]\n[Board "1"]\n[West "A"]\n[Deal "N:AKQ..."]\n') == "BR"


# -- the rules ---------------------------------------------------------------------

# Positions: red's general on E0 and black's on D9 unless said otherwise (no open file between).


def illegal(fen: str, moves: str) -> tuple[str, str, int]:
    """(code, message, number) of the error that stops the replay."""
    _, result = replay(pgn(moves, fen=fen))
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert errors, [p.label for p in result.plies]
    error = errors[0]
    return error.code, error.message, len(result.plies) + 1


def test_the_horses_leg():
    code, message, _ = illegal("3k5/9/9/9/4p4/4N4/9/9/9/4K4 w", "1. E4D6")
    assert code == "RULE-E503" and "horse's leg at E5" in message
    assert illegal("3k5/9/9/9/9/4N4/9/9/9/4K4 w", "1. E4E6")[0] == "RULE-E502"  # not a horse's move


def test_the_elephants_eye_and_the_river():
    code, message, _ = illegal("3k5/9/9/9/9/9/9/9/3P5/2B1K4 w", "1. C0E2")
    assert code == "RULE-E503" and "eye at D1" in message
    code, message, _ = illegal("3k5/9/9/9/9/2B6/9/9/9/4K4 w", "1. C4E6")
    assert code == "RULE-E504" and "river" in message


def test_the_palace_keeps_the_general_and_the_advisors():
    assert illegal("3k5/9/9/9/9/9/9/9/4K4/9 w", "1. E1E2 D9D8 2. E2E3")[0] == "RULE-E504"
    code, message, _ = illegal("3k5/9/9/9/9/9/9/9/5A3/4K4 w", "1. F1G2")
    assert code == "RULE-E504" and "advisor" in message


def test_soldiers_step_sideways_only_across_the_river_and_never_back():
    assert illegal("3k5/9/9/9/9/9/4P4/9/9/4K4 w", "1. E3D3")[0] == "RULE-E504"
    assert illegal("3k5/9/9/9/9/9/4P4/9/9/4K4 w", "1. E3E2")[0] == "RULE-E502"
    _, result = replay(pgn("1. E5D5", fen="3k5/9/9/9/4P4/9/9/9/9/4K4 w"))
    assert len(result.plies) == 1 and result.plies[0].label == "兵五平六"


def test_chariot_and_cannon_lines():
    code, message, _ = illegal("3k5/9/9/9/9/9/9/9/9/R1P1K4 w", "1. A0D0")
    assert code == "RULE-E503" and "blocked at C0" in message
    code, message, _ = illegal("3k5/9/9/9/9/r8/9/9/9/C3K4 w", "1. A0A4")
    assert code == "RULE-E503" and "jumping exactly one piece" in message
    # Over one screen the cannon captures: the horse on H9 goes.
    _, result = replay(pgn("1. H2H9"))
    assert result.plies[0].label == "炮二进七"
    horse = next(op[1] for op in result.setup if op[4] == "H9")
    assert ["remove", horse] in result.plies[0].ops
    assert board(result)["H9"] == "red cannon"


def test_flying_generals_are_forbidden():
    code, message, _ = illegal("3k5/9/9/9/9/9/9/9/9/4K4 w", "1. E0D0")
    assert code == "RULE-E507" and "face each other" in message
    # Moving the only piece between them away is the same fault.
    assert illegal("4k4/9/9/9/9/4R4/9/9/9/4K4 w", "1. E4A4")[0] == "RULE-E507"


def test_no_move_may_leave_ones_own_general_in_check():
    code, message, _ = illegal("3k5/4r4/9/9/9/9/9/9/4R4/4K4 w", "1. E1D1")
    assert code == "RULE-E506" and "chariot at E8" in message
    # In check, a move that does not answer it.
    code, message, _ = illegal("3k5/9/9/9/9/9/4P4/9/9/r3K4 w", "1. E3E4")
    assert code == "RULE-E506" and "does not answer" in message


def test_checkmate_decides_and_no_move_may_follow():
    fen = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w"
    _, result = replay(pgn("1. B0B9", fen=fen))
    assert result.decision is not None and (result.decision.winner, result.decision.rule) == ("first", "checkmate")
    assert result.plies[0].label == "车八进九"
    notes = [op[1] for op in result.plies[0].ops if op[0] == "note"]
    assert "checkmate: {winner} wins" in notes
    code, message, _ = illegal(fen, "1. B0B9 D9E9")
    assert code == "RULE-E003" and "checkmated" in message


def test_stalemate_loses():
    _, result = replay(pgn("1. A7A8", fen="3k5/9/R8/9/9/9/9/9/9/4K4 w"))
    assert result.decision is not None and (result.decision.winner, result.decision.rule) == ("first", "stalemate")
    assert ["note", "{loser} has no legal move (stalemate): {winner} wins", {"loser": "second", "winner": "first"}] in (
        result.plies[0].ops
    )
    code, message, number = illegal("3k5/9/R8/9/9/9/9/9/9/4K4 w", "1. A7A8 D9D8")
    assert code == "RULE-E003" and "had no legal move" in message and number == 2


def test_the_mate_is_found_on_its_ply_whatever_follows():
    # Whether a player has a move left is asked only where it matters (settle()): after the
    # last move, or before a move that cannot be played. Each way, the same ply ends the game.
    fen = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w"
    for moves in ("1. B0B9", "1. B0B9 D9D8", "1. B0B9 zz", "1. B0B9 E0E1", "1. B0B9 将４平５"):
        record, result = replay(pgn(moves, fen=fen))
        assert result.decision is not None and (result.decision.rule, result.decision.ply) == ("checkmate", 1), moves
        assert result.decision.cells == ("D9",)
        ops = result.plies[0].ops
        # The checkmate note takes the check note's place, before the general's mark.
        assert [op[:2] for op in ops if op[0] in ("note", "mark")][-2:] == [["note", "checkmate: {winner} wins"], ["mark", "D9"]]
        assert len(result.plies) == 1 and len(result.not_replayed) == len(record.moves) - 1
    code = codes(replay(pgn("1. B0B9 zz", fen=fen))[1].diagnostics)
    assert code == ["RULE-N001"]  # an unreadable move stays that, as before
    assert illegal(fen, "1. B0B9 E0E1")[0] == "RULE-E003"  # black moving red's general: over, not "the other side's"
    # A check the other side answers is no decision, whatever the next move is.
    _, result = replay(pgn("1. A0A9 D9D8", fen="3k5/9/9/9/9/9/9/9/9/R3K4 w"))
    assert result.decision is None and len(result.plies) == 2


def test_a_declared_result_against_the_checkmate_is_an_error():
    text = pgn("1. B0B9", fen="3k5/R8/9/9/9/9/9/9/9/1R2K4 w", result="0-1")
    processed = run(text, name="e/CC-红队 vs 黑队-后手胜-202512131000.pgn")
    assert "RES-E001" in codes(processed.diagnostics)
    assert processed.result == "first"


def test_threefold_repetition_gets_a_note_and_the_declared_result_stands():
    shuffle = "1. H2G2 H7G7 2. G2H2 G7H7 " * 2
    processed = run(pgn(shuffle.strip(), result="1/2-1/2"), name="e/CC-红队 vs 黑队-平局-202512131000.pgn")
    note = next(d for d in processed.diagnostics if d.code == "RULE-N501")
    assert "third time" in note.message
    assert processed.replay.decision is None and processed.result == "draw"
    assert any(op[0] == "note" and "repetition" in op[1] for op in processed.replay.plies[7].ops)


def test_the_engine_reports_the_move_a_check_leaves_the_king_in():
    _, result = replay(pgn("1. A0A9", fen="3k5/9/9/9/9/9/9/9/9/R3K4 w"))
    assert ["note", "{side} is in check", {"side": "second"}] in result.plies[0].ops
    assert result.decision is None  # the general escapes to D8


# -- Chinese notation ----------------------------------------------------------------


def test_front_and_back_pieces_on_one_file():
    fen = "3k5/9/9/9/9/6R2/9/9/9/4K1R2 w"
    _, result = replay(pgn("1. 前车进一 D9D8 2. 后车进一", fen=fen))
    assert [p.label for p in result.plies] == ["前车进一", "将４进１", "后车进一"]
    assert board(result)["G5"] == "red chariot" and board(result)["G1"] == "red chariot"


def test_a_file_number_for_two_pieces_on_one_file_is_read_as_the_one_that_can_move_so():
    # Chariots on G0 and G4; G0 cannot step onto its own soldier on G1.
    fen = "3k5/9/9/9/9/6R2/9/9/6P2/4K1R2 w"
    _, result = replay(pgn("1. 车三进一", fen=fen))
    warning = next(d for d in result.diagnostics if d.code == "RULE-W501")
    assert "G4" in warning.message
    assert result.plies[0].label == "前车进一"  # the page shows the notation as it should be


def test_a_file_number_that_fits_two_pieces_is_an_error():
    fen = "3k5/9/9/9/9/6R2/9/9/9/4K1R2 w"
    code, message, number = illegal(fen, "1. 车三进一")
    assert code == "RULE-E508" and "前 or 后" in message and number == 1


# Red soldiers doubled on two files: E5 and E6 (red's file 五), C5 and C6 (file 七).
DOUBLED = "3k5/9/9/2P1P4/2P1P4/9/9/9/9/4K4 w"


def test_soldiers_doubled_on_two_files_are_written_with_their_file():
    _, result = replay(pgn("1. E6E7 D9D8 2. C6B6", fen=DOUBLED))
    # 前兵 alone would name two soldiers: the page writes the file too.
    assert [p.label for p in result.plies] == ["前兵五进一", "将４进１", "前兵七平八"]


@pytest.mark.parametrize(
    ("written", "start", "end"),
    [
        ("前兵五进一", "E6", "E7"),  # place, soldier, file: the traditional form
        ("后兵七平八", "C5", "B5"),
        ("前五进一", "E6", "E7"),  # the soldier left out
        ("一兵进一", "E6", "E7"),  # the computer standard: counted from the mover's right, front first
        ("二兵平四", "E5", "F5"),
        ("三兵平八", "C6", "B6"),
    ],
)
def test_every_usual_way_of_naming_one_of_them_reads(written, start, end):
    _, result = replay(pgn(f"1. {written}", fen=DOUBLED))
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics
    assert board(result).get(end) == "red soldier" and start not in board(result)


@pytest.mark.parametrize(
    ("written", "words"),
    [("前兵进一", "write the file too"), ("前三进一", "fewer than two"), ("五兵进一", "there are 4")],
)
def test_a_name_that_fits_none_or_two_of_them_is_an_error(written, words):
    code, message, number = illegal(DOUBLED, f"1. {written}")
    assert code == "RULE-E508" and words in message and number == 1


def test_a_piece_not_on_the_named_file_is_an_error_at_that_move():
    code, message, number = illegal(xiangqi.START_FEN + " w", "1. 炮二平五 马８进７ 2. 马四进三")
    assert code == "RULE-E508" and number == 3 and "四" in message


def test_horse_and_elephant_moves_name_the_file_they_reach():
    _, result = replay(pgn("1. 相三进五 象７进５ 2. 马八进九 马２进１ 3. 仕四进五 士６进５"))
    assert [p.label for p in result.plies] == ["相三进五", "象７进５", "马八进九", "马２进１", "仕四进五", "士６进５"]
    assert board(result)["E2"] == "red elephant" and board(result)["E8"] == "black advisor"


def test_every_ply_carries_its_coordinates():
    _, result = replay(pgn("1. 炮二平五 h9g7 2. H0-G2"))
    assert [(p.label, p.alt) for p in result.plies] == [("炮二平五", "H2E2"), ("马８进７", "H9G7"), ("马二进三", "H0G2")]
    # On hover in the move list, not a note beneath the board.
    assert not [op for p in result.plies for op in p.ops if op[0] == "note"]


# -- the board -----------------------------------------------------------------------


def test_the_board_has_river_palaces_and_discs_with_characters():
    board_ = xq_board.board_for(CC)
    _, result = replay(pgn("1. H2E2"))
    svg = board_.svg(position_after(result.setup, result.plies), label="test")
    root = ET.fromstring(svg)
    texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "楚 河" in texts and "汉 界" in texts
    for character in "帥仕相傌俥炮兵將士象馬車砲卒":
        assert character in texts
    # Each drawing declared once, every piece a <use>: 32 pieces at the start.
    uses = [u for u in root.iter(f"{SVG}use") if u.get("href", "").startswith("#q-xq-")]
    assert len(uses) == 32
    # The red cannon now stands on E2.
    x, y = board_.cells["E2"]
    assert any(u.get("href") == "#q-xq-cannon-red" and float(u.get("x")) == x and float(u.get("y")) == y for u in uses)
    # Red at the bottom: E0 below E9.
    assert board_.cells["E0"][1] > board_.cells["E9"][1]


def test_a_capture_removes_the_piece_when_its_ply_is_shown():
    _, result = replay(pgn("1. H2H9"))
    before = position_after(result.setup, result.plies, 0)
    after = position_after(result.setup, result.plies, 1)
    assert len(before.pieces) == 32 and len(after.pieces) == 31


def test_the_move_list_shows_the_coordinates_on_hover(tmp_path):
    content = tmp_path / "content" / "2025-cc"
    content.mkdir(parents=True)
    text = pgn("1. 炮二平五 马８进７ 2. H0G2 1-0", result="1-0")
    (content / "CC-红队 vs 黑队-先手胜-202512131000.PGN").write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "site")],
        cwd=tmp_path, capture_output=True, text=True, encoding="utf-8",
    )
    assert done.returncode == 0, done.stderr
    (page,) = (tmp_path / "site" / "games").rglob("*.html")
    html = page.read_text(encoding="utf-8")
    links = dict(re.findall(r'<a href="#ply=(\d+)" title="([^"]*)">', html))
    assert links == {"1": "H2E2", "2": "H9G7", "3": "H0G2"}
    assert re.search(r'<a href="#ply=1" title="H2E2">.*?炮二平五', html)
    assert "in coordinates" not in html


@pytest.mark.parametrize("encoding", ["gb18030", "utf-8"])
def test_a_game_page_shows_chinese_notation(tmp_path, encoding):
    content = tmp_path / "content" / "2025-cc"
    content.mkdir(parents=True)
    text = pgn("  1. 炮二平五 马８进７\n  2. 马二进三 车９平８\n 1-0", result="1-0")
    (content / "CC-红队 vs 黑队-先手胜-202512131000.PGN").write_bytes(text.encode(encoding))
    done = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "site")],
        cwd=tmp_path, capture_output=True, text=True, encoding="utf-8",
    )
    assert done.returncode == 0, done.stderr
    pages = list((tmp_path / "site" / "games").rglob("*.html"))
    assert len(pages) == 1
    page = pages[0].read_text(encoding="utf-8")
    for label in ("炮二平五", "马８进７", "马二进三", "车９平８"):
        assert label in page
    assert "q-board-xiangqi" in page and "楚 河" in page

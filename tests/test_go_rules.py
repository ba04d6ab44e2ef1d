"""The Go-family engine (GO, GO13, GO9, NoGo, Phantom Go): captures, suicide,
superko, the count after two passes, NoGo's end, Phantom Go's failed attempts
and what each player's view shows."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest

from generator import diagnostics, games, scene
from generator.model import Metadata, Move, Record
from generator.rules import engine, go
from generator.rules.go import GoState, replay

GO = games.GAMES["GO"]
GO9 = games.GAMES["GO9"]
GO13 = games.GAMES["GO13"]
NG = games.GAMES["NG"]
PG = games.GAMES["PG"]

_ENTRY = re.compile(r"([A-Za-z])\[(?:([A-Za-z])(\d+))?\]")



def plain(ops: list) -> list:
    """Ops with their notes said in English, as ``["note", text]`` (as a page says them)."""
    return [["note", scene.note_text(op, NAMES)] if op[0] == "note" else op for op in ops]


def notes(ops: list) -> list[str]:
    """The English text of a ply's notes (a note is a template and its arguments)."""
    return [scene.note_text(op, NAMES) for op in ops if op[0] == "note"]


NAMES = ("Black", "White")

def record(text: str, line: int = 1) -> Record:
    """A record from ``B[D5];W[];...`` on one line: ``X[]`` is a pass, anything
    else that is not ``X[<letter><number>]`` an unreadable move. Each move's
    column is where its entry starts, so diagnostics can be checked."""
    moves = []
    column = 1
    for entry in text.split(";"):
        m = _ENTRY.fullmatch(entry)
        if m is None:
            moves.append(Move(entry[:1], entry, None, line, column))
        elif m.group(2) is None:
            moves.append(Move(m.group(1), entry, None, line, column, passed=True))
        else:
            moves.append(Move(m.group(1), entry, (m.group(2), int(m.group(3))), line, column))
        column += len(entry) + 1
    return Record("game.txt", None, Metadata(), moves)


def alternate(*cells: str) -> str:
    """``B[..];W[..];...`` from cells in playing order (``""`` is a pass)."""
    return ";".join(("B" if n % 2 == 0 else "W") + f"[{c}]" for n, c in enumerate(cells))


def stones(replayed, view: str = "referee", count: int | None = None) -> dict[str, str]:
    """Cell -> colour of the stones a view shows after ``count`` plies."""
    position = scene.position_after(replayed.setup, replayed.plies, count, view=view)
    return {piece.at: piece.side for piece in position.pieces.values()}


def only_error(replayed, code: str):
    assert [d.code for d in replayed.diagnostics] == [code], replayed.diagnostics
    return replayed.diagnostics[0]


# -- Go: placing, capturing ---------------------------------------------------


def test_plain_moves_add_stones_with_a_last_mark_and_no_decision() -> None:
    r = replay(record("B[D5];W[E5];B[I9]"), GO9, GO9.options)
    assert r.diagnostics == [] and r.not_replayed == [] and r.decision is None
    assert [p.side for p in r.plies] == ["first", "second", "first"]
    assert r.plies[0].ops == [["add", "s1", "stone", "black", "D5"], ["mark", "D5", "last"]]
    # The move list names the point as players write it; the record's text shows on hover.
    assert (r.plies[0].label, r.plies[0].alt) == ("D5", "B[D5]") and r.plies[0].colour == "black"
    assert stones(r) == {"D5": "black", "E5": "white", "I9": "black"}  # column I exists: A-I on 9x9


def test_a_capture_removes_the_stone_and_sets_the_counter() -> None:
    # White A1 is taken when black closes its last liberty at A2.
    r = replay(record(alternate("B1", "A1", "A2")), GO9, GO9.options)
    assert r.diagnostics == []
    assert r.plies[2].ops == [
        ["add", "s3", "stone", "black", "A2"],
        ["mark", "A2", "last"],
        ["remove", "s2"],
        ["count", "captures.first", 1],
    ]
    assert stones(r) == {"B1": "black", "A2": "black"}
    assert scene.position_after([], r.plies).counts == {"captures.first": 1}


def test_snapback_captures_five_stones_and_both_counters_add_up() -> None:
    # Black A1 A2 B2 C2 under a white wall (A3 B3 C3 D2 D1). White throws in at
    # B1, black takes it at C1, white plays B1 again and takes all five.
    moves = alternate("A1", "A3", "A2", "B3", "B2", "C3", "C2", "D2", "I9", "D1", "H9", "B1", "C1", "B1")
    r = replay(record(moves), GO9, GO9.options)
    assert r.diagnostics == []
    take_one, snapback = r.plies[12], r.plies[13]
    assert ["remove", "s12"] in take_one.ops and ["count", "captures.first", 1] in take_one.ops
    removed = sorted(op[1] for op in snapback.ops if op[0] == "remove")
    assert removed == sorted(["s1", "s3", "s5", "s7", "s13"])  # A1 A2 B2 C2 and the new C1
    assert ["count", "captures.second", 5] in snapback.ops
    board = stones(r)
    assert board["B1"] == "white" and not {"A1", "A2", "B2", "C2", "C1"} & set(board)
    assert scene.position_after([], r.plies).counts == {"captures.first": 1, "captures.second": 5}


def test_a_capture_of_two_groups_at_once() -> None:
    # White A2 and B1 each have one liberty left, A1: black A1 takes both.
    moves = alternate("A3", "A2", "B2", "B1", "C1", "I9", "A1")
    r = replay(record(moves), GO9, GO9.options)
    assert r.diagnostics == []
    assert sorted(op[1] for op in r.plies[-1].ops if op[0] == "remove") == ["s2", "s4"]
    assert ["count", "captures.first", 2] in r.plies[-1].ops


def test_filling_the_last_liberty_while_capturing_is_not_suicide() -> None:
    # Black A1 has no liberty of its own but takes white B1 (whose last liberty it is).
    moves = alternate("C1", "B1", "B2", "A2", "I9", "A3", "A1")  # white A2 A3 are not in atari
    r = replay(record(moves), GO9, GO9.options)
    assert r.diagnostics == []
    assert ["remove", "s2"] in r.plies[-1].ops


# -- Go: illegal moves ----------------------------------------------------------


def test_suicide_is_an_error_naming_the_move_and_the_rest_is_not_replayed() -> None:
    r = replay(record(alternate("I9", "A2", "H9", "B1", "A1", "C5")), GO9, GO9.options)
    error = only_error(r, go.SUICIDE)
    assert error.severity == "error"
    assert error.message.startswith("move 5, B[A1]: suicide")
    assert "A1" in error.message and (error.line, error.column) == (1, 25)
    assert len(r.plies) == 4 and [m.text for m in r.not_replayed] == ["B[A1]", "W[C5]"]


def test_suicide_of_a_group_names_its_stones() -> None:
    # Black A1 B1 under white C1 B2 A3: black A2 takes the group's own last liberty.
    moves = alternate("A1", "C1", "B1", "B2", "I9", "A3", "A2")
    r = replay(record(moves), GO9, GO9.options)
    error = only_error(r, go.SUICIDE)
    assert "group of 3 stones (A1, B1, A2)" in error.message


def test_ko_recapture_repeating_the_position_is_an_error_naming_the_earlier_move() -> None:
    # Black C5 D6 D4 around D5, white E6 F5 E4 around E5; white D5 (move 8),
    # black takes it at E5 (move 9); white's retake at D5 would recreate the
    # position after move 8.
    moves = alternate("C5", "E6", "D6", "F5", "D4", "E4", "A1", "D5", "E5", "D5")
    r = replay(record(moves), GO9, GO9.options)
    error = only_error(r, go.SUPERKO)
    assert error.message.startswith("move 10, W[D5]: ")
    assert "after move 8" in error.message and "superko" in error.message
    assert len(r.plies) == 9 and ["remove", "s8"] in r.plies[8].ops


def test_ko_may_be_retaken_after_a_move_elsewhere() -> None:
    moves = alternate("C5", "E6", "D6", "F5", "D4", "E4", "A1", "D5", "E5", "A9", "B1", "D5")
    r = replay(record(moves), GO9, GO9.options)
    assert r.diagnostics == []
    assert ["remove", "s9"] in r.plies[-1].ops  # white retook the ko, capturing E5


def test_occupied_point_is_an_error_naming_the_move_there() -> None:
    r = replay(record("B[D5];W[D5]"), GO9, GO9.options)
    error = only_error(r, go.OCCUPIED)
    assert error.message == "move 2, W[D5]: D5 is already occupied by move 1 (Black)"
    assert error.column == 7


@pytest.mark.parametrize("entry", ["B[J1]", "B[A10]", "B[A0]"])
def test_off_board_is_an_error(entry: str) -> None:
    r = replay(record(entry), GO9, GO9.options)
    error = only_error(r, engine.OFF_BOARD)
    assert "off the board" in error.message and "9x9, columns A-I, rows 1-9" in error.message


def test_off_board_depends_on_the_board_size() -> None:
    assert replay(record("B[M13]"), GO13, GO13.options).diagnostics == []
    assert replay(record("B[S19]"), GO, GO.options).diagnostics == []
    assert only_error(replay(record("B[M13]"), GO9, GO9.options), engine.OFF_BOARD)


def test_wrong_side_is_an_error_and_a_pass_counts_as_a_turn() -> None:
    error = only_error(replay(record("W[D5]"), GO9, GO9.options), engine.WRONG_SIDE)
    assert error.message == "move 1, W[D5]: wrong side to move: expected Black to move, found White"
    error = only_error(replay(record("B[D5];B[E5]"), GO9, GO9.options), engine.WRONG_SIDE)
    assert error.message.startswith("move 2, B[E5]: wrong side to move: expected White")
    # B passes, so white is next: B again is wrong.
    r = replay(record("B[];B[D5]"), GO9, GO9.options)
    assert only_error(r, engine.WRONG_SIDE).message.startswith("move 2, B[D5]")
    assert replay(record("B[];W[D5];B[E5]"), GO9, GO9.options).diagnostics == []


def test_unknown_side_letter_is_a_wrong_side_error() -> None:
    error = only_error(replay(record("R[D5]"), GO9, GO9.options), engine.WRONG_SIDE)
    assert "unknown side 'R'" in error.message


def test_an_unreadable_move_stops_the_replay_with_a_note() -> None:
    r = replay(record("B[D5];W[??];B[E5]"), GO9, GO9.options)
    note = only_error(r, engine.UNREADABLE)
    assert note.severity == "note" and note.message.startswith("move 2, W[??]: ")
    assert len(r.plies) == 1 and [m.text for m in r.not_replayed] == ["W[??]", "B[E5]"]


# -- Go: passes and the count --------------------------------------------------

# Black fills column E, white column F: black owns A-E (45 points), white F-I (36).
WALLS = ";".join(f"B[E{row}];W[F{row}]" for row in range(1, 10))


def test_two_passes_end_the_game_with_the_area_count_and_komi() -> None:
    r = replay(record(WALLS + ";B[];W[]"), GO9, GO9.options)
    assert r.diagnostics == []
    assert r.decision is not None
    assert (r.decision.winner, r.decision.rule, r.decision.ply) == ("first", "score", 20)
    assert r.decision.score == {"first": 45.0, "second": 36.0, "komi": 7.5}
    last = r.plies[-1]
    assert plain(last.ops)[0] == ["note", "White passes"]
    assert "Black 45, White 36 (komi 7.5): Black wins by 1.5" in notes(last.ops)
    assert plain(r.plies[-2].ops) == [["note", "Black passes"]]
    assert not any(op[0] == "mark" for op in last.ops)  # a pass marks no point


def test_neutral_points_count_for_nobody() -> None:
    # Black column D, white column F: column E touches both and is nobody's.
    moves = ";".join(f"B[D{row}];W[F{row}]" for row in range(1, 10)) + ";B[];W[]"
    r = replay(record(moves), GO9, {"komi": 7})
    assert r.decision is not None and r.decision.score == {"first": 36.0, "second": 36.0, "komi": 7.0}
    assert r.decision.winner == "second"
    assert "Black 36, White 36 (komi 7): White wins by 7" in notes(r.plies[-1].ops)


def test_an_integer_komi_can_make_a_draw() -> None:
    r = replay(record(WALLS + ";B[];W[]"), GO9, {"komi": 9})
    assert r.decision is not None and r.decision.winner == "draw"
    assert "Black 45, White 36 (komi 9): draw" in notes(r.plies[-1].ops)


def test_stones_in_the_opponents_area_count_as_alive() -> None:
    # Tromp-Taylor: a white stone at B5 inside black's area stays alive, so
    # black's region A-D touches white and is nobody's.
    moves = ";".join(f"B[E{row}];W[F{row}]" for row in range(1, 10)) + ";B[];W[B5];B[];W[]"
    r = replay(record(moves), GO9, GO9.options)
    assert r.decision is not None and r.decision.score == {"first": 9.0, "second": 37.0, "komi": 7.5}
    assert r.decision.winner == "second" and r.decision.ply == 22


def test_the_move_list_says_a_pass_in_the_pages_language() -> None:
    from generator.render.strings import strings
    from generator.render.viewer import viewer_parts

    r = replay(record("B[D5];W[];B[E5]"), GO9, GO9.options)
    for language, word in (("zh-CN", "虚手"), ("en", "pass")):
        html = viewer_parts(GO9, r, strings=strings(language), label="x")["moves_html"]
        labels = re.findall(r'<span class="q-label">([^<]*)</span>', html)
        assert labels == ["D5", word, "E5"], language
        assert 'title="W[]"' in html  # the record's text on hover


def test_a_pass_then_a_move_does_not_end_the_game() -> None:
    r = replay(record("B[];W[D5];B[];W[E5]"), GO9, GO9.options)
    assert r.decision is None and r.diagnostics == []


def test_moves_after_two_passes_are_errors() -> None:
    r = replay(record(WALLS + ";B[];W[];B[A1];W[B1]"), GO9, GO9.options)
    error = only_error(r, engine.AFTER_END)
    assert error.message == "move 21, B[A1]: the game ended with two passes at move 20; no move may follow"
    assert r.decision is not None and r.decision.ply == 20
    assert [m.text for m in r.not_replayed] == ["B[A1]", "W[B1]"]
    # A third pass is a move after the end too.
    assert only_error(replay(record("B[];W[];B[]"), GO9, GO9.options), engine.AFTER_END)


def test_two_passes_on_an_empty_board_give_white_the_komi() -> None:
    r = replay(record("B[];W[]"), GO9, GO9.options)
    assert r.decision is not None and r.decision.winner == "second"
    assert r.decision.score == {"first": 0.0, "second": 0.0, "komi": 7.5}


# -- NoGo -----------------------------------------------------------------------


def test_nogo_capture_as_the_last_move_loses_for_the_mover() -> None:
    # Real records end with the losing move: black's A2 captures white's A1, so white wins.
    r = replay(record(alternate("B1", "A1", "A2")), NG, NG.options)
    assert r.diagnostics == [] and len(r.plies) == 3
    assert r.decision is not None
    assert (r.decision.winner, r.decision.rule, r.decision.ply) == ("second", "capture", 3)
    assert "A2 captures 1 White stones (A1): capturing loses in NoGo, White wins" in notes(r.plies[-1].ops)


def test_nogo_capture_followed_by_moves_is_an_error() -> None:
    r = replay(record(alternate("B1", "A1", "A2", "D5")), NG, NG.options)
    error = only_error(r, go.NOGO_CAPTURE)
    assert error.message.startswith("move 3, B[A2]: A2 would capture 1 White stone (A1)")
    assert len(r.plies) == 2 and r.decision is None


def test_nogo_suicide_as_the_last_move_loses_for_the_mover() -> None:
    r = replay(record(alternate("A2", "I9", "B1", "A1")), NG, NG.options)
    assert r.diagnostics == []
    assert r.decision is not None and (r.decision.winner, r.decision.rule, r.decision.ply) == ("first", "suicide", 4)
    assert "A1 is suicide: White loses in NoGo, Black wins" in notes(r.plies[-1].ops)
    # Followed by another move, it is an error as before.
    r = replay(record(alternate("A2", "I9", "B1", "A1", "D5")), NG, NG.options)
    assert only_error(r, go.SUICIDE).message.startswith("move 4, W[A1]: suicide")


def test_nogo_pass_is_an_error() -> None:
    r = replay(record("B[D5];W[]"), NG, NG.options)
    error = only_error(r, go.NOGO_PASS)
    assert error.message.startswith("move 2, W[]: passing is not allowed in NoGo")


def test_nogo_player_without_a_legal_move_loses() -> None:
    # On a 3x3 board, after B C1, W A2, B B2, W B3, B A1, W C2:
    #   3  . W .
    #   2  W B W
    #   1  B . B
    # black's A3 and C3 would capture (A2, C2), B1 would be suicide: white wins.
    tiny = dataclasses.replace(NG, columns=3, rows=3)
    r = replay(record(alternate("C1", "A2", "B2", "B3", "A1", "C2")), tiny, tiny.options)
    assert r.diagnostics == []
    assert r.decision is not None
    assert (r.decision.winner, r.decision.rule, r.decision.ply) == ("second", "no-legal-move", 6)
    assert "Black has no legal move: White wins" in notes(r.plies[-1].ops)
    # One move earlier black still had moves: no decision.
    assert replay(record(alternate("C1", "A2", "B2", "B3", "A1")), tiny, tiny.options).decision is None
    # The record may end with black's forced move, which loses (B1: suicide): the same winner, at move 7.
    forced = replay(record(alternate("C1", "A2", "B2", "B3", "A1", "C2", "B1")), tiny, tiny.options)
    assert forced.diagnostics == [] and forced.decision is not None
    assert (forced.decision.winner, forced.decision.rule, forced.decision.ply) == ("second", "suicide", 7)
    # Followed by more moves, the forced move is not the record's end: the game was decided before it.
    after = replay(record(alternate("C1", "A2", "B2", "B3", "A1", "C2", "B1", "C3")), tiny, tiny.options)
    error = only_error(after, engine.AFTER_END)
    assert error.message.startswith("move 7, B[B1]: the game was already decided at move 6: Black had no legal move")
    # A forced move that cannot be played at all (on a stone): the game was decided before it.
    occupied_point = replay(record(alternate("C1", "A2", "B2", "B3", "A1", "C2", "C1")), tiny, tiny.options)
    error = only_error(occupied_point, engine.AFTER_END)
    assert "decided at move 6: Black had no legal move" in error.message


def test_nogo_has_legal_move_counts_captures_and_suicide() -> None:
    state = GoState(NG)
    assert state.has_legal_move(go.BLACK) and state.has_legal_move(go.WHITE)
    tiny = dataclasses.replace(NG, columns=2, rows=1)
    state = GoState(tiny)
    assert state.place(state.index(0, 0))[0] is None  # black A1
    # White's only point B1 would capture A1 (and have no liberty itself).
    assert not state.has_legal_move(go.WHITE)
    assert state.over and state.winner == "first" and state.rule == "no-legal-move"


def test_nogo_ordinary_game_has_no_decision() -> None:
    r = replay(record("B[D5];W[E5];B[E4];W[D4];B[E6];W[F5];B[F6];W[F4];B[G5]"), NG, NG.options)
    assert r.diagnostics == [] and r.decision is None and len(r.plies) == 9


# -- Phantom Go -----------------------------------------------------------------

# The standard's example: white's D5 (move 8) bumps into black's D5, white tries again at F4.
PG_EXAMPLE = "B[D5];W[E5];B[E4];W[D4];B[E6];W[F5];B[F6];W[D5];W[F4];B[G5]"


def test_phantom_failed_attempt_keeps_the_player_and_is_counted() -> None:
    r = replay(record(PG_EXAMPLE), PG, PG.options)
    assert r.diagnostics == [] and r.decision is None
    assert [p.side for p in r.plies] == ["first", "second"] * 3 + ["first", "second", "second", "first"]
    failed = r.plies[7]
    assert (failed.label, failed.alt) == ("D5", "W[D5]") and failed.visible_to == ("second",)
    assert failed.ops == [["count", "attempts.second", 1]]
    referee, mine = failed.hidden
    assert (referee[0], plain(referee[1])) == (
        ("referee",),
        [["mark", "D5", "failed"], ["note", "D5 is occupied by Black: failed attempt, White tries again"]],
    )
    assert mine[0] == ("second",)
    assert mine[1][0] == ["add", "s1", "stone", "black", "D5"] and ["mark", "D5", "failed"] in mine[1]
    assert scene.position_after([], r.plies, view="first").counts == {"attempts.second": 1}


def test_phantom_views_show_own_stones_and_found_ones() -> None:
    r = replay(record(PG_EXAMPLE), PG, PG.options)
    black = {"D5", "E4", "E6", "F6", "G5"}
    white = {"E5", "D4", "F5", "F4"}
    assert stones(r, "referee") == {**{c: "black" for c in black}, **{c: "white" for c in white}}
    assert stones(r, "first") == {c: "black" for c in black}
    assert stones(r, "second") == {**{c: "white" for c in white}, "D5": "black"}
    # Before white's failed attempt white's view had no black stone at all.
    assert stones(r, "second", count=7) == {c: "white" for c in ("E5", "D4", "F5")}
    # Each move's label is for its mover only; the stone itself too.
    assert all(p.visible_to == (p.side,) for p in r.plies)
    assert scene.ops_for(r.plies[0], "second") == []
    assert scene.ops_for(r.plies[0], "first") == [["add", "s1", "stone", "black", "D5"], ["mark", "D5", "last"]]


def test_phantom_capture_is_seen_by_everyone_and_removes_found_stones() -> None:
    # Black bumps into white A1 (so black's view shows it), then takes it.
    r = replay(record("B[B1];W[A1];B[A1];B[A2]"), PG, PG.options)
    assert r.diagnostics == []
    assert stones(r, "first", count=3) == {"B1": "black", "A1": "white"}
    capture = r.plies[3]
    assert capture.ops == [["remove", "s2"], ["count", "captures.first", 1]]
    for view in ("referee", "first"):
        assert stones(r, view) == {"B1": "black", "A2": "black"}
    assert stones(r, "second") == {}
    counts = scene.position_after([], r.plies, view="second").counts
    assert counts == {"attempts.first": 1, "captures.first": 1}


def test_phantom_own_stone_suicide_and_superko_are_failed_attempts() -> None:
    # Own stone.
    r = replay(record("B[D5];W[E5];B[D5];B[C5]"), PG, PG.options)
    assert r.diagnostics == []
    assert "occupied by Black's own stone" in notes(r.plies[2].hidden[0][1])[0]
    assert (r.plies[2].hidden[1][0], plain(r.plies[2].hidden[1][1])) == (
        ("first",),
        [["mark", "D5", "failed"], ["note", "D5: failed attempt, Black tries again"]],
    )
    # Suicide: A1 between white A2 and B1; black's view shows no white stone.
    r = replay(record("B[I9];W[A2];B[H9];W[B1];B[A1];B[C3]"), PG, PG.options)
    assert r.diagnostics == []
    assert plain(r.plies[4].hidden[0][1])[1] == ["note", "A1 would be suicide: failed attempt, Black tries again"]
    assert stones(r, "first") == {"I9": "black", "H9": "black", "C3": "black"}
    # Superko: white's immediate retake of the ko fails; white plays elsewhere.
    moves = alternate("C5", "E6", "D6", "F5", "D4", "E4", "A1", "D5", "E5", "D5") + ";W[A9]"
    r = replay(record(moves), PG, PG.options)
    assert r.diagnostics == []
    assert "would repeat the position after move 8 (superko)" in notes(r.plies[9].hidden[0][1])[0]
    assert r.plies[10].side == "second" and stones(r)["A9"] == "white"
    assert stones(r)["E5"] == "black" and "D5" not in stones(r)


def test_phantom_wrong_side_is_an_error() -> None:
    r = replay(record("B[D5];W[E5];W[F5]"), PG, PG.options)
    error = only_error(r, engine.WRONG_SIDE)
    assert error.message == (
        "move 3, W[F5]: wrong side to move: expected Black to move, found White "
        "(White's move 2 (E5) was legal, so it was not a failed attempt)"
    )
    r = replay(record("B[D5];W[D5];B[E5]"), PG, PG.options)
    error = only_error(r, engine.WRONG_SIDE)
    assert "expected White to try again after the failed attempt at move 2, found Black" in error.message


def test_phantom_two_passes_end_the_game_and_failed_attempts_between_do_not_count() -> None:
    # Black passes; white bumps into D5 then passes: two passes in a row.
    r = replay(record("B[D5];W[E5];B[];W[D5];W[]"), PG, PG.options)
    assert r.diagnostics == []
    assert r.decision is not None and r.decision.ply == 5 and r.decision.winner == "second"
    assert r.decision.score == {"first": 1.0, "second": 1.0, "komi": 7.5}
    assert r.plies[2].visible_to is None  # passes are announced to both players
    assert "Black 1, White 1 (komi 7.5): White wins by 7.5" in notes(r.plies[-1].ops)
    assert only_error(replay(record("B[D5];W[E5];B[];W[D5];W[];B[A1]"), PG, PG.options), engine.AFTER_END)


def test_phantom_corpus_record_replays_up_to_an_unwritten_pass(corpus: Path) -> None:
    """A real engine's self-play record: no failed attempt in 140 moves, then two
    white moves in a row though white's I5 was legal (black's pass is not written)."""
    text = (corpus / "PG" / "PG_01_1sen3_selfplay_20250920.txt").read_text(encoding="utf-8-sig")
    moves = [
        Move(m.group(1), m.group(0)[1:], (m.group(2), int(m.group(3))), 1, m.start() + 2)
        for m in re.finditer(r";([BW])\[([A-I])(\d)\]", text)
    ]
    r = replay(Record("pg.txt", "PG", Metadata(), moves), PG, PG.options)
    assert len(r.plies) == 140 and [m.text for m in r.not_replayed] == ["W[A3]"]
    error = only_error(r, engine.WRONG_SIDE)
    assert error.message.startswith("move 141, W[A3]: wrong side to move: expected Black")
    assert "move 140 (I5) was legal" in error.message
    referee = stones(r)
    assert set(stones(r, "first").items()) == {(c, s) for c, s in referee.items() if s == "black"}


# -- the state API, codes, speed ------------------------------------------------


def test_state_place_leaves_the_board_unchanged_when_illegal() -> None:
    state = GoState(GO9, GO9.options)
    for x, y in ((8, 8), (0, 1), (7, 8), (1, 0)):  # black I9, white A2, black H9, white B1
        assert state.place(state.index(x, y))[0] is None
    before = bytes(state.board)
    reason, group, _ = state.place(state.index(0, 0))  # black A1: suicide
    assert (reason, group) == ("suicide", [state.index(0, 0)])
    assert bytes(state.board) == before and state.side_to_move == "first" and state.moves == 4
    assert state.at(0, 1) == "second" and state.at(0, 0) is None
    assert state.place(state.index(0, 1)) == ("occupied", [], 0)
    assert state.score() == (2, 3)  # A1 touches white only; the rest touches both colours


def test_diagnostic_codes_are_defined_with_advice() -> None:
    codes = [
        engine.UNREADABLE,
        engine.WRONG_SIDE,
        engine.OFF_BOARD,
        go.OCCUPIED,
        go.SUICIDE,
        go.SUPERKO,
        engine.AFTER_END,
        go.NOGO_CAPTURE,
        go.NOGO_PASS,
    ]
    assert len(set(codes)) == len(codes)
    for code in codes:
        entry = diagnostics.CATALOG[code]
        assert re.fullmatch(r"RULE-[EWN](3\d\d|00\d)", code) and entry.title and entry.help
        assert entry.severity == {"E": "error", "W": "warning", "N": "note"}[code[5]]


def _random_game(game, count: int, seed: int) -> Record:
    """A legal game of ``count`` moves (random points; a pass when none is found)."""
    rng = random.Random(seed)
    state = GoState(game, game.options)
    entries = []
    while len(entries) < count and not state.over:
        side = "B" if state.side_to_move == "first" else "W"
        for _ in range(50):
            i = rng.choice(state.points)
            if state.board[i] == go.EMPTY and state.place(i)[0] is None:
                entries.append(f"{side}[{state.cells[i]}]")
                break
        else:
            if state.passes or game.params["variant"] == "nogo":  # no second pass; NoGo has none
                break
            state.pass_turn()
            entries.append(f"{side}[]")
    return record(";".join(entries))


@pytest.mark.parametrize(("game", "count"), [(GO, 300), (GO9, 100), (NG, 60)])
def test_long_random_games_replay_completely(game, count: int) -> None:
    # How fast: benchmarks/bench_replay.py prints the figures (no timed assertions here).
    rec = _random_game(game, count, seed=7)
    r = replay(rec, game, game.options)
    assert r.diagnostics == [] and len(r.plies) == len(rec.moves)

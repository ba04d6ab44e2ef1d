"""The minishogi engine (MSK) and its board: moves, promotion, drops, check, mate, repetition, notation."""

from __future__ import annotations

import pytest

from generator import games, pipeline
from generator.boards import shogi as shogi_board
from generator.formats import csa
from generator.model import Source, Text
from generator.rules import shogi
from generator.scene import position_after

MSK = games.GAMES["MSK"]


def game(pieces: str, moves: str, turn: str = "+", end: str = ""):
    """Replay ``moves`` (space-separated, one per line) from a position of single pieces.

    ``pieces``: ``"+OU45 -OU41 +GI33 +FU00"`` (side, piece, square; 00 = in hand).
    """
    lines = ["V2.1-55"]
    for item in pieces.split():
        lines.append(f"P{item[0]}{item[3:5]}{item[1:3]}")
    lines.append(turn)
    lines += moves.split()
    if end:
        lines.append(end)
    text = "\n".join(lines) + "\n"
    record = csa.parse(Text("MSK-t.txt", text, "utf-8"), MSK)
    assert [d.code for d in record.diagnostics if d.severity != "note"] == []
    return shogi.replay(record, MSK)


def errors(replay) -> list[str]:
    return [d.code for d in replay.diagnostics if d.severity == "error"]


def accepted(pieces: str, move: str, turn: str = "+") -> bool:
    replay = game(pieces, move, turn)
    return len(replay.plies) == 1


SQUARES = [f"{f}{r}" for f in range(1, 6) for r in range(1, 6)]
# Kings out of every line through 33, so that each piece on 33 moves freely.
KINGS = "+OU45 -OU41"
# Where a piece of sente on 33 goes on an otherwise empty board.
FROM_33 = {
    "FU": {"32"},
    "GI": {"42", "32", "22", "44", "24"},
    "KI": {"42", "32", "22", "43", "23", "34"},
    "KA": {"42", "51", "22", "11", "44", "55", "24", "15"},
    "HI": {"31", "32", "34", "35", "13", "23", "43", "53"},
}
FROM_33["TO"] = FROM_33["NG"] = FROM_33["KI"]
FROM_33["UM"] = FROM_33["KA"] | {"32", "34", "23", "43"}
FROM_33["RY"] = FROM_33["HI"] | {"42", "22", "44", "24"}


@pytest.mark.parametrize("piece", sorted(FROM_33))
def test_each_piece_moves_as_the_rules_say(piece):
    for to in SQUARES:
        if to == "33" or to in ("45", "41"):
            continue
        # Written as itself: into rank 1 that is a move without promotion, also legal.
        ok = accepted(f"{KINGS} +{piece}33", f"+33{to}{piece}")
        assert ok == (to in FROM_33[piece]), (piece, to)


def test_gote_pieces_face_the_other_way():
    # Gote's silver on 33 steps forward to rank 4 and back diagonally to rank 2.
    moved = {to for to in SQUARES if to not in ("33", "45", "41") and accepted(f"{KINGS} -GI33", f"-33{to}GI", "-")}
    assert moved == {"24", "34", "44", "22", "42"}
    moved = {to for to in SQUARES if to not in ("33", "45", "41") and accepted(f"{KINGS} -FU33", f"-33{to}FU", "-")}
    assert moved == {"34"}


def test_the_king_steps_once_and_never_into_check():
    assert accepted("+OU33 -OU11", "+3343OU")
    assert not accepted("+OU33 -OU11", "+3331OU")
    replay = game("+OU33 -OU11", "+3322OU")  # next to the other king
    assert errors(replay) == ["RULE-E707"]


def test_a_slide_stops_at_the_first_piece():
    replay = game("+OU55 -OU51 +HI15 +FU13", "+1511HI")
    assert errors(replay) == ["RULE-E702"] and "13" in replay.diagnostics[0].message
    assert accepted("+OU55 -OU51 +HI15 -FU13", "+1513HI")  # the first piece may be taken
    assert not accepted("+OU55 -OU51 +HI15 +FU13", "+1513HI")


def test_moving_from_an_empty_square_or_onto_an_own_piece_is_refused():
    assert errors(game(KINGS, "+3332GI")) == ["RULE-E701"]
    assert errors(game(f"{KINGS} -GI33", "+3332GI")) == ["RULE-E701"]  # gote's silver
    assert errors(game(f"{KINGS} +GI33 +FU32", "+3332GI")) == ["RULE-E703"]


def test_a_pinned_piece_may_not_expose_its_king():
    replay = game("+OU55 +GI44 -KA22 -OU11", "+4443GI")
    assert errors(replay) == ["RULE-E707"]


def test_promotion_in_the_far_rank_only_and_forced_for_a_pawn():
    both = "+OU55 -OU51"
    assert [p.label for p in game(f"{both} +GI32", "+3221NG").plies] == ["▲２一銀成"]
    assert [p.label for p in game(f"{both} +GI32", "+3221GI").plies] == ["▲２一銀不成"]
    assert len(game(f"{both} +GI21", "+2132NG").plies) == 1  # out of the zone: may promote
    replay = game(f"{both} +GI33", "+3322NG")
    assert errors(replay) == ["RULE-E705"] and not replay.plies
    replay = game(f"{both} +FU32", "+3231FU")
    assert errors(replay) == ["RULE-E705"]
    assert [p.label for p in game(f"{both} +FU32", "+3231TO").plies] == ["▲３一歩成"]
    # Gote promotes on rank 5.
    assert [p.label for p in game(f"{both} -FU14", "-1415TO", "-").plies] == ["△１五歩成"]


def test_a_gold_written_as_promoting_is_reported_and_read_as_a_gold_move():
    replay = game("+OU55 -OU51 +KI32", "+3222TO")
    assert errors(replay) == ["RULE-E704"] and len(replay.plies) == 1
    final = position_after(replay.setup, replay.plies)
    assert {p.kind for p in final.pieces.values() if p.at == "22"} == {"KI"}


def test_captures_go_to_the_hand_unpromoted_and_are_dropped():
    replay = game("+OU55 -OU51 +HI35 -TO32 -TO33", "+3533HI -5141OU +0012FU")
    assert errors(replay) == []
    labels = [p.label for p in replay.plies]
    assert labels == ["▲３三飛", "△４一玉", "▲１二歩打"]
    after_capture = position_after(replay.setup, replay.plies, 1)
    hand = [p for p in after_capture.pieces.values() if p.at.startswith("hand0-")]
    assert [(p.kind, p.at) for p in hand] == [("FU", "hand0-FU")]
    # A second pawn shows ×2 beside the first.
    replay = game("+OU55 -OU51 +HI35 -TO32 -TO33 +FU00", "+3533HI")
    final = position_after(replay.setup, replay.plies)
    assert {(p.kind, p.at) for p in final.pieces.values() if p.at.startswith("hand0-")} == {
        ("FU", "hand0-FU"),
        ("x2", "hand0-FU-n"),
    }


def test_drops_the_rules_forbid():
    base = "+OU55 -OU51"
    assert errors(game(f"{base} +FU54 +FU00", "+0053FU")) == ["RULE-E706"]  # 二歩
    assert "二歩" in game(f"{base} +FU54 +FU00", "+0053FU").diagnostics[0].message
    assert len(game(f"{base} +TO54 +FU00", "+0053FU").plies) == 1  # a promoted pawn does not count
    assert errors(game(f"{base} +FU00", "+0031FU")) == ["RULE-E706"]  # the far rank
    assert errors(game(f"{base} +GI00", "+0051GI")) == ["RULE-E706"]  # not empty
    assert errors(game(base, "+0033KI")) == ["RULE-E706"]  # not in hand
    assert len(game(f"{base} +GI00", "+0021GI").plies) == 1  # a silver may be dropped on the far rank


def test_pawn_drop_mate_is_refused_but_other_drops_may_mate():
    position = "-OU11 +KI23 +GI32 +OU55 +FU00 +KI00"
    replay = game(position, "+0012FU")
    assert errors(replay) == ["RULE-E706"] and "打ち歩詰め" in replay.diagnostics[0].message
    assert replay.decision is None and not replay.plies
    replay = game(position, "+0012KI")
    assert replay.decision is not None and replay.decision.winner == "first" and replay.decision.rule == "checkmate"
    # A pawn drop that checks but does not mate is fine.
    replay = game("-OU11 +OU55 +FU00", "+0012FU")
    assert len(replay.plies) == 1 and replay.decision is None


def test_checkmate_ends_the_game_and_the_declared_result_is_checked():
    text = "V2.1-55\nN+甲\nN-乙\nP-11OU\nP+13FU\nP+55OU\nP+00KI\n+\n+0012KI\n%TORYO\n"
    done = pipeline.process(Source("MSK-甲 vs 乙.txt", text.encode(), "x"), encoding=None, options={})
    assert done.replay is not None and done.replay.decision is not None
    assert done.replay.decision.winner == "first" and done.declared == "first"
    assert not [d for d in done.diagnostics if d.severity == "error"]
    # A move after the mate is an error; and a header that disagrees with the rules too.
    text = "V2.1-55\nP-11OU\nP+13FU\nP+55OU\nP+00KI\n+\n+0012KI\n%KACHI\n"
    done = pipeline.process(Source("MSK-甲 vs 乙.txt", text.encode(), "x"), encoding=None, options={})
    assert "RES-E001" in [d.code for d in done.diagnostics]


def test_check_is_noted_and_tsumi_is_checked():
    replay = game("-OU11 +OU55 +FU00", "+0012FU")
    notes = [op for op in replay.plies[0].ops if op[0] == "note"]
    assert notes and notes[0][2] == {"side": "second"}
    replay = game("-OU11 +OU55 +FU00", "+0012FU", end="%TSUMI")
    assert [d.code for d in replay.diagnostics] == ["RULE-W702"]


def test_the_fourth_occurrence_of_a_position_is_noted_and_the_declared_result_stands():
    shuffle = "+5545OU -1121OU +4555OU -2111OU " * 3
    replay = game("+OU55 -OU11", shuffle, end="%SENNICHITE")
    repeated = [d for d in replay.diagnostics if d.code == "RULE-N701"]
    assert len(repeated) == 1 and replay.decision is None and len(replay.plies) == 12
    assert repeated[0].line == 4 + 12  # the 12th move: the start position for the fourth time
    replay = game("+OU55 -OU11", "+5545OU -1121OU", end="%SENNICHITE")
    assert [d.code for d in replay.diagnostics] == ["RULE-W701"]


def test_notation_says_same_square_and_which_piece():
    replay = game("+OU55 -OU51 +KI43 +KI23 -FU32", "+4332KI")
    assert [p.label for p in replay.plies] == ["▲３二金左"]
    replay = game("+OU55 -OU51 +KI43 +KI23 -FU32", "+2332KI")
    assert [p.label for p in replay.plies] == ["▲３二金右"]
    replay = game("+OU55 -OU51 +KI33 +KI42", "+3332KI")
    assert [p.label for p in replay.plies] == ["▲３二金上"]
    replay = game("+OU55 -OU51 +KI33 +KI42", "+4232KI")
    assert [p.label for p in replay.plies] == ["▲３二金寄"]


def test_the_board_draws_pieces_facing_their_owner_and_both_hands():
    replay = game("+OU55 -OU51 +HI35 -TO32 -TO33 +FU00", "+3533HI")
    board = shogi_board.board_for(MSK)
    final = position_after(replay.setup, replay.plies)
    svg = board.svg(final, label="final", static=False)
    assert svg.count('<use href="#q-msk-') == 6  # four on the board; the pawn in hand and its ×2
    static = board.static_markup
    assert 'id="q-msk-FU-up"' in static and 'transform="rotate(180)"' in static
    assert "#c0392b" in static  # promoted pieces in red
    assert "▲" in static and "△" in static
    scene = board.scene()
    assert scene["symbols"]["TO"] == {"black": "q-msk-TO-up", "white": "q-msk-TO-down"}
    for cell in ("hand0-FU", "hand1-HI", "hand0-FU-n", "51", "15"):
        assert cell in scene["cells"]
    # Sente's hand on the right, gote's on the left of the board.
    assert scene["cells"]["hand0-FU"][0] > scene["cells"]["15"][0] > scene["cells"]["51"][0] > scene["cells"]["hand1-FU"][0]


def test_the_viewer_sees_promotions_drops_and_the_hand_change_as_they_happen():
    replay = game("+OU55 -OU51 +GI32 +KI00 +FU00 +FU00", "+3221NG -5141OU +0033KI -4151OU +0043FU")
    promote, _, drop_gold, _, drop_pawn = (ply.ops for ply in replay.plies)
    assert ["set", "p7", "NG"] in promote and ["move", "p7", "21"] in promote
    assert ["remove", "h0KI"] in drop_gold and ["add", "d3", "KI", "black", "33"] in drop_gold
    # Two pawns in hand, one dropped: the ×2 goes, the pawn stays.
    assert ["remove", "n0FU"] in drop_pawn and ["remove", "h0FU"] not in drop_pawn
    final = position_after(replay.setup, replay.plies)
    assert {(p.kind, p.at) for p in final.pieces.values() if p.at.startswith("hand")} == {("FU", "hand0-FU")}
    assert {(p.kind, p.at) for p in final.pieces.values() if not p.at.startswith("hand")} == {
        ("OU", "55"), ("OU", "51"), ("NG", "21"), ("KI", "33"), ("FU", "43")
    }


def notes(ply) -> list[str]:
    return [op[1] for op in ply.ops if op[0] == "note"]


def test_a_move_after_checkmate_is_refused_and_the_mate_is_noted_on_its_ply():
    replay = game("-OU11 +FU13 +OU55 +KI00", "+0012KI -1121OU")
    assert len(replay.plies) == 1 and errors(replay) == ["RULE-E003"]
    assert replay.decision is not None and replay.decision.rule == "checkmate" and replay.decision.ply == 1
    assert notes(replay.plies[0]) == ["{loser} is checkmated"]  # instead of the check's note
    assert [m.text for m in replay.not_replayed] == ["-1121OU"]


def test_no_legal_move_without_check_ends_the_game():
    # Gote's king on 11 is not attacked, but 12 and 22 are the gold's and 21 the bishop's.
    replay = game("-OU11 +KI23 +KA54 +OU55", "+5443KA")
    assert replay.decision is not None and replay.decision.rule == "no-move" and replay.decision.winner == "first"
    assert notes(replay.plies[0]) == ["{loser} has no legal move"]
    replay = game("-OU11 +KI23 +KA54 +OU55", "+5443KA -1112OU")
    assert errors(replay) == ["RULE-E003"] and len(replay.plies) == 1


def test_a_pawn_drop_that_a_piece_can_take_does_not_mate_unless_that_piece_is_pinned():
    # The king cannot take the pawn (the gold on 23 guards it) nor step away; the gold on 21 can take it.
    replay = game("-OU11 -KI21 +KI23 +OU55 +FU00", "+0012FU -2112KI")
    assert len(replay.plies) == 2 and not errors(replay)
    # Pinned by the rook on 51 along the first rank, it cannot: the pawn drop mates, which the rules forbid.
    replay = game("-OU11 -KI21 +KI23 +HI51 +OU55 +FU00", "+0012FU")
    assert errors(replay) == ["RULE-E706"] and "打ち歩詰め" in replay.diagnostics[0].message


def test_a_check_the_start_position_already_holds_is_still_seen():
    # Gote is in check from the rook before sente's first move (a set-up position may be so).
    replay = game("-OU11 +HI15 +OU55", "+5545OU")
    assert notes(replay.plies[0]) == ["{side} is in check"]


def test_a_start_position_that_lets_the_mover_take_the_king_refuses_the_capture_without_a_crash():
    # Gote's king on 11 stands in check from sente's gold on 12, with sente to move.
    replay = game("+OU55 -OU11 +KI12", "+1211KI")
    assert replay.plies == [] and errors(replay) == ["RULE-E702"]
    assert "takes the king on 11" in replay.diagnostics[-1].message


def test_checks_and_pawn_drop_mates_agree_with_the_full_search_over_random_games():
    import random

    from generator.model import Move, Ply

    rng = random.Random("msk-checks")
    seen = {"checks": 0, "mates": 0}
    for _ in range(12):
        engine = shogi.ShogiEngine(MSK)
        for number in range(1, 121):
            legal = engine.legal_moves()
            if not legal:
                break
            text = rng.choice(legal)
            start = None if text[1:3] == "00" else (text[1], int(text[2]))
            move = Move(text[0], text, start, 0, 0, to=(text[3], int(text[4])), parts=(text[5:],))
            seat = engine.turn
            ply = engine.play(move, engine.read(move), number, seat)
            assert isinstance(ply, Ply), ply
            full = engine._attacked(engine.king[engine.turn], seat)
            assert engine.checked == full, text
            seen["checks"] += full
            # Every pawn drop the side to move could try: refused as a mate exactly when the full search says so.
            mover = engine.turn
            for to in range(25):
                if engine.kind[to] or shogi.far_row(mover, to):
                    continue
                engine.kind[to], engine.owner[to], engine.pos[to] = shogi.FU, mover, shogi.CODE[mover][shogi.FU]
                other = 1 - mover
                mates = engine._attacked(engine.king[other], mover) and not engine._has_board_move(other)
                assert engine._pawn_mates(to, mover) == mates, (text, to)
                seen["mates"] += mates
                engine.kind[to], engine.owner[to], engine.pos[to] = 0, -1, 0
            if engine.unsettled:
                engine.unsettled = False
                engine.settle(ply)  # as the driver does after the last move
                if engine.decision is not None:
                    break
    assert seen["checks"] > 20 and seen["mates"] > 0, seen

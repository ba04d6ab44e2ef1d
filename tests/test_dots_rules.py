"""Dots and boxes rules (DB): edges, boxes, the extra move, the end, the declared score."""

from __future__ import annotations

import json
import random

from generator import formats, games
from generator.model import Source, Text
from generator.pipeline import process, sha256
from generator.rules import dots
from generator.scene import position_after

GAME = games.GAMES["DB"]


def record_text(pieces: list[str], **head) -> str:
    """A record with one piece per line: move n is on line n + 1 (the header is line 1)."""
    header = {"R": "红队", "B": "蓝队", **head}
    lines = [json.dumps(header, ensure_ascii=False)[:-1] + ', "game": [']
    lines += [f'  {{"piece": "{p}"}}' + ("," if n < len(pieces) - 1 else "") for n, p in enumerate(pieces)]
    return "\n".join([*lines, "]}"]) + "\n"


def replay(pieces: list[str], **head):
    record = formats.read(Text("t.txt", record_text(pieces, **head), "utf-8"), None)
    return dots.replay(record, GAME)


def pipeline(pieces: list[str], name: str = "t.txt", **head):
    data = record_text(pieces, **head).encode("utf-8")
    return process(Source(name, data, sha256(data)), encoding=None, options={})


def errors(result) -> list[str]:
    return [d.code for d in result.diagnostics if d.severity == "error"]


# A box a1-b2 closed by the fourth edge: red draws three, blue the fourth and moves again.
BOX_A1 = ["r(a1,h)", "b(a2,h)", "r(a1,v)", "b(b1,v)"]


def full_game(seed: int) -> tuple[list[str], list[int]]:
    """Every edge in a random order, each mover worked out here (not by Qipu): the pieces and the boxes per seat.

    Dots are (column, row) from 0; an edge is the pair of its dots; a box is
    taken by who draws its last side, and that player moves again.
    """
    rng = random.Random(seed)
    edges = [((x, y), (x + 1, y)) for x in range(5) for y in range(6)] + [((x, y), (x, y + 1)) for x in range(6) for y in range(5)]
    rng.shuffle(edges)
    drawn: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    seat, boxes, pieces = 0, [0, 0], []
    for a, b in edges:
        drawn.add((a, b))
        direction = "h" if a[1] == b[1] else "v"
        pieces.append(f"{'rb'[seat]}({chr(97 + a[0])}{a[1] + 1},{direction})")
        closed = 0
        for x in range(5):
            for y in range(5):
                sides = {((x, y), (x + 1, y)), ((x, y + 1), (x + 1, y + 1)), ((x, y), (x, y + 1)), ((x + 1, y), (x + 1, y + 1))}
                if (a, b) in sides and sides <= drawn:
                    closed += 1
        boxes[seat] += closed
        if not closed:
            seat = 1 - seat
    return pieces, boxes


def test_a_completed_box_is_taken_and_its_player_moves_again():
    result = replay([*BOX_A1, "b(c1,h)", "r(d1,h)"])
    assert not result.diagnostics and len(result.plies) == 6
    assert [p.side for p in result.plies] == ["first", "second", "first", "second", "second", "first"]
    fourth = result.plies[3]
    assert ["add", "ba1", "box", "blue", "a1"] in fourth.ops and ["count", "boxes.second", 1] in fourth.ops
    assert ["note", "{side} completes a box and moves again", {"side": "second"}] in fourth.ops
    shown = position_after(result.setup, result.plies)
    assert shown.counts == {"boxes.first": 0, "boxes.second": 1}
    assert {p.at: (p.kind, p.side) for p in shown.pieces.values()}["a1"] == ("box", "blue")
    assert shown.pieces["eb1v"].kind == "edge-v" and shown.pieces["ea2h"].at == "a2h"


def test_one_edge_can_complete_two_boxes():
    # b1 between boxes a1 and b1: both closed by it.
    pieces = ["r(a1,h)", "b(a2,h)", "r(a1,v)", "b(b1,h)", "r(b2,h)", "b(c1,v)", "r(b1,v)"]
    result = replay(pieces)
    assert not result.diagnostics
    last = result.plies[-1]
    assert sum(1 for op in last.ops if op[0] == "add" and op[2] == "box") == 2
    assert ["note", "{side} completes two boxes and moves again", {"side": "first"}] in last.ops
    assert ["count", "boxes.first", 2] in last.ops


def test_moving_out_of_turn_after_a_box_says_why():
    result = replay([*BOX_A1, "r(c1,h)"])
    (error,) = result.diagnostics
    assert (error.code, error.line) == ("RULE-E001", 6)
    assert error.message == (
        "move 5, r(c1,h): wrong side to move: Blue completed a box with move 4 and moves again, found Red"
    )
    plain = replay(["r(a1,h)", "r(c1,h)"]).diagnostics[0]
    assert plain.message.endswith("(the sides alternate unless a move completes a box)")


def test_an_edge_drawn_twice_names_the_first_time():
    result = replay(["r(a1,h)", "b(c3,v)", "r(c3,v)"])
    (error,) = result.diagnostics
    assert (error.code, error.line, error.column) == ("RULE-E901", 4, 13)
    assert error.message == "move 3, r(c3,v): the edge c3v was already drawn at move 2"
    assert len(result.plies) == 2 and len(result.not_replayed) == 1


def test_an_edge_off_the_board():
    for piece, dot in (("r(f3,h)", "g3"), ("r(b6,v)", "b7"), ("r(g1,v)", "g1"), ("r(a0,h)", "a0")):
        (error,) = replay([piece]).diagnostics
        assert error.code == "RULE-E002", piece
        assert error.message == f"move 1, {piece}: the edge reaches {dot}, off the board (the dots run from a1 to f6)"


def test_a_mover_the_record_does_not_name_follows_the_turn_order():
    result = replay(["n(a1,h)", "n(a2,h)", "n(a1,v)", "n(b1,v)", "n(c1,h)"])
    assert not result.diagnostics
    assert [p.colour for p in result.plies] == ["red", "blue", "red", "blue", "blue"]


def test_blue_may_move_first():
    result = replay(["b(a1,h)", "r(a2,h)"])
    assert result.first_letter == "B" and not result.diagnostics
    assert [(p.side, p.colour) for p in result.plies] == [("first", "blue"), ("second", "red")]
    assert GAME.ordered(result.first_letter).first.colour == "blue"


def test_the_last_edge_ends_the_game_on_the_boxes_taken():
    pieces, boxes = full_game(7)
    result = replay(pieces)
    assert not result.diagnostics and len(result.plies) == 60
    decision = result.decision
    assert decision is not None and (decision.rule, decision.ply) == ("boxes", 60)
    assert decision.score == {"first": float(boxes[0]), "second": float(boxes[1])} and sum(boxes) == 25
    assert decision.winner == ("first" if boxes[0] > boxes[1] else "second")
    assert decision.said("en") == f"every edge drawn: Red took {boxes[0]} boxes, Blue {boxes[1]}"
    shown = position_after(result.setup, result.plies)
    assert sum(p.kind == "box" for p in shown.pieces.values()) == 25
    assert sum(p.kind.startswith("edge") for p in shown.pieces.values()) == 60
    assert shown.counts == {"boxes.first": boxes[0], "boxes.second": boxes[1]}


def test_a_move_after_the_last_edge():
    pieces, _ = full_game(8)
    (error,) = replay([*pieces, "r(a1,h)"]).diagnostics
    assert error.code == "RULE-E003"
    assert error.message == "move 61, r(a1,h): every edge was drawn by move 60; no move may follow"


def test_a_declared_score_or_winner_that_differs_from_the_boxes_is_an_error():
    pieces, boxes = full_game(9)
    right = {"RScore": boxes[0], "BScore": str(boxes[1]), "winner": "R" if boxes[0] > boxes[1] else "B"}
    done = pipeline(pieces, **right)
    assert errors(done) == [] and done.score == {"first": boxes[0], "second": boxes[1]}
    wrong = pipeline(pieces, **{**right, "RScore": boxes[0] + 1, "BScore": boxes[1] - 1})
    (error,) = [d for d in wrong.diagnostics if d.severity == "error"]
    assert (error.code, error.line) == ("RULE-E902", 1)
    assert error.message == (
        f"the record declares Red {boxes[0] + 1}, Blue {boxes[1] - 1}, but the boxes taken are Red {boxes[0]}, Blue {boxes[1]}"
    )
    # The page and the standings count the boxes, not the declaration.
    assert wrong.score == {"first": boxes[0], "second": boxes[1]}
    loser = "B" if right["winner"] == "R" else "R"
    assert errors(pipeline(pieces, **{**right, "winner": loser})) == ["RES-E001"]


def test_an_aborted_game_keeps_its_declared_result_if_the_score_can_be_reached():
    done = pipeline(BOX_A1, winner="B", RScore=3, BScore=12)
    assert errors(done) == [] and done.replay.decision is None
    assert done.result == "second" and done.score == {"first": 3.0, "second": 12.0}
    unreachable = pipeline(BOX_A1, winner="R", RScore=20, BScore=0)
    (error,) = [d for d in unreachable.diagnostics if d.severity == "error"]
    assert error.code == "RULE-E903"
    assert error.message == (
        "the record declares Red 20, Blue 0, which cannot be reached: after the last move Red has 0 boxes, Blue 1, of 25"
    )

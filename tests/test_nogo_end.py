"""NoGo records end as NoGo games really end: with the loser's capture or suicide (issue 24).

Through the whole pipeline: the record's declared result is checked against
the rules' decision, as an organiser reads it on the problems page.
"""

from __future__ import annotations

from generator.pipeline import Source, process, sha256


def processed(moves: str, result: str):
    text = f"([NG][甲 B][乙 W][{result}][2025.12.07 16:30 北京][测试];{moves})"
    data = text.encode("utf-8")
    return process(Source(f"NG-甲 B vs 乙 W-{result}.txt", data, sha256(data)), encoding=None, options={})


def test_a_last_move_that_captures_loses_and_a_result_that_agrees_is_no_error() -> None:
    # Black's A2 takes white's last liberty of A1: black captured, white wins.
    p = processed("B[B1];W[A1];B[A2]", "后手胜")
    assert [d for d in p.diagnostics if d.severity in ("error", "warning")] == []
    assert p.replay is not None and p.replay.decision is not None
    assert (p.replay.decision.winner, p.replay.decision.rule, p.replay.decision.ply) == ("second", "capture", 3)


def test_a_declared_result_that_disagrees_with_the_losing_capture_is_an_error() -> None:
    p = processed("B[B1];W[A1];B[A2]", "先手胜")
    assert [(d.code, d.message) for d in p.diagnostics] == [
        ("RES-E001", "the header declares 'first player wins' but the rules decide 'second player wins' at move 3"),
        ("RES-E001", "the file name declares 'first player wins' but the rules decide 'second player wins' at move 3"),
    ]


def test_a_last_move_that_is_suicide_loses() -> None:
    p = processed("B[A2];W[I9];B[B1];W[A1]", "先手胜")
    assert [d for d in p.diagnostics if d.severity in ("error", "warning")] == []
    assert p.replay is not None and p.replay.decision is not None
    assert (p.replay.decision.winner, p.replay.decision.rule) == ("first", "suicide")


def test_a_move_after_the_losing_capture_is_an_error() -> None:
    p = processed("B[B1];W[A1];B[A2];W[D5]", "后手胜")
    assert [(d.code, d.message) for d in p.diagnostics] == [
        ("RULE-E307", "move 3, B[A2]: A2 would capture 1 White stone (A1); capturing loses in NoGo, so the game would end here, but the record goes on"),
    ]

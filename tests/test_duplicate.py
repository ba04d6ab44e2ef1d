"""Boards played in duplicate (bridge): IMPs and VPs in team matches, matchpoints in pairs events.

Worked by hand as a tournament director would, with the WBF tables of the
bridge rules module (tests/test_bridge_rules.py checks those numbers).
"""

from __future__ import annotations

import pytest

from generator.archive import duplicate
from generator.archive.duplicate import Sitting

bridge = pytest.importorskip("generator.rules.bridge")
SCORING = duplicate.Scoring(bridge.imps, bridge.victory_points, bridge.matchpoint_percentages)


def table(board: str, room: str, ns: str, ew: str, score: float, n: int = 0) -> Sitting:
    return Sitting(f"g-{board}-{room}-{n}", board, room, ns, ew, score)


def test_a_board_at_two_tables_of_two_teams_gives_imps_to_the_team_that_did_better() -> None:
    tables = [
        # Board 1: A bids and makes 4♠ (+620) at the open table; at the closed table B stops in 2♠ (+170 for B).
        table("1", "Open", "A", "B", 620), table("1", "Closed", "B", "A", 170),
        # Board 2: B goes down 1 doubled vulnerable at the open table (+200 for A); A makes 3NT (-600 for B's NS).
        table("2", "Open", "A", "B", -100), table("2", "Closed", "B", "A", -600),
    ]  # fmt: skip
    found = duplicate.compare(tables, SCORING)
    [m] = found.matches
    assert (m.first, m.second) == ("A", "B")
    # 620 - 170 = 450: 10 IMPs to A. -100 + 600 = 500: 11 IMPs to A.
    assert [b.imps for b in m.boards] == [10, 11] and m.imps == (21, 0)
    # Two boards, a 21 IMP margin: the blitz is 15 * sqrt(2) = 21.2, so not quite 20-0.
    assert m.vps is not None and 19 < m.vps[0] < 20 and m.vps[0] + m.vps[1] == pytest.approx(20)
    assert found.kind == "teams" and [r.team for r in found.rows] == ["A", "B"] and found.imps == {"A": 21, "B": -21}


def test_each_team_match_deals_its_own_boards_and_vps_rank_the_teams() -> None:
    tables = [
        table("1", "Open", "A", "B", 420), table("1", "Closed", "B", "A", 420),   # flat: 0 IMPs
        table("1", "Open", "C", "D", 100), table("1", "Closed", "D", "C", -50),   # 150 to C: 4 IMPs
        table("2", "Open", "A", "B", -50), table("2", "Closed", "B", "A", 110),   # -160 to A: 4 IMPs to B
        table("2", "Open", "C", "D", 0), table("2", "Closed", "D", "C", 0),
    ]  # fmt: skip
    found = duplicate.compare(tables, SCORING)
    assert sorted((m.first, m.second, m.imps) for m in found.matches) == [("A", "B", (0, 4)), ("C", "D", (4, 0))]
    ranked = [(r.team, r.wins, r.losses) for r in found.rows]
    assert ranked[0][1] == 1 and ranked[-1][2] == 1 and {ranked[0][0], ranked[1][0]} == {"B", "C"}
    # Without VPs (vp_scale = "none"), the IMP margins rank.
    plain = duplicate.compare(tables, duplicate.Scoring(bridge.imps, None, bridge.matchpoint_percentages))
    assert all(m.vps is None for m in plain.matches) and plain.rows[0].score == 4


def test_a_board_at_many_tables_is_scored_by_matchpoints() -> None:
    tables = [table("1", str(i), ns, ew, score) for i, (ns, ew, score) in enumerate(
        [("P1", "P2", 420), ("P3", "P4", 450), ("P5", "P6", 420), ("P7", "P8", -50)], 1
    )]  # fmt: skip
    found = duplicate.compare(tables, SCORING)
    assert found.kind == "pairs" and not found.matches
    [board] = found.boards
    # 450 beats three: 6 of 6 = 100 %; each 420 beats one and ties one: 3 of 6 = 50 %; -50: 0 %.
    assert board.percentages == (50.0, 100.0, 50.0, 0.0)
    rows = {r.team: (r.rank, r.score) for r in found.rows}
    assert rows["P3"] == (1, 100.0) and rows["P8"] == (1, 100.0) and rows["P7"] == (7, 0.0) and rows["P4"] == (7, 0.0)
    assert rows["P1"][1] == 50.0 and rows["P2"][1] == 50.0


def test_a_table_without_teams_or_score_is_left_out() -> None:
    assert duplicate.sitting("g", "1", "Open", ("A", "B", "A", "B"), [("first+third", 620.0)]) is not None
    assert duplicate.sitting("g", "1", "Open", (None, "B", "A", "B"), [("first+third", 620.0)]) is None
    # Two players of a pair, named each: the pair is both names.
    pair = duplicate.sitting("g", "1", "3", ("Smith", "Ng", "Jones", "Li"), [("first+third", -100.0)])
    assert pair is not None and (pair.north_south, pair.east_west, pair.score) == ("Smith – Jones", "Ng – Li", -100.0)
    assert duplicate.sitting("g", "", "Open", ("A", "B", "A", "B"), [("first+third", 620.0)]) is None
    assert duplicate.sitting("g", "1", "Open", ("A", "B", "A", "B"), []) is None

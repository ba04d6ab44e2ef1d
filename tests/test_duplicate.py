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


def test_the_demo_bridge_event_ranks_teams_by_vps_from_every_board_at_both_tables(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The demo's team match event, built: each match board by board, IMPs as the two tables' scores give them."""
    import re
    import shutil
    from html import unescape
    from pathlib import Path

    from generator.build import Builder
    from generator.config import load_config

    demo = Path(__file__).resolve().parents[1] / "content" / "2025-br"
    if not demo.is_dir():
        pytest.skip("the demo bridge event is not in content/")
    shutil.copytree(demo, tmp_path / "content" / "2025-br")
    (tmp_path / "site.toml").write_text('[events.2025-br]\nname = "Bridge"\n', encoding="utf-8")
    config, problems = load_config(tmp_path / "site.toml", root=tmp_path, output=tmp_path / "site")
    assert problems == []
    builder = Builder(config, jobs=1, cache_dir=tmp_path / ".cache")
    builder.build()
    builder.wait()
    page = (tmp_path / "site" / "events" / "2025-br" / "index.html").read_text(encoding="utf-8")
    matches = re.findall(r"<h3>(.*?)</h3>\s*<div class=\"q-scroll\">\s*<table class=\"q-boards\">(.*?)</table>", page, re.S)
    assert len(matches) == 6  # four teams, a round robin of team matches
    vps = []
    for heading, body in matches:
        text = unescape(re.sub(r"<[^>]+>", "", heading))
        imp_a, imp_b, vp_a, vp_b = map(float, re.findall(r"IMP (\d+) : (\d+) · VP ([\d.]+) : ([\d.]+)", text)[0])
        rows = re.findall(r"<tr><td>(\d+)</td>(.*?)</tr>", body, re.S)
        assert len(rows) == 16  # every board, both tables in one row
        won = [[int(v or 0) for v in re.findall(r'<td class="q-num">(\d*)</td>', cells)] for _, cells in rows]
        assert sum(a for a, _ in won) == imp_a and sum(b for _, b in won) == imp_b
        assert (vp_a, vp_b) == pytest.approx(bridge.victory_points(imp_a - imp_b, 16), abs=0.01)
        vps.append((vp_a, vp_b))
    assert all(a + b == pytest.approx(20) for a, b in vps)
    standings_rows = re.findall(r"<tr><td>(\d+)</td><td><a[^>]*>([^<]+)</a></td><td>3</td>.*?<strong>([\d.]+)</strong>", page, re.S)
    assert len(standings_rows) == 4
    totals = [float(v) for _, _, v in standings_rows]
    assert totals == sorted(totals, reverse=True) and sum(totals) == pytest.approx(sum(a + b for a, b in vps))
    # A board's page counts each partnership's tricks in the page's language.
    board = next((tmp_path / "site" / "games" / "2025-br").glob("*.html")).read_text(encoding="utf-8")
    assert "NS 墩数" in board and "EW 墩数" in board and "NS tricks" not in board

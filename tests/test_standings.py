"""Standings, tie-breaks and crosstables, on small leagues built by hand."""

from __future__ import annotations

import random

import pytest

from generator.archive.standings import (
    TIEBREAKS,
    CrossGame,
    Played,
    Points,
    crosstable,
    standings,
)


def games(*specs: str) -> list[Played]:
    """Games from "A>B" (first wins), "A<B" (second wins), "A=B" (draw); first is the left team."""
    out = []
    for i, spec in enumerate(specs, 1):
        for sign, result in ((">", "first"), ("<", "second"), ("=", "draw")):
            if sign in spec:
                first, second = spec.split(sign)
                out.append(Played(f"g{i:02d}", first, second, result))
    return out


def table(rows) -> list[tuple[int, str]]:
    return [(row.rank, row.team) for row in rows]


def by_team(rows):
    return {row.team: row for row in rows}


def test_points_two_one_zero():
    rows = standings("ABC", games("A>B", "A=C", "B>C"), Points())
    assert table(rows) == [(1, "A"), (2, "B"), (3, "C")]
    a, b, c = rows
    assert (a.games, a.wins, a.draws, a.losses, a.points) == (2, 1, 1, 0, 3.0)
    assert (b.wins, b.draws, b.losses, b.points) == (1, 0, 1, 2.0)
    assert (c.wins, c.draws, c.losses, c.points) == (0, 1, 1, 1.0)
    assert not any(row.tied for row in rows)


def test_points_three_one_zero_changes_the_order():
    # Two wins and two losses against four draws: level at 2/1/0, not at 3/1/0.
    league = games("A>X", "A>Y", "X>A", "Y>A", "B=X", "B=Y", "X=B", "Y=B")
    two = by_team(standings("ABXY", league, Points()))
    assert two["A"].points == two["B"].points == 4.0
    rows = standings("ABXY", league, Points(win=3.0, draw=1.0, loss=0.0))
    assert by_team(rows)["A"].points == 6.0
    assert by_team(rows)["B"].points == 4.0
    assert table(rows)[0] == (1, "A")


def test_head_to_head_alone_splits_two_teams_level_on_points():
    league = games("A>B", "B>Y", "X>A", "X>Y")
    assert [r.team for r in standings("ABXY", league, Points(), order=())[1:3]] == ["A", "B"]
    assert [r.rank for r in standings("ABXY", league, Points(), order=())[1:3]] == [2, 2]
    rows = standings("ABXY", league, Points(), order=("head-to-head",))
    assert table(rows) == [(1, "X"), (2, "A"), (3, "B"), (4, "Y")]
    assert by_team(rows)["A"].tiebreaks == {"head-to-head": 2.0}
    assert by_team(rows)["B"].tiebreaks == {"head-to-head": 0.0}


def test_head_to_head_is_recomputed_inside_the_group_still_tied():
    # A, B, C level on 6 points (3/1/0). Wins first leaves A and B level;
    # between them A won, although B scored more in the three-team mini-league.
    league = games("A>B", "B>C", "B>C", "A>D", "C>D", "C=D", "C=D", "C=D")
    points = Points(win=3.0)
    assert {t: r.points for t, r in by_team(standings("ABCD", league, points)).items()} == {
        "A": 6.0, "B": 6.0, "C": 6.0, "D": 3.0,
    }  # fmt: skip
    hierarchical = standings("ABCD", league, points, order=("wins", "head-to-head"))
    assert table(hierarchical) == [(1, "A"), (2, "B"), (3, "C"), (4, "D")]
    assert by_team(hierarchical)["A"].tiebreaks["head-to-head"] == 3.0
    # Head-to-head first: A never played C, so it cannot break the three-way tie (FIDE).
    three_way = standings("ABCD", league, points, order=("head-to-head",))
    assert table(three_way) == [(1, "A"), (1, "B"), (1, "C"), (4, "D")]
    assert by_team(three_way)["B"].skipped == ("head-to-head",)


def test_sonneborn_berger_breaks_a_three_team_cycle():
    # A beat B, B beat C, C beat A: level on points and head-to-head.
    # B's other win came against E (5 points), A's and C's against D (3).
    league = games("A>B", "B>C", "C>A", "A>D", "E>A", "B>E", "D>B", "C>D", "E>C", "D=E")
    rows = standings("ABCDE", league, Points(), order=("head-to-head", "sonneborn-berger"))
    assert table(rows) == [(1, "E"), (2, "B"), (3, "A"), (3, "C"), (5, "D")]
    rows = by_team(rows)
    assert rows["B"].tiebreaks == {"head-to-head": 2.0, "sonneborn-berger": 9.0}
    assert rows["A"].tiebreaks["sonneborn-berger"] == rows["C"].tiebreaks["sonneborn-berger"] == 7.0
    assert rows["A"].tied and rows["C"].tied and not rows["B"].tied


def test_wins_alone_and_custom_order():
    # A: a win and a loss; B: two draws. Same points, B has the better
    # Sonneborn-Berger (its draws came against stronger teams).
    league = games("A>X", "Y>A", "B=X", "B=Y")
    assert [r.rank for r in standings("ABXY", league, Points(), order=()) if r.team in "AB"] == [2, 2]
    by_wins = standings("ABXY", league, Points(), order=("wins",))
    assert [r.team for r in by_wins] == ["Y", "A", "B", "X"]
    assert by_team(by_wins)["A"].tiebreaks == {"wins": 1.0}
    default = standings("ABXY", league, Points())
    assert [r.team for r in default] == ["Y", "B", "A", "X"]
    assert list(by_team(default)["A"].tiebreaks) == list(TIEBREAKS)
    custom = standings("ABXY", league, Points(), order=("wins", "sonneborn-berger"))
    assert [r.team for r in custom] == ["Y", "A", "B", "X"]


def test_second_wins_decides_after_everything_else_and_ranks_are_shared():
    # A cycle: A won as first player, B and C as second player.
    league = games("A>B", "C<B", "A<C")
    rows = standings("ABC", league, Points())
    assert table(rows) == [(1, "B"), (1, "C"), (3, "A")]
    assert [row.tied for row in rows] == [True, True, False]
    b = by_team(rows)["B"]
    assert b.tiebreaks == {"head-to-head": 2.0, "sonneborn-berger": 2.0, "wins": 1.0, "second-wins": 1.0}
    assert by_team(rows)["A"].tiebreaks["second-wins"] == 0.0


def test_fully_tied_without_tiebreaks():
    rows = standings(["B", "A", "C"], games("A=B", "B=C", "C=A"), Points())
    assert table(rows) == [(1, "A"), (1, "B"), (1, "C")]
    assert all(row.tied for row in rows)


def test_teams_without_games_are_listed():
    rows = standings(["A", "B", "Z"], games("A>B"), Points())
    z = by_team(rows)["Z"]
    assert (z.games, z.wins, z.draws, z.losses, z.points) == (0, 0, 0, 0, 0.0)
    assert table(rows) == [(1, "A"), (2, "B"), (2, "Z")]
    assert z.tied


def test_teams_only_in_games_are_added_and_self_play_ignored():
    rows = standings(["A"], games("A>B", "A>A"), Points())
    assert [r.team for r in rows] == ["A", "B"]
    assert by_team(rows)["A"].games == 1


def test_unknown_tiebreak_is_refused():
    with pytest.raises(ValueError, match="buchholz"):
        standings("AB", games("A>B"), Points(), order=("buchholz",))


def test_output_does_not_depend_on_input_order():
    league = games("A>B", "B>C", "C>A", "A>D", "E>A", "B>E", "D>B", "C>D", "E>C", "D=E")
    expected = standings("ABCDE", league, Points())
    shuffled = league[:]
    random.Random(7).shuffle(shuffled)
    assert standings("EDCBA", shuffled, Points()) == expected


def double_round_robin(teams: str) -> list[Played]:
    out, n = [], 0
    results = ["first", "second", "draw"]
    for i, a in enumerate(teams):
        for b in teams[i + 1 :]:
            for first, second in ((a, b), (b, a)):
                n += 1
                out.append(Played(f"g{n:02d}", first, second, results[n % 3]))
    return out


def test_crosstable_of_a_four_team_double_round_robin():
    league = double_round_robin("ABCD")
    assert len(league) == 12
    cross = crosstable(list("ABCD"), reversed(league))
    assert set(cross) == set("ABCD")
    # A-B: g01 A first, result "second" (B wins); g02 B first, result "draw".
    assert cross["A"]["B"] == [CrossGame("g01", "0", True), CrossGame("g02", "½", False)]
    assert cross["B"]["A"] == [CrossGame("g01", "1", False), CrossGame("g02", "½", True)]
    for row in "ABCD":
        assert cross[row][row] == []
        for col in "ABCD":
            if row != col:
                cell = cross[row][col]
                assert len(cell) == 2
                assert [g.game_id for g in cell] == sorted(g.game_id for g in cell)
                assert sorted(g.as_first for g in cell) == [False, True]
                mirror = {g.game_id: g.score for g in cross[col][row]}
                flip = {"1": "0", "0": "1", "½": "½"}
                assert all(mirror[g.game_id] == flip[g.score] for g in cell)


def test_crosstable_leaves_out_unlisted_teams():
    cross = crosstable(["A", "B"], games("A>B", "A>Q"))
    assert cross["A"]["B"] == [CrossGame("g01", "1", True)]
    assert "Q" not in cross["A"]


# -- games of more than two seats, and games won on score (see tests/test_model_frame.py) --


def test_a_three_seat_game_is_a_win_for_its_winner_and_a_loss_for_both_others() -> None:
    game = Played("g1", "A", "B", "third", more=("C",), score=(("first", 5.0), ("second", 2.0), ("third", 9.0)))
    rows = {row.team: row for row in standings(["A", "B", "C"], [game], Points())}
    assert [(t, rows[t].wins, rows[t].losses, rows[t].points, rows[t].score) for t in "ABC"] == [
        ("A", 0, 1, 0.0, 5.0), ("B", 0, 1, 0.0, 2.0), ("C", 1, 0, 2.0, 9.0),
    ]  # fmt: skip
    assert [row.team for row in standings(["A", "B", "C"], [game], Points(), ["score"])] == ["C", "A", "B"]


def test_a_team_in_two_seats_of_a_partnership_counts_once_and_its_partnership_score_once() -> None:
    game = Played("g1", "NS", "EW", "first+third", more=("NS", "EW"), score=(("first+third", 420.0), ("second+fourth", -420.0)))
    rows = {row.team: row for row in standings([], [game], Points(win=3))}
    assert (rows["NS"].games, rows["NS"].wins, rows["NS"].points, rows["NS"].score) == (1, 1, 3.0, 420.0)
    assert (rows["EW"].games, rows["EW"].losses, rows["EW"].score) == (1, 1, -420.0)


def test_two_seat_games_with_scores_add_them_and_are_ranked_as_before() -> None:
    played = [
        Played("g1", "A", "B", "first", score=(("first", 16.0), ("second", 9.0))),
        Played("g2", "B", "A", "draw", score=(("first", 12.0), ("second", 12.0))),
    ]
    rows = standings(["A", "B"], played, Points())
    assert [(r.team, r.points, r.score) for r in rows] == [("A", 3.0, 28.0), ("B", 1.0, 21.0)]
    plain = standings(["A", "B"], [Played(p.game_id, p.first, p.second, p.result) for p in played], Points())
    assert [(r.rank, r.team, r.points, r.tiebreaks) for r in rows] == [(r.rank, r.team, r.points, r.tiebreaks) for r in plain]


def test_the_crosstable_puts_a_game_of_three_teams_in_the_cell_of_every_two() -> None:
    game = Played("g1", "A", "B", "second+third", more=("C",))
    table = crosstable(["A", "B", "C"], [game])
    assert [(g.game_id, g.score, g.as_first) for g in table["A"]["B"]] == [("g1", "0", True)]
    assert [(g.score, g.as_first) for g in table["C"]["B"]] == [("1", False)]
    assert table["B"]["C"][0].score == "1" and table["A"]["C"][0].score == "0"

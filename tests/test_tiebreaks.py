"""Tie-breaks as tournament rules apply them: head-to-head only among teams that all met (FIDE).

Each league is built by hand and its table worked out on paper, as an
organiser checks one before signing it.
"""

from __future__ import annotations

from generator.archive.standings import Played, Points, Tie, standings
from tests.test_standings import games


def ranks(rows) -> list[tuple[int, str, bool]]:
    return [(row.rank, row.team, row.tied) for row in rows]


# A, B and C win three games each (6 points); C never met A or B. A beat B.
# D beat F (2 points); E and F have none and never met.
UNMET = games("A>B", "A>D", "A>E", "B>D", "B>E", "B>F", "C>D", "C>E", "C>F", "D>F")
ORDER = ("head-to-head", "wins", "sonneborn-berger")


def test_head_to_head_is_skipped_where_one_of_the_tied_teams_never_met_the_others() -> None:
    rows = standings("ABCDEF", UNMET, Points(), ORDER)
    # Head-to-head would put A first (it beat B) on a game C never had the chance to play.
    # Skipped: wins leave all three level; Sonneborn-Berger puts A first (it beat B, 6 points,
    # and D, 2: 8), B and C (2 each, from D) share second place, nothing separates them.
    assert ranks(rows) == [
        (1, "A", False), (2, "B", True), (2, "C", True), (4, "D", False), (5, "E", True), (5, "F", True),
    ]  # fmt: skip
    by = {row.team: row for row in rows}
    assert by["A"].skipped == by["B"].skipped == by["C"].skipped == ("head-to-head",)
    assert by["D"].skipped == ()
    assert by["A"].tiebreaks == {"head-to-head": 0.0, "wins": 3.0, "sonneborn-berger": 8.0}
    assert by["B"].tiebreaks["sonneborn-berger"] == by["C"].tiebreaks["sonneborn-berger"] == 2.0


def test_every_step_of_every_tie_is_kept_for_the_legend() -> None:
    ties = standings("ABCDEF", UNMET, Points(), ORDER).ties
    assert ties == [
        Tie(6.0, ("A", "B", "C"), "head-to-head", "skipped", (("A", "B", "C"),), ("A", "C")),
        Tie(6.0, ("A", "B", "C"), "wins", "level", (("A", "B", "C"),)),
        Tie(6.0, ("A", "B", "C"), "sonneborn-berger", "split", (("A",), ("B", "C"))),
        Tie(0.0, ("E", "F"), "head-to-head", "skipped", (("E", "F"),), ("E", "F")),
        Tie(0.0, ("E", "F"), "wins", "level", (("E", "F"),)),
        Tie(0.0, ("E", "F"), "sonneborn-berger", "level", (("E", "F"),)),
    ]


def test_head_to_head_breaks_a_tie_of_three_that_all_met_and_the_next_tie_break_the_rest() -> None:
    # A beat B and C, B and C drew: mini-league A 4, B 1, C 1. All three have 6 points;
    # B won two games, C one, so wins (not head-to-head again) separates them.
    league = games(
        "A>B", "A>C", "A>D", "B=C", "B>D", "B>E", "B=F", "C>D", "C=E", "C=F", "C=G",
    )  # fmt: skip
    rows = standings("ABCDEFG", league, Points(), ORDER)
    by = {row.team: row for row in rows}
    assert [by[t].points for t in "ABC"] == [6.0, 6.0, 6.0]
    assert ranks(rows)[:3] == [(1, "A", False), (2, "B", False), (3, "C", False)]
    assert [by[t].tiebreaks["head-to-head"] for t in "ABC"] == [4.0, 1.0, 1.0]
    assert by["B"].skipped == ()
    six = [t for t in rows.ties if t.level == 6.0]
    assert [(t.tiebreak, t.outcome, t.groups) for t in six] == [
        ("head-to-head", "split", (("A",), ("B", "C"))),
        ("wins", "split", (("B",), ("C",))),
    ]
    # E and G, a point each, never met; each drew with C: level on everything, fifth together.
    assert ranks(rows)[3:] == [(4, "F", False), (5, "E", True), (5, "G", True), (7, "D", False)]


def test_a_tie_of_four_that_all_met_is_a_mini_league() -> None:
    # A single round robin of four, each 1 win 1 draw 1 loss... and a fifth team beaten by all.
    # Mini-league of the four: A>B, B>C, C>D, D>A, A=C, B=D: every team 3 points in it.
    league = games("A>B", "B>C", "C>D", "D>A", "A=C", "B=D", "A>X", "B>X", "C>X", "D>X")
    rows = standings("ABCDX", league, Points(), ("head-to-head",))
    assert ranks(rows) == [(1, "A", True), (1, "B", True), (1, "C", True), (1, "D", True), (5, "X", False)]
    assert all(row.tiebreaks["head-to-head"] == 3.0 and not row.skipped for row in rows[:4])
    assert rows.ties == [Tie(5.0, ("A", "B", "C", "D"), "head-to-head", "level", (("A", "B", "C", "D"),))]


def test_head_to_head_between_matches_is_skipped_the_same_way() -> None:
    # Matches of two games: A, B, C each win one match; C never met A.
    def match(n: int, first: str, second: str, results: str) -> list[Played]:
        return [
            Played(f"m{n}-{i}", first, second, {"1": "first", "2": "second", "=": "draw"}[r], match=f"m{n}")
            for i, r in enumerate(results)
        ]

    league = match(1, "A", "B", "11") + match(2, "B", "D", "1=") + match(3, "C", "D", "11") + match(4, "D", "A", "11")
    rows = standings("ABCD", league, Points(), ("head-to-head", "game-points"), by_match=True)
    by = {row.team: row for row in rows}
    assert [by[t].points for t in "ABCD"] == [2.0, 2.0, 2.0, 2.0]
    # A, B, C, D all on one match won: A and C never met, so head-to-head is skipped;
    # games won: A 2, B 1½, C 2, D 2½ (1/2 against B, 2 against A).
    assert [(r.rank, r.team) for r in rows] == [(1, "D"), (2, "A"), (2, "C"), (4, "B")]
    assert all(row.skipped == ("head-to-head",) for row in rows)

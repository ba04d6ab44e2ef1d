"""Knockout stages found from their pairings, drawn as brackets, and the places they decide."""

from __future__ import annotations

from generator.archive.stages import knockout
from generator.archive.standings import Played

RESULTS = {">": "first", "<": "second", "=": "draw"}


def played(*specs: str) -> list[Played]:
    """Games in the order played, from "A>B" (first wins), "A<B", "A=B"."""
    out = []
    for i, spec in enumerate(specs, 1):
        sign = next(c for c in spec if c in RESULTS)
        first, second = spec.split(sign)
        out.append(Played(f"g{i:02d}", first, second, RESULTS[sign]))
    return out


def teams(bouts) -> list[tuple[str, str]]:
    return [b.teams for b in bouts]


def test_semi_finals_a_final_and_a_match_for_third_place() -> None:
    bracket = knockout(played("A>D", "C<B", "A<B", "D>C"))
    assert bracket is not None and bracket.regular
    assert [teams(r) for r in bracket.rounds] == [[("A", "D"), ("C", "B")], [("A", "B")]]
    assert [b.winner for b in bracket.rounds[0]] == ["A", "B"]
    assert teams(bracket.placement) == [("D", "C")] and bracket.placement[0].places == (3, 4)
    assert bracket.rounds[1][0].places == (1, 2)
    assert bracket.placings == [(1, "B", False), (2, "A", False), (3, "D", False), (4, "C", False)]


def test_without_a_match_for_third_place_the_semi_final_losers_share_third() -> None:
    bracket = knockout(played("A>D", "C<B", "A>B"))
    assert bracket is not None
    assert bracket.placings == [(1, "A", False), (2, "B", False), (3, "C", True), (3, "D", True)]


def test_ties_of_several_games_and_a_level_tie_decided_off_the_record() -> None:
    # Semi-finals of two games: A beat D 1½:½; B and C drew 1:1 (B went through on a
    # game not recorded: it played the final). Final of three games: B won 2:1.
    bracket = knockout(played("A>D", "D=A", "B>C", "C>B", "A<B", "B<A", "B>A"))
    assert bracket is not None and bracket.regular
    semi_a, semi_b = bracket.rounds[0]
    assert (semi_a.points, semi_a.winner) == ((1.5, 0.5), "A")
    assert (semi_b.points, semi_b.winner) == ((1.0, 1.0), "B")
    final = bracket.rounds[1][0]
    assert [g.game_id for g in final.games] == ["g05", "g06", "g07"] and final.points == (1.0, 2.0)
    assert bracket.placings[:2] == [(1, "B", False), (2, "A", False)]


def test_quarter_finals_stand_next_to_the_tie_they_feed() -> None:
    # Quarter-finals in the order played: the winners of the first and the third meet.
    bracket = knockout(played("A>B", "C>D", "E>F", "G>H", "A>E", "C>G", "A>C"))
    assert bracket is not None and bracket.regular
    assert [teams(r) for r in bracket.rounds] == [
        [("A", "B"), ("E", "F"), ("C", "D"), ("G", "H")],
        [("A", "E"), ("C", "G")],
        [("A", "C")],
    ]
    assert [p for p, _, _ in bracket.placings] == [1, 2, 3, 3, 5, 5, 5, 5]


def test_a_round_robin_is_not_a_knockout() -> None:
    # Four teams, three rounds: in the second round the winner of one game
    # meets the loser of another... or in the third at the latest.
    assert knockout(played("A>B", "C>D", "A>C", "B>D", "A>D", "B>C")) is None
    assert knockout(played("A>B", "C>D", "A>D", "C>B")) is None
    # Three teams: C's first game is A's second.
    assert knockout(played("A>B", "A>C", "B>C")) is None


def test_a_stage_set_as_knockout_is_drawn_round_by_round_even_when_irregular() -> None:
    bracket = knockout(played("A>B", "A>C", "B>C"), forced=True)
    assert bracket is not None and not bracket.regular
    assert [teams(r) for r in bracket.rounds] == [[("A", "B")], [("A", "C"), ("B", "C")]]
    assert bracket.placings == []


def test_a_stage_of_one_round_is_a_knockout_only_where_site_toml_says_so() -> None:
    # One match, or two side by side (placement matches?): nothing shows a bracket.
    assert knockout(played("A<B")) is None
    assert knockout(played("A<B", "C>D")) is None
    bracket = knockout(played("A<B"), forced=True)
    assert bracket is not None and bracket.regular
    assert bracket.placings == [(1, "B", False), (2, "A", False)]


def test_games_of_more_seats_make_no_bracket() -> None:
    assert knockout([Played("g1", "A", "B", "first", more=("C",))]) is None
    assert knockout([]) is None

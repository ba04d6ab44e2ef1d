"""Pairings that play matches of several games: standings by match points, game points as tie-break, the matches listed.

The standings are checked as an organiser would check them by hand; the
event page through the real Builder, on the invented HOP game of
tests/invented_games.py (a file may hold a match of several games).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest

from generator.archive import standings
from generator.archive.standings import GAME_POINTS, MATCH_TIEBREAKS, TIEBREAKS, Played, Points
from generator.build import Builder
from generator.config import load_config
from tests import invented_games as inv


def game(n: int, first: str, second: str, result: str, match: str = "") -> Played:
    return Played(f"g{n:02d}", first, second, result, match=match)


# Three matches: A beats B 2:1, B beats C 2:0 (two games), C draws A 1:1 (a win each).
GAMES = [
    game(1, "A", "B", "first", "ab"), game(2, "B", "A", "first", "ab"), game(3, "A", "B", "first", "ab"),
    game(4, "B", "C", "first", "bc"), game(5, "C", "B", "second", "bc"),
    game(6, "C", "A", "first", "ca"), game(7, "A", "C", "first", "ca"),
]  # fmt: skip


def test_matches_gather_their_games_and_are_won_by_more_games_won() -> None:
    found = {m.key: m for m in standings.matches(GAMES)}
    assert (found["ab"].first, found["ab"].second, found["ab"].first_points, found["ab"].second_points) == ("A", "B", 2, 1)
    assert found["ab"].result == "first" and found["bc"].result == "first" and found["ca"].result == "draw"
    assert [g.game_id for g in found["ab"].games] == ["g01", "g02", "g03"]
    # A game of the match's key between other teams (a mislabelled record) is not the match's.
    stray = standings.matches([*GAMES, game(8, "A", "D", "first", "ab")])
    assert [g.game_id for g in next(m for m in stray if m.key == "ab").games] == ["g01", "g02", "g03"]


def test_standings_by_match_count_matches_and_break_ties_by_games_won() -> None:
    rows = standings.standings("ABC", GAMES, Points(), MATCH_TIEBREAKS, by_match=True)
    table = {r.team: (r.rank, r.games, r.wins, r.draws, r.losses, r.points, r.tiebreaks[GAME_POINTS]) for r in rows}
    # Matches: A won one and drew one (3 points), B won one and lost one (2), C drew one and lost one (1).
    assert table == {"A": (1, 2, 1, 1, 0, 3.0, 3.0), "B": (2, 2, 1, 0, 1, 2.0, 3.0), "C": (3, 2, 0, 1, 1, 1.0, 1.0)}
    # Counted game by game the same games give another table: B won four games, A three.
    by_game = standings.standings("ABC", GAMES, Points(), TIEBREAKS)
    assert [(r.team, r.games, r.wins, r.points) for r in by_game] == [("A", 5, 3, 6.0), ("B", 5, 3, 6.0), ("C", 4, 1, 2.0)]


def test_game_points_break_a_tie_on_match_points() -> None:
    # Each team wins one match and loses one. Games won: A 2, C 2, B 1; C beat A, so C is first.
    games = [
        game(1, "A", "B", "first", "ab"), game(2, "B", "A", "second", "ab"),
        game(3, "B", "C", "first", "bc"),
        game(4, "C", "A", "first", "ca"), game(5, "A", "C", "second", "ca"),
    ]  # fmt: skip
    rows = standings.standings("ABC", games, Points(), MATCH_TIEBREAKS, by_match=True)
    assert [(r.rank, r.team, r.points, r.tiebreaks[GAME_POINTS], r.tiebreaks["head-to-head"]) for r in rows] == [
        (1, "C", 2.0, 2.0, 2.0), (2, "A", 2.0, 2.0, 0.0), (3, "B", 2.0, 1.0, 0.0),
    ]  # fmt: skip


def scored(n: int, players: tuple[str, ...], scores: tuple[float, ...], match: str) -> Played:
    """A game won on score (chips, Dou Dizhu points), one score per seat."""
    keys = ("first", "second", "third")
    best = max(scores)
    result = "+".join(k for k, v in zip(keys, scores) if v == best)
    return Played(f"s{n:02d}", players[0], players[1], result, players[2:], tuple(zip(keys, scores)), match)


def test_a_match_won_on_score_adds_up_each_teams_scores_whatever_its_seat() -> None:
    # Hold'em: the seats change every hand; A wins 150 and 100, loses 300: B is 50 up after three hands.
    hands = [
        scored(1, ("A", "B"), (150, -150), "m"), scored(2, ("B", "A"), (-100, 100), "m"), scored(3, ("A", "B"), (-300, 300), "m"),
    ]  # fmt: skip
    [m] = standings.matches(hands)
    assert m.scored and m.teams == ("A", "B") and m.points == (-50, 50) and m.result == "second"
    assert m.running() == [(150, -150), (250, -250), (-50, 50)]
    assert standings.match_points(-50, True) == "-50" and standings.match_points(50, True) == "+50"
    cross = standings.match_crosstable(["A", "B"], [m])
    assert [g.score for g in cross["A"]["B"]] == ["-50:+50"]


def test_a_session_of_three_teams_is_one_match_won_by_the_highest_total() -> None:
    # Dou Dizhu: three teams, the landlord's score against each farmer's.
    deals = [
        scored(1, ("A", "B", "C"), (4, -2, -2), "s"), scored(2, ("A", "B", "C"), (-2, 4, -2), "s"),
        scored(3, ("A", "B", "C"), (2, 2, -4), "s"), scored(4, ("A", "B", "C"), (-6, 3, 3), "s"),
    ]  # fmt: skip
    [m] = standings.matches(deals)
    assert m.teams == ("A", "B", "C") and m.points == (-2, 7, -5) and m.result == "second"
    cross = standings.match_crosstable(["A", "B", "C"], [m])
    assert [g.score for g in cross["B"]["C"]] == ["+7:-5"] and [g.score for g in cross["C"]["A"]] == ["-5:-2"]
    # Counted by match, each session is one match of three teams: B won it, A and C lost it.
    rows = standings.standings("ABC", deals, Points(), MATCH_TIEBREAKS, by_match=True)
    assert [(r.team, r.games, r.wins, r.losses, r.score) for r in rows][0] == ("B", 1, 1, 0, 7.0)
    # Ranked by score across sessions (Dou Dizhu), the totals decide whoever won more deals.
    other = [scored(5, ("A", "B", "C"), (12, -6, -6), "t")]
    by_score = standings.standings("ABC", deals + other, Points(), MATCH_TIEBREAKS, by_match=True, rank_by="score")
    assert [(r.rank, r.team, r.score) for r in by_score] == [(1, "A", 10.0), (2, "B", 1.0), (3, "C", -11.0)]


def test_a_match_crosstable_cell_is_the_match_score_from_the_row_team() -> None:
    found = standings.matches(GAMES)
    cross = standings.match_crosstable(["A", "B", "C"], found)
    assert [(g.game_id, g.score) for g in cross["A"]["B"]] == [("ab", "2:1")]
    assert [(g.game_id, g.score) for g in cross["B"]["A"]] == [("ab", "1:2")]
    assert [g.score for g in cross["A"]["C"]] == ["1:1"]
    assert standings.games_won(2.5) == "2½" and standings.games_won(0.5) == "½" and standings.games_won(0) == "0"


# -- site.toml ------------------------------------------------------------------------------------


def config_of(tmp_path: Path, table: str):
    (tmp_path / "content" / "cup").mkdir(parents=True, exist_ok=True)
    (tmp_path / "site.toml").write_text(f"[events.cup.games.C5]\n{table}\n", encoding="utf-8")
    return load_config(tmp_path / "site.toml", root=tmp_path)


def test_site_toml_turns_matches_on_with_their_own_default_tiebreaks(tmp_path: Path) -> None:
    config, problems = config_of(tmp_path, "matches = true")
    assert problems == []
    rules = config.rules_for("cup", "C5")
    assert rules.matches and rules.tiebreaks == MATCH_TIEBREAKS
    config, problems = config_of(tmp_path, 'matches = true\ntiebreaks = ["wins", "game-points"]')
    assert problems == [] and config.rules_for("cup", "C5").tiebreaks == ("wins", "game-points")
    config, problems = config_of(tmp_path, "")
    assert not config.rules_for("cup", "C5").matches and config.rules_for("cup", "C5").tiebreaks == TIEBREAKS


def test_a_matches_value_that_is_not_true_or_false_is_reported(tmp_path: Path) -> None:
    config, problems = config_of(tmp_path, 'matches = "yes"')
    [problem] = problems
    assert problem.severity == "error" and "events.cup.games.C5.matches" in problem.message
    assert not config.rules_for("cup", "C5").matches


def test_rank_by_score_is_set_in_site_toml_and_a_wrong_value_is_reported(tmp_path: Path) -> None:
    config, problems = config_of(tmp_path, 'rank_by = "score"')
    assert problems == [] and config.rules_for("cup", "C5").rank_by == "score"
    config, problems = config_of(tmp_path, 'rank_by = "chips"')
    [problem] = problems
    assert problem.severity == "error" and "events.cup.games.C5.rank_by" in problem.message and '"score"' in problem.message
    assert config.rules_for("cup", "C5").rank_by == "points"


def test_matches_won_on_score_break_ties_by_the_score_first(tmp_path: Path) -> None:
    from generator import games
    from generator.config import default_tiebreaks

    scored_game = dataclasses.replace(games.get("DB"), matches=True)  # dots and boxes, won on score
    assert default_tiebreaks(scored_game, True, "points") == (standings.SCORE, *MATCH_TIEBREAKS)
    assert default_tiebreaks(scored_game, False, "points") == TIEBREAKS
    assert default_tiebreaks(scored_game, True, "score") == MATCH_TIEBREAKS


# -- the event page ---------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def invented() -> Iterator[None]:
    with inv.in_use():
        yield


# Opening moves of HOP, so that no two games of the tests are the same game (copies count once).
OPENINGS = [(w, k) for w in ("a1-a2/a3", "a1-a3/b3", "a1-b1/c1", "a1-b2/c3") for k in ("d4-d2/c2", "d4-d3/c3")]


def hop(first: str, second: str, *results: str, start: int = 0) -> str:
    """A HOP file of one game per result, each game opened differently (``start``: the first opening)."""
    return "".join(
        f"#GAME HOP\n#PLAYERS {first} | {second}\n#RESULT {r}\nW {OPENINGS[start + i][0]}\nK {OPENINGS[start + i][1]}\n"
        for i, r in enumerate(results)
    )


def build_cup(tmp_path: Path, toml: str) -> str:
    folder = tmp_path / "content" / "cup"
    folder.mkdir(parents=True)
    (folder / "HOP-Wen vs Kai.txt").write_text(hop("Wen", "Kai", "first", "second", "first"), encoding="utf-8")
    (folder / "HOP-Wen vs Lou.txt").write_text(hop("Wen", "Lou", "second", start=3), encoding="utf-8")
    (folder / "HOP-Kai vs Lou.txt").write_text(hop("Kai", "Lou", "first", "first", start=4), encoding="utf-8")
    (tmp_path / "site.toml").write_text(toml, encoding="utf-8")
    config, problems = load_config(tmp_path / "site.toml", root=tmp_path, output=tmp_path / "site")
    assert problems == []
    builder = Builder(config, jobs=1, cache_dir=tmp_path / ".cache")
    builder.build()
    builder.wait()
    return (tmp_path / "site" / "events" / "cup" / "index.html").read_text(encoding="utf-8")


def standings_rows(page: str) -> list[list[str]]:
    body = re.search(r'<table class="q-standings">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert body is not None
    return [
        [unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)
    ]


def test_the_event_page_lists_each_match_and_ranks_by_match_points(tmp_path: Path) -> None:
    page = build_cup(tmp_path, '[events.cup]\nname = "Cup"\n[events.cup.games.HOP]\nmatches = true\n')
    # Each team won one match and lost one; the games won decide: Kai 3, Wen 2, Lou 1.
    rows = standings_rows(page)
    assert [(r[1], r[2], r[3], r[5], r[6], r[7]) for r in rows] == [
        ("Kai", "2", "1", "1", "2", "3"), ("Wen", "2", "1", "1", "2", "2"), ("Lou", "2", "1", "1", "2", "1"),
    ]  # fmt: skip
    assert "场数" in page and "局分" in page and "按场计分" in page
    matches = re.findall(r'<tr id="(HOP-match-\d)" class="q-match-(\w+)">(.*?)</tr>', page, re.S)
    assert len(matches) == 3
    texts = {m[0]: re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", m[2]))).strip() for m in matches}
    # In the order of their files; each game from the first team's side (1 won, 0 lost).
    assert list(texts.values()) == ["1 Kai 2 : 0 Lou 1 1", "2 Wen 2 : 1 Kai 1 0 1", "3 Wen 0 : 1 Lou 0"]
    assert [m[1] for m in matches] == ["first", "first", "second"]
    # Every game of a match links its page, and the crosstable links the match.
    first = next(m for m in matches if "Wen 2 : 1" in texts[m[0]])
    links = re.findall(r'href="([^"]+)"', first[2])
    game_links = [link for link in links if "/games/" in link or link.startswith("../../games/")]
    assert len(game_links) == 3 and len(set(game_links)) == 3
    for link in game_links:
        assert (tmp_path / "site" / "events" / "cup" / link).resolve().is_file()
    # The crosstable cell of that match, and its row, lead to the match's own page.
    cell = re.search(r'<a href="([^"#]+)" class="q-score[^"]*"[^>]*>2:1</a>', page)
    assert cell is not None and cell.group(1) in links
    match_page = tmp_path / "site" / "events" / "cup" / cell.group(1)
    assert match_page.is_file() and "<svg" in match_page.read_text(encoding="utf-8")
    # A team's page says its row counts matches.
    kai = next((tmp_path / "site" / "teams").glob("kai*.html")).read_text(encoding="utf-8")
    assert re.search(r"<td>2 场</td>", kai)


def test_without_matches_the_same_files_count_game_by_game(tmp_path: Path) -> None:
    page = build_cup(tmp_path, '[events.cup]\nname = "Cup"\n')
    rows = standings_rows(page)
    # Kai won three games of five, Wen two of four, Lou one of three.
    assert [(r[1], r[2], r[3]) for r in rows] == [("Kai", "5", "3"), ("Wen", "4", "2"), ("Lou", "3", "1")]
    assert "q-matches" not in page and "局数" in page

"""Pairings that play matches of several games: standings by match points, game points as tie-break, the matches listed.

The standings are checked as an organiser would check them by hand; the
event page through the real Builder, on the invented HOP game of
tests/invented_games.py (a file may hold a match of several games).
"""

from __future__ import annotations

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
    assert re.search(rf'<a href="#{first[0]}" class="q-score[^"]*"[^>]*>2:1</a>', page)
    # A team's page says its row counts matches.
    kai = next((tmp_path / "site" / "teams").glob("kai*.html")).read_text(encoding="utf-8")
    assert re.search(r"<td>2 场</td>", kai)


def test_without_matches_the_same_files_count_game_by_game(tmp_path: Path) -> None:
    page = build_cup(tmp_path, '[events.cup]\nname = "Cup"\n')
    rows = standings_rows(page)
    # Kai won three games of five, Wen two of four, Lou one of three.
    assert [(r[1], r[2], r[3]) for r in rows] == [("Kai", "5", "3"), ("Wen", "4", "2"), ("Lou", "3", "1")]
    assert "q-matches" not in page and "局数" in page

"""The pages say what the model can: more seats, scores, matches, games with no grid.

Proved on the invented games of tests/invented_games.py, through the real
pipeline, the real index and the real page functions and templates (the
Jinja environment the build uses), in both page languages: what a
spectator reads on a game page and on an event page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from svg_pieces import pieces_shown

from generator import games, pipeline
from generator.archive.index import Archive, build_index
from generator.archive.summary import summarize
from generator.boards import table
from generator.config import load_config
from generator.render import pages
from generator.render.env import make_env
from generator.render.strings import strings as ui_strings
from tests import invented_games as inv

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
EVIL = "<b>Eve</b>&amp;"  # a team name that is markup: the page must show it as text

TRI_GAME = """#GAME TRI
#PLAYERS Ann | Bob | Cy
A 9
B 1,2
C 3
A 8
B 4
C 5,6,7
"""  # Ann 17, Bob 7, Cy 21: Cy (Player C) wins
DUO_GAME = "#GAME DUO\n#PLAYERS North | East | North | East\nA 9\nB 1\nC 2\nD 3\n"  # A+C 11, B+D 4
MATCH = inv.MATCH


@pytest.fixture(autouse=True)
def invented() -> Iterator[None]:
    with inv.in_use():
        yield


def processed(path: str, text: str) -> list[pipeline.Processed]:
    data = text.encode("utf-8")
    return pipeline.process_games(pipeline.Source(path, data, pipeline.sha256(data)), encoding=None, options={})


def site(language: str, archive: Archive | None = None) -> pages.SiteInfo:
    """The site as the build makes it (generator.build.site.site_info): title, language, strings, events."""
    events = tuple(pages.Link(e.name, e.url) for e in archive.events) if archive else ()
    return pages.SiteInfo("赛事 Archive", language, ui_strings(language), events, ())


def built(tmp_path: Path, *files: tuple[str, str]) -> tuple[Archive, dict[str, pipeline.Processed]]:
    """The archive of these files as the build indexes it, and every processed game by its id."""
    config, _ = load_config(root=tmp_path)
    found = {p.id: p for path, text in files for p in processed(path, text)}
    return build_index([summarize(p, p.sha256) for p in found.values()], config), found


def game_page(tmp_path: Path, language: str, game_id: str, *files: tuple[str, str]) -> str:
    """The game page of one game, rendered as the build renders it: game_view, its job, game.html."""
    archive, found = built(tmp_path, *files)
    entry = archive.by_id[game_id]
    [event] = [e for e in archive.events if entry in e.games]
    page_site = site(language, archive)
    view = pages.game_view(found[game_id], page_site)
    job = pages.game_job(entry, event.name, event.url, archive)
    template = make_env(TEMPLATES).get_template("game.html")
    return pages.game_page(template, job, view, page_site).decode("utf-8")


def event_page(tmp_path: Path, language: str, *files: tuple[str, str]) -> str:
    archive, _ = built(tmp_path, *files)
    [event] = archive.events
    page_site = site(language, archive)
    return make_env(TEMPLATES).get_template("event.html").render(pages.event(event, archive, page_site))


def text(html: str) -> str:
    """What a reader sees: the page without tags, entities read, spaces collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def info(html: str) -> str:
    """The text of the game information beside the board."""
    return text(html[html.index('<aside class="q-game-info">') : html.index("</aside>")])


def title(html: str) -> str:
    return text(html[html.index('<h1 class="q-game-title">') : html.index("</h1>")]).strip()


# -- result words ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "result", "words"),
    [
        ("zh-CN", "third", "丙方胜"), ("en", "third", "Player C wins"),
        ("zh-CN", "first", "甲方胜"), ("en", "first", "Player A wins"),
        ("zh-CN", "first+third", "甲方、丙方胜"), ("en", "first+third", "Player A and Player C win"),
        ("zh-CN", "draw", "平局"), ("en", "draw", "Draw"), ("en", "unknown", "Undecided"), ("en", None, "—"),
    ],
)  # fmt: skip
def test_a_result_of_a_game_of_more_seats_names_its_winning_seats(language: str, result: str | None, words: str) -> None:
    game = inv.DUO if "+" in (result or "") else inv.TRI
    assert pages.result_word(ui_strings(language), result, game) == words


def test_a_two_seat_game_keeps_todays_words() -> None:
    c5, zh, en = games.get("C5"), ui_strings("zh-CN"), ui_strings("en")
    assert [pages.result_word(zh, r, c5) for r in ("first", "second", "draw")] == ["先手胜", "后手胜", "平局"]
    assert [pages.result_word(en, r, inv.HOP) for r in ("first", "second")] == ["First player wins", "Second player wins"]
    assert pages.result_word(zh, "first") == "先手胜"  # no game type given: the two-seat words
    assert pages.result_word(zh, "second+fourth", inv.TRI) == "second+fourth"  # no fourth seat: as written, no crash


# -- the game page -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "seats", "won", "score"),
    [
        ("zh-CN", ["甲方 Ann", "乙方 Bob", "丙方 Cy"], "结果 丙方胜", "得分 甲方 Ann 17 乙方 Bob 7 丙方 Cy 21"),
        (
            "en",
            ["Player A Ann", "Player B Bob", "Player C Cy"],
            "Result Player C wins",
            "Score Player A Ann 17 Player B Bob 7 Player C Cy 21",
        ),
    ],
)
def test_the_page_of_a_three_seat_game_names_every_player_the_winner_and_the_scores(
    tmp_path: Path, language: str, seats: list[str], won: str, score: str
) -> None:
    html = game_page(tmp_path, language, "cards/TRI-one.txt", ("cards/TRI-one.txt", TRI_GAME))
    vs = "对" if language == "zh-CN" else "vs"
    assert title(html) == f"Ann {vs} Bob {vs} Cy"
    said = info(html)
    assert won in said and score in said
    assert all(seat in said for seat in seats)
    assert ("先手方" if language == "zh-CN" else "First player") not in said  # the two-seat lines are not shown
    # Every player links to its team page.
    assert all(f">{name}</a>" in html for name in ("Ann", "Bob", "Cy"))
    # The table: the last play of each seat lies in its slots (Ann 8, Bob 4, Cy 5 6 7), each a card symbol.
    start = html.index('class="q-board q-board-table"')
    svg = html[html.rindex("<svg", 0, start) : html.index("</svg>", start) + len("</svg>")]
    shown = pieces_shown(svg)
    assert sorted(piece.texts for piece in shown) == [("4",), ("5",), ("6",), ("7",), ("8",)]
    assert all("q-card" in piece.classes for piece in shown)
    assert svg.count('<g id="q-table-card-') == 9  # the deck, declared once


def test_the_page_of_a_partnership_game_says_the_partners_won_with_their_score(tmp_path: Path) -> None:
    zh = info(game_page(tmp_path, "zh-CN", "bridge/table-1.duo", ("bridge/table-1.duo", DUO_GAME)))
    assert "结果 甲方、丙方胜" in zh and "得分 甲方、丙方 North 11 乙方、丁方 East 4" in zh
    seated = [("甲方", "North"), ("乙方", "East"), ("丙方", "North"), ("丁方", "East")]
    assert all(f"{seat} {team}" in zh for seat, team in seated)
    en = game_page(tmp_path, "en", "bridge/table-1.duo", ("bridge/table-1.duo", DUO_GAME))
    assert "Result Player A and Player C win" in info(en)
    assert "Score Player A and Player C North 11 Player B and Player D East 4" in info(en)
    # Each partnership of one team is named once in the title, not once per seat.
    assert title(en) == "North vs East"


def test_a_match_game_says_which_game_of_its_file_it_is_and_links_the_others(tmp_path: Path) -> None:
    path = "hop/HOP-Wen vs Kai.txt"
    en = game_page(tmp_path, "en", f"{path}#2", (path, MATCH))
    assert f"Match game 2 of {path}" in info(en)
    assert "games of this file: 1 2 3" in info(en)
    archive, _ = built(tmp_path, (path, MATCH))
    # The links lead to the pages of games 1 and 3, from this page's folder; game 2 is this page.
    here = archive.by_id[f"{path}#2"].url
    others = [pages.urls.href(here, archive.by_id[f"{path}#{n}"].url) for n in (1, 3)]
    assert all(f'href="{href}"' in en for href in others)
    assert '<strong aria-current="page">2</strong>' in en
    assert "Result Second player wins" in info(en)  # HOP has two seats: today's words
    zh = game_page(tmp_path, "zh-CN", f"{path}#2", (path, MATCH))
    assert f"同一文件 {path} 中的第 2 局" in info(zh) and "本文件各局: 1 2 3" in info(zh)


def test_a_file_of_one_game_says_nothing_of_matches(tmp_path: Path) -> None:
    html = game_page(tmp_path, "en", "hop/one.txt", ("hop/one.txt", "#GAME HOP\n#PLAYERS Wen | Kai\n#RESULT first\nW a1-c3/c1\n"))
    assert "Match" not in info(html) and " of hop/one.txt" not in html
    assert "First player Wen (White)" in info(html) and "Second player Kai (Black)" in info(html)


def test_every_name_a_record_writes_is_text_on_the_page(tmp_path: Path) -> None:
    game = TRI_GAME.replace("Ann | Bob | Cy", f"Ann | Bob | {EVIL}")
    path = "cards/<i>x</i>.txt"
    for language in ("zh-CN", "en"):
        html = game_page(tmp_path, language, path, (path, game))
        assert EVIL not in html and "<i>x</i>" not in html
        assert "&lt;b&gt;Eve&lt;/b&gt;&amp;amp;" in html
        assert EVIL in title(html)  # read as the organiser wrote it
    match = MATCH.replace("Wen | Kai", f"Wen | {EVIL}")
    html = game_page(tmp_path, "en", "hop/<i>m</i>.txt#1", ("hop/<i>m</i>.txt", match))
    assert "<i>m</i>" not in html and "game 1 of hop/<i>m</i>.txt" in info(html)


# -- the event page ------------------------------------------------------------------------------


def standings(html: str) -> list[list[str]]:
    """The standings table's rows as a reader sees them: header first."""
    body = html[html.index('<table class="q-standings">') : html.index("</table>")]
    return [
        [text(cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


SECOND_TRI = "#GAME TRI\n#PLAYERS Bob | Cy | Ann\nA 9\nB 1\nC 2\nA 8\nB 3\nC 4\n"  # Bob 17, Cy 4, Ann 6


def test_the_standings_of_a_scored_game_add_up_each_teams_scores(tmp_path: Path) -> None:
    files = (("cards/TRI-one.txt", TRI_GAME), ("cards/TRI-two.txt", SECOND_TRI))
    en = standings(event_page(tmp_path, "en", *files))
    assert en[0][:8] == ["Rank", "Team", "Games", "W", "D", "L", "Points", "Total score"]
    rows = {row[1]: row for row in en[1:]}
    assert [rows[t][7] for t in ("Ann", "Bob", "Cy")] == ["23", "24", "25"]
    assert [rows[t][2:7] for t in ("Ann", "Bob")] == [["2", "0", "0", "2", "0"], ["2", "1", "0", "1", "2"]]
    zh = event_page(tmp_path, "zh-CN", *files)
    assert standings(zh)[0][7] == "总得分"
    # The list of games says who won by the seats' names: Cy in seat C, then Bob in seat A.
    games_list = text(zh[zh.index('<table class="q-games">') :])
    assert "丙方胜" in games_list and "甲方胜" in games_list and "先手胜" not in games_list


def game_list(html: str) -> list[list[str]]:
    """The rows of every game list of a page as a reader sees them (no header)."""
    bodies = re.findall(r'<table class="q-games">.*?<tbody>(.*?)</tbody>', html, re.S)
    return [
        [text(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for body in bodies
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def test_a_game_list_names_every_player_of_a_game_of_more_seats(tmp_path: Path) -> None:
    files = (("cards/TRI-one.txt", TRI_GAME), ("cards/table-1.duo", DUO_GAME))
    rows = game_list(event_page(tmp_path, "en", *files))
    # The first seat (with its partners) in the first column, the other seats in the second.
    assert sorted(row[2:5] for row in rows) == [
        ["Ann", "Bob, Cy", "Player C wins"],
        ["North", "East", "Player A and Player C win"],
    ]
    html = event_page(tmp_path, "en", *files)
    archive, _ = built(tmp_path, *files)
    [event] = archive.events
    for team in ("Ann", "Bob", "Cy", "North", "East"):  # each a link to its team page
        href = pages.urls.href(event.url, archive.teams[team].url)
        assert f'<a href="{href}">{team}</a>' in html


def team_page(tmp_path: Path, language: str, team: str, *files: tuple[str, str]) -> str:
    archive, _ = built(tmp_path, *files)
    page_site = site(language, archive)
    context = pages.team(archive.teams[team], archive, page_site)
    return make_env(TEMPLATES).get_template("team.html").render(context)


@pytest.mark.parametrize(
    ("language", "team", "row"),
    [
        # date and event are empty or the folder; then game, opponents, seat, outcome, result
        ("en", "Cy", ["Three piles", "Ann, Bob", "Player C", "W", "Player C wins"]),
        ("en", "Bob", ["Three piles", "Ann, Cy", "Player B", "L", "Player C wins"]),
        ("zh-CN", "Cy", ["三堆", "Ann、Bob", "丙方", "胜", "丙方胜"]),
        # A partnership: the partner is no opponent, and both seats are the team's.
        ("en", "North", ["Partner piles", "East", "Player A and Player C", "W", "Player A and Player C win"]),
        ("en", "East", ["Partner piles", "North", "Player B and Player D", "L", "Player A and Player C win"]),
    ],
)
def test_a_team_page_says_the_seats_the_opponents_and_the_outcome_of_a_game_of_more_seats(
    tmp_path: Path, language: str, team: str, row: list[str]
) -> None:
    files = (("cards/TRI-one.txt", TRI_GAME), ("cards/table-1.duo", DUO_GAME))
    html = team_page(tmp_path, language, team, *files)
    [shown] = game_list(html)
    assert shown[2:7] == row
    # The opponents link to their pages.
    archive, _ = built(tmp_path, *files)
    for other in row[1].replace("、", ", ").split(", "):
        assert f'<a href="{pages.urls.href(archive.teams[team].url, archive.teams[other].url)}">{other}</a>' in html


def test_a_two_seat_event_has_no_score_column(tmp_path: Path) -> None:
    html = event_page(tmp_path, "en", ("hop/m.txt", MATCH))
    assert "Total score" not in html
    assert standings(html)[0] == ["Rank", "Team", "Games", "W", "D", "L", "Points", "H2H", "SB", "Wins", "2nd wins"]


def test_the_score_tie_break_is_accepted_labelled_and_ranks_by_the_sum(tmp_path: Path) -> None:
    (tmp_path / "site.toml").write_text('[events.cards.games.TRI]\ntiebreaks = ["score", "head-to-head"]\n', encoding="utf-8")
    config, found = load_config(root=tmp_path)
    assert [d.code for d in found] == []
    files = (("cards/TRI-one.txt", TRI_GAME), ("cards/TRI-two.txt", SECOND_TRI))
    summaries = [summarize(p, p.sha256) for path, text_ in files for p in processed(path, text_)]
    archive = build_index(summaries, config)
    [event] = archive.events
    html = make_env(TEMPLATES).get_template("event.html").render(pages.event(event, archive, site("en", archive)))
    table_ = standings(html)
    # The sum is the tie-break column itself, not shown twice; Bob and Cy level on points, Cy ahead on score.
    assert table_[0][7:] == ["Score", "H2H"] and "Total score" not in html
    assert [row[1] for row in table_[1:]] == ["Cy", "Bob", "Ann"]
    assert "the sum of the team's scores" in unescape(html)
    zh = make_env(TEMPLATES).get_template("event.html").render(pages.event(event, archive, site("zh-CN", archive)))
    assert standings(zh)[0][7] == "得分" and "各局得分之和" in zh


def test_an_unknown_tie_break_still_names_score_among_the_known(tmp_path: Path) -> None:
    (tmp_path / "site.toml").write_text('[events.cards.games.TRI]\ntiebreaks = ["scores"]\n', encoding="utf-8")
    _, found = load_config(root=tmp_path)
    [error] = found
    assert error.code == "CFG-E006" and "did you mean 'score'" in error.message


# -- the card table ---------------------------------------------------------------------------------


def test_the_card_table_has_a_slot_row_for_every_seat_around_it() -> None:
    board = table.board_for(inv.DUO)
    assert sorted(board.cells) == sorted(f"{seat}-{k}" for seat in ("first", "second", "third", "fourth") for k in (1, 2, 3))
    (x1, y1), (x3, y3) = board.cells["first-1"], board.cells["third-1"]
    assert y1 > board.height / 2 > y3 and x1 == x3  # first at the bottom, its partner across the table
    assert board.cells["second-2"][0] < board.width / 2 < board.cells["fourth-2"][0]  # clockwise: second on the left
    drawing = board.static_markup
    for letter, colour in (("A", "red"), ("B", "blue"), ("C", "green"), ("D", "black")):
        assert f"q-seat-disc q-{colour}" in drawing and f">{letter}</text>" in drawing
    assert board.symbols.id_of("7", "red") == board.symbols.id_of("7", "blue") == "q-table-card-6"
    assert board.symbols.id_of("hidden", "red") == "q-table-back" and board.symbols.id_of("10", "red") is None


def test_a_card_with_a_suit_shows_its_rank_and_suit_in_the_suits_colour() -> None:
    hearts, spades = table.card("QH"), table.card("10S")
    assert ">Q</text>" in hearts and ">♥</text>" in hearts and "#c0392b" in hearts
    assert ">10</text>" in spades and ">♠</text>" in spades and "#c0392b" not in spades


def test_a_grid_board_has_a_stone_for_every_seats_colour() -> None:
    from dataclasses import replace

    from generator.boards import grid

    three = replace(games.GAMES["C5"], code="C5X", more_seats=(games.Side("G", "green", "绿方", "Green"),))
    assert grid.seat_colours(three) == ("black", "white", "green")
    assert grid.seat_colours(games.GAMES["HEX"]) == ("blue", "red")  # two seats: as before
    board = grid.board_for(three)
    assert board.symbols.id_of("stone", "green") == "q-grid-stone-green"

"""The model takes every kind of game of the standards: proved on invented games (tests/invented_games.py).

More than two seats and partnerships, results that are scores, several games
in one file, compound moves and records with no grid, each through the real
pipeline (generator.pipeline) and the real index (generator.archive.index),
as the build runs them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator import games, pipeline
from generator.archive.index import Archive, build_index
from generator.archive.summary import summarize
from generator.config import load_config
from generator.model import Decision, Source, Text, line_starts, seats_of, winner_by_score, winner_of
from generator.rules import engine
from tests import invented_games as inv


@pytest.fixture(autouse=True)
def invented() -> Iterator[None]:
    with inv.in_use():
        yield


def source(path: str, text: str) -> Source:
    data = text.encode("utf-8")
    return Source(path, data, pipeline.sha256(data))


def processed(path: str, text: str) -> list[pipeline.Processed]:
    return pipeline.process_games(source(path, text), encoding=None, options={})


def index(tmp_path: Path, *files: tuple[str, str]) -> Archive:
    """The archive of these files, summarised and indexed as the build does it."""
    config, _ = load_config(root=tmp_path)
    summaries = [summarize(p, p.sha256) for path, text in files for p in processed(path, text)]
    return build_index(summaries, config)


TRI_GAME = """#GAME TRI
#PLAYERS Ann | Bob | Cy
A 9
B 1,2
C 3
A 8
B 4
C 5,6,7
"""


# -- seats and scores ---------------------------------------------------------------------


def test_a_three_seat_game_is_won_on_score_by_its_third_seat() -> None:
    [game] = processed("cards/TRI-one.txt", TRI_GAME)
    assert game.code == "TRI" and game.game == 0 and game.id == "cards/TRI-one.txt"
    assert game.players == ("Ann", "Bob", "Cy")
    assert game.replay is not None
    assert [(p.number, p.side, p.colour) for p in game.replay.plies] == [
        (1, "first", "red"), (2, "second", "blue"), (3, "third", "green"),
        (4, "first", "red"), (5, "second", "blue"), (6, "third", "green"),
    ]  # fmt: skip
    assert game.replay.decision == Decision(
        "third", "highest-total", 6, (), {"first": 17.0, "second": 7.0, "third": 21.0}
    )
    assert game.result == "third" and game.computed == "third"
    assert game.score == {"first": 17.0, "second": 7.0, "third": 21.0}
    assert game.diagnostics == []  # decided by the rules: no "no result" warning


def test_a_declared_result_that_names_the_wrong_seat_is_an_error_in_the_seats_own_names() -> None:
    [game] = processed("cards/TRI-one.txt", TRI_GAME.replace("#PLAYERS", "#RESULT first\n#PLAYERS"))
    [error] = game.diagnostics
    assert (error.code, error.line, error.column) == (pipeline.E_RESULT, 1, 1)
    assert error.message == "the header declares 'Player A wins' but the rules decide 'Player C wins' at move 6"
    assert error.say("zh-CN").count("甲方胜") == 1 and "丙方胜" in error.say("zh-CN")
    assert game.result == "third"  # the rules' result counts


def test_a_third_seat_out_of_turn_is_the_drivers_error() -> None:
    [game] = processed("cards/TRI-bad.txt", "#GAME TRI\nA 1\nC 2\nB 3\n")
    [error, no_result] = game.diagnostics
    assert (error.code, error.line) == (engine.WRONG_SIDE, 3)
    assert error.message == "move 2, C 2: wrong side to move: expected Player B to move, found Player C"
    assert no_result.code == pipeline.W_NO_RESULT
    assert game.replay is not None and [m.text for m in game.replay.not_replayed] == ["C 2", "B 3"]


def test_a_declared_score_says_who_won_where_the_rules_did_not_decide() -> None:
    text = "#GAME TRI\n#PLAYERS Ann | Bob | Cy\n#SCORE first=3 second=12 third=5\nA 1\n"
    [game] = processed("cards/TRI-short.txt", text)
    assert game.computed is None
    assert game.declared == "second" and game.result == "second"
    assert game.score == {"first": 3.0, "second": 12.0, "third": 5.0}
    assert game.diagnostics == []


def test_standings_of_three_seat_games_count_wins_and_add_up_scores(tmp_path: Path) -> None:
    second = "#GAME TRI\n#PLAYERS Bob | Cy | Ann\nA 9\nB 1\nC 2\nA 8\nB 3\nC 4\n"  # Bob 17, Cy 4, Ann 6
    archive = index(tmp_path, ("cards/TRI-one.txt", TRI_GAME), ("cards/TRI-two.txt", second))
    [event] = archive.events
    [section] = event.sections
    assert section.code == "TRI" and len(section.games) == 2
    assert [entry.players for entry in section.games] == [("Ann", "Bob", "Cy"), ("Bob", "Cy", "Ann")]
    rows = {row.team: row for row in section.rows}
    assert [(t, rows[t].games, rows[t].wins, rows[t].losses, rows[t].points) for t in ("Ann", "Bob", "Cy")] == [
        ("Ann", 2, 0, 2, 0.0), ("Bob", 2, 1, 1, 2.0), ("Cy", 2, 1, 1, 2.0),
    ]  # fmt: skip
    assert (rows["Ann"].score, rows["Bob"].score, rows["Cy"].score) == (23.0, 24.0, 25.0)
    # Every two teams of a game meet in the crosstable: Ann and Cy twice.
    assert [g.score for g in section.cross["Ann"]["Cy"]] == ["0", "0"]
    assert [g.score for g in section.cross["Cy"]["Ann"]] == ["1", "0"]
    assert set(archive.teams) == {"Ann", "Bob", "Cy"}
    assert len(archive.teams["Cy"].games) == 2


# -- partnerships ---------------------------------------------------------------------------


DUO_GAME = "#GAME DUO\n#PLAYERS North | East | North | East\nA 9\nB 1\nC 2\nD 3\n"


def test_a_four_seat_game_is_won_by_a_partnership() -> None:
    [game] = processed("bridge/table-1.duo", DUO_GAME)
    assert game.replay is not None and [p.side for p in game.replay.plies] == ["first", "second", "third", "fourth"]
    assert game.result == "first+third" and seats_of(game.result) == (0, 2)
    assert game.score == {"first+third": 11.0, "second+fourth": 4.0}
    assert games.get("DUO").partners(2) == (0, 2)  # type: ignore[union-attr]


def test_a_partnership_game_level_on_score_is_a_draw() -> None:
    [game] = processed("bridge/table-2.duo", "#GAME DUO\nA 1\nB 2\nC 4\nD 3\n")
    assert game.result == "draw" and game.score == {"first+third": 5.0, "second+fourth": 5.0}


def test_a_partnership_of_one_team_counts_one_game_for_it(tmp_path: Path) -> None:
    archive = index(tmp_path, ("bridge/table-1.duo", DUO_GAME))
    [event] = archive.events
    [entry] = event.games
    assert entry.url.endswith("/table-1.html")  # the game type's own suffix is not in the page's name
    rows = {row.team: row for row in event.sections[0].rows}
    assert (rows["North"].games, rows["North"].wins, rows["North"].score) == (1, 1, 11.0)
    assert (rows["East"].games, rows["East"].losses, rows["East"].score) == (1, 1, 4.0)


# -- several games in one file ---------------------------------------------------------------

MATCH = """#GAME HOP
#PLAYERS Wen | Kai
#RESULT first
W a1-a3/b3
K d4-d2/c2
#GAME HOP
#PLAYERS Wen | Kai
#RESULT second
W a1-a3/b3
K d4-d2/c2
#GAME HOP
#PLAYERS Wen | Kai
W a1-b1/b9
"""


def test_a_match_file_gives_one_game_per_game_each_with_its_own_lines() -> None:
    found = processed("hop/HOP-Wen vs Kai-先手胜.txt", MATCH)
    assert [(p.game, p.record.line if p.record else 0) for p in found] == [(1, 1), (2, 6), (3, 11)]
    assert [p.id for p in found] == [f"hop/HOP-Wen vs Kai-先手胜.txt#{n}" for n in (1, 2, 3)]
    assert [[m.line for m in p.record.moves] for p in found if p.record] == [[4, 5], [9, 10], [13]]
    assert [p.result for p in found] == ["first", "second", None]
    # The file name's result is the match's: no game is checked against it.
    assert [p.declared_name for p in found] == [None, None, None]
    assert found[0].diagnostics == [] and found[1].diagnostics == []
    off, no_result = found[2].diagnostics
    assert (off.code, off.line, off.column) == (engine.OFF_BOARD, 13, 1)
    assert "b9" in off.message
    assert (no_result.code, no_result.line) == (pipeline.W_NO_RESULT, 11)
    # process() keeps its meaning for a file of one game: here, the first game.
    first = pipeline.process(source("hop/HOP-Wen vs Kai-先手胜.txt", MATCH), encoding=None, options={})
    assert first.id == found[0].id and first.result == "first"


def test_the_archive_indexes_each_game_of_a_match_with_its_own_page(tmp_path: Path) -> None:
    path = "hop/HOP-Wen vs Kai-先手胜.txt"
    archive = index(tmp_path, (path, MATCH))
    [event] = archive.events
    assert [entry.id for entry in event.games] == [f"{path}#{n}" for n in (1, 2, 3)]
    # Games 1 and 2 hold the same moves: two games of one match, not copies of one game.
    assert [entry.duplicates for entry in event.games] == [[], [], []]
    urls = [entry.url for entry in event.games]
    assert len(set(urls)) == 3 and all(url.startswith("games/hop/") for url in urls)
    assert archive.by_source[path] is event.games[0]  # the file leads to its first game
    assert {game: entry.id for game, entry in archive.by_id.items()} == {e.id: e.id for e in event.games}
    # The problems of the file: the third game's, at its own lines.
    assert [(d.code, d.path, d.line) for d in archive.problems[path]] == [
        (pipeline.W_NO_RESULT, path, 11), (engine.OFF_BOARD, path, 13),
    ]  # fmt: skip
    rows = {row.team: row for row in event.sections[0].rows}
    assert (rows["Wen"].wins, rows["Wen"].losses, rows["Kai"].wins, rows["Kai"].games) == (1, 1, 1, 2)


def test_the_same_game_in_two_match_files_is_one_game_shown_once(tmp_path: Path) -> None:
    archive = index(tmp_path, ("hop/a.txt", MATCH), ("hop/b.txt", MATCH))
    [event] = archive.events
    # Games 1 and 2 of each file hold the same moves: each is copied by one
    # game of the other file, never by a game of its own. The third games
    # stop at their first move, and a record with no move replayed is never a copy.
    assert sorted((entry.id, tuple(entry.duplicates)) for entry in event.games) == [
        ("hop/a.txt#1", ("hop/b.txt",)), ("hop/a.txt#2", ("hop/b.txt",)), ("hop/a.txt#3", ()), ("hop/b.txt#3", ()),
    ]  # fmt: skip
    assert archive.by_id["hop/b.txt#1"] is archive.by_id["hop/a.txt#1"]
    copied = [d for d in archive.problems["hop/b.txt"] if d.code == "ARC-N101"]
    assert sorted((d.line, d.message) for d in copied) == [
        (1, "same game as hop/a.txt#1, which is shown as the game page"),
        (6, "same game as hop/a.txt#2, which is shown as the game page"),
    ]


# -- compound moves ----------------------------------------------------------------------------


def test_a_compound_move_is_one_ply_of_all_its_points() -> None:
    [game] = processed("hop/one.txt", "#GAME HOP\n#RESULT first\nW a1-c3/c1\n")
    assert game.record is not None and game.replay is not None
    [move] = game.record.moves
    assert move.points == (("a", 1), ("c", 3), ("c", 1))
    [ply] = game.replay.plies
    assert (ply.label, ply.side, ply.line) == ("W a1-c3/c1", "first", 3)
    assert ply.ops == [["move", "p0", "c3"], ["add", "x1", "stone", "red", "c1"]]
    assert game.diagnostics == []


@pytest.mark.parametrize(
    ("move", "point"), [("W e1-a2/a3", "('e', 1)"), ("W a1-a5/a3", "('a', 5)"), ("W a1-a2/a9", "('a', 9)")]
)
def test_the_drivers_off_board_check_covers_every_part_of_a_compound_move(move: str, point: str) -> None:
    [game] = processed("hop/off.txt", f"#GAME HOP\n#RESULT first\n{move}\n")
    [error] = game.diagnostics
    assert error.code == engine.OFF_BOARD and error.message.endswith(f"{point} is off the board")
    assert game.replay is not None and game.replay.plies == []


def test_the_engines_own_rule_sees_the_whole_compound_move() -> None:
    [game] = processed("hop/own.txt", "#GAME HOP\n#RESULT first\nW a1-b2/b2\n")  # burns where it lands
    [error] = game.diagnostics
    assert error.code == inv.CELL_TAKEN and error.line == 3


# -- no grid -------------------------------------------------------------------------------------


def test_a_game_with_no_grid_reads_and_replays_cards() -> None:
    tri = games.get("TRI")
    assert tri is not None and not tri.grid and (tri.columns, tri.rows) == (0, 0)
    [game] = processed("cards/TRI-one.txt", TRI_GAME)
    assert game.record is not None
    assert all(m.point is None and m.to is None for m in game.record.moves)
    assert [m.parts for m in game.record.moves][:2] == [(9,), (1, 2)]
    assert game.replay is not None and game.replay.setup == []


def test_a_card_outside_the_deck_is_off_the_board_and_a_card_played_twice_is_the_engines_error() -> None:
    [outside] = processed("cards/TRI-x.txt", "#GAME TRI\nA 4,10\n")
    assert outside.diagnostics[0].code == engine.OFF_BOARD
    assert outside.diagnostics[0].message == "move 1, A 4,10: 10 is off the board"
    [again] = processed("cards/TRI-y.txt", "#GAME TRI\nA 4\nB 5,4\n")
    assert (again.diagnostics[0].code, again.diagnostics[0].line) == (inv.CARD_AGAIN, 3)


# -- the model's helpers and the registry ------------------------------------------------------


def test_results_name_seats_and_partnerships() -> None:
    assert winner_of([2]) == "third" and winner_of([2, 0]) == "first+third" and winner_of([]) == "draw"
    assert seats_of("second+fourth") == (1, 3) and seats_of("draw") == () and seats_of("komi") == ()
    assert winner_by_score({"first": 45.0, "second": 36.0, "komi": 7.5}) == "first"
    assert winner_by_score({"first+third": 3, "second+fourth": 3}) == "draw"
    assert Decision.from_scores({"first": 1, "second": 4}, "boxes", 9).winner == "second"


def test_invented_games_live_only_inside_the_test() -> None:
    assert games.get("TRI") is inv.TRI and inv.TRI.module("rules") is inv.TRI.module("format")
    assert ".duo" in games.record_suffixes()
    with pytest.raises(ValueError, match="C5"):
        with games.registered(games.GAMES["C5"]):
            pass
    assert games.get("C5") is not None  # not removed by the refused registration


def test_a_registered_game_type_is_gone_after_its_block() -> None:
    extra = dataclasses.replace(inv.HOP, code="HOP2", suffixes=(".hop2",))
    with games.registered(extra):
        assert "HOP2" in games.codes() and ".hop2" in games.record_suffixes()
    assert games.get("HOP2") is None and ".hop2" not in games.record_suffixes()
    assert games.get("HOP") is inv.HOP  # the fixture's block is still open


def test_a_texts_lines_are_its_line_starts_slices_without_line_ends_or_byte_order_marks() -> None:
    def sliced(text: str, starts: list[int]) -> list[str]:
        ends = [*starts[1:], len(text)]
        return [text[a:b].rstrip("\r\n").lstrip("\ufeff") for a, b in zip(starts, ends)]

    rng = random.Random(7)
    for _ in range(3000):
        text = "".join(rng.choice(["a", "炮", " ", "\n", "\r", "\r\n", "\ufeff"]) for _ in range(rng.randrange(0, 25)))
        assert Text("t.txt", text, "utf-8").lines() == sliced(text, line_starts(text)), repr(text)
    # Line starts given that are not the text's own (a reader's part of a file): their slices, as before.
    assert Text("t.txt", "ab\ncd\nef", "utf-8", [0, 6]).lines() == ["ab\ncd", "ef"]


def test_moves_keep_the_field_order_the_fast_readers_build_them_in() -> None:
    # csa, pgn and draughts make Move positionally (model.MOVE_FIELDS): a reordered field would mix them up silently.
    from generator.model import MOVE_FIELDS, Move

    assert tuple(f.name for f in dataclasses.fields(Move))[: len(MOVE_FIELDS)] == MOVE_FIELDS

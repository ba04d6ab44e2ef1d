"""The real Amazons files of ../shared/corpus/AM: every game read and replayed, every oddity said where it is."""

from __future__ import annotations

from pathlib import Path

from generator.model import Source
from generator.pipeline import Processed, process_games, sha256


def games_of(corpus: Path, name: str) -> list[Processed]:
    data = (corpus / "AM" / name).read_bytes()
    return process_games(Source(f"AM/{name}", data, sha256(data)), encoding=None, options={})


def where(done: Processed) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in done.diagnostics]


def test_every_file_reads_and_nothing_is_lost(corpus: Path) -> None:
    names = sorted(p.name for p in (corpus / "AM").iterdir())
    assert len(names) == 4
    for name in names:
        text = (corpus / "AM" / name).read_bytes().decode("gb18030")
        written = text.count("(")  # every move writes its arrow in brackets
        done = games_of(corpus, name)
        shown = 0
        for game in done:
            assert game.code == "AM" and game.record is not None and game.replay is not None, name
            assert len(game.replay.plies) + len(game.replay.not_replayed) == len(game.record.moves)
            shown += len(game.record.moves)
            for d in game.diagnostics:
                assert d.line >= 1 and d.column >= 1 and d.message, (name, d)
        assert shown == written, name


def test_a_file_of_three_truncated_games_with_free_text(corpus: Path) -> None:
    done = games_of(corpus, "AM_01_FinalQiPu_zhiyuxing.txt")  # GBK, CRLF, a blank first line
    assert [(g.game, g.record.line) for g in done if g.record] == [(1, 2), (2, 4), (3, 7)]
    assert [[p.label for p in g.replay.plies] for g in done if g.replay] == [
        ["g1g9(f9)"], ["j4i4(h4)", "d10d4(g4)"], ["j4e4(j4)", "g10g4(d7)"]
    ]
    # "知于行执白先手" after the header: the team of the side it held; the placeholders are no team.
    assert [(g.meta.first, g.meta.second) for g in done] == [("知于行", None), (None, "知于行"), (None, "知于行")]
    assert all((g.meta.date, g.meta.time, g.meta.place, g.meta.event) == ("2018-08-03", "10:00", "合肥", "国赛") for g in done)
    first = where(done[0])
    assert ("FMT-N401", 2, 50) in first and ("FMT-N402", 2, 6) in first
    assert not [d for g in done for d in g.diagnostics if d.severity == "error"]


def test_a_header_alone_with_the_result_outside_the_brackets(corpus: Path) -> None:
    (done,) = games_of(corpus, "AM_02_header_only_result_outside_brackets.txt")
    assert done.meta.result == "second" and done.record is not None and done.record.moves == []
    assert ("FMT-W403", 1, 18) in where(done) and ("FMT-W401", 1, 1) in where(done)


def test_the_gui_writers_game_stops_at_its_illegal_arrow(corpus: Path) -> None:
    (done,) = games_of(corpus, "AM_03_amazongui_foo_6rounds.txt")
    assert (done.meta.first, done.meta.second, done.meta.result) == ("a", "bv", "unknown")
    assert done.replay is not None and len(done.replay.plies) == 3 and len(done.replay.not_replayed) == 9
    (error,) = [d for d in done.diagnostics if d.severity == "error"]
    # Turn 2, black's d10d7(f6): from d7, f6 is on no line.
    assert (error.code, error.line, error.column) == ("RULE-E412", 3, 12)
    assert "the arrow cannot fly from d7 to f6" in error.message


def test_the_one_turn_game(corpus: Path) -> None:
    (done,) = games_of(corpus, "AM_04_amazongui_foo_1round.txt")
    assert done.replay is not None and [p.label for p in done.replay.plies] == ["g1h1(i1)", "j7i7(g7)"]
    assert (done.meta.date, done.meta.time) == ("2019-10-03", "23:06")

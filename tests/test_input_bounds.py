"""Long and many inputs: every step still gives the right answer, in time and memory in proportion.

These tests are functional: they feed sizes a real archive never holds (a
team name of 100,000 characters, thousands of spellings of one team,
thousands of teams in one event) and check what comes out. How long the
steps take for growing sizes is measured by ``benchmarks/bench_inputs.py``,
never here: a timed assertion fails on a busy machine and passes a
quadratic step on a fast one.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from generator import games
from generator.archive import duplicates, standings
from generator.archive.teams import AFFIX_MAX, PAIRS_MAX, Teams, few_pairs, suggest_aliases
from generator.metadata import NAME_MAX, from_filename, loose, merge, parse_result, parse_when
from generator.model import Metadata
from generator.render import urls

LONG = 100_000


def long_name(n: int = LONG) -> str:
    """A team name of n characters, Chinese and Latin, that holds no shorter name used here."""
    return "".join("星火队A"[i % 4] for i in range(n))


def reasons(names, shared=()):
    return {s.names: s.reason for s in suggest_aliases(names, shared)}


# -- alias suggestions -----------------------------------------------------


def test_a_long_name_gets_the_suggestions_a_short_one_would():
    name = long_name()
    wide = name.replace("A", "Ａ")
    spaced = " ".join(name[:20]) + name[20:]
    prefixed = "北京科技大学-" + name
    bracketed = name + "（北京科技大学）"
    found = reasons([name, wide, spaced, prefixed, bracketed, "沼泽", "北京科技大学-沼泽"])
    assert found[tuple(sorted((name, wide)))] == "differ only in width"
    assert found[tuple(sorted((name, spaced)))] == "differ only in spaces"
    assert found[tuple(sorted((name, prefixed)))] == "same name with the prefix '北京科技大学'"
    assert found[tuple(sorted((name, bracketed)))] == "same name with the suffix '(北京科技大学)'"
    assert found[("北京科技大学-沼泽", "沼泽")] == "same name with the prefix '北京科技大学'"


def test_long_names_that_are_different_teams_are_not_suggested():
    assert suggest_aliases([long_name(), long_name(LONG - 1), "队" + long_name(), long_name() + "2"]) == []


def test_an_affix_is_looked_for_only_near_either_end():
    # A "school name" longer than any school's: the split would cost a slice
    # of the name at every position, and no real name needs it.
    core = "沼泽"
    near = "大学" * (AFFIX_MAX // 2 - 1) + "-"
    far = "大学" * AFFIX_MAX + "-"
    assert reasons([near + core, core])
    assert reasons([far + core, core]) == {}
    assert reasons([core + "-" + far, core]) == {}


def test_the_school_prefixed_names_of_the_readme_among_thousands_of_teams():
    teams = [f"队{i}" for i in range(5000)]
    found = reasons([*teams, "北京科技大学-沼泽", "沼泽", "Ａ１", "A1", "BaGe", "bage", "沼 泽"])
    assert found == {
        ("北京科技大学-沼泽", "沼泽"): "same name with the prefix '北京科技大学'",
        ("A1", "Ａ１"): "differ only in width",
        ("BaGe", "bage"): "differ only in case",
        ("沼 泽", "沼泽"): "differ only in spaces",
    }


def test_a_few_spellings_of_one_team_are_all_paired():
    names = ["bage", "BaGe", "BAGE", "Ba Ge", "ＢａＧｅ"]
    assert len(suggest_aliases(names)) == len(list(itertools.combinations(names, 2)))


def test_many_spellings_of_one_team_are_each_paired_with_the_first():
    names = sorted({"".join(c.upper() if i >> k & 1 else c for k, c in enumerate("abcdefghijkl")) for i in range(4096)})
    found = suggest_aliases(names)
    assert len(found) == len(names) - 1
    assert all(names[0] in s.names and s.reason == "differ only in case" for s in found)


def test_few_pairs():
    assert list(few_pairs("abc")) == [("a", "b"), ("a", "c"), ("b", "c")]
    many = [str(i) for i in range(PAIRS_MAX + 1)]
    assert list(few_pairs(many)) == [("0", other) for other in many[1:]]


def test_many_spellings_of_a_core_name_and_one_prefixed_name():
    # 64 widths of one name: one tidy form, so the prefixed name matches them all.
    wide = {c: chr(ord(c) + 0xFEE0) for c in "zhaoe"}
    cores = sorted({"".join(wide[c] if i >> k & 1 else c for k, c in enumerate("zhaoze")) for i in range(64)})
    found = reasons([*cores, "北京科技大学-zhaoze"])
    assert cores[0] == "zhaoze"
    assert found[("zhaoze", "北京科技大学-zhaoze")] == "same name with the prefix '北京科技大学'"
    assert sum(s.startswith("same name") for s in found.values()) == 1  # the first spelling stands for all
    assert sum(s == "differ only in width" for s in found.values()) == len(cores) - 1


def test_teams_canonical_of_a_long_name():
    teams = Teams({"北京科技大学-沼泽": "沼泽"})
    name = "  " + long_name() + "  "
    assert teams.canonical(name) == long_name()
    assert teams.canonical("北京科技大学-沼泽") == "沼泽"


def check_aliases(folder: Path, name: str) -> list[str]:
    """The alias lines ``qipu check`` prints for three records naming ``name`` three ways."""
    from generator.check import check_paths
    from generator.config import load_config

    event = folder / "content" / "e"
    event.mkdir(parents=True)
    moves = ";".join(f"{'BW'[k % 2]}({'HHIIJJKKL'[k]},{8 + k % 2})" for k in range(9))
    for k, first in enumerate([name, "北京科技大学-" + name, name.replace("A", "Ａ")]):
        record = f"{{[C5][{first} B][对手 W][先手胜][2025.08.02 1{k}:00 合肥][赛事];{moves}}}"
        (event / f"C5-r{k}.txt").write_text(record, encoding="utf-8")
    config, _ = load_config(root=folder, content=folder / "content", output=folder / "site")
    return check_paths(config, [folder / "content"]).aliases


def test_qipu_check_suggests_for_a_long_team_name_what_it_does_for_a_short_one(tmp_path: Path):
    short = check_aliases(tmp_path / "short", "星火队A")
    assert len(short) == 2
    assert check_aliases(tmp_path / "long", long_name()) == [
        line.replace("星火队A", long_name()).replace("星火队Ａ", long_name().replace("A", "Ａ")) for line in short
    ]


# -- metadata --------------------------------------------------------------


def test_result_words_with_a_long_reason():
    assert parse_result("先手胜" + "（超时" * LONG, None) == ("first", True)
    assert parse_result("后手胜，对方认输" + "，" * LONG, games.get("C5")) == ("second", True)


def test_result_words_after_a_long_line_of_brackets():
    # The reason is cut on the last line only, as before: the brackets of an
    # earlier line stay (these words are not recognised), those of the last go.
    assert parse_result("(" * LONG + "\n先手胜", None) == (None, False)
    assert parse_result("先手胜\n" + "(" * LONG, None) == ("first", True)


def test_result_word_repeated():
    assert parse_result("先手胜" * LONG, None) == (None, False)
    assert parse_result(long_name() + "胜", None, long_name(), "b") == ("first", True)


def test_time_and_place_with_long_runs():
    assert parse_when("2017.07.29" + " " * LONG + "重庆") == ("2017-07-29", None, "重庆")
    assert parse_when("2017.07.29 14:00" + " " * LONG + "重庆") == ("2017-07-29", "14:00", "重庆")
    assert parse_when(" " * LONG) == (None, None, None)
    assert parse_when("1" * LONG) == (None, None, "1" * LONG)


def test_merge_of_long_header_fields():
    name = long_name(1_000_000)
    merged, found = merge("f.txt", Metadata(first=name, event=name), Metadata(first=name + "x", event=name.lower()))
    assert merged.first == name
    assert [d.code for d in found] == ["META-W002"]


def test_loose_of_a_long_name():
    name = long_name(1_000_000)
    assert loose(name) == name.casefold()
    assert loose(" ".join(name[:10]) + name[10:]) == loose(name)


@pytest.mark.parametrize(
    "name, expected",
    [
        # 250 bytes and more: as long as a file system lets a name be.
        (
            "C5-a" + " " * 200 + "vs b-先手胜-2025.08.02 10.00 合肥-赛事.txt",
            ("a", "b", "first", "2025-08-02", "合肥", "赛事"),
        ),
        (
            "C5-a vs b" + " " * 200 + "-后手胜-2025.08.02 10.00 合肥.txt",
            ("a", "b", "second", "2025-08-02", "合肥", None),
        ),
        (
            "C5-a -" + " " * 200 + "vs - b-平局-2025.08.02 10.00 合肥.txt",
            ("a", "b", "draw", "2025-08-02", "合肥", None),
        ),
        (
            "C5-a vs b-" + "x-" * 120 + "先手胜-2025.08.02.txt",
            ("a", "b-" + "x-" * 119 + "x", "first", "2025-08-02", None, None),
        ),
        (
            "C5-a vs b-" + "x胜利-" * 40 + "2025.08.02 合肥.txt",
            ("a", "b", None, "2025-08-02", "合肥", None),
        ),
        (
            "C5-a vs b-先手胜-" + "2025.08.02 10.00 合肥-" + "赛" * 200 + ".txt",
            ("a", "b", "first", "2025-08-02", "合肥", "赛" * 200),
        ),
    ],
)
def test_file_names_as_long_as_a_file_system_allows(name, expected):
    meta = from_filename(name)
    assert (meta.first, meta.second, meta.result, meta.date, meta.place, meta.event) == expected


def test_a_name_longer_than_any_file_system_allows_is_not_read():
    assert from_filename("C5-a vs b-先手胜-" + "x" * NAME_MAX + ".txt") == Metadata()
    assert from_filename("C5-a vs b-" + "x胜利-" * LONG + ".txt") == Metadata()
    assert from_filename("C5-a" + " " * LONG + "vs b-先手胜.txt") == Metadata()


# -- slugs -----------------------------------------------------------------


def test_slug_of_a_long_name():
    name = long_name()
    found = urls.slug(name)
    assert len(found) <= 80 and found.startswith("a-a-a-")
    assert found != urls.slug(name + "2")
    assert urls.slug("北" * LONG).startswith("x-")


# -- duplicates ------------------------------------------------------------


def entry(path: str, moves: str, first: str | None, second: str | None, date: str | None = None) -> duplicates.Entry:
    return duplicates.Entry(path, "C5", moves, first, second, date, None, "first", 20, "opening", "")


def test_many_copies_of_one_game_under_many_names():
    copies = [entry(f"e/{i:05d}.txt", "same", f"A{i:05d}", "B") for i in range(3000)]
    groups, found = duplicates.group(copies)
    assert len(groups) == 1 and len(groups[0]) == 3000
    assert sum(d.code == duplicates.DUPLICATE for d in found) == 2999
    shared = duplicates.shared_names(groups)
    assert shared == [("A00000", f"A{i:05d}") for i in range(1, 3000)]
    assert len(suggest_aliases([], shared)) == 2999


def test_a_few_copies_share_every_pair_of_names():
    copies = [entry(f"e/{i}.txt", "same", name, "B") for i, name in enumerate(["A", "a", "Ａ"])]
    groups, _ = duplicates.group(copies)
    assert duplicates.shared_names(groups) == [("A", "a"), ("A", "Ａ"), ("a", "Ａ")]


def test_many_records_sharing_an_opening_and_a_team():
    records = [entry(f"e/{i:05d}.txt", f"moves{i}", "A", f"B{i}") for i in range(2000)]
    # One real pair among them: two copies of one game by other teams.
    records += [entry("e/x1.txt", "x1", "C", "D", "2025-08-02"), entry("e/x2.txt", "x2", "C", "D", "2025-08-02")]
    groups, _ = duplicates.group(records)
    pairs, found = duplicates.near_copies(groups)
    assert ("e/x1.txt", "e/x2.txt") in pairs
    later: dict[str, int] = {}
    for a, b in pairs:
        assert a < b
        later[a] = later.get(a, 0) + 1
    assert max(later.values()) == duplicates.NEAR_MAX
    assert len(found) == 2 * len(pairs)


def test_records_of_one_team_on_different_days_are_not_paired():
    records = [entry(f"e/{i:05d}.txt", f"moves{i}", "A", f"B{i}", f"2025-01-{i % 28 + 1:02d}") for i in range(280)]
    groups, _ = duplicates.group(records)
    pairs, _ = duplicates.near_copies(groups)
    by_path = {e.path: e for e in records}
    assert pairs and all(by_path[a].date == by_path[b].date for a, b in pairs)


def test_moves_key_of_moves_with_unclosed_marks():
    assert duplicates.moves_key("C5", ["A1MARK[1]", "B2MARK[x"]) == duplicates.moves_key("C5", ["A1", "B2MARK[x"])
    key = duplicates.moves_key("C5", ["A1MARK[x"] * LONG)
    assert key == duplicates.moves_key("C5", ["a1 mark[X"] * LONG)


# -- standings -------------------------------------------------------------


def test_head_to_head_in_many_tied_pairs():
    # Level k: A_k and B_k both have 2k + 2 points; A_k beat B_k.
    levels = 60
    played = []
    for k in range(1, levels + 1):
        played.append(standings.Played(f"a{k}", f"A{k}", f"B{k}", "first"))
        played += [standings.Played(f"x{k}-{j}", f"A{k}", f"bagA{k}-{j}", "first") for j in range(k)]
        played += [standings.Played(f"y{k}-{j}", f"B{k}", f"bagB{k}-{j}", "first") for j in range(k + 1)]
    rows = standings.standings([], played, standings.Points(), ["head-to-head"])
    rank = {row.team: row for row in rows}
    for k in range(1, levels + 1):
        a, b = rank[f"A{k}"], rank[f"B{k}"]
        assert a.points == b.points == 2 * k + 2
        assert a.rank + 1 == b.rank and not a.tied and not b.tied
        assert (a.tiebreaks["head-to-head"], b.tiebreaks["head-to-head"]) == (2.0, 0.0)


def test_crosstable_of_thousands_of_teams():
    teams = [f"T{i:05d}" for i in range(5000)]
    played = [standings.Played(f"g{i}", teams[i], teams[i + 1], "first") for i in range(0, 5000, 2)]
    cross = standings.crosstable(teams, played)
    assert len(cross) == 5000
    assert cross["T00000"]["T00001"] == [standings.CrossGame("g0", "1", True)]
    assert cross["T00001"]["T00000"] == [standings.CrossGame("g0", "0", False)]
    assert cross["T00000"]["T04999"] == [] and cross["T04999"].get("T00000", []) == []
    assert all(len(row) == 1 for row in cross.values())  # only the opponent met is held
    with pytest.raises(KeyError):
        cross["T00000"]["not listed"]

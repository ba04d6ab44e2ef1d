"""Duplicate records: grouping copies of one game and the warnings they raise."""

from __future__ import annotations

from generator.archive.duplicates import (
    COPY_RESULT,
    COPY_TEAMS,
    DUPLICATE,
    SAME_PAIRING,
    Entry,
    group,
    moves_key,
    shared_names,
)
from generator.archive.teams import suggest_aliases
from generator.diagnostics import CATALOG

GAME = ["B(J,10)", "W(K,10)", "W(K,11)", "B(J,11)", "B(J,12)"]
OTHER = ["B(J,10)", "W(K,9)", "W(K,11)", "B(J,11)", "B(J,12)"]


def entry(path, moves=GAME, code="C6", first="A2", second="B3", date="2025-12-27", time="14:55", declared="second"):
    return Entry(path, code, moves_key(code, moves), first, second, date, time, declared, len(moves))


def codes(diagnostics, path=None):
    return sorted(d.code for d in diagnostics if path is None or d.path == path)


def test_moves_key_ignores_case_spaces_width_and_marks():
    written = ["b(j,10)", "W( K ,10)", "Ｗ(Ｋ,11)", "B(J,11)MARK[-2]", "B(J,12)"]
    assert moves_key("C6", GAME) == moves_key("C6", written)


def test_moves_key_tells_games_apart():
    assert moves_key("C6", GAME) != moves_key("C6", OTHER)
    assert moves_key("C6", GAME) != moves_key("C5", GAME)
    assert moves_key("C6", ["AB", "C"]) != moves_key("C6", ["A", "BC"])
    assert moves_key("C6", GAME) != moves_key("C6", list(reversed(GAME)))


def test_moves_key_of_an_empty_game_is_empty():
    assert moves_key("C6", []) == ""
    assert moves_key("C6", ["  ", "MARK[1]"]) == ""


def test_copies_are_grouped_and_the_first_by_path_is_shown():
    records = [entry("b/x.txt"), entry("c/other.txt", OTHER, first="C3"), entry("a/x.txt")]
    groups, diagnostics = group(records)
    assert [[e.path for e in g] for g in groups] == [["a/x.txt", "b/x.txt"], ["c/other.txt"]]
    assert [(d.path, d.code, d.line, d.column) for d in diagnostics] == [("b/x.txt", DUPLICATE, 1, 1)]
    assert "a/x.txt" in diagnostics[0].message
    assert "shown" in diagnostics[0].message


def test_same_moves_in_another_game_type_are_not_copies():
    groups, _ = group([entry("a.txt"), entry("b.txt", code="C5")])
    assert len(groups) == 2


def test_copies_declaring_different_results_are_warned_on_each_file():
    groups, diagnostics = group([entry("a.txt", declared="second"), entry("b.txt", declared="first")])
    assert len(groups) == 1
    assert codes(diagnostics, "a.txt") == [COPY_RESULT]
    assert codes(diagnostics, "b.txt") == sorted([COPY_RESULT, DUPLICATE])
    on_a = next(d for d in diagnostics if d.path == "a.txt")
    assert "b.txt" in on_a.message and "first player wins" in on_a.message
    on_b = next(d for d in diagnostics if d.path == "b.txt" and d.code == COPY_RESULT)
    assert "a.txt" in on_b.message and "second player wins" in on_b.message


def test_a_copy_that_does_not_declare_a_result_is_not_a_disagreement():
    _, diagnostics = group([entry("a.txt"), entry("b.txt", declared=None, first=None)])
    assert codes(diagnostics) == [DUPLICATE]


def test_copies_naming_different_teams_are_warned_and_feed_alias_suggestions():
    groups, diagnostics = group([entry("a.txt", second="B3"), entry("b.txt", second="北科大-B3")])
    assert codes(diagnostics, "a.txt") == [COPY_TEAMS]
    assert codes(diagnostics, "b.txt") == sorted([COPY_TEAMS, DUPLICATE])
    assert "second player" in next(d.message for d in diagnostics if d.path == "a.txt")
    assert shared_names(groups) == [("B3", "北科大-B3")]
    assert suggest_aliases([], shared_names(groups))[0].names == ("B3", "北科大-B3")


def test_same_pairing_and_time_with_different_moves():
    records = [entry("a.txt"), entry("b.txt", OTHER), entry("c.txt")]
    groups, diagnostics = group(records)
    assert [[e.path for e in g] for g in groups] == [["a.txt", "c.txt"], ["b.txt"]]
    assert codes(diagnostics, "a.txt") == [SAME_PAIRING]
    assert codes(diagnostics, "b.txt") == [SAME_PAIRING]
    assert codes(diagnostics, "c.txt") == sorted([SAME_PAIRING, DUPLICATE])
    on_b = next(d for d in diagnostics if d.path == "b.txt")
    assert on_b.message.startswith("records of the same pairing and time disagree")
    assert "a.txt" in on_b.message and "c.txt" in on_b.message
    assert "b.txt" in next(d.message for d in diagnostics if d.path == "a.txt")


def test_different_time_or_roles_is_no_disagreement():
    records = [
        entry("a.txt"),
        entry("b.txt", OTHER, time="15:15"),
        entry("c.txt", OTHER[:4], first="B3", second="A2"),
        entry("d.txt", OTHER[:3], time=None),
    ]
    _, diagnostics = group(records)
    assert diagnostics == []


def test_empty_games_are_never_grouped():
    records = [entry("a.txt", []), entry("b.txt", []), entry("c.txt", [])]
    groups, diagnostics = group(records)
    assert [[e.path for e in g] for g in groups] == [["a.txt"], ["b.txt"], ["c.txt"]]
    assert diagnostics == []
    # An entry claiming moves but carrying the empty key is not grouped either.
    odd = Entry("d.txt", "C6", "", "A2", "B3", None, None, None, 3)
    assert len(group([odd, odd])[0]) == 2


def test_same_moves_on_different_days_are_two_games():
    groups, diagnostics = group([entry("a.txt"), entry("b.txt", date="2025-12-28")])
    assert len(groups) == 2
    assert diagnostics == []


def test_many_records():
    records = []
    for i in range(5000):
        moves = [f"B({i},1)", f"W({i},2)"]
        records.append(entry(f"x/{i:05d}.txt", moves, time=None))
        records.append(entry(f"y/{i:05d}.txt", moves, time=None))
    groups, diagnostics = group(records)
    assert len(groups) == 5000
    assert all(len(g) == 2 and g[0].path.startswith("x/") for g in groups)
    assert codes(diagnostics) == [DUPLICATE] * 5000


def test_codes_are_declared():
    assert CATALOG[COPY_RESULT].severity == "warning"
    assert CATALOG[COPY_TEAMS].severity == "warning"
    assert CATALOG[SAME_PAIRING].severity == "warning"
    assert CATALOG[DUPLICATE].severity == "note"
    assert all(CATALOG[c].help for c in (COPY_RESULT, COPY_TEAMS, SAME_PAIRING, DUPLICATE))

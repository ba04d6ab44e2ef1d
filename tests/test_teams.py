"""Team names: canonical spellings and alias suggestions."""

from __future__ import annotations

from generator.archive.teams import Suggestion, Teams, loose, suggest_aliases


def test_exact_alias_wins():
    teams = Teams({"BaGe": "八哥", "北京科技大学-沼泽": "沼泽"})
    assert teams.canonical("BaGe") == "八哥"
    assert teams.canonical("北京科技大学-沼泽") == "沼泽"
    assert teams.canonical("  BaGe ") == "八哥"


def test_loose_match_against_spellings_and_canonical_names():
    teams = Teams({"BaGe": "八哥"})
    assert teams.canonical("bage") == "八哥"
    assert teams.canonical("Ba Ge") == "八哥"
    assert teams.canonical("ＢａＧｅ") == "八哥"
    assert teams.canonical("八　哥") == "八哥"  # ideographic space


def test_unknown_names_are_tidied_not_split_by_width():
    teams = Teams({})
    assert teams.canonical("  Ａ１ ") == "A1"
    assert teams.canonical("A1") == "A1"
    assert teams.canonical("北理工  苏拉卡尔塔") == "北理工 苏拉卡尔塔"
    # Case is kept: only an alias or a suggestion merges "bage" and "BaGe".
    assert teams.canonical("bage") == "bage"


def test_ambiguous_loose_key_is_not_guessed():
    teams = Teams({"AB": "Team One", "a b": "Team Two"})
    assert teams.canonical("AB") == "Team One"
    assert teams.canonical("a b") == "Team Two"
    assert teams.canonical("Ab") == "Ab"


def test_loose_key():
    assert loose(" Ａ Ｂ c ") == loose("abC") == "abc"


def reasons(names, shared=()):
    return {s.names: s.reason for s in suggest_aliases(names, shared)}


def test_names_differing_in_case_spaces_or_width():
    found = reasons(["BaGe", "bage", "沼 泽", "沼泽", "Ａ１", "A1"])
    assert found == {
        ("BaGe", "bage"): "differ only in case",
        ("沼 泽", "沼泽"): "differ only in spaces",
        ("A1", "Ａ１"): "differ only in width",
    }


def test_school_prefix_or_suffix():
    found = reasons(["北京科技大学-沼泽", "沼泽", "苏拉卡尔塔", "北理工_苏拉卡尔塔"])
    assert found[("北京科技大学-沼泽", "沼泽")] == "same name with the prefix '北京科技大学'"
    assert found[("北理工_苏拉卡尔塔", "苏拉卡尔塔")] == "same name with the prefix '北理工'"
    assert reasons(["八哥 Anhui University", "八哥"]) == {
        ("八哥", "八哥 Anhui University"): "same name with the suffix 'Anhui University'"
    }


def test_school_joined_directly_or_in_brackets():
    found = reasons(["哈尔滨理工大学苏拉卡尔塔", "苏拉卡尔塔", "沼泽（北京科技大学）", "沼泽"])
    assert set(found) == {("哈尔滨理工大学苏拉卡尔塔", "苏拉卡尔塔"), ("沼泽", "沼泽（北京科技大学）")}


def test_same_game_in_two_files():
    assert suggest_aliases(["八哥", "BaGe"], [("BaGe", "八哥")]) == [
        Suggestion(("BaGe", "八哥"), "same game in two files")
    ]


def test_clearly_different_names_are_not_suggested():
    names = [
        "A1", "A2", "A11", "B1", "沼泽", "沼泽2", "沼泽-2", "沼泽二队", "苏拉卡尔塔博弈", "苏拉卡尔塔",
        "八哥", "贝壳苏拉", "北京科技大学", "北京科技大学-知行",
    ]  # fmt: skip
    assert suggest_aliases(names) == []


def test_each_pair_once_and_in_order():
    result = suggest_aliases(["bage", "BaGe", "bage"], [("bage", "BaGe"), ("BaGe", "bage")])
    assert result == [Suggestion(("BaGe", "bage"), "differ only in case")]
    names = ["沼泽", "北京科技大学-沼泽", "A1", "Ａ１", "BaGe", "bage"]
    assert suggest_aliases(names) == suggest_aliases(reversed(names))
    assert [s.names for s in suggest_aliases(names)] == sorted(s.names for s in suggest_aliases(names))

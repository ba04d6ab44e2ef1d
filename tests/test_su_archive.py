"""A tournament archive as organisers have it: groups, stages, copies, spellings.

Unit tests of the folder rules, then the demo's Surakarta event built as a
user builds it, checked the way its organiser would check it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from generator.archive.stages import assign, folder_part

EVENT = "2025-su"


@pytest.mark.parametrize(
    "folder, kind, name",
    [
        ("A1A2", "group", "A"),
        ("B3", "group", "B"),
        ("B1/4", "group", "B"),
        ("A组", "group", "A"),
        ("Group C", "group", "C"),
        ("决赛/8.4/A1-C5", "stage", "决赛"),
        ("A1B2", "stage", "A1B2"),  # two letters: not one group
    ],
)
def test_what_a_folder_says(folder, kind, name):
    part = folder_part(folder)
    assert (part.kind, part.name) == (kind, name)


def test_loose_records_join_the_group_both_teams_play_in():
    parts = assign(
        [
            ("e/A1A2/x.txt", "A1A2", "甲", "乙"),
            ("e/B1/y.txt", "B1", "丙", "丁"),
            ("e/z.txt", "", "丙", "丁"),  # both in group B only
            ("e/w.txt", "", "甲", "丙"),  # across groups: stays "other"
            ("e/决赛/v.txt", "决赛", "甲", "丙"),
        ]
    )
    assert parts["e/z.txt"].name == "B"
    assert parts["e/w.txt"].kind == "other"
    assert parts["e/决赛/v.txt"].kind == "stage"
    assert sorted(parts.values())[0].name == "A"  # groups first, then stages, then other


def test_an_event_without_folders_has_no_parts():
    assert assign([("e/x.txt", "", "甲", "乙")]) == {}


# -- the demo's Surakarta event, built ----------------------------------------------


def qipu(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8"
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # The demo's site.toml, on this event's folder alone (the other events need not be built).
    work = tmp_path_factory.mktemp("su")
    shutil.copytree(REPO / "content" / EVENT, work / "content" / EVENT)
    result = qipu(
        "build", "--config", str(REPO / "site.toml"), "--content", str(work / "content"), "--out", str(work / "site"), cwd=work
    )
    assert result.returncode == 0, result.stderr
    return work / "site"


def test_event_page_shows_each_group_then_the_knockout_and_no_table_of_everyone(site):
    page = (site / "events" / EVENT / "index.html").read_text(encoding="utf-8")
    for heading in ("A 组", "B 组", "决赛"):
        assert heading in page
    # Teams of different groups and of the final did not play the same games: no one table ranks them all.
    assert "总积分表" not in page
    assert page.index('id="SU-group-a"') < page.index('id="SU-group-b"') < page.index('id="SU-stage-')
    # The final placings the demo's site.toml defines (the knockout, then group ranks) come after the stages,
    # as places, not as a table of points.
    placings = page.split('id="SU-overall"')[1].split("</section>")[0]
    assert page.index('id="SU-stage-') < page.index('id="SU-overall"')
    assert "最终名次" in placings and "q-placings" in placings and "积分" not in placings
    final = page.split('class="q-division q-division-knockout"')[1].split("</section>")[0]
    assert "q-bracket" in final and "q-standings" not in final and "q-cross" not in final
    for round_name in ("半决赛", "决赛", "三四名决赛"):
        assert f'<h5 class="q-round-name">{round_name}</h5>' in final
    # Each group's standings hold its own four teams, and no other.
    groups = (
        ("a", ("北科大·沼泽", "哈理工·苏拉", "北信科·贝壳", "安大·天源")),
        ("b", ("八哥", "北理工·一齐", "沈航·峰回", "合工大·苏苏")),
    )
    for group, teams in groups:
        part = page.split(f'id="SU-group-{group}"')[1].split("</section>")[0]
        table = part.split('class="q-standings"')[1].split("</table>")[0]
        assert sorted(re.findall(r'<td><a href="[^"]+">([^<]+)</a></td>', table)) == sorted(teams)
    # The two records left in the event folder are placed in group B, and the page says so.
    group_b = page.split('id="SU-group-b"')[1].split("</section>")[0]
    assert "其中 2 局棋谱不在小组文件夹中" in group_b


def test_group_codes_in_records_are_merged_by_the_aliases(site):
    page = (site / "events" / EVENT / "index.html").read_text(encoding="utf-8")
    tables = re.findall(r'<table class="q-standings">(.*?)</table>', page, re.S)
    assert len(tables) == 2  # groups A and B; the final is a bracket
    teams = [t for table in tables for t in re.findall(r'<td><a href="[^"]+">([^<]+)</a></td>', table)]
    assert "A1" not in teams and "A2" not in teams
    assert len(teams) == len(set(teams)) == 8  # eight teams, not ten


def test_a_game_saved_twice_is_one_page_naming_both_files(site):
    lines = [json.loads(line) for line in (site / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    copied = [g for g in lines if g["event"] == EVENT and g["duplicates"]]
    assert len(copied) == 1
    assert "副本" in copied[0]["duplicates"][0]


def test_problems_page_compares_disagreeing_copies_side_by_side(site):
    page = (site / "problems" / "index.html").read_text(encoding="utf-8")
    assert "同一对局的两份棋谱不一致" in page
    compare = page.split('class="q-comparisons"')[1].split("</section>\n</section>")[0]
    assert "对方记录" in compare and "q-differs" in compare
    # The shorter copy has no moves where the longer one goes on: shown as "—".
    assert "<td>—</td>" in compare
    # The long run of moves both copies agree on is one folded line.
    assert re.search(r'<tr class="q-same"><th>…</th><td colspan="2">第 \d+–\d+ 手两份相同（\d+ 手）</td></tr>', compare)


def test_problems_page_has_the_organisers_view_per_team(site):
    page = (site / "problems" / "index.html").read_text(encoding="utf-8")
    teams = page.split('id="by-team"')[1].split("</section>")[0]
    # The record with the illegal capture counts against both its teams.
    assert "合工大·苏苏" in teams and "八哥" in teams
    assert "RULE-E206" in teams


def test_check_suggests_the_alias_for_a_team_spelled_two_ways(tmp_path):
    result = qipu("check", "--config", str(REPO / "site.toml"), str(REPO / "content" / EVENT), cwd=tmp_path)
    assert result.returncode == 1  # the demo's illegal capture
    assert '"哈理工·苏拉" = ["HLG SuLa"]' in result.stdout
    as_json = qipu("check", "--format", "json", "--config", str(REPO / "site.toml"), str(REPO / "content" / EVENT), cwd=tmp_path)
    notes = [json.loads(line) for line in as_json.stdout.splitlines() if '"ARC-N102"' in line]
    assert notes and set(notes[0]) == {"path", "line", "column", "severity", "code", "message"}


def test_capture_game_page_has_the_loop_board(site):
    pages = sorted((site / "games" / EVENT).rglob("*.html"))
    assert pages
    page = pages[0].read_text(encoding="utf-8")
    assert "q-loop-inner" in page and "q-loop-outer" in page


# -- the real archive's layout, rebuilt from the corpus -------------------------------

# Where each corpus record lay in the 2018 CCGC archive (corpus/SOURCES.md).
ARCHIVE_FOLDERS = {
    "SU_03_A1vsA2_trailing_spaces.txt": "A1A2",
    "SU_04_red_on_top_times_sign.txt": "A1A4",
    "SU_05_ts12_heifangsheng.txt": "A1A6",
    "SU_06_repetition_tail_comment.txt": "A1A3",
    "SU_07_mixed_eol_missing_colon.txt": "B1/4",
    "SU_08_lowercase_x.txt": "",
    "SU_09_fullwidth_colon_spaced_pipes.txt": "",
    "SU_10_utf8_bom.txt": "B3",
    "SU_11_red_top_red_first_ccgc_place.txt": "B2",
    "SU_12_utf8_lf_no_board_spaced_moves.txt": "",
    "SU_13_bom_11digit_time_fw_colon.txt": "",
    "SU_14_draw_placeholder_filename.txt": "决赛/8.4/A1-C5",
    "SU_15_date_only_red_first.txt": "决赛/8.4/A1-B1",
    "SU_16_truncated_6_moves.txt": "B5",
}


def test_the_real_archive_layout_builds_with_groups_and_a_final(corpus, tmp_path):
    content = tmp_path / "content" / "2018-su"
    for name, folder in ARCHIVE_FOLDERS.items():
        target = content / folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((corpus / "SU" / name).read_bytes())  # copied into a temporary folder only
    result = qipu("build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "site"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    site = tmp_path / "site"
    page = (site / "events" / "2018-su" / "index.html").read_text(encoding="utf-8")
    for heading in ("A 组", "B 组", "决赛"):
        assert heading in page
    assert "总积分表" not in page
    # Every record became a game page; none vanished.
    lines = [json.loads(line) for line in (site / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    shown = {g["source"] for g in lines} | {d for g in lines for d in g["duplicates"]}
    assert shown == {f"2018-su/{folder + '/' if folder else ''}{name}" for name, folder in ARCHIVE_FOLDERS.items()}
    problems = (site / "problems" / "index.html").read_text(encoding="utf-8")
    # The two records with impossible moves are on the problems page with the rule they break.
    assert "SU_11_red_top_red_first_ccgc_place.txt" in problems and "SU_12_utf8_lf_no_board_spaced_moves.txt" in problems
    assert "RULE-E206" in problems and "RULE-E203" in problems


def test_comparison_folds_the_moves_both_copies_agree_on():
    from generator.archive.compare import Row, Same, shown_rows

    rows = tuple(Row(n, f"m{n}", f"m{n}" if n != 30 else "x", n == 30) for n in range(1, 61))
    shown = shown_rows(rows)
    # The first two moves, one line for 3-27, two moves of context on each side of 30,
    # one line for 33-58, the last two moves.
    assert [r.number if isinstance(r, Row) else (r.first, r.last) for r in shown] == [
        1, 2, (3, 27), 28, 29, 30, 31, 32, (33, 58), 59, 60,
    ]  # fmt: skip
    assert [r for r in shown if isinstance(r, Row) and r.differs] == [rows[29]]
    assert not any(isinstance(r, Same) for r in shown_rows(rows[:5]))  # short games are shown whole
    # A single hidden move is shown rather than folded.
    assert all(isinstance(r, Row) for r in shown_rows(rows[24:35]))

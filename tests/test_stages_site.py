"""Groups and stages kept apart on the event page, knockouts drawn as brackets, ties explained (issue 24).

Small Surakarta archives are written here (legal opening moves from the demo's
random player, then the result the test wants, as a resigned game declares
it), built with ``qipu build`` and read as an organiser reads the pages.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from generator.config import load_config

sys.path.insert(0, str(REPO / "benchmarks"))
try:
    import demo_su
finally:
    sys.path.remove(str(REPO / "benchmarks"))

RESULTS = {">": "first", "<": "second", "=": "draw"}
TIEBREAKS = 'tiebreaks = ["head-to-head", "wins", "sonneborn-berger"]'


def write(folder: Path, specs: str, day: int = 22) -> None:
    """Records from "甲>乙 丙<丁 ...", in the order played: a few legal moves, then the declared result."""
    for n, spec in enumerate(specs.split()):
        sign = next(c for c in spec if c in RESULTS)
        first, second = spec.split(sign)
        moves, _ = demo_su.play(random.Random(spec + str(n)), demo_su.BLACK, 6)
        game = demo_su.Game(first, second, demo_su.BLACK, f"2025-11-{day}", f"{9 + n:02d}:00", moves, RESULTS[sign])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / demo_su.file_name(game)).write_text(demo_su.record_text(game, demo_su.WRITERS[0]), encoding="utf-8")


SITE_TOML = f"""
[events.cup.games.SU]
{TIEBREAKS}
overall = ["决赛", "groups"]

[events.league.games.SU]
{TIEBREAKS}

[events.rr.games.SU]
stages = {{ "Final" = "round-robin" }}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("stages")
    content = work / "content"
    # Two groups of three, then semi-finals (A1-B2, B1-A2), a match for third place and a final.
    write(content / "cup" / "A", "甲>乙 乙>丙 甲>丙 乙>甲 丙>乙 丙<甲")
    write(content / "cup" / "B", "子>丑 丑>寅 子>寅 丑<子 丑>寅 寅=子")
    write(content / "cup" / "决赛", "甲>丑 子<乙 丑>子 甲<乙", day=23)
    # No folders: A, B, C on 6 points, C never met A or B (head-to-head skipped).
    write(content / "league", "A>B A>D A>E B>D B>E B>F C>D C>E C>F D>F")
    # A stage the organiser says is a round robin, although its pairings could be a knockout.
    write(content / "rr" / "A", "甲>乙 乙>丙 丙>甲")
    write(content / "rr" / "Final", "甲>乙 丙>丁 甲>丙", day=23)
    (work / "site.toml").write_text(SITE_TOML, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--jobs", "1"], cwd=work, capture_output=True, text=True, encoding="utf-8"
    )
    assert result.returncode == 0, result.stderr
    return work / "site"


def page(site: Path, event: str) -> str:
    return (site / "events" / event / "index.html").read_text(encoding="utf-8")


def cells(html: str) -> list[list[str]]:
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)
    return [[re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)] for r in rows]


def test_groups_then_the_knockout_and_no_table_ranking_everyone(site: Path) -> None:
    html = page(site, "cup")
    assert "总积分表" not in html
    group_a = html.split('id="SU-group-a"')[1].split("</section>")[0]
    standings = cells(group_a.split('class="q-standings"')[1].split("</table>")[0])
    assert [row[:2] for row in standings[1:]] == [["1", "甲"], ["2", "乙"], ["3", "丙"]]
    assert html.index('id="SU-group-a"') < html.index('id="SU-group-b"') < html.index("q-division-knockout")


def test_the_knockout_is_a_bracket_with_each_ties_games_and_winner(site: Path) -> None:
    final = page(site, "cup").split('class="q-division q-division-knockout"')[1].split("</section>")[0]
    assert "q-standings" not in final and "q-cross" not in final
    names = re.findall(r'<h5 class="q-round-name">([^<]+)</h5>', final)
    assert names == ["半决赛", "决赛", "三四名决赛"]
    bouts = re.findall(r'<div class="q-bout">(.*?)<div class="q-bout-games">(.*?)</div>', final, re.S)
    winners = [re.sub(r"<[^>]+>|✓", "", re.search(r'q-bout-won"><span>(.*?)</span>', b).group(1)).strip() for b, _ in bouts]
    assert winners == ["甲", "乙", "乙", "丑"]  # semi-finals, final, third place
    assert all(re.search(r'class="q-score">[10½]:[10½]</a>', games) for _, games in bouts)
    assert "本阶段名次：1 <a" in final and "乙</a> · 2 <a" in final


def test_the_overall_ranking_site_toml_defines(site: Path) -> None:
    overall = page(site, "cup").split('id="SU-overall"')[1].split("</section>")[0]
    assert "名次依次由决赛、再由小组名次决定" in overall
    rows = cells(overall.split("<table")[1].split("</table>")[0])[1:]
    assert rows == [
        ["1", "乙", "决赛"], ["2", "甲", "决赛"], ["3", "丑", "决赛"], ["4", "子", "决赛"],
        ["5 (并列)", "丙", "A 组第 3 名"], ["5 (并列)", "寅", "B 组第 3 名"],
    ]  # fmt: skip
    team = (site / "teams").rglob("*.html")
    pages = {p.read_text(encoding="utf-8").split("<h1>")[1].split("</h1>")[0]: p.read_text(encoding="utf-8") for p in team}
    # The team page gives the overall place, not a rank in a table of everyone's games.
    row = cells(pages["丙"].split('class="q-standings"')[1].split("</table>")[0])[1]
    assert row[2] == "5 (并列)"


def test_head_to_head_skipped_and_shared_places_are_explained_under_the_table(site: Path) -> None:
    html = page(site, "league")
    rows = cells(html.split('class="q-standings"')[1].split("</table>")[0])
    assert [r[:2] + r[7:] for r in rows[1:4]] == [
        ["1", "A", "–", "3", "8"], ["2 (并列)", "B", "–", "3", "2"], ["2 (并列)", "C", "–", "3", "2"],
    ]  # fmt: skip
    notes = html.split('class="q-tie-notes"')[1].split("</div>")[0]
    assert "6 分的A、B、C：直胜不用（A 与 C 未交过手）；胜局相同；按SB 分：A 先于 B、C；仍然同分，B、C并列第 2 名" in notes
    assert "只在同分各队两两都交过手时使用" in html  # the legend says how head-to-head is applied


def test_a_stage_set_as_round_robin_keeps_its_standings(site: Path) -> None:
    html = page(site, "rr")
    stage = html.split('id="SU-stage-final"')[1].split("</section>")[0]
    assert "q-bracket" not in stage and "q-standings" in stage


def test_site_toml_stage_keys_are_checked_and_documented(tmp_path: Path) -> None:
    (tmp_path / "site.toml").write_text(
        '[events.e.games.SU]\nstages = { "决赛" = "knockout", "复赛" = "swiss" }\noverall = "决赛"\n', encoding="utf-8"
    )
    config, problems = load_config(tmp_path / "site.toml", root=tmp_path)
    rules = config.rules_for("e", "SU")
    assert dict(rules.stages) == {"决赛": "knockout"} and rules.overall == ()
    assert [d.code for d in problems] == ["CFG-E003", "CFG-E003"]
    docs = (REPO / "docs" / "site-toml.md").read_text(encoding="utf-8")
    for key in ("`stages`", "`overall`", '`"knockout"`', '`"round-robin"`', '`"groups"`'):
        assert key in docs, key

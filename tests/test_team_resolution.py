"""Teams resolved on archives kept as organisers keep them (issue 24): codes, placeholders, separators.

A small archive is written here with the habits of the real 2018 one: group
pairing folders (``A1A2/``), a record written with the group codes as team
names, a school prefix on one side, the other program's copy naming its
opponent by a default name (苏拉卡尔塔2队), a header whose separator is
``;``. ``qipu check`` must suggest the right aliases, each with its
evidence, and ``--write-aliases`` must add them to site.toml keeping its
comments.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import REPO

from generator import formats
from generator.archive.teams import code_suggestions, placeholder
from generator.check import add_aliases
from generator.formats import Text

sys.path.insert(0, str(REPO / "benchmarks"))
try:
    import demo_su
finally:
    sys.path.remove(str(REPO / "benchmarks"))


@pytest.mark.parametrize("header", [
    "#先手方:一齐天下|后手方;峰回路转|先手胜",
    "#先手方；一齐天下|后手方：峰回路转|先手胜",
    "#先手方一齐天下|后手方峰回路转|先手胜",
])  # fmt: skip
def test_a_header_separator_is_never_part_of_a_name(header: str) -> None:
    lines = ["#2018-08-03-13:23|安徽大学", header, *(["!BBBBBB"] * 2 + ["!000000"] * 2 + ["!RRRRRR"] * 2), "B2C-3C"]
    record = formats.read(Text("SU-x.txt", "\n".join(lines) + "\n", "utf-8"), None)
    assert (record.header.first, record.header.second) == ("一齐天下", "峰回路转")


def test_names_programs_write_by_default_are_placeholders() -> None:
    for name in ("苏拉卡尔塔2队", ";苏拉卡尔塔2队", "苏拉卡尔塔 1 队", "未知队伍", "敌人", "Player 1", "Team2", "五子棋1号"):
        assert placeholder(name), name
    for name in ("北京科技大学-沼泽", "沼泽", "八哥", "北理工1队", "苏拉卡尔塔博弈", "A1", "峰回路转"):
        assert not placeholder(name), name


def test_a_group_code_is_the_team_in_every_pairing_folder_of_it() -> None:
    records = [
        ("A1A2", "A1", "A2"), ("A1A2", "沼泽", "苏拉"), ("A1A3", "贝壳", "沼泽"), ("A1A3/r2", "沼泽", "贝壳"),
        ("A2A3", "苏拉", "贝壳"), ("B1", "A1", "八哥"),  # B1: a round folder, not a pairing
    ]  # fmt: skip
    found = {s.names: s for s in code_suggestions(records)}
    assert set(found) == {("A1", "沼泽"), ("A2", "苏拉")}
    a1 = found[("A1", "沼泽")]
    assert a1.canonical == "沼泽" and dict(a1.args) == {"code": "A1", "folders": "A1A2, A1A3", "team": "沼泽"}
    # One folder of a code says nothing: both its teams play in it.
    assert code_suggestions([("A1A2", "A1", "A2"), ("A1A2", "沼泽", "苏拉")]) == []


def test_aliases_are_added_to_site_toml_keeping_its_comments() -> None:
    text = (
        '# The archive of 2018\ntitle = "x"\n\n[aliases]\n# school names first\n"北京理工大学" = ["北理工"]  # ours\n'
        '"清华大学" = "清华"\n"长名" = [\n  "a",\n]\n\n# how old files are read\n[encodings]\n"old/" = "gbk"\n'
    )
    new, added = add_aliases(text, [("北京理工大学", "BIT"), ("清华大学", "THU"), ("长名", "b"), ("沼泽", "A1"), ("沼泽", "北理工")])
    assert added == [("北京理工大学", "BIT"), ("清华大学", "THU"), ("长名", "b"), ("沼泽", "A1")]  # 北理工 is listed already
    assert "# The archive of 2018" in new and "# school names first" in new and '"北理工", "BIT"]  # ours' in new
    assert new.index('"沼泽" = ["A1"]') < new.index("# how old files are read")
    aliases = tomllib.loads(new)["aliases"]
    assert aliases == {"北京理工大学": ["北理工", "BIT"], "清华大学": ["清华", "THU"], "长名": ["a", "b"], "沼泽": ["A1"]}
    assert add_aliases(new, [("沼泽", "A1")]) == (new, [])
    fresh, _ = add_aliases('title = "y"\n', [("甲", "乙")])
    assert tomllib.loads(fresh) == {"title": "y", "aliases": {"甲": ["乙"]}}


# -- an archive as organisers keep it -------------------------------------------------


def record(first: str, second: str, seed: str, time: str, separator: str = ":") -> bytes:
    moves, _ = demo_su.play(random.Random(seed), demo_su.BLACK, 8)
    game = demo_su.Game(first, second, demo_su.BLACK, "2018-08-03", time, moves, "first")
    text = demo_su.record_text(game, demo_su.WRITERS[0]).replace("后手方:", f"后手方{separator}")
    return text.encode("utf-8")


@pytest.fixture()
def archive(tmp_path: Path) -> Path:
    event = tmp_path / "content" / "2018-su"
    files = {
        "A1A2/SU-A1vsA2-先手胜.txt": record("A1", "A2", "a1a2", "09:00"),
        "A1A2/SU-北京科技大学-沼泽vs苏拉-先手胜.txt": record("北京科技大学-沼泽", "苏拉", "a1a2b", "10:00"),
        "A1A3/SU-沼泽vs贝壳-先手胜.txt": record("沼泽", "贝壳", "a1a3", "11:00", separator=";"),
        "A1A3/SU-贝壳vs沼泽-先手胜.txt": record("贝壳", "沼泽", "a1a3b", "12:00"),
        "A2A3/SU-苏拉vs贝壳-先手胜.txt": record("苏拉", "贝壳", "a2a3", "13:00"),
        "A2A3/SU-贝壳vs苏拉-先手胜.txt": record("贝壳", "苏拉", "a2a3b", "14:00"),
        # The same game saved by 贝壳's program, which names its opponent by its default name.
        "A2A3/SU-贝壳vs苏拉卡尔塔2队-先手胜.txt": record("贝壳", "苏拉卡尔塔2队", "a2a3b", "14:00"),
    }
    for name, data in files.items():
        (event / name).parent.mkdir(parents=True, exist_ok=True)
        (event / name).write_bytes(data)
    (tmp_path / "site.toml").write_text('# Our archive\ntitle = "2018"\n\n[aliases]\n# none yet\n', encoding="utf-8")
    return tmp_path


def check(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", "check", "--format", "json", *args],
        cwd=folder, capture_output=True, text=True, encoding="utf-8",
    )


def notes(result: subprocess.CompletedProcess[str], code: str) -> list[dict]:
    return [d for d in map(json.loads, result.stdout.splitlines()) if d["code"] == code]


def test_check_suggests_the_right_aliases_with_their_evidence(archive: Path) -> None:
    result = check(archive)
    said = [n["message"] for n in notes(result, "ARC-N102")]
    assert said == [
        "A1 plays in every pairing folder named with it (A1A2, A1A3), and 沼泽 is the only team in all of them: "
        '"沼泽" = ["A1"] under [aliases]?',
        "A2 plays in every pairing folder named with it (A1A2, A2A3), and 苏拉 is the only team in all of them: "
        '"苏拉" = ["A2"] under [aliases]?',
        "same name with the prefix '北京科技大学': \"沼泽\" = [\"北京科技大学-沼泽\"] under [aliases]?",
    ]
    # The default name is never merged with the team it stood for, but reported.
    assert not any("苏拉卡尔塔2队" in message for message in said)
    [placeholder_note] = notes(result, "ARC-N103")
    assert placeholder_note["path"] == "2018-su/A2A3/SU-贝壳vs苏拉卡尔塔2队-先手胜.txt"
    assert "'苏拉卡尔塔2队' is a name programs write by default" in placeholder_note["message"]
    # The ";" of a header was read as a separator: no team named ";贝壳" to be suggested as 贝壳.
    assert not any(";贝壳" in message for message in said)


def test_write_aliases_adds_them_and_the_next_check_is_clean(archive: Path) -> None:
    result = check(archive, "--write-aliases")
    assert "3 aliases added" in result.stderr
    text = (archive / "site.toml").read_text(encoding="utf-8")
    assert text.startswith("# Our archive\n") and "# none yet\n" in text
    assert tomllib.loads(text)["aliases"] == {"沼泽": ["A1", "北京科技大学-沼泽"], "苏拉": ["A2"]}
    again = check(archive)
    assert notes(again, "ARC-N102") == [] and len(notes(again, "ARC-N103")) == 1


CORPUS = REPO.parent / "shared" / "corpus" / "SU"


def test_the_real_surakarta_files_get_no_merge_with_a_placeholder(tmp_path: Path) -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not there")
    event = tmp_path / "content" / "2018-su"
    event.mkdir(parents=True)
    for path in sorted(CORPUS.glob("*.txt")):
        (event / path.name).write_bytes(path.read_bytes())  # copied into a temporary folder only
    result = check(tmp_path)
    suggested = notes(result, "ARC-N102")
    for note in suggested:
        line = note["message"].rsplit(": ", 1)[1].removesuffix(" under [aliases]?")
        canonical, spellings = next(iter(tomllib.loads(line).items()))
        assert not placeholder(canonical) and not any(map(placeholder, spellings)), line
    # SU_13's first team is the program's own name: reported, not merged.
    assert any("'苏拉卡尔塔'" in n["message"] for n in notes(result, "ARC-N103"))

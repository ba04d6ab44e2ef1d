"""One scan decides what every file of the content folder is: `qipu build`,
`qipu check` and `qipu serve` agree on a folder holding records beside a
logo, an editor's backup and swap file, a tool's temporary file and a hidden file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import C5_BLACK_FIVE, REPO, c5_record

from generator.serve import is_ignored

RECORDS = ["C5-甲 vs 乙-先手胜-2025.08.02 10.00.txt", "C5-丙 vs 丁-先手胜-2025.08.02 11.00.txt"]
BESIDE = {
    "logo.png": b"\x89PNG\r\n\x1a\n not really a picture",
    "notes.txt~": b"an editor's backup",
    ".C5-甲 vs 乙-先手胜-2025.08.02 10.00.txt.swp": b"vim's swap file",
    "upload.tmp": b"half a file a tool is writing",
    ".hidden": b"a file the organiser hid",
}
NEVER_READ = [name for name in BESIDE if name != "logo.png"]


def _content(root: Path) -> Path:
    cup = root / "content" / "cup"
    cup.mkdir(parents=True)
    other_five = C5_BLACK_FIVE.replace("B(L,8)", "B(G,8)")  # another game: not a copy of the first
    for n, (name, moves) in enumerate(zip(RECORDS, [C5_BLACK_FIVE, other_five])):
        (cup / name).write_text(c5_record(f"甲{n}", f"乙{n}", "先手胜", moves), encoding="utf-8")
    for name, data in BESIDE.items():
        (cup / name).write_bytes(data)
    return root / "content"


def _qipu(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=root, capture_output=True, text=True, timeout=120,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip


def test_build_check_and_serve_agree_on_what_is_a_record(tmp_path: Path) -> None:
    content = _content(tmp_path)
    cup = content / "cup"
    # qipu check: the folder, and every file named on the command line (as a shell's * names them).
    for args in (["check", "--content", str(content)], ["check", "--content", str(content), *map(str, sorted(cup.iterdir()))]):
        checked = _qipu(tmp_path, *args)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "FMT-E001" not in checked.stdout + checked.stderr
    # qipu build: the records are the games; the logo is published as a picture; the rest never.
    built = _qipu(tmp_path, "build", "--content", str(content), "--out", str(tmp_path / "site"))
    assert built.returncode == 0, built.stdout + built.stderr
    lines = (tmp_path / "site" / "data" / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert sorted(json.loads(line)["source"] for line in lines) == [f"cup/{name}" for name in sorted(RECORDS)]
    published = {p.name for p in (tmp_path / "site").rglob("*") if p.is_file()}
    assert set(RECORDS) <= published and "logo.png" in published
    assert not published & set(NEVER_READ)
    assert "FMT-E001" not in (tmp_path / "site" / "problems" / "index.html").read_text(encoding="utf-8")
    # qipu serve: saving a backup, swap, temporary or hidden file does not rebuild; a record or the logo does.
    folders = (tmp_path / "site", tmp_path / ".qipu-cache", content)
    assert all(is_ignored(cup / name, *folders) for name in NEVER_READ)
    assert not any(is_ignored(cup / name, *folders) for name in [*RECORDS, "logo.png"])
    assert is_ignored(content / "_drafts" / RECORDS[0], *folders)  # a folder the scan does not walk
